"""The catalogue of operations: one record per use case, the interfaces made from it.

Each :class:`Operation` names the ``Memory`` method it calls, its inputs (types,
defaults, bounds, the aliases a model may use, descriptions), its output type, its
MCP profile and hints (read-only, destructive, idempotent), its HTTP method and path
(or none), whether it is local-only, and one example call for the model. The MCP
tool list, the REST routes and their OpenAPI document, and the remote client
(:mod:`embornal.interfaces.cli.remote`) are derived from it; a test checks that
every operation appears in each interface it declares, and in the docs.

Stdlib-only at import (plain data): the CLI may import it at no cost. The records
(:class:`Operation`, :class:`Input`, :class:`Http`) are in :mod:`.catalog_types`; the
command line is derived from them too (:mod:`embornal.interfaces.cli.derived`). Each
capability's operations are in its folder's ``catalog`` module, found by
:mod:`.capabilities` (decision 0177); the local-only ones are in :mod:`.catalog_local`,
and the inputs the parts share in :mod:`.catalog_inputs`. Each part is made by
:func:`~.catalog_types.part`, which gives a record what it leaves to be derived (its call,
whether it is read-only, its route's summary, errors and tag).
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_EVIDENCE_ITEMS, MAX_LIMIT, MAX_PATH_LENGTH
from embornal.hints import TYPE_CHECKING
from embornal.interfaces.catalog_inputs import (
    ALL,
    EVIDENCE_CLI,
    EVIDENCE_LENGTH,
    EVIDENCE_TYPES,
    EXAMPLE_ID,
    FACT_ID,
    FACT_ID_PATTERN,
    FACTS_UNDER,
    LIFETIME,
    LIMIT,
    OPTIONAL_REASON,
    QUERY,
    READ_ERRORS,
    REASON,
    RERANK,
    SEARCH_MODE,
    VISIBILITY,
    cli_switch,
    content,
    label,
    limit,
    moment,
    switch,
    topic_path,
    under,
)
from embornal.interfaces.catalog_inputs import (
    ASKED as _ASKED,
)
from embornal.interfaces.catalog_types import (
    Http,
    Input,
    InputType,
    Operation,
    Profile,
    part,
    replace,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from embornal.domain.access.rights import Need

__all__ = [
    "CATALOG",
    "CORE_OPERATIONS",
    "EXAMPLE_ID",
    "LOCAL_PART",
    "Http",
    "Input",
    "InputType",
    "Operation",
    "Profile",
    "by_name",
    "mcp_tools",
    "part_modules",
    "parts",
    "rights",
    "routed",
    "whole",
]

# -- the inputs ------------------------------------------------------------------------------
#
# Those the spine's operations take too are in .catalog_inputs.

_CONTENT = content(
    "One short statement to remember.", "", aliases=("content", "text", "fact", "memory")
)
_TAGS = Input(
    "tags",
    "tags",
    'Optional tags: ["k=v", ...] or {"k": "v"}. The owner tag is set by the memory.',
    aliases=("tags", "tag"),
    flag="--tag",
    metavar="KEY=VALUE",
    cli_help="a tag for the fact (repeatable); the owner tag is written by the memory",
)
_AT = Input(
    "at",
    "time",
    "When the fact was true (imports); default now.",
    mcp=False,
    metavar="TIME",
    cli_help="ISO-8601 time the fact dates from (imports)",
)
_KIND_HELP = "The kind of fact (kinds() lists them with their attributes); default fact."
_KIND = Input(
    "kind",
    "kind",
    _KIND_HELP,
    default="fact",
    aliases=("kind", "type"),
    max_length=64,
    not_empty=True,
    probe=True,
    full_only=True,
    metavar="KIND",
    cli_help="the kind of fact (default: fact)",
)
_ATTRIBUTES = Input(
    "attributes",
    "attributes",
    'The kind\'s attributes as an object, e.g. {"name": "embornal", "status": "active"}.',
    aliases=("attributes", "attrs", "fields"),
    probe=True,
    full_only=True,
    flag="--attr",
    metavar="FIELD=VALUE",
    cli_help="an attribute of the kind (repeatable; `embornal memory kinds` lists the fields)",
)
_STORE_SPINE = (
    Input(
        "confidence",
        "confidence",
        "How sure, 0..1; default: the prior of who states it.",
        aliases=("confidence",),
        probe=True,
        full_only=True,
        low=0,
        high=1,
        metavar="C",
    ),
    VISIBILITY,
    Input(
        "source",
        "source",
        "Your client or session id, for the record: claude-desktop.",
        aliases=("source", "client", "session"),
        max_length=128,
        not_empty=True,
        probe=True,
        full_only=True,
        metavar="S",
        cli_help="a label of who stores it: a client or session id",
    ),
    Input(
        "evidence",
        "evidence_list",
        f"What supports it: TYPE:VALUE list ({EVIDENCE_TYPES}).",
        default=(),
        aliases=("evidence",),
        max_length=EVIDENCE_LENGTH,
        max_items=MAX_EVIDENCE_ITEMS,
        probe=True,
        full_only=True,
        metavar="TYPE:VALUE",
        cli_help=f"{EVIDENCE_CLI} (repeatable)",
    ),
)
#: A path, the root when left out (a listing's).
_PATH_OR_ROOT = topic_path(required=False, default="/", flag="")
_AS_OF = moment(
    "as_of",
    "Answer as the memory was then (read-only): an ISO-8601 time "
    "(UTC unless zoned) or 'yesterday', '3 days ago'.",
    ("at", "as_of"),
    None,
    kind="as_of",
    not_empty=True,
    http="at",
    mcp_name="at",
    probe=True,
    full_only=True,
    flag="--at",
)

_PLAIN = "plain"
_META = "meta"


# -- the operations ---------------------------------------------------------------------------

CORE_OPERATIONS: tuple[Operation, ...] = part(
    "facts",
    Operation(
        "health",
        "Health",
        call=None,
        profile="none",
        http=Http(
            "GET",
            "/health",
            "health",
            "Answers without a token; for probes.",
            summary="Is the server up",
            auth=False,
            tag="server",
        ),
    ),
    Operation(
        "whoami",
        "WhoAmI",
        call=None,
        profile="none",
        http=Http(
            "GET",
            "/whoami",
            "whoami",
            "The subject of the bearer token and the actor kind its writes are recorded with.",
            summary="Who the token stands for",
            errors=(401, 503),
            tag="server",
        ),
    ),
    Operation(
        "store",
        "Fact",
        (
            topic_path(cli_help="topic path such as /projects/embornal"),
            replace(_CONTENT, nargs="?", cli_help="the fact; '-' or none: stdin"),
            _TAGS,
            _AT,
            replace(OPTIONAL_REASON, mcp=False),
            _KIND,
            _ATTRIBUTES,
            *_STORE_SPINE,
            LIFETIME,
        ),
        tool_order=1,
        profile="core",
        title="Store a fact",
        cli="memory store",
        cli_help="store one fact on a path",
        cli_doc="Store one fact on PATH and print its id and path. CONTENT omitted or '-' "
        "reads\nstandard input (UTF-8; trailing line breaks are dropped).",
        brief=(
            "Save one small fact on a topic path as soon as you learn it. Example: "
            'store(path="/projects/x", content="The build uses uv.")'
        ),
        guide="""Save one small fact to long-term memory, on a topic path.

        Call it as soon as you learn something worth keeping: a decision, a preference,
        a name, a command. One statement per call; many small facts beat one long note.
        Check ls/tree first so related facts share a path.
        Returns the stored fact: id, path, content, created_at, tags.
        Example: store(path="/projects/embornal", content="The build uses uv.",
        tags=["status=decided"])""",
        example='store(path="/projects/x", content="The build uses uv.")',
        http=Http(
            "POST",
            "/facts",
            "storeFact",
            "Store one small fact on a topic path. The memory writes the owner (the "
            "token's subject) itself: a body that carries an owner tag is refused (400). "
            "`kind` and `attributes` type it (see `GET /api/v1/kinds`); an unknown kind, "
            "a missing required attribute or a value outside a vocabulary is refused "
            "(400) and nothing is written; so are `visibility`, `source`, `confidence` "
            "and `evidence`.",
            status=201,
            errors=(400, 401, 403, 413, 422, 503),
        ),
    ),
    Operation(
        "ls",
        "list[PathEntry]",
        (_PATH_OR_ROOT, _AS_OF, ALL),
        tool_order=3,
        title="List topics",
        cli="memory ls",
        cli_help="list the paths one level below PATH",
        cli_show="memory_cmds:show_ls",
        cli_args=(cli_switch(_PLAIN, "one path a line, as ls -F"),),
        guide="""List the topics one level below a path, with their fact and sub-topic counts.

        Call it to find where facts live before you cat or store.
        Returns entries: path, facts (on that path), children (topics below it).
        Example: ls(path="/projects")""",
        example='ls(path="/")',
        http=Http(
            "GET",
            "/ls",
            "ls",
            "The paths one level below `path` that hold or lead to facts the subject may read.",
            summary="List one level of the tree",
            items="entries",
            errors=READ_ERRORS,
            tag="paths",
        ),
    ),
    Operation(
        "tree",
        "TreeNode",
        (
            _PATH_OR_ROOT,
            switch(
                "dirs_only",
                "Keep only the paths that hold paths.",
                "only paths that hold paths",
                mcp=False,
            ),
            _AS_OF,
            ALL,
        ),
        tool_order=4,
        title="Topic tree",
        cli="memory tree",
        cli_help="draw the tree of paths below PATH",
        guide="""Show every topic below a path, depth-first, with each topic's own fact count.

        Call it once for an overview of what the memory holds.
        Returns nodes: path, facts.
        Example: tree(path="/")""",
        example='tree(path="/")',
        http=Http(
            "GET",
            "/tree",
            "tree",
            "Every visible path below `path`, with each path's own fact count.",
            summary="The tree below a path",
            tag="paths",
        ),
    ),
    Operation(
        "cat",
        "list[FactView]",
        (
            topic_path(),
            limit(
                f"How many at most (1-{MAX_LIMIT}).",
                f"at most N facts (1-{MAX_LIMIT})",
                aliases=(),
                mcp=False,
            ),
            Input(
                "order_by",
                "choice",
                "date: oldest first; signal: strongest first.",
                default="date",
                choices=("date", "signal"),
                mcp=False,
                cli_help="",
            ),
            switch(
                "recall",
                "Count the read as a recall (reinforces).",
                "count the read as a recall",
                mcp=False,
            ),
            _AS_OF,
        ),
        tool_order=5,
        title="Read a topic",
        cli="memory cat",
        cli_help="print the facts of one path",
        cli_show="memory_cmds:show_cat",
        cli_doc="Print the live facts of PATH, oldest first. Reading them is not a recall\n"
        "unless --recall is given.",
        cli_args=(cli_switch(_META, "add the Owner and Tags columns"),),
        guide="""Read every current fact of one topic path, oldest first.

        Reading with cat does not count as a recall. cat(path="/memory") explains the memory.
        Returns facts: id, path, content, strength, created_at, tags.
        Example: cat(path="/projects/embornal")""",
        example='cat(path="/memory")',
        http=Http(
            "GET",
            "/cat",
            "cat",
            "The live facts of one path, oldest first (`date`) or strongest first "
            "(`signal`). Not a recall unless `recall=true`.",
            summary="Read the facts of one path",
            items="facts",
            errors=READ_ERRORS,
            tag="paths",
        ),
    ),
    Operation(
        "recall",
        "list[RecallHit]",
        (
            replace(
                QUERY,
                required=False,
                description="Words or a question to look for. Leave out to get the strongest "
                "facts.",
            ),
            LIMIT,
            under("Only search below this path, e.g. /projects."),
            replace(
                SEARCH_MODE,
                probe=True,
                cli_help="keyword, vector (by meaning), hybrid (both), or auto: "
                "hybrid when a model is set up, else keyword (default: %(default)s)",
            ),
            switch(
                "reinforce",
                "false: a read-only recall (no strength lift).",
                "do not count as a recall",
                default=True,
                mcp=False,
                probe=True,
            ),
            _AS_OF,
            _ASKED,
            label(
                "frame",
                "Only memories of this frame (a filter label).",
                aliases=("frame",),
                rest=False,
                cli=False,
            ),
            label(
                "scope",
                "The task scope whose canon and narrative to show.",
                aliases=("scope",),
                rest=False,
                cli=False,
                full_only=True,
            ),
            RERANK,
            ALL,
        ),
        tool_order=2,
        profile="core",
        title="Recall facts",
        cli="memory recall",
        extra={"mcp_call": "chronicle.recall"},  # the recall cascade (decision 0096)
        cli_help="find facts by keyword or meaning (no query: the strongest facts)",
        cli_doc="Find facts by keyword, by meaning (with an embedding model) or both, best\n"
        "first. Each hit counts as a recall and makes the fact stronger, unless\n"
        "--no-reinforce. Several QUERY words are joined.",
        cli_run="memory_cmds:recall",
        cli_show="memory_cmds:show_recall",
        cli_args=(
            cli_switch("scores", "add the total score column"),
            cli_switch("explain", "print every part of each score"),
            cli_switch(_PLAIN, "path TAB fact, one hit a line"),
            cli_switch(_META, "add the ID, Owner and Tags columns"),
        ),
        brief=(
            "Call first, and before answering anything that may depend on earlier work: "
            "anchors, canon, then the best memories (limit counts all three), with stale "
            'interpretations, the narrative and open conflicts. Example: recall(query="how '
            'do we deploy")'
        ),
        guide="""Search long-term memory by keywords and by meaning; with no query, get the
        strongest facts.

        Call it first in a session, and before answering anything that may depend on
        earlier work, decisions or preferences; a plain question works as the query.
        Returns the recall cascade: anchors (pinned: always all of them), canon (the
        task's active canon), memories (the best others, in the room limit leaves),
        stale_interpretations, narrative or narrative_review, conflicts (open), and hits
        (the plain ranking, best first: id, path, content, score, strength). Each hit
        counts as a recall and makes that fact stronger.
        Example: recall(query="which build tool did we pick?", under="/projects", limit=5)""",
        example='recall(query="build tool", limit=5)',
        http=Http(
            "GET",
            "/recall",
            "recall",
            "Keyword (BM25 rescaled), vector or hybrid search, + 0.5 x strength; with no "
            "`q`, the strongest facts. Each hit counts as a recall and lifts the fact's "
            "strength unless `reinforce=false`.",
            summary="Find facts by keyword and meaning",
            items="hits",
        ),
    ),
    Operation(
        "tags",
        "EffectiveTags",
        (
            Input(
                "fact_id",
                "id",
                "A fact id or a unique prefix of one (0-9, A-Z).",
                True,
                http="fact",
                mcp=False,
                pattern=FACT_ID_PATTERN,
            ),
        ),
        call="show",
        read_only=False,
        profile="none",
        http=Http(
            "GET",
            "/tags",
            "effectiveTags",
            "The effective tags of a fact, each with the path it is inherited from "
            "(null: the fact's own tag).",
            summary="The tags that decide access to a fact",
        ),
    ),
    Operation(
        "show",
        "FactDetail",
        (FACT_ID, _AS_OF),
        tool_order=8,
        title="Show a fact",
        cli="memory show",
        cli_help="show one fact whole",
        guide="""Show one fact in full: state, owner, strength, recalls, links, tags, events.

        Call it to check where a fact came from or whether it was corrected.
        Example: show(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1")""",
        example=f'show(id="{EXAMPLE_ID}")',
        http=Http(
            "GET",
            "/facts/{id}",
            "showFact",
            "State, strength, effective tags with their sources, links and events. A "
            "fact the subject may not read answers exactly as a missing one: 404.",
            summary="Show one fact whole",
        ),
    ),
    Operation(
        "history",
        "list[Event]",
        (
            Input(
                "target",
                "target",
                "A fact id, or a path starting with / for every fact on that path.",
                True,
                aliases=("id_or_path", "id", "fact_id", "memory_id", "path", "topic"),
                http="id",
                mcp_name="id_or_path",
                metavar="ID|PATH",
                cli_help="",
            ),
        ),
        tool_order=9,
        title="Fact history",
        cli="memory history",
        cli_help="list the events of a fact or a path",
        guide="""List the events of a fact (with its corrections) or of every fact on a path.

        Oldest first; each event has its time, type, actor and reason.
        Example: history(id_or_path="/projects/embornal")""",
        example='history(id_or_path="/projects/x")',
        http=Http(
            "GET",
            "/facts/{id}/history",
            "factHistory",
            "The events of the fact and of the facts that supersede it or that it "
            "supersedes, oldest first.",
            summary="The history of a fact",
            items="events",
            errors=READ_ERRORS,
        ),
        extra={"remote": "a fact's history only: the history of a path is local-only"},
    ),
    Operation(
        "forget",
        "Fact",
        (FACT_ID, REASON),
        tool_order=6,
        profile="core",
        title="Forget a fact",
        destructive=True,
        cli="memory forget",
        cli_help="hide a fact from recall (restorable)",
        cli_show="memory_cmds:show_forgotten",
        brief=(
            "Take a wrong or outdated memory out of recall, with why (restorable; unpin it "
            'first if anchored). Example: forget(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", '
            'reason="outdated")'
        ),
        guide="""Take a wrong or outdated fact out of recall; it stays in the history, restorable.

        Give the fact id (from recall or cat) and why.
        Returns the fact with state "forgotten".
        Example: forget(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="We moved to Poetry.")""",
        example=f'forget(id="{EXAMPLE_ID}", reason="outdated")',
        http=Http(
            "POST",
            "/facts/{id}/forget",
            "forgetFact",
            "Take the fact out of recall, keeping it and the reason in the history; restorable.",
        ),
    ),
    Operation(
        "supersede",
        "Fact",
        (
            FACT_ID,
            replace(_CONTENT, description="The corrected statement."),
            replace(_TAGS, mcp=False, probe=True),
            OPTIONAL_REASON,
            _AT,
            replace(
                _KIND,
                default=None,
                description="Another kind corrects a misclassified fact; default: the old fact's.",
                cli_help="the kind of fact (default: the old fact's)",
            ),
            replace(_ATTRIBUTES, description="The new fact's attributes; default: the old fact's."),
        ),
        tool_order=10,
        title="Correct a fact",
        destructive=True,
        cli="memory supersede",
        cli_help="correct a fact with a new one",
        cli_doc="Write a new fact on the same path that supersedes ID. Without --tag the new\n"
        "fact keeps the tags of the old one, without --kind and --attr its kind and\n"
        "attributes. CONTENT '-' reads standard input.",
        guide="""Correct a fact: store new content that replaces it; the old one stays in history.

        Prefer this over forget + store when a fact changed. Tags, kind and attributes
        carry over unless given.
        Returns the new fact and supersedes_id (the old fact's id).
        Example: supersede(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", content="The build uses Poetry.",
        reason="Migrated in March.")""",
        example=f'supersede(id="{EXAMPLE_ID}", content="The build uses Poetry.")',
        http=Http(
            "POST",
            "/facts/{id}/supersede",
            "supersedeFact",
            "Store a new fact on the same path that points at the old one; the old fact "
            "leaves default recall and stays in the history.",
            status=201,
            probe=True,
        ),
    ),
    Operation(
        "restore",
        "Fact",
        (FACT_ID, REASON),
        tool_order=7,
        profile="core",
        title="Restore a fact",
        cli="memory restore",
        cli_help="bring a forgotten fact back",
        cli_show="memory_cmds:show_restored",
        brief=(
            "Bring a forgotten memory back, with why. Example: "
            'restore(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="still true")'
        ),
        guide="""Bring a forgotten fact back into recall. Give its id and why.

        Returns the fact with state "active".
        Example: restore(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="Forgotten by mistake.")""",
        example=f'restore(id="{EXAMPLE_ID}", reason="forgotten by mistake")',
        http=Http(
            "POST",
            "/facts/{id}/restore",
            "restoreFact",
            "Bring a forgotten fact back into recall.",
            summary="Restore a forgotten fact",
        ),
    ),
    Operation(
        "update",
        "Fact",
        (
            FACT_ID,
            Input(
                "attributes",
                "attributes",
                'The attributes to change, e.g. {"status": "done"}; null removes an optional one.',
                True,
                aliases=("attributes", "attrs", "fields", "changes"),
                flag="--attr",
                metavar="FIELD=VALUE",
                cli_help="a new value; FIELD= (empty) removes an optional "
                "field (repeatable; `embornal memory kinds` lists the fields)",
            ),
            OPTIONAL_REASON,
        ),
        tool_order=11,
        title="Update attributes",
        cli="memory update",
        cli_help="change some attributes of a typed fact",
        cli_show="kinds_cmds:show_updated",
        cli_doc="Change the attributes given with --attr of the active fact ID; FIELD= (empty)\n"
        "removes an optional one. The result is validated against the fact's kind.",
        guide="""Change some attributes of a typed fact (a project's status, a person's roles)
        without rewriting it; the change is kept in the history.

        Call it when one attribute changed; the content stays. kinds() lists each kind's
        attributes and allowed values; null removes an optional attribute.
        Returns the fact with its attributes.
        Example: update(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", attributes={"status": "done"},
        reason="Shipped.")""",
        example=f'update(id="{EXAMPLE_ID}", attributes={{"status": "done"}})',
        http=Http(
            "POST",
            "/facts/{id}/update",
            "updateFact",
            "Change some attributes of an active fact (null removes an optional one); "
            "the result is validated whole against the fact's kind. It takes the rights "
            "a supersede takes (write and delete on the fact).",
            summary="Update a fact's attributes",
        ),
    ),
    Operation(
        "find",
        "list[Fact]",
        (
            Input(
                "kind",
                "kind",
                "The kind to find, e.g. project (kinds() lists them).",
                True,
                aliases=("kind", "type"),
                max_length=64,
                flag="--kind",
                metavar="KIND",
                cli_help="the kind to find",
            ),
            Input(
                "where",
                "where",
                'Attribute conditions, all of which must hold: ["status=active", ...] or '
                '{"status": "active"}.',
                default=(),
                aliases=("where", "attributes", "filter"),
                max_length=MAX_PATH_LENGTH,
                metavar="FIELD=VALUE",
                cli_help="an attribute condition, all must hold (repeatable)",
            ),
            FACTS_UNDER,
            limit(
                f"How many at most (1-{MAX_LIMIT}; default {MAX_LIMIT}).",
                f"at most N facts (1-{MAX_LIMIT}, default all)",
            ),
            _AS_OF,
        ),
        tool_order=12,
        title="Find typed facts",
        cli="memory find",
        cli_help="list the facts of a kind whose attributes match",
        cli_show="kinds_cmds:show_found",
        cli_doc="List the live facts of --kind that match every --where FIELD=VALUE, oldest\n"
        "first: id, path, the kind's required fields and when each was created.",
        guide="""Find the current facts of one kind whose attributes match, oldest first.

        Call it for questions such as "which projects are active?" or "who is on the
        team?"; use recall for free text. kinds() lists the kinds and their attributes.
        Returns facts: id, path, content, kind, attributes, created_at, tags.
        Example: find(kind="project", where=["status=active"], under="/projects")""",
        example='find(kind="project", where=["status=active"])',
        http=Http(
            "GET",
            "/find",
            "findFacts",
            "The live facts of `kind` the subject may read whose attributes equal every "
            "`where=field=value` (repeatable), oldest first.",
            summary="Find facts by kind and attributes",
            items="facts",
            errors=READ_ERRORS,
        ),
    ),
    Operation(
        "kinds",
        "list[dict]",
        tool_order=13,
        title="List the kinds",
        cli="memory kinds",
        cli_help="print the schema of every kind (fields, types, vocabularies)",
        cli_run="kinds_cmds:kinds",
        cli_args=(
            Input(
                "kind",
                "kind",
                "only this kind",
                flag="",
                nargs="?",
                metavar="KIND",
                mcp=False,
                rest=False,
            ),
        ),
        guide="""List every kind of fact with its attributes: type, required or not, allowed
        values.

        Call it before storing a typed fact or calling find or update, to get the field
        names and vocabularies right.
        Returns kinds: kind, summary, fields (name, type, required, values), required.
        Example: kinds()""",
        example="kinds()",
        http=Http(
            "GET",
            "/kinds",
            "kinds",
            "Each kind with its schema version, summary, fields (type, required, "
            "vocabulary values, bounds), required fields and cross-field rules.",
            summary="Every kind's schema",
            items="kinds",
            errors=(401, 503),
        ),
    ),
    profile="full",
)

#: The catalogue's other parts come after :data:`CORE_OPERATIONS`: the ``OPERATIONS`` of
#: each capability folder's ``catalog`` module and of :mod:`.catalog_local`, in the order
#: of their ``PLACE`` (:func:`parts`). They are imported when the whole catalogue is first
#: asked for (``CATALOG``, or an operation not among the core ones), so a short command
#: (``memory recall``, ``cat``) reads only this module (decisions 0092, 0177).
LOCAL_PART = "embornal.interfaces.catalog_local"
"""The catalogue's part that is no capability's: the local-only operations."""


_CORE_BY_NAME = {op.name: op for op in CORE_OPERATIONS}
_ALL: list[tuple[Operation, ...]] = []  # the whole catalogue, once its parts are read
_BY_NAME: dict[str, Operation] = {}

if TYPE_CHECKING:
    CATALOG: tuple[Operation, ...]
    """Every operation: :data:`CORE_OPERATIONS`, then each of :func:`parts`."""


def part_modules() -> tuple[str, ...]:
    """The names of the catalogue's part modules, found without importing them: each
    capability folder's ``catalog`` (:mod:`.capabilities`) and :data:`LOCAL_PART`."""
    from embornal.interfaces.capabilities import having

    return (*(f"embornal.interfaces.{name}.catalog" for name in having("catalog")), LOCAL_PART)


def parts() -> tuple[tuple[Operation, ...], ...]:
    """The ``OPERATIONS`` of each of :func:`part_modules`, imported, in the order of
    their ``PLACE`` (two parts with one place: a mistake, refused)."""
    import importlib

    modules = sorted((importlib.import_module(m) for m in part_modules()), key=lambda m: m.PLACE)
    places = [m.PLACE for m in modules]
    if len(set(places)) != len(places):
        raise ValueError(f"two catalogue parts share a PLACE: {places}")
    return tuple(m.OPERATIONS for m in modules)


def whole() -> tuple[Operation, ...]:
    """Every operation of the catalogue, its parts imported the first time."""
    if not _ALL:
        ops = list(CORE_OPERATIONS)
        for part in parts():
            ops.extend(part)
        _BY_NAME.update((op.name, op) for op in ops)
        _ALL.append(tuple(ops))
    return _ALL[0]


def rights() -> Mapping[str, tuple[Need, ...]]:
    """Every operation's rights, in the catalogue's order (decision 0179)."""
    from embornal.service.memory import declared_rights
    from embornal.service.rights import table

    return table(((op.name, op.call) for op in whole()), declared_rights)


def __getattr__(name: str) -> object:
    if name == "CATALOG":
        return whole()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def by_name(name: str) -> Operation:
    found = _CORE_BY_NAME.get(name)
    if found is not None:
        return found
    whole()
    return _BY_NAME[name]


def mcp_tools(profile: str) -> tuple[Operation, ...]:
    """The operations an MCP server of ``profile`` offers (``full`` includes ``core``)."""
    wanted = {"core": ("core",), "full": ("core", "full")}[profile]
    return tuple(
        sorted((op for op in whole() if op.profile in wanted), key=lambda o: o.tool_order or 0)
    )


def routed() -> tuple[Operation, ...]:
    """The operations of the REST API, in the order of its document."""
    return tuple(op for op in whole() if op.http is not None)
