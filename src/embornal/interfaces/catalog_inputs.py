"""The inputs the parts of the catalogue share (:mod:`.catalog`, :mod:`.catalog_spine`).

The fact id, the reasons, the evidence texts, visibility, lifetime and limit that both
the core operations and the spine's take, the errors of a write, and the id of the
examples; and the builders of the inputs many operations take with their own words (a
limit, a path to look under, a label, a reason, a note, the search mode), so each keeps
its name, type, bounds and command-line placeholder in one place. Stdlib-only at import
(plain data), as the catalogue.
"""

from __future__ import annotations

from typing import Any

from embornal.domain.bounds import MAX_LIMIT, MAX_PATH_LENGTH, MAX_REASON_LENGTH
from embornal.interfaces.catalog_types import LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, Input

__all__ = [
    "ALL",
    "ASKED",
    "EVIDENCE_CLI",
    "EVIDENCE_LENGTH",
    "EVIDENCE_NOTE_LENGTH",
    "EVIDENCE_TYPES",
    "EXAMPLE_ID",
    "FACT_ID",
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
    "RERANK",
    "SEARCH_MODE",
    "VISIBILITY",
    "WRITE_ERRORS",
    "label",
    "limit",
    "note",
    "reason",
    "under",
]

EXAMPLE_ID = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"
ALL = Input(
    "all",
    "bool",
    "Include the memory's own guide under /memory (left out otherwise).",
    default=False,
    aliases=("all",),
    probe=True,
    full_only=True,
    cli_help="include the memory's own guide under /memory",
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

FACT_ID = Input(
    "fact_id",
    "id",
    _ID,
    True,
    aliases=("id", "fact_id", "memory_id"),
    max_length=64,
    http="id",
    metavar="ID",
    cli_help="fact id or a unique prefix of one",
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


LABEL_LENGTH = 200
"""The longest label: a task scope, a frame, a session (a name to group or filter by)."""


def label(
    name: str,
    description: str,
    *,
    aliases: tuple[str, ...],
    required: bool = False,
    **more: Any,
) -> Input:
    """A label of at most :data:`LABEL_LENGTH` characters (a scope, a frame, a session)."""
    return Input(
        name, "text", description, required, aliases=aliases, max_length=LABEL_LENGTH, **more
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
ASKED = Input(
    "now",
    "time",
    "When the question is asked (ISO-8601, e.g. 2025-03-01T09:00:00Z; "
    "default: now): times the query names ('last weekend', 'in May', 上周) are read "
    "against it and lift the facts of those times.",
    aliases=("now", "asked_at"),
    max_length=64,
    probe=True,
    full_only=True,
    metavar="TIME",
    cli_help="when the question is asked (ISO-8601): 'last week' in QUERY is read against it",
)

#: The cross-encoder reranker of recall and the recall cascade (decision 0115).
RERANK = Input(
    "rerank",
    "bool",
    "true: the best candidates reordered by the cross-encoder "
    "reranker (off by default; the server needs `embornal model pull --reranker`).",
    default=False,
    aliases=("rerank", "reranker"),
    probe=True,
    full_only=True,
    cli_help="reorder the best candidates (config rerank.top) with the cross-encoder "
    "reranker (`embornal model pull --reranker`)",
)
