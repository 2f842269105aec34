"""The catalogue of operations: one record per use case, the interfaces made from it.

Each :class:`Operation` names the ``Memory`` method it calls, its inputs (types,
defaults, bounds, the aliases a model may use, descriptions), its output type, its
MCP profile and hints (read-only, destructive, idempotent), its HTTP method and path
(or none), whether it is local-only, and one example call for the model. The MCP
tool list, the REST routes and their OpenAPI document, and the remote client
(:mod:`embornal.interfaces.cli.remote`) are derived from it; a test checks that
every operation appears in each interface it declares, and in the docs.

Stdlib-only at import (plain data): the CLI may import it at no cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from embornal.domain.bounds import MAX_LIMIT
from embornal.domain.facts import MAX_CONTENT_BYTES, MAX_REASON_LENGTH
from embornal.domain.paths import MAX_PATH_LENGTH

__all__ = [
    "CATALOG",
    "EXAMPLE_ID",
    "Http",
    "Input",
    "InputType",
    "Operation",
    "Profile",
    "by_name",
    "mcp_tools",
    "routed",
]

EXAMPLE_ID = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"

Profile = Literal["core", "full", "none"]
InputType = Literal[
    "path",
    "text",
    "tags",
    "time",
    "reason",
    "id",
    "target",
    "int",
    "bool",
    "choice",
    "kind",
    "attributes",
    "where",
    "evidence",
    "as_of",
]
Where = Literal["query", "body", "path"]


@dataclass(frozen=True)
class Input:
    """One input of an operation: the keyword argument ``name`` of the ``Memory`` method.

    ``aliases`` are the names a model may use over MCP (the first is the one its schema
    shows); ``http`` is the REST name when it differs (``q``); ``mcp``/``rest`` say
    which interfaces take it at all. ``probe``: a later addition to the REST API, which
    the remote client checks the server's document for before it sends a non-default.
    """

    name: str
    type: InputType
    description: str
    required: bool = False
    default: object = None
    aliases: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    max_length: int | None = None
    choices: tuple[str, ...] = ()
    http: str | None = None
    mcp: bool = True
    rest: bool = True
    mcp_name: str | None = None
    mcp_default: object = None
    probe: bool = False
    full_only: bool = False
    """An MCP argument of the ``full`` profile only (the core tool list stays small)."""
    flag: str | None = None  # the CLI flag when it is not --name (as_of: --at)
    metavar: str | None = None  # the CLI's name for the value in help (TIME)

    @property
    def wire_name(self) -> str:
        return self.http or self.name

    @property
    def tool_param(self) -> str:
        return self.mcp_name or self.name


@dataclass(frozen=True)
class Http:
    """Where an operation lives in the REST API (under ``/api/v1``)."""

    method: Literal["GET", "POST"]
    path: str
    operation_id: str
    summary: str
    description: str
    status: int = 200
    errors: tuple[int, ...] = ()
    auth: bool = True
    tag: str = "facts"
    probe: bool = False  # a later route: the client checks the server offers it
    items: str | None = None
    """For a list result: the key of the answer's object that holds the list."""

    @property
    def path_params(self) -> tuple[str, ...]:
        return tuple(p[1:-1] for p in self.path.split("/") if p.startswith("{"))

    def where(self, item: Input) -> Where:
        if item.wire_name in self.path_params:
            return "path"
        return "query" if self.method == "GET" else "body"


@dataclass(frozen=True)
class Operation:
    name: str
    call: str | None
    """The ``Memory`` method it calls (None: the server itself, e.g. health)."""
    output: str
    """The result type, as the ``Memory`` method's annotation names it."""
    inputs: tuple[Input, ...] = ()
    profile: Profile = "none"
    title: str = ""
    guide: str = ""
    """The MCP tool description, written for the model."""
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    http: Http | None = None
    local_only: bool = False
    example: str = ""
    cli: str | None = None
    """The CLI command (``memory store``), or None."""
    tool_order: int = 0
    """Where the tool comes in the MCP tool list."""
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    def input(self, name: str) -> Input:
        (found,) = [i for i in self.inputs if i.name == name]
        return found


# -- the inputs ------------------------------------------------------------------------------

_PATH = "A topic path such as /projects/embornal (lowercase)."
_ID = "The fact id from recall or cat (a unique prefix works)."
_WHY = "Why; kept in the history."
_READ = (400, 401, 404, 422, 503)
_WRITE = (400, 401, 403, 404, 409, 413, 422, 503)


def _path(required: bool = True, default: object = None, **kw: object) -> Input:
    return Input(
        "path", "path", _PATH, required, default, ("path", "topic"),
        max_length=MAX_PATH_LENGTH, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


_CONTENT = Input(
    "content", "text", "One short statement to remember.", True, None,
    ("content", "text", "fact", "memory"), max_length=MAX_CONTENT_BYTES,
)  # fmt: skip
_TAGS = Input(
    "tags", "tags",
    'Optional tags: ["k=v", ...] or {"k": "v"}. The owner tag is set by the memory.',
    aliases=("tags", "tag"),
)  # fmt: skip
_AT = Input("at", "time", "When the fact was true (imports); default now.", mcp=False)
_FACT_ID = Input("fact_id", "id", _ID, True, aliases=("id", "fact_id", "memory_id"), http="id")
_REASON = Input("reason", "reason", _WHY, True, aliases=("reason",), max_length=MAX_REASON_LENGTH)
_OPTIONAL_REASON = Input(
    "reason", "reason", _WHY, aliases=("reason",), max_length=MAX_REASON_LENGTH, probe=True
)
_KIND_HELP = "The kind of fact (kinds() lists them with their attributes); default fact."
_KIND = Input(
    "kind", "kind", _KIND_HELP, default="fact", aliases=("kind", "type"), probe=True,
    full_only=True,
)  # fmt: skip
_ATTRIBUTES = Input(
    "attributes", "attributes",
    'The kind\'s attributes as an object, e.g. {"name": "embornal", "status": "active"}.',
    aliases=("attributes", "attrs", "fields"), probe=True, full_only=True,
)  # fmt: skip
_EVIDENCE_TYPES = "quote, uri, conversation, document or observation"
_EVIDENCE = Input(
    "evidence", "evidence",
    f"What supports it, as TYPE:VALUE; TYPE is {_EVIDENCE_TYPES}, e.g. "
    '"uri:https://example.org/notes" or "quote:We picked uv.".',
    aliases=("evidence", "source"),
)  # fmt: skip
_AS_OF = Input("as_of", "as_of", "Answer as the memory was then (read-only): an ISO-8601 time "
               "(UTC unless zoned) or 'yesterday', '3 days ago'.", aliases=("at", "as_of"),
               max_length=64, http="at", mcp_name="at", probe=True, full_only=True, flag="--at",
               metavar="TIME")  # fmt: skip
_LIMIT = Input(
    "limit", "int", "How many hits at most (default 10).",
    aliases=("limit", "top_k", "max_results"), low=1, high=MAX_LIMIT,
)  # fmt: skip


# -- the operations ---------------------------------------------------------------------------

CATALOG: tuple[Operation, ...] = (
    Operation(
        "health", None, "Health",
        http=Http("GET", "/health", "health", "Is the server up",
                  "Answers without a token; for probes.", auth=False, tag="server"),
    ),
    Operation(
        "whoami", None, "WhoAmI",
        http=Http("GET", "/whoami", "whoami", "Who the token stands for",
                  "The subject of the bearer token and the actor kind its writes are "
                  "recorded with.", errors=(401, 503), tag="server"),
    ),
    Operation(
        "store", "store", "Fact",
        (_path(), _CONTENT, _TAGS, _AT, replace(_OPTIONAL_REASON, mcp=False), _KIND,
         _ATTRIBUTES),
        tool_order=1, profile="core", title="Store a fact", cli="memory store",
        guide="""Save one small fact to long-term memory, on a topic path.

        Call it as soon as you learn something worth keeping: a decision, a preference,
        a name, a command. One statement per call; many small facts beat one long note.
        Check ls/tree first so related facts share a path.
        Returns the stored fact: id, path, content, created_at, tags.
        Example: store(path="/projects/embornal", content="The build uses uv.",
        tags=["status=decided"])""",
        example='store(path="/projects/x", content="The build uses uv.")',
        http=Http("POST", "/facts", "storeFact", "Store a fact",
                  "Store one small fact on a topic path. The memory writes the owner (the "
                  "token's subject) itself: a body that carries an owner tag is refused (400). "
                  "`kind` and `attributes` type it (see `GET /api/v1/kinds`); an unknown kind, "
                  "a missing required attribute or a value outside a vocabulary is refused "
                  "(400) and nothing is written.",
                  status=201, errors=(400, 401, 403, 413, 422, 503)),
    ),
    Operation(
        "ls", "ls", "list[PathEntry]", (_path(False, "/"), _AS_OF),
        tool_order=3, profile="core", title="List topics", read_only=True, cli="memory ls",
        guide="""List the topics one level below a path, with their fact and sub-topic counts.

        Call it to find where facts live before you cat or store.
        Returns entries: path, facts (on that path), children (topics below it).
        Example: ls(path="/projects")""",
        example='ls(path="/")',
        http=Http("GET", "/ls", "ls", "List one level of the tree",
                  "The paths one level below `path` that hold or lead to facts the subject "
                  "may read.", items="entries", errors=_READ, tag="paths"),
    ),
    Operation(
        "tree", "tree", "TreeNode",
        (_path(False, "/"),
         Input("dirs_only", "bool", "Keep only the paths that hold paths.", default=False,
               mcp=False), _AS_OF),
        tool_order=4, profile="core", title="Topic tree", read_only=True, cli="memory tree",
        guide="""Show every topic below a path, depth-first, with each topic's own fact count.

        Call it once for an overview of what the memory holds.
        Returns nodes: path, facts.
        Example: tree(path="/")""",
        example='tree(path="/")',
        http=Http("GET", "/tree", "tree", "The tree below a path",
                  "Every visible path below `path`, with each path's own fact count.",
                  errors=_READ, tag="paths"),
    ),
    Operation(
        "cat", "cat", "list[FactView]",
        (_path(),
         Input("limit", "int", f"How many at most (1-{MAX_LIMIT}).", low=1, high=MAX_LIMIT,
               mcp=False),
         Input("order_by", "choice", "date: oldest first; signal: strongest first.",
               default="date", choices=("date", "signal"), mcp=False),
         Input("recall", "bool", "Count the read as a recall (reinforces).", default=False,
               mcp=False), _AS_OF),
        tool_order=5, profile="core", title="Read a topic", read_only=True, cli="memory cat",
        guide="""Read every current fact of one topic path, oldest first.

        Reading with cat does not count as a recall. cat(path="/memory") explains the memory.
        Returns facts: id, path, content, strength, created_at, tags.
        Example: cat(path="/projects/embornal")""",
        example='cat(path="/memory")',
        http=Http("GET", "/cat", "cat", "Read the facts of one path",
                  "The live facts of one path, oldest first (`date`) or strongest first "
                  "(`signal`). Not a recall unless `recall=true`.", items="facts",
                  errors=_READ, tag="paths"),
    ),
    Operation(
        "recall", "recall", "list[RecallHit]",
        (Input("query", "text",
               "Words or a question to look for. Leave out to get the strongest facts.",
               aliases=("query", "q", "search", "text"), http="q"),
         _LIMIT,
         Input("under", "path", "Only search below this path, e.g. /projects.",
               aliases=("under", "path", "topic"), max_length=MAX_PATH_LENGTH),
         Input("mode", "choice",
               "auto (default: meaning and keywords when a model is set up, else keywords), "
               "keyword, vector (meaning only) or hybrid.", default="auto",
               choices=("auto", "keyword", "vector", "hybrid"), aliases=("mode", "search_mode"),
               probe=True),
         Input("reinforce", "bool", "false: a read-only recall (no strength lift).",
               default=True, mcp=False, probe=True), _AS_OF),
        tool_order=2, profile="core", title="Recall facts", read_only=True, cli="memory recall",
        guide="""Search long-term memory by keywords and by meaning; with no query, get the
        strongest facts.

        Call it before answering anything that may depend on earlier work, decisions or
        preferences; a plain question works as the query. Each hit counts as a recall and
        makes that fact stronger.
        Returns hits, best first: id, path, content, score, strength, created_at, tags.
        Example: recall(query="which build tool did we pick?", under="/projects", limit=5)""",
        example='recall(query="build tool", limit=5)',
        http=Http("GET", "/recall", "recall", "Find facts by keyword and meaning",
                  "Keyword (BM25 rescaled), vector or hybrid search, + 0.5 x strength; with no "
                  "`q`, the strongest facts. Each hit counts as a recall and lifts the fact's "
                  "strength unless `reinforce=false`.", items="hits", errors=(400, 401, 422, 503)),
    ),
    Operation(
        "tags", "show", "EffectiveTags",
        (Input("fact_id", "id", "A fact id or a unique prefix of one (0-9, A-Z).", True,
               http="fact", mcp=False),),
        http=Http("GET", "/tags", "effectiveTags", "The tags that decide access to a fact",
                  "The effective tags of a fact, each with the path it is inherited from "
                  "(null: the fact's own tag).", errors=_READ),
    ),
    Operation(
        "show", "show", "FactDetail", (_FACT_ID, _AS_OF),
        tool_order=8, profile="full", title="Show a fact", read_only=True, cli="memory show",
        guide="""Show one fact in full: state, owner, strength, recalls, links, tags, events.

        Call it to check where a fact came from or whether it was corrected.
        Example: show(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1")""",
        example=f'show(id="{EXAMPLE_ID}")',
        http=Http("GET", "/facts/{id}", "showFact", "Show one fact whole",
                  "State, strength, effective tags with their sources, links and events. A "
                  "fact the subject may not read answers exactly as a missing one: 404.",
                  errors=_READ),
    ),
    Operation(
        "history", "history", "list[Event]",
        (Input("target", "target",
               "A fact id, or a path starting with / for every fact on that path.", True,
               aliases=("id_or_path", "id", "fact_id", "memory_id", "path", "topic"),
               http="id", mcp_name="id_or_path"),),
        tool_order=9, profile="full", title="Fact history", read_only=True, cli="memory history",
        guide="""List the events of a fact (with its corrections) or of every fact on a path.

        Oldest first; each event has its time, type, actor and reason.
        Example: history(id_or_path="/projects/embornal")""",
        example='history(id_or_path="/projects/x")',
        http=Http("GET", "/facts/{id}/history", "factHistory", "The history of a fact",
                  "The events of the fact and of the facts that supersede it or that it "
                  "supersedes, oldest first.", items="events", errors=_READ),
        extra={"remote": "a fact's history only: the history of a path is local-only"},
    ),
    Operation(
        "forget", "forget", "Fact", (_FACT_ID, _REASON),
        tool_order=6, profile="core", title="Forget a fact", destructive=True, cli="memory forget",
        guide="""Take a wrong or outdated fact out of recall; it stays in the history, restorable.

        Give the fact id (from recall or cat) and why.
        Returns the fact with state "forgotten".
        Example: forget(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="We moved to Poetry.")""",
        example=f'forget(id="{EXAMPLE_ID}", reason="outdated")',
        http=Http("POST", "/facts/{id}/forget", "forgetFact", "Forget a fact",
                  "Take the fact out of recall, keeping it and the reason in the history; "
                  "restorable.", errors=_WRITE),
    ),
    Operation(
        "supersede", "supersede", "Fact",
        (_FACT_ID, replace(_CONTENT, description="The corrected statement."),
         replace(_TAGS, mcp=False, probe=True), _OPTIONAL_REASON, _AT,
         replace(_KIND, default=None,
                 description="Another kind corrects a misclassified fact; default: the old "
                 "fact's."),
         replace(_ATTRIBUTES, description="The new fact's attributes; default: the old "
                 "fact's.")),
        tool_order=10, profile="full", title="Correct a fact", destructive=True,
        cli="memory supersede",
        guide="""Correct a fact: store new content that replaces it; the old one stays in history.

        Prefer this over forget + store when a fact changed. Tags, kind and attributes
        carry over unless given.
        Returns the new fact and supersedes_id (the old fact's id).
        Example: supersede(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", content="The build uses Poetry.",
        reason="Migrated in March.")""",
        example=f'supersede(id="{EXAMPLE_ID}", content="The build uses Poetry.")',
        http=Http("POST", "/facts/{id}/supersede", "supersedeFact", "Correct a fact",
                  "Store a new fact on the same path that points at the old one; the old fact "
                  "leaves default recall and stays in the history.", status=201,
                  errors=_WRITE, probe=True),
    ),
    Operation(
        "restore", "restore", "Fact", (_FACT_ID, _REASON),
        tool_order=7, profile="core", title="Restore a fact", cli="memory restore",
        guide="""Bring a forgotten fact back into recall. Give its id and why.

        Returns the fact with state "active".
        Example: restore(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="Forgotten by mistake.")""",
        example=f'restore(id="{EXAMPLE_ID}", reason="forgotten by mistake")',
        http=Http("POST", "/facts/{id}/restore", "restoreFact", "Restore a forgotten fact",
                  "Bring a forgotten fact back into recall.", errors=_WRITE),
    ),
    Operation(
        "update", "update", "Fact",
        (_FACT_ID,
         Input("attributes", "attributes",
               'The attributes to change, e.g. {"status": "done"}; null removes an optional '
               "one.", True, aliases=("attributes", "attrs", "fields", "changes")),
         _OPTIONAL_REASON),
        tool_order=11, profile="full", title="Update attributes", cli="memory update",
        guide="""Change some attributes of a typed fact (a project's status, a person's roles)
        without rewriting it; the change is kept in the history.

        Call it when one attribute changed; the content stays. kinds() lists each kind's
        attributes and allowed values; null removes an optional attribute.
        Returns the fact with its attributes.
        Example: update(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", attributes={"status": "done"},
        reason="Shipped.")""",
        example=f'update(id="{EXAMPLE_ID}", attributes={{"status": "done"}})',
        http=Http("POST", "/facts/{id}/update", "updateFact", "Update a fact's attributes",
                  "Change some attributes of an active fact (null removes an optional one); "
                  "the result is validated whole against the fact's kind. It takes the rights "
                  "a supersede takes (write and delete on the fact).", errors=_WRITE),
    ),
    Operation(
        "find", "find", "list[Fact]",
        (Input("kind", "kind", "The kind to find, e.g. project (kinds() lists them).", True,
               aliases=("kind", "type")),
         Input("where", "where",
               'Attribute conditions, all of which must hold: ["status=active", ...] or '
               '{"status": "active"}.', default=(), aliases=("where", "attributes", "filter")),
         Input("under", "path", "Only facts at or below this path, e.g. /projects.",
               aliases=("under", "path", "topic"), max_length=MAX_PATH_LENGTH),
         Input("limit", "int", f"How many at most (1-{MAX_LIMIT}; default {MAX_LIMIT}).",
               aliases=("limit", "top_k", "max_results"), low=1, high=MAX_LIMIT), _AS_OF),
        tool_order=12, profile="full", title="Find typed facts", read_only=True,
        cli="memory find",
        guide="""Find the current facts of one kind whose attributes match, oldest first.

        Call it for questions such as "which projects are active?" or "who is on the
        team?"; use recall for free text. kinds() lists the kinds and their attributes.
        Returns facts: id, path, content, kind, attributes, created_at, tags.
        Example: find(kind="project", where=["status=active"], under="/projects")""",
        example='find(kind="project", where=["status=active"])',
        http=Http("GET", "/find", "findFacts", "Find facts by kind and attributes",
                  "The live facts of `kind` the subject may read whose attributes equal every "
                  "`where=field=value` (repeatable), oldest first.", items="facts",
                  errors=_READ),
    ),
    Operation(
        "kinds", "kinds", "list[dict]",
        tool_order=13, profile="full", title="List the kinds", read_only=True,
        cli="memory kinds",
        guide="""List every kind of fact with its attributes: type, required or not, allowed
        values.

        Call it before storing a typed fact or calling find or update, to get the field
        names and vocabularies right.
        Returns kinds: kind, summary, fields (name, type, required, values), required.
        Example: kinds()""",
        example="kinds()",
        http=Http("GET", "/kinds", "kinds", "Every kind's schema",
                  "Each kind with its schema version, summary, fields (type, required, "
                  "vocabulary values, bounds), required fields and cross-field rules.",
                  items="kinds", errors=(401, 503)),
    ),
    Operation(
        "confirm", "confirm", "Fact",
        (_FACT_ID, _EVIDENCE, _OPTIONAL_REASON),
        tool_order=14, profile="full", title="Confirm a fact", cli="memory confirm",
        guide="""Vouch for a fact that still holds: its confidence goes up and its last
        confirmation is now.

        Call it when the user or a source you just read confirms a fact you recalled;
        give the evidence when there is some. It does not change what the fact says.
        Returns the fact with its confidence.
        Example: confirm(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", evidence="quote:Still uv.")""",
        example=f'confirm(id="{EXAMPLE_ID}", evidence="quote:still true")',
        http=Http("POST", "/facts/{id}/confirm", "confirmFact", "Confirm a fact",
                  "Vouch for an active fact: its confidence moves toward 1 by the weight of "
                  "the token's actor kind and `last_confirmed_at` is now; the evidence, if "
                  "given, joins the fact's. It takes write on the fact; one the subject may "
                  "not read answers 404.", errors=_WRITE, probe=True),
    ),
    Operation(
        "contradict", "contradict", "Fact",
        (_FACT_ID, _REASON,
         Input("by", "id", "The id of the fact that contradicts it, if there is one.",
               aliases=("by", "by_id", "contradicted_by")),
         _EVIDENCE),
        tool_order=15, profile="full", title="Contradict a fact", cli="memory contradict",
        guide="""Dispute a fact that something now contradicts: its confidence goes down; it
        stays in recall and in the history.

        Call it when a source or the user says a fact may be wrong but you do not know the
        right one (when you do, supersede it). A reason is required.
        Returns the fact with its confidence.
        Example: contradict(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="The README says Poetry.")""",
        example=f'contradict(id="{EXAMPLE_ID}", reason="the README says otherwise")',
        http=Http("POST", "/facts/{id}/contradict", "contradictFact", "Contradict a fact",
                  "Dispute an active fact (a reason is required): its confidence decays by "
                  "the weight of the token's actor kind. `by` names the fact that "
                  "contradicts it (readable to the subject). It takes write on the fact.",
                  errors=_WRITE, probe=True),
    ),
    Operation(
        "add_evidence", "add_evidence", "Fact",
        (_FACT_ID, replace(_EVIDENCE, required=True),
         Input("note", "text", "A short note on the evidence (optional).",
               aliases=("note", "comment"))),
        tool_order=16, profile="full", title="Add evidence", cli="memory evidence",
        guide="""Attach evidence to a fact: a quote, a link, a document, a conversation or
        an observation that supports it. Evidence is never edited or removed.

        Call it when you find where a fact comes from; it counts as a weak confirmation.
        Returns the fact with its confidence.
        Example: add_evidence(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", evidence="uri:https://x.org/adr")""",
        example=f'add_evidence(id="{EXAMPLE_ID}", evidence="uri:https://example.org/adr/12")',
        http=Http("POST", "/facts/{id}/evidence", "addEvidence", "Add evidence to a fact",
                  "Append one piece of evidence (`TYPE:VALUE`, TYPE one of quote, uri, "
                  "conversation, document, observation) with an optional note: a weak "
                  "confirmation. It takes write on the fact.", errors=_WRITE, probe=True),
    ),
    Operation(
        "undo", "undo", "list[Event]",
        (Input("event_id", "int",
               "The event to undo: its id, the number in the # column (position) of history.",
               True, aliases=("event_id", "event", "id", "position"), low=1, http="position"),
         _REASON),
        tool_order=17, profile="full", title="Undo an event", destructive=True,
        cli="memory undo",
        guide="""Undo one event of a fact's history: a store, forget, restore, attribute
        update, confirm, contradiction or evidence; the undo is itself kept in the history.

        Call it when you or the user made a change by mistake: first call history to find
        the event's position, then undo it with a reason. It appends the opposite change
        (a store is forgotten, a forget restored, attributes and confidence set back); a
        purge cannot be undone, and an event a later one changed is refused until that one
        is undone. Undoing an undo redoes the change.
        Returns the events it appended, each with undoes (the position undone).
        Example: undo(event_id=42, reason="Confirmed the wrong fact.")""",
        example='undo(event_id=42, reason="stored by mistake")',
        http=Http("POST", "/events/{position}/undo", "undoEvent", "Undo one event",
                  "Append the events that compensate the event at log `position` (the "
                  "`position` of a history event: its id), each with `undoes` = it and the "
                  "reason. "
                  "A purge cannot be undone, nor an event a later one overrode (409, naming "
                  "it); an event of a stream the subject may not read answers 404, as a "
                  "missing one. It takes the rights of the compensation (forget and restore: "
                  "delete; an attribute update: write and delete; the rest: write).",
                  errors=_WRITE, items="events", tag="events", probe=True),
    ),
    # -- local-only: on the machine that holds the memory ---------------------------------
    Operation("purge", "purge", "PurgeResult", (_FACT_ID, _REASON), destructive=True,
              local_only=True, cli="memory purge"),
    Operation("tag_path", "tag_path", "list[Tag]", local_only=True, cli="memory tag"),
    Operation("untag_path", "untag_path", "None", local_only=True, cli="memory untag"),
    Operation("reindex", "reindex", "ReindexResult", local_only=True, cli="memory reindex"),
    Operation("policies", "policies", "list[Rule]", read_only=True, local_only=True,
              cli="policy ls"),
    Operation("policy_add", "policy_add", "Rule", local_only=True, cli="policy add"),
    Operation("policy_remove", "policy_remove", "Rule", destructive=True, local_only=True,
              cli="policy rm"),
    Operation("policy_check", "policy_check", "PolicyCheck", read_only=True, local_only=True,
              cli="policy check"),
    Operation("token_add", "token_add", "NewToken", local_only=True, cli="token add"),
    Operation("tokens", "tokens", "list[TokenInfo]", read_only=True, local_only=True,
              cli="token ls"),
    Operation("token_revoke", "token_revoke", "TokenInfo", destructive=True, local_only=True,
              cli="token revoke"),
)  # fmt: skip

_BY_NAME = {op.name: op for op in CATALOG}


def by_name(name: str) -> Operation:
    return _BY_NAME[name]


def mcp_tools(profile: str) -> tuple[Operation, ...]:
    """The operations an MCP server of ``profile`` offers (``full`` includes ``core``)."""
    wanted = {"core": ("core",), "full": ("core", "full")}[profile]
    return tuple(sorted((op for op in CATALOG if op.profile in wanted), key=lambda o: o.tool_order))


def routed() -> tuple[Operation, ...]:
    """The operations of the REST API, in the order of its document."""
    return tuple(op for op in CATALOG if op.http is not None)
