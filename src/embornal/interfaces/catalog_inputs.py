"""The inputs the parts of the catalogue share (:mod:`.catalog`, :mod:`.catalog_spine`).

The fact id, the reasons, the evidence texts, visibility, lifetime and limit that both
the core operations and the spine's take, the errors of a write, and the id of the
examples; and the builders of the inputs many operations take with their own words (a
switch, an id, a time, a content, a limit, a path to look under, a label, a few words, a
reason, a note, the search mode), so each keeps its name, type, bounds and command-line
placeholder in one place. Stdlib-only at import (plain data), as the catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import (
    MAX_CONTENT_BYTES,
    MAX_LIMIT,
    MAX_PATH_LENGTH,
    MAX_REASON_LENGTH,
    MAX_TIME_TEXT,
)
from embornal.hints import Any
from embornal.interfaces.catalog_types import (
    FACT_ID_PATTERN,
    LIST_ERRORS,
    READ_ERRORS,
    WRITE_ERRORS,
    Input,
    InputType,
)

__all__ = [
    "ALL",
    "ASKED",
    "EVIDENCE_CLI",
    "EVIDENCE_LENGTH",
    "EVIDENCE_NOTE_LENGTH",
    "EVIDENCE_TYPES",
    "EXAMPLE_ID",
    "FACTS_UNDER",
    "FACT_ID",
    "FACT_ID_PATTERN",
    "ID_LENGTH",
    "LABEL_LENGTH",
    "LIFETIME",
    "LIMIT",
    "LINK_DIRECTION",
    "LIST_ERRORS",
    "LIST_LIMIT",
    "OPTIONAL_REASON",
    "POLICY_SHAPES",
    "QUERY",
    "READ_ERRORS",
    "REASON",
    "REQUIRED_REASON",
    "RERANK",
    "SEARCH_MODE",
    "VISIBILITY",
    "WRITE_ERRORS",
    "cli_switch",
    "common_origin",
    "content",
    "identifier",
    "label",
    "limit",
    "moment",
    "note",
    "reason",
    "route_id",
    "security_sensitive",
    "switch",
    "topic_path",
    "under",
    "words",
]

EXAMPLE_ID = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"
#: The longest id an input takes (a fact's, a claim's, a conflict's, or a prefix of one).
ID_LENGTH = 64


def switch(name: str, description: str, cli_help: str | None = None, **more: Any) -> Input:
    """A yes/no input, off unless given (``default=True``: on unless turned off)."""
    more.setdefault("default", False)
    return Input(name, "bool", description, cli_help=cli_help, **more)


def cli_switch(name: str, help_text: str, flag: str | None = None) -> Input:
    """A switch of the command line only (the renderer's, a confirmation), off unless given."""
    return switch(name, help_text, mcp=False, rest=False, flag=flag)


def identifier(
    name: str,
    description: str,
    aliases: tuple[str, ...],
    cli_help: str,
    *,
    kind: InputType = "text",
    metavar: str = "ID",
    **more: Any,
) -> Input:
    """An id (or a unique prefix of one) of at most :data:`ID_LENGTH` characters."""
    return Input(
        name,
        kind,
        description,
        aliases=aliases,
        max_length=ID_LENGTH,
        metavar=metavar,
        cli_help=cli_help,
        **more,
    )


def route_id(
    name: str, description: str, aliases: tuple[str, ...], cli_help: str, **more: Any
) -> Input:
    """The id of the one thing an operation acts on: required, the ``{id}`` of its route."""
    return identifier(name, description, aliases, cli_help, required=True, http="id", **more)


def moment(
    name: str,
    description: str,
    aliases: tuple[str, ...],
    cli_help: str | None,
    *,
    kind: InputType = "time",
    **more: Any,
) -> Input:
    """A time, as text of at most :data:`~embornal.domain.bounds.MAX_TIME_TEXT` characters
    (``TIME`` on the command line)."""
    return Input(
        name,
        kind,
        description,
        aliases=aliases,
        max_length=MAX_TIME_TEXT,
        metavar="TIME",
        cli_help=cli_help,
        **more,
    )


def content(
    description: str,
    cli_help: str,
    *,
    aliases: tuple[str, ...],
    name: str = "content",
    metavar: str = "CONTENT",
) -> Input:
    """A required text as long as a fact may be, in UTF-8 bytes (a fact, a capture, an
    account, a claim's statement)."""
    return Input(
        name,
        "text",
        description,
        True,
        aliases=aliases,
        max_length=MAX_CONTENT_BYTES,
        length_unit="bytes",
        metavar=metavar,
        cli_help=cli_help,
    )


def words(
    name: str, description: str, aliases: tuple[str, ...], cli_help: str, **more: Any
) -> Input:
    """A few words (what a piece of evidence shows, what an account covers), as long as a
    reason may be."""
    return Input(
        name,
        "text",
        description,
        aliases=aliases,
        max_length=MAX_REASON_LENGTH,
        metavar="TEXT",
        cli_help=cli_help,
        **more,
    )


def security_sensitive(description: str, cli_help: str = "mark it security-sensitive") -> Input:
    """``security_sensitive``: what is said is about identity, permissions or instructions."""
    return switch(
        "security_sensitive", description, cli_help, aliases=("security_sensitive", "sensitive")
    )


ALL = switch(
    "all",
    "Include the memory's own guide under /memory (left out otherwise).",
    "include the memory's own guide under /memory",
    aliases=("all",),
    probe=True,
    full_only=True,
)
"""Whether a listing or a search shows the guide facts too (decision 0154)."""
QUERY = Input(
    "query",
    "text",
    "Words or a question to look for.",
    True,
    aliases=("query", "q", "search", "text"),
    http="q",
    flag="",
    nargs="*",
    metavar="QUERY",
    cli_help="",
)
"""The words of recall, the recall cascade and the searches."""
LINK_DIRECTION = Input(
    "direction",
    "choice",
    "out: links it makes; in: links to it; both (default).",
    default="both",
    aliases=("direction",),
    choices=("out", "in", "both"),
)
"""Which links of a fact or a memory are followed."""
#: The longest evidence as TYPE:VALUE: its value (``spine.MAX_EVIDENCE_VALUE``) and a type.
EVIDENCE_LENGTH = 8_192 + 32
#: The longest note on evidence (``spine.MAX_EVIDENCE_NOTE``).
EVIDENCE_NOTE_LENGTH = 2_000

_ID = "The fact id from recall or cat (a unique prefix works)."
_WHY = "Why; kept in the history."

FACT_ID = route_id(
    "fact_id", _ID, ("id", "fact_id", "memory_id"), "fact id or a unique prefix of one", kind="id"
)


def reason(
    description: str,
    cli_help: str,
    *,
    required: bool = True,
    aliases: tuple[str, ...] = ("reason",),
    **more: Any,
) -> Input:
    """``reason``: why, kept in the history (``--reason`` on the command line when
    required)."""
    if required:
        more.setdefault("flag", "--reason")
    return Input(
        "reason",
        "reason",
        description,
        required,
        aliases=aliases,
        max_length=MAX_REASON_LENGTH,
        cli_help=cli_help,
        **more,
    )


def note(description: str, cli_help: str, **more: Any) -> Input:
    """``note``: a required note on what was re-examined, as long as a reason may be
    (``--note`` on the command line)."""
    return Input(
        "note",
        "text",
        description,
        True,
        aliases=("note", "reason", "comment"),
        max_length=MAX_REASON_LENGTH,
        flag="--note",
        cli_help=cli_help,
        **more,
    )


REASON = reason(_WHY, "why (kept in the history)")
#: A required reason whose help says so (where the command's other reasons are optional).
REQUIRED_REASON = reason(_WHY, "why (required): kept in the history")
OPTIONAL_REASON = reason(
    _WHY, "why: kept in the history with the event", required=False, probe=True
)
EVIDENCE_TYPES = "quote, uri, conversation, document or observation"
EVIDENCE_CLI = "TYPE:VALUE, TYPE one of quote, uri, conversation, document, observation"
VISIBILITY = Input(
    "visibility",
    "visibility",
    "Who may see it: shared (default), private (you only; never an "
    "assistant) or restricted:alice,bob (you and those subjects or roles).",
    aliases=("visibility",),
    max_length=4096,
    not_empty=True,
    probe=True,
    full_only=True,
    metavar="V",
    cli_help="shared (default), private, or restricted:a,b",
)
_LIFETIMES = "permanent, standard, ephemeral or until:YYYY-MM-DD"
LIFETIME = Input(
    "lifetime",
    "lifetime",
    f"How long it should live: {_LIFETIMES} (a date from today on; the fact leaves recall "
    "after it). Ephemeral: one day.",
    aliases=("lifetime", "retention", "expires"),
    max_length=40,
    not_empty=True,
    probe=True,
    full_only=True,
    metavar="L",
    cli_help=f"{_LIFETIMES} (default standard)",
)


def limit(
    description: str,
    cli_help: str,
    *,
    aliases: tuple[str, ...] = ("limit", "top_k", "max_results"),
    high: int = MAX_LIMIT,
    **more: Any,
) -> Input:
    """``limit``: how many at most, from 1 to ``high`` (``N`` on the command line)."""
    return Input(
        "limit",
        "int",
        description,
        aliases=aliases,
        low=1,
        high=high,
        metavar="N",
        cli_help=cli_help,
        **more,
    )


LIMIT = limit(
    "How many hits at most (default 10).",
    f"at most N hits, 1-{MAX_LIMIT} (default: config recall.limit)",
)
#: The limit of the history protocol's lists (timelines, narratives, the memories due).
LIST_LIMIT = limit("How many at most (default 10).", f"at most N, 1-{MAX_LIMIT}")


def under(
    description: str,
    cli_help: str = "only facts at or below PATH",
    *,
    aliases: tuple[str, ...] = ("under", "path", "topic"),
) -> Input:
    """``under``: only what lies at or below a topic path."""
    return Input(
        "under",
        "path",
        description,
        aliases=aliases,
        max_length=MAX_PATH_LENGTH,
        metavar="PATH",
        cli_help=cli_help,
    )


_TOPIC = "A topic path such as /projects/embornal (lowercase)."


def topic_path(
    description: str = _TOPIC,
    *,
    required: bool = True,
    default: object = None,
    aliases: tuple[str, ...] = ("path", "topic"),
    cli_help: str = "",
    **more: Any,
) -> Input:
    """``path``: the topic path a fact is on (``PATH`` on the command line)."""
    return Input(
        "path",
        "path",
        description,
        required,
        default,
        aliases,
        max_length=MAX_PATH_LENGTH,
        metavar="PATH",
        cli_help=cli_help,
        **more,
    )


#: Only the facts at or below a path (``find``, ``due``).
FACTS_UNDER = under("Only facts at or below this path, e.g. /projects.")

LABEL_LENGTH = 200
"""The longest label: a task scope, a frame, a session (a name to group or filter by)."""


def label(
    name: str,
    description: str,
    *,
    aliases: tuple[str, ...],
    required: bool = False,
    kind: InputType = "text",
    max_length: int = LABEL_LENGTH,
    **more: Any,
) -> Input:
    """A label of at most :data:`LABEL_LENGTH` characters (a scope, a frame, a session; a
    ``source`` label of who or what said it, some at most ``max_length``)."""
    return Input(name, kind, description, required, aliases=aliases, max_length=max_length, **more)


def common_origin(max_length: int) -> Input:
    """``common_origin``: the origin a copy or a repost repeats (copies count once)."""
    return label(
        "common_origin",
        "The origin it repeats, if it is a copy or repost (copies of one origin count once).",
        aliases=("common_origin", "origin", "repost_of"),
        kind="source",
        max_length=max_length,
        metavar="ORIGIN",
        cli_help="the origin it repeats (a repost)",
    )


#: How recall and the searches like it rank: by keywords, by meaning, or both.
SEARCH_MODE = Input(
    "mode",
    "choice",
    "auto (default: meaning and keywords when a model is set up, else "
    "keywords), keyword, vector (meaning only) or hybrid.",
    default="auto",
    choices=("auto", "keyword", "vector", "hybrid"),
    aliases=("mode", "search_mode"),
    cli_help="keyword, vector, hybrid, or auto (default: %(default)s)",
)

#: The shapes of an access rule (``policy add|rm``, and the help of ``embornal policy``).
POLICY_SHAPES = """\
rules:
  p SUBJECT OBJECT ACTION [allow|deny]   ACTION: read, write, create or delete
  g SUBJECT ROLE                         SUBJECT holds ROLE's rules
  create: store new facts (the subject's own); write: change facts that exist (and create)
  OBJECT: path:/x (that path), path:/x/* (the subtree, /x too), tag:k=v
  A deny beats every allow; no rule means no access.
"""

#: When the question is asked: recall and the recall cascade read the query's times by it.
ASKED = moment(
    "now",
    "When the question is asked (ISO-8601, e.g. 2025-03-01T09:00:00Z; "
    "default: now): times the query names ('last weekend', 'in May', 上周) are read "
    "against it and lift the facts of those times.",
    ("now", "asked_at"),
    "when the question is asked (ISO-8601): 'last week' in QUERY is read against it",
    probe=True,
    full_only=True,
)

#: The cross-encoder reranker of recall and the recall cascade (decision 0115).
RERANK = switch(
    "rerank",
    "true: the best candidates reordered by the cross-encoder "
    "reranker (off by default; the server needs `embornal model pull --reranker`).",
    "reorder the best candidates (config rerank.top) with the cross-encoder "
    "reranker (`embornal model pull --reranker`)",
    aliases=("rerank", "reranker"),
    probe=True,
    full_only=True,
)
