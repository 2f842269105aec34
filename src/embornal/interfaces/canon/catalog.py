"""The catalogue's operations of canon, frames and declared conflicts (docs/model.md, Canon
and scopes, Frames; decisions 0078–0080): canonize, decanonize, end_scope, list_canon,
active_scopes, set_frame, list_frames, mark_conflict and list_conflicts, each a dotted call
on ``Memory.chronicle``.

:mod:`.catalog` puts :data:`OPERATIONS` in ``CATALOG``. The tools are in the MCP
``full`` profile, under memory-as-history's names. Stdlib-only at import, as the catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_LIMIT
from embornal.interfaces.catalog_inputs import (
    EXAMPLE_ID,
    FACT_ID,
    LIMIT,
    REASON,
    identifier,
    label,
)
from embornal.interfaces.catalog_types import Http, Input, Operation, part, replace

__all__ = ["OPERATIONS", "PLACE"]

_SHOW = "canon.commands:"
_FRAMES_NOTE = "Frames are filters, not access boundaries: a frame never hides a memory."

_SCOPE = label(
    "scope",
    "The task scope: a short label such as 'release-2.0'.",
    required=True,
    aliases=("scope", "canon_scope", "task"),
    metavar="SCOPE",
    cli_help="the task scope (a label)",
)
_SOME_SCOPE = replace(
    _SCOPE,
    required=False,
    description="Only this scope (default: every scope).",
    not_empty=True,
    flag="--scope",
    cli_help="only this scope",
)
_FRAME = label(
    "frame",
    "The frame: whose account it is, e.g. 'team-a' (a filter label).",
    required=True,
    aliases=("frame", "label", "social_frame"),
    metavar="FRAME",
    cli_help="the frame (a label to filter by)",
)
_MEMORY = replace(FACT_ID, aliases=("memory_id", "id", "fact_id"))

PLACE = 80
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "history",
    Operation(
        "canonize",
        "CanonEntry",
        (_MEMORY, _SCOPE, REASON),
        title="Put a memory in the active canon",
        cli="canon add",
        cli_show=_SHOW + "show_entry",
        cli_help="put a consolidated memory in a task scope's active canon",
        cli_doc="Put the memory ID in the active canon of SCOPE: the small set a task is\n"
        "about, ranked after the anchors. Only a consolidated, live memory enters (promote\n"
        "it first); a sensitive one only with independent corroboration. The memory itself\n"
        "is untouched. --reason is required.",
        guide="""Put a consolidated memory in the active canon of a task scope: the small
        set recall ranks right after the anchors while the task lasts. The memory itself
        is untouched; end_scope takes the scope's entries out when the task is over.

        Call it when a memory matters for the current task (not for identity: pin that).
        Promote it first; a sensitive memory needs independent corroboration first.
        Example: canonize(memory_id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", scope="release-2.0",
        reason="the release plan")""",
        example=f'canonize(memory_id="{EXAMPLE_ID}", scope="release-2.0", reason="the plan")',
        http=Http(
            "POST",
            "/canon",
            "canonize",
            "The memory enters the scope's active canon (recorded with the reason). "
            "Working material, a forgotten memory, a sensitive one without "
            "corroboration or a second entry in one scope answer 409.",
        ),
    ),
    Operation(
        "decanonize",
        "CanonRemoval",
        (_MEMORY, REASON, _SOME_SCOPE),
        title="Take a memory out of the canon",
        cli="canon remove",
        cli_show=_SHOW + "show_removal",
        cli_help="take a memory out of the active canon (one scope, or every one)",
        cli_doc="Take the memory ID out of the active canon of --scope (default: of every\n"
        "scope it is in). The memory itself is untouched. --reason is required.",
        guide="""Take a memory out of the active canon of one scope (or, without scope, of
        every scope). The memory itself is untouched: it stays as it was, and forget
        takes it only once it is out of the canon.

        Example: decanonize(memory_id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="not this task")""",
        example=f'decanonize(memory_id="{EXAMPLE_ID}", reason="not this task")',
        http=Http(
            "POST",
            "/canon/remove",
            "decanonize",
            "The memory leaves the active canon of `scope` (none: every scope); one "
            "not in it answers 409.",
        ),
    ),
    Operation(
        "end_scope",
        "CanonRemoval",
        (_SCOPE, REASON),
        title="End a task scope",
        cli="canon end",
        cli_show=_SHOW + "show_removal",
        cli_help="end a task scope: every memory in it leaves the active canon",
        cli_doc="End SCOPE: every memory you may read in its active canon leaves it, in one\n"
        "decision recorded in each memory's history. The memories are untouched.",
        guide="""End a task scope when the task or phase is over: all its entries leave
        the active canon in one step, back to ordinary memory (not forgotten).

        Example: end_scope(scope="release-2.0", reason="released")""",
        example='end_scope(scope="release-2.0", reason="released")',
        http=Http(
            "POST",
            "/canon/end",
            "endScope",
            "Every membership of the scope the subject may read ends, in one "
            "transaction; a scope with none answers 404.",
        ),
    ),
    Operation(
        "list_canon",
        "list[CanonEntry]",
        (_SOME_SCOPE,),
        title="List the active canon",
        cli="canon list",
        cli_show=_SHOW + "show_entries",
        cli_help="list the active canon (of one scope), oldest entry first",
        cli_doc="The memories in the active canon, each with its scope, reason and since;\n"
        "a sensitive entry without corroboration is listed, not eligible for recall.",
        guide="""List the active canon (of one scope): each memory with its scope, why it
        entered and since when. An entry with eligible_for_recall false is a sensitive
        memory without corroboration: inspect it, do not rely on it.

        Example: list_canon(scope="release-2.0")""",
        example='list_canon(scope="release-2.0")',
        http=Http(
            "GET",
            "/canon",
            "listCanon",
            "The active memberships of memories the subject may read, oldest first.",
            items="entries",
        ),
    ),
    Operation(
        "active_scopes",
        "list[ScopeInUse]",
        (),
        title="List the active scopes",
        cli="canon scopes",
        cli_show=_SHOW + "show_scopes",
        cli_help="list the task scopes with an active canon, and their sizes",
        guide="""List the task scopes that have an active canon, with how many entries
        each has.

        Example: active_scopes()""",
        example="active_scopes()",
        http=Http(
            "GET",
            "/canon/scopes",
            "activeScopes",
            "The canon scopes with memberships of memories the subject may read.",
            items="scopes",
        ),
    ),
    Operation(
        "set_frame",
        "MemoryStatus",
        (_MEMORY, _FRAME, REASON),
        title="Set a memory's frame",
        cli="memory frame",
        cli_show="history.commands:show_status",
        cli_help="set (or change) a memory's frame, with a reason",
        cli_doc="File the memory ID under FRAME (whose account it is). " + _FRAMES_NOTE,
        guide="""Set (or change) whose account a memory is: its frame, e.g. "team-a" or
        "user". Re-framing is recorded with the reason. Frames are filters, not access
        boundaries.

        Example: set_frame(memory_id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", frame="team-a",
        reason="said in team A's meeting")""",
        example=f'set_frame(memory_id="{EXAMPLE_ID}", frame="team-a", reason="their meeting")',
        http=Http(
            "POST",
            "/frames",
            "setFrame",
            "The memory is filed under the frame (recorded with the reason). " + _FRAMES_NOTE,
        ),
    ),
    Operation(
        "list_frames",
        "list[FrameInUse]",
        (),
        title="List the frames in use",
        cli="memory frames",
        cli_show=_SHOW + "show_frames",
        cli_help="list the frames in use, with how many memories each",
        guide="""List the frames in use, with how many live memories each has.
        Example: list_frames()""",
        example="list_frames()",
        http=Http(
            "GET",
            "/frames",
            "listFrames",
            "The frames of live memories the subject may read, with counts.",
            items="frames",
        ),
    ),
    Operation(
        "mark_conflict",
        "ConflictRecord",
        (
            identifier(
                "a",
                "One version: a live memory's id.",
                ("a", "memory_id_a", "first"),
                "one version (a memory id)",
                kind="id",
                metavar="A",
                required=True,
            ),
            identifier(
                "b",
                "The version it conflicts with: another live memory's id.",
                ("b", "memory_id_b", "second"),
                "the other version",
                kind="id",
                metavar="B",
                required=True,
            ),
            REASON,
        ),
        title="Declare a conflict",
        cli="conflict mark",
        cli_show="conflicts.commands:show_conflict",
        cli_help="declare two live memories conflicting versions (neither is changed)",
        cli_doc="Open a declared conflict of A and B in the conflict queue: two versions\n"
        "that disagree (two accounts of one deadline). Neither memory is changed or\n"
        "deleted; the same pair open twice is the one conflict.",
        guide="""Declare two live memories conflicting versions of one thing (two
        accounts of a deadline). Neither is deleted; the conflict waits in the queue
        until resolve_conflict settles it.

        Example: mark_conflict(a=ID_A, b=ID_B, reason="two dates for the launch")""",
        example=f'mark_conflict(a="{EXAMPLE_ID}", b="01KCZ8Q3W5R7T9V1X3Z5B7D9F2", '
        'reason="two dates")',
        http=Http(
            "POST",
            "/conflicts",
            "markConflict",
            "A declared conflict of two live memories (a forgotten one answers 409); "
            "the pair's open one is answered as it is.",
            tag="conflicts",
        ),
    ),
    Operation(
        "list_conflicts",
        "list[ConflictRecord]",
        (
            Input(
                "resolved",
                "bool",
                "true: only resolved; false: only open; absent: all.",
                aliases=("resolved",),
                cli=False,
            ),
            replace(
                LIMIT,
                description="How many at most (default 20).",
                cli_help=f"at most N, 1-{MAX_LIMIT}",
            ),
        ),
        title="List conflicts, open or resolved",
        read_only=True,
        guide="""List the conflict queue: declared conflicts and detected duplicates,
        contradictions and stale facts, newest first (resolved=false: open only).

        Example: list_conflicts(resolved=False)""",
        example="list_conflicts(resolved=False)",
    ),
    facade="chronicle",
    profile="full",
    tools_from=50,
)
