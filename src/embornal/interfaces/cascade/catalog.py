"""The catalogue's operations of the recall cascade (docs/model.md, The chronicle
and the recall cascade; decisions 0095-0097): ``recall_cascade`` (the REST route and command of
``Memory.chronicle.recall``, which the MCP ``recall`` tool answers), ``search`` and
``search_archive``, dotted calls on ``Memory.chronicle``. Stdlib-only at import, as the
catalogue.
"""

from __future__ import annotations

from embornal.interfaces.catalog_inputs import (
    ALL,
    ASKED,
    LIMIT,
    LIST_ERRORS,
    QUERY,
    RERANK,
    SEARCH_MODE,
    label,
    switch,
    under,
)
from embornal.interfaces.catalog_types import Http, Operation, part, replace

__all__ = ["OPERATIONS", "PLACE"]

_SHOW = "cascade.commands:"

#: The searches' query: an empty one is refused, as REST always has.
_QUERY = replace(QUERY, not_empty=True)
_SOME_QUERY = replace(
    QUERY,
    required=False,
    description="Words or a question to look for. Leave out to get the "
    "strongest memories after the anchors and canon.",
)
_BUDGET = replace(
    LIMIT,
    description="One budget for anchors, canon and memories together (default 10); the "
    "anchors are always whole.",
    cli_help="at most N anchors, canon and memories together (the anchors always whole)",
)
_FRAME = label(
    "frame",
    "Only memories of this frame (a filter label, not an access boundary).",
    aliases=("frame",),
    not_empty=True,
    metavar="FRAME",
    cli_help="only memories of FRAME",
)
_MODE = SEARCH_MODE
_UNDER = under(
    "Only ordinary memories below this path, e.g. /projects.",
    "only ordinary memories at or below PATH",
)
_SCOPE = label(
    "scope",
    "The task scope whose canon and narrative to show (default: every "
    "scope's canon, the default account).",
    aliases=("scope", "canon_scope"),
    not_empty=True,
    metavar="SCOPE",
    cli_help="only this scope's canon and narrative",
)
_SECTIONS = (
    "anchors, canon, memories, hits (the ordinary ranking), stale_interpretations, "
    "narrative or narrative_review, conflicts"
)

PLACE = 120
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "history",
    Operation(
        "recall_cascade",
        "Cascade",
        (
            _SOME_QUERY,
            _BUDGET,
            _FRAME,
            _MODE,
            _UNDER,
            _SCOPE,
            switch(
                "reinforce",
                "false: a read-only cascade (no strength lift).",
                "do not count the hits as a recall",
                default=True,
                mcp=False,
            ),
            ASKED,
            RERANK,
            ALL,
        ),
        call="chronicle.recall",
        profile="none",
        tool_order=0,
        title="The recall cascade",
        cli="memory cascade",
        cli_help="anchors, then canon, then memories (one budget), with what needs care",
        cli_doc="The recall cascade: the anchors (always whole), the active canon, then the\n"
        "ordinary recall of QUERY in the room --limit leaves; with the interpretations\n"
        "overdue for review, the usable narrative or its review notice, and the open\n"
        "conflicts. The ranked hits count as recalls unless --no-reinforce.",
        example='recall(query="deploy", limit=5)',
        http=Http(
            "GET",
            "/recall/cascade",
            "recallCascade",
            "Anchors first, then the active canon, then the ordinary recall in the room "
            "`limit` leaves (anchors always whole; a memory shows once, under its first "
            f"section); with {_SECTIONS}. The hits count as recalls.",
            errors=LIST_ERRORS,
        ),
    ),
    Operation(
        "search",
        "Cascade",
        (_QUERY, _BUDGET, _FRAME, _MODE, _UNDER, _SCOPE, ALL),
        title="Search with the history priorities",
        cli="memory search",
        cli_help="the cascade for a query, each memory checked again; no reinforcement",
        cli_doc="The recall cascade for QUERY (anchors, canon, then memories), each memory\n"
        "read again as the answer is made (live, readable, not forgotten or expired).\n"
        "A search is not a recall: nothing is reinforced.",
        guide=f"""Search with the same priorities as recall (anchors, then canon, then
        memories ranked by keyword and meaning), each memory checked again as the answer
        is made. It does not count as a recall.

        Returns {_SECTIONS}.
        Example: search(query="deploy schedule", mode="hybrid", limit=5)""",
        example='search(query="deploy schedule", mode="hybrid")',
        http=Http(
            "GET",
            "/search",
            "search",
            "The recall cascade for `q`, each candidate checked again at answer time "
            "(live, readable, not forgotten or expired); nothing is reinforced.",
            errors=LIST_ERRORS,
        ),
    ),
    Operation(
        "search_archive",
        "list[RecallHit]",
        (
            _QUERY,
            replace(LIMIT, description="How many unpinned memories at most (default 10)."),
            _FRAME,
            _MODE,
            _UNDER,
        ),
        title="Search the unpinned archive",
        cli="memory search-archive",
        cli_help="the best unpinned memories for a query, a budget of their own",
        cli_doc="The best --limit unpinned memories for QUERY: no anchor takes a place.\n"
        "Each is checked again at answer time; nothing is reinforced.",
        guide="""Search the stored material that is not pinned, with a result budget of
        its own: the anchors cannot crowd it out. It does not count as a recall.

        Call it when recall's anchors fill the answer and you need the records.
        Returns hits, best first: id, path, content, score, strength.
        Example: search_archive(query="deploy log", limit=10)""",
        example='search_archive(query="deploy log", limit=10)',
        http=Http(
            "GET",
            "/search/archive",
            "searchArchive",
            "The best `limit` unpinned memories for `q`, each checked again at answer "
            "time; nothing is reinforced.",
            items="hits",
        ),
    ),
    facade="chronicle",
    profile="full",
    tools_from=86,
    probe=True,
    shows={
        "Cascade": _SHOW + "show_cascade",
        "list[RecallHit]": _SHOW + "show_hits",
    },
)
