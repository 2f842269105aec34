"""The catalogue's operations of the conflict queue (docs/model.md, Conflicts; decisions 0058–0060,
0080): conflicts, conflict, resolve_conflict and scan_conflicts.

:mod:`.catalog` puts :data:`OPERATIONS` in ``CATALOG`` after the spine's. All four
are MCP tools of the ``full`` profile; resolving takes memory-as-history's ``adopted_memory_id``
as the kept fact, none meaning both (decision 0080). Stdlib-only at import, as the
catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_LIMIT
from embornal.interfaces.catalog_inputs import (
    FACT_ID,
    LIMIT,
    READ_ERRORS,
    REASON,
    identifier,
    route_id,
    switch,
)
from embornal.interfaces.catalog_types import Http, Input, Operation, part, replace

__all__ = ["OPERATIONS", "PLACE"]

_EXAMPLE = "K3FDA30B5A0A0D19"
_SHOW = "conflicts.commands:"
CONFLICT_ID = route_id(
    "conflict_id",
    f"The conflict's id from conflicts (a unique prefix works), e.g. {_EXAMPLE}.",
    ("conflict_id", "id", "conflict"),
    "the conflict's id, or a unique prefix of it",
)

PLACE = 20
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "conflicts",
    Operation(
        "conflicts",
        "list[ConflictRecord]",
        (
            Input(
                "status",
                "choice",
                "open (default), resolved or all.",
                default="open",
                choices=("open", "resolved", "all"),
                aliases=("status", "state"),
                cli_help="open (default), resolved or all",
            ),
            Input(
                "conflict_class",
                "choice",
                "Only this class: duplicate, contradiction, stale or declared.",
                choices=("duplicate", "contradiction", "stale", "declared"),
                aliases=("conflict_class", "class", "type"),
                flag="--class",
                metavar="CLASS",
                cli_help="duplicate, contradiction, stale or declared",
            ),
            replace(
                FACT_ID,
                required=False,
                description="Only the conflicts of this fact.",
                not_empty=True,
                http="fact_id",
                flag="--fact",
                cli_help="only the conflicts of the fact ID",
            ),
            replace(
                LIMIT,
                description="How many at most (default 20).",
                cli_help=f"at most N conflicts (1-{MAX_LIMIT})",
            ),
        ),
        title="List conflicts",
        cli="conflict list",
        cli_show=_SHOW + "show_conflicts",
        cli_help="list the open conflicts (duplicates, contradictions, stale facts)",
        cli_doc="The conflicts between facts you may read, newest first: duplicates (one\n"
        "person or thing stored twice), contradictions and stale facts. A conflict stays\n"
        "open until someone resolves it (`embornal conflict resolve`).",
        guide="""List the open conflicts of the memory: duplicates (one person, organization
        or thing stored twice), contradictions (two facts that cannot both hold, e.g. two
        preferences of one context with opposite polarity) and stale facts.

        Call it when the user asks what needs sorting out, or before you store a person you
        may already know. Settle one with the user (resolve_conflict), never silently.
        Returns conflicts with their facts side by side and the rules that found them.
        Example: conflicts(conflict_class="duplicate", limit=5)""",
        example='conflicts(conflict_class="duplicate", limit=5)',
        http=Http(
            "GET",
            "/conflicts",
            "listConflicts",
            "The conflicts all of whose facts the subject may read, newest first (open "
            "ones unless `status` says otherwise); a conflict with a fact the subject "
            "may not read is left out.",
            items="conflicts",
            errors=READ_ERRORS,
        ),
    ),
    Operation(
        "conflict",
        "ConflictRecord",
        (CONFLICT_ID,),
        title="Show a conflict",
        cli="conflict show",
        cli_show=_SHOW + "show_conflict",
        cli_help="show a conflict: its facts side by side, its evidence and resolution",
        cli_doc="The conflict ID (or a unique prefix): its class, the rules that found it,\n"
        "each fact with its attributes and confidence, and who resolved it and why.",
        guide="""Show one conflict: its facts side by side with their attributes and
        confidence, what found it, the suggested fact to keep and, once resolved, who
        decided what and why.

        Call it to explain a conflict to the user before they resolve it.
        Example: conflict(conflict_id="K3FDA30B5A0A0D19")""",
        example=f'conflict(conflict_id="{_EXAMPLE}")',
        http=Http(
            "GET",
            "/conflicts/{id}",
            "showConflict",
            "One conflict by id or unique prefix. One with a fact the subject may not "
            "read answers 404, as a missing one.",
        ),
    ),
    Operation(
        "resolve_conflict",
        "ConflictRecord",
        (
            CONFLICT_ID,
            REASON,
            identifier(
                "keep",
                "The version adopted (an id among the conflict's): it is "
                "confirmed; on a detected conflict the other facts are forgotten, on a "
                "declared one they stand. None: both stand.",
                ("adopted_memory_id", "keep", "keep_id", "adopted"),
                "keep this fact (confirmed); forget the others (a declared conflict's stand)",
                metavar="FACT_ID",
                not_empty=True,
            ),
            switch(
                "both",
                "Let every fact stand (not one thing twice, or both true).",
                "let every fact stand",
                aliases=("both",),
                mcp=False,
            ),
            identifier(
                "merge",
                "The fact the others merge into (an id or a unique prefix "
                "among the conflict's): it keeps its id and absorbs their aliases and "
                "evidence; each other fact is forgotten with a supersedes link from it.",
                ("merge", "survivor", "merge_into"),
                "merge the other facts into SURVIVOR (aliases and evidence kept)",
                metavar="SURVIVOR",
                not_empty=True,
                mcp=False,
            ),
        ),
        tool_order=59,
        title="Resolve a conflict",
        destructive=True,
        cli="conflict resolve",
        cli_show=_SHOW + "show_conflict",
        cli_help="resolve a conflict: --keep ID, --merge ID or --both, with --reason",
        cli_doc="Decide the conflict ID, once: --keep FACT_ID confirms that fact and forgets\n"
        "the conflict's other facts (restorable; of a declared conflict they stand);\n"
        "--merge SURVIVOR merges them into it (as `memory merge`); --both (or none of\n"
        "them) lets them all stand. --reason is required and kept in the history. A\n"
        "conflict never resolves itself.",
        guide="""Settle a conflict, once, with a reason that names the evidence:
        adopted_memory_id names the version adopted (it is confirmed); without it both
        stand. On a declared conflict the other version stays; on a detected duplicate or
        contradiction the other facts are forgotten (restorable), so ask the user first.

        Example: resolve_conflict(conflict_id="K3FDA30B5A0A0D19", adopted_memory_id=ID,
        reason="the plan says July")""",
        example=f'resolve_conflict(conflict_id="{_EXAMPLE}", reason="the plan says July")',
        http=Http(
            "POST",
            "/conflicts/{id}/resolve",
            "resolveConflict",
            "One of `keep` (a member's id: confirmed, the other active members "
            "forgotten, but of a declared conflict), `merge` (a member's id: the other "
            "active members merged into it) or `both` (all stand; also when none is "
            "given), with a reason; one transaction. Keep "
            "takes write on the kept fact and delete on the others, merge write and "
            "delete on the survivor and delete on the others, both write on "
            "each. A resolved conflict answers 409.",
        ),
    ),
    Operation(
        "scan_conflicts",
        "list[ConflictRecord]",
        (
            switch(
                "stale",
                "Also open a conflict for each stale fact (default true).",
                "do not look for stale facts",
                default=True,
                aliases=("stale",),
            ),
        ),
        title="Look for conflicts",
        cli="conflict scan",
        cli_show=_SHOW + "show_scanned",
        cli_help="look for duplicates, contradictions and stale facts over the whole memory",
        cli_doc="Compare every person, organization, location, asset and preference with those\n"
        "sharing a name, alias or contact key, every text with its near-duplicates, and\n"
        "list stale facts; open a conflict for each one found before. Nothing is decided.",
        guide="""Look over the whole memory for duplicates (people, organizations and
        things stored twice; near-duplicate texts), contradictions and stale facts, and open
        a conflict for each new one. It decides nothing: conflicts wait for the user.

        Call it when the user asks to tidy up the memory, then list the conflicts.
        Returns the conflicts it opened now.
        Example: scan_conflicts(stale=False)""",
        example="scan_conflicts(stale=False)",
        http=Http(
            "POST",
            "/conflict-scan",
            "scanConflicts",
            "Opens a conflict for each duplicate, contradiction and (unless `stale` is "
            "false) stale fact not opened before; answers those the subject may see.",
            items="conflicts",
            errors=(400, 401, 413, 422, 503),
        ),
    ),
    profile="full",
    tools_from=37,
)
