"""The catalogue's operations of the history context, the timeline and the link
tools of memory-as-history (decisions 0088–0090), on the history protocol facade
(``Memory.chronicle``): set_history_context, timeline, search_history, link_memories,
unlink_memories and memory_links. remember's ``event_at`` and ``session_position`` are
the inputs :data:`EVENT_AT` and :data:`SESSION_POSITION` (:mod:`.catalog_history`).

:mod:`.catalog` puts :data:`OPERATIONS` in ``CATALOG``. The tools are in the MCP
``full`` profile under memory-as-history's names. Stdlib-only at import, as the catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_QUERY_LENGTH
from embornal.interfaces.catalog_inputs import (
    EXAMPLE_ID,
    FACT_ID,
    FACT_ID_PATTERN,
    LINK_DIRECTION,
    LIST_LIMIT,
    OPTIONAL_REASON,
    REASON,
    label,
    moment,
    switch,
)
from embornal.interfaces.catalog_types import Http, Input, Operation, part, replace
from embornal.interfaces.graph.catalog import RELATIONS

__all__ = ["EVENT_AT", "OPERATIONS", "PLACE", "SESSION", "SESSION_POSITION"]

_EXAMPLE_2 = "01KCZ8Q3W5R7T9V1X3Z5B7D9F2"
#: memory-as-history's relation names (``domain.history_context.SEED_RELATIONS``), then ours.
SEED_NAMES = ("related", "updates", "explains")
_TIME = "ISO-8601, e.g. 2025-03-01T09:00:00Z (no zone: UTC; a date: its first instant)"

EVENT_AT = moment(
    "event_at",
    f"When the event it tells of happened ({_TIME}); not when it was "
    "said or recorded. Leave it out when unknown.",
    ("event_at", "occurred_at", "happened_at"),
    "when the event it tells of happened (ISO-8601)",
)
SESSION = label(
    "session",
    "The session or conversation (a stable label, e.g. 'comet:meeting-2').",
    aliases=("session_id", "session"),
    metavar="LABEL",
    cli_help="the session or conversation label",
)
SESSION_POSITION = Input(
    "session_position",
    "int",
    "Its place in the session (0, 1, 2 ...); needs session_id.",
    aliases=("session_position", "position", "turn"),
    low=0,
    high=2**53,
    metavar="N",
    cli_help="its place in the session (needs --session)",
)
_START = moment(
    "start",
    f"Only events at or after this time ({_TIME}).",
    ("start", "since", "from"),
    "only events at or after TIME (ISO-8601)",
)
_END = moment(
    "end",
    f"Only events at or before this time ({_TIME}).",
    ("end", "until", "to"),
    "only events at or before TIME (ISO-8601)",
)
_RELATION_TEXT = (
    "related, updates (the source revises the target; both stay), explains (the source "
    "gives the target's reason), or a typed relation: " + ", ".join(RELATIONS) + "."
)
_RELATION = Input(
    "relation",
    "choice",
    "The relation: " + _RELATION_TEXT,
    True,
    aliases=("relation", "rel", "type"),
    choices=(*SEED_NAMES, *RELATIONS),
    metavar="R",
    cli_help="related, updates, explains or a typed relation",
)
_SOURCE = Input(
    "source_id",
    "id",
    "The memory the link leaves.",
    True,
    aliases=("source_id", "from_id", "source", "memory_id", "id"),
    pattern=FACT_ID_PATTERN,
    metavar="SRC",
    cli_help="the memory the link leaves",
)
_TARGET = Input(
    "target_id",
    "id",
    "The memory it points at.",
    True,
    aliases=("target_id", "to_id", "target"),
    pattern=FACT_ID_PATTERN,
    metavar="DST",
    cli_help="the memory it points at",
)

PLACE = 90
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "history",
    Operation(
        "set_history_context",
        "MemoryStatus",
        (
            FACT_ID,
            REASON,
            replace(EVENT_AT, cli_help="when the event happened (omit: unknown)"),
            SESSION,
            SESSION_POSITION,
        ),
        title="Correct a memory's history context",
        idempotent=True,
        cli="memory set-history-context",
        cli_show="history.commands:show_status",
        cli_help="correct when a memory's event happened and its session place",
        cli_doc="Replace the whole history context of ID: --event-at, --session and\n"
        "--session-position; what is not given becomes unknown. Recorded with the reason\n"
        "and the context it had (audit_log shows it).",
        guide="""Correct when the event a memory tells of happened and where it sits in
        its session. It replaces the whole context: fields left out become unknown.

        Call it when a date or order was wrong or learnt later; a reason is required and
        the old context stays in the audit. It changes no trust: not tier, stage or pin.
        Example: set_history_context(id="01KCZ8…", reason="minutes", event_at="2025-03-10")""",
        example=f'set_history_context(memory_id="{EXAMPLE_ID}", event_at="2025-03-10T09:00:00Z", '
        'reason="date from the minutes")',
        http=Http(
            "POST",
            "/history/context/{id}",
            "setHistoryContext",
            "Replace the memory's event time, session and position (omitted: unknown), "
            "recorded with the reason and the previous context.",
        ),
    ),
    Operation(
        "timeline",
        "list[TimelineEntry]",
        (
            SESSION,
            _START,
            _END,
            LIST_LIMIT,
            Input(
                "order",
                "choice",
                "asc (default: the earliest event first) or desc.",
                default="asc",
                aliases=("order", "sort"),
                choices=("asc", "desc"),
                cli_help="asc (default) or desc",
            ),
            switch(
                "include_forgotten",
                "Forgotten memories too (default false).",
                "forgotten memories too",
                aliases=("include_forgotten", "forgotten"),
            ),
        ),
        title="Timeline of memories",
        cli="memory timeline",
        cli_show="timeline.commands:show_timeline",
        cli_help="memories in the order their events happened",
        cli_doc="List the memories by event time, then session position, then record\n"
        "order; unknown event times last (left out when --start or --end is given).\n"
        "--session lists one conversation. Read-only: nothing is reinforced.",
        guide="""List memories in the order their events happened (then by place in the
        session, then as recorded); unknown event times come last and are left out of a
        start/end window. Forgotten memories only with include_forgotten.

        Call it for "what happened when", a session's transcript order, or a period.
        Read-only.
        Example: timeline(session_id="comet:meeting-2", limit=20)""",
        example='timeline(session_id="comet:meeting-2", limit=20)',
        http=Http(
            "GET",
            "/history/timeline",
            "historyTimeline",
            "The memories the subject may read by event time, then session position, "
            "then record order; unknown event times last, none when a window is "
            "given.",
            items="entries",
        ),
    ),
    Operation(
        "search_history",
        "list[HistoryHit]",
        (
            Input(
                "query",
                "text",
                "The words to look for.",
                True,
                aliases=("query", "q", "text"),
                max_length=MAX_QUERY_LENGTH,
                metavar="QUERY",
                cli_help="the words to look for",
            ),
            _START,
            _END,
            SESSION,
            LIST_LIMIT,
            Input(
                "expand",
                "int",
                "Add up to N memories of evidence per hit: linked ones and "
                "session neighbours within N places (0-5, default 0; 50 at most in all).",
                default=0,
                aliases=("expand", "expand_evidence"),
                low=0,
                high=5,
                metavar="N",
                cli_help="add up to N linked memories and session neighbours per hit (0-5)",
            ),
            Input(
                "via",
                "choice",
                "Evidence through both (default), session or links.",
                default="both",
                aliases=("via", "expand_via"),
                choices=("both", "session", "links"),
                cli_help="both (default), session or links",
            ),
        ),
        title="Search memories in a period",
        cli="memory search-history",
        cli_show="timeline.commands:show_hits",
        cli_help="keyword search within a time window or session, with evidence",
        cli_doc="Search the memories for QUERY's words within --start/--end (event time,\n"
        "inclusive) and --session, best first. --expand N adds, per hit, up to N linked\n"
        "memories and N session neighbours (within N places); 50 at most in all, each\n"
        "memory once. Read-only: nothing is reinforced.",
        guide="""Keyword search restricted to a period of event time and/or a session,
        best first. expand=N adds, for each hit, up to N linked memories and N neighbours
        of its session (within N places): context, not proof.

        Call it for "what did we say about X in March" or "in that meeting".
        Read-only.
        Example: search_history(query="deadline", start="2025-03-01", expand=1)""",
        example='search_history(query="deadline", start="2025-03-01T00:00:00Z", expand=1)',
        http=Http(
            "GET",
            "/history/search",
            "searchHistory",
            "Keyword search of the memories within the event-time window and session, "
            "best first, with bounded evidence (`expand` 0-5 per hit, 50 in all).",
            items="hits",
        ),
    ),
    Operation(
        "link_memories",
        "Link",
        (_SOURCE, _TARGET, _RELATION, OPTIONAL_REASON),
        title="Link two memories",
        guide="""Record that one memory relates to another, as you assert it: related,
        updates (the source revises the target; both stay) or explains (the source gives
        the target's reason), or a typed relation. A link is retractable and audited; it
        never corroborates, promotes, pins or makes a memory testimony.

        Example: link_memories(source_id="01KCZ8…", target_id="01KD0A…", relation="updates")""",
        example=f'link_memories(source_id="{EXAMPLE_ID}", target_id="{_EXAMPLE_2}", '
        'relation="updates")',
        http=Http(
            "POST",
            "/history/links",
            "linkMemories",
            "A typed link from source_id to target_id; its relation names map to "
            "relates_to, supersedes (a link only) and about. No trust is gained.",
        ),
    ),
    Operation(
        "unlink_memories",
        "Link",
        (_SOURCE, _TARGET, _RELATION, OPTIONAL_REASON),
        title="Retract a link between memories",
        guide="""Retract a link made with link_memories (same source, target, relation);
        the audit keeps that it was made and retracted.

        Example: unlink_memories(source_id="01KCZ8…", target_id="01KD0A…", relation="updates")""",
        example=f'unlink_memories(source_id="{EXAMPLE_ID}", target_id="{_EXAMPLE_2}", '
        'relation="updates")',
        http=Http(
            "POST",
            "/history/unlink",
            "unlinkMemories",
            "Take the link source_id relation target_id off (audited); a link that is "
            "not there is 404.",
            summary="Retract a link",
        ),
    ),
    Operation(
        "memory_links",
        "LinkGraph",
        (
            FACT_ID,
            Input(
                "relation",
                "choice",
                "Only this relation: " + _RELATION_TEXT,
                aliases=("relation", "rel"),
                choices=(*SEED_NAMES, *RELATIONS),
                metavar="R",
            ),
            LINK_DIRECTION,
            replace(LIST_LIMIT, description="How many memories at most (default 100)."),
            switch(
                "include_retired",
                "Also the retracted links, each with when and why it was retracted.",
                "also the retracted links, with their retraction",
                aliases=("include_retired",),
            ),
        ),
        title="A memory's links",
        guide="""List the memories linked to a memory, one link away, with each link's
        relation as read from it (an updates link reads superseded_by from the older one),
        and its links as made (links: reason, created_at); include_retired=true adds the
        retracted ones with retired_at and retirement_reason.

        Example: memory_links(memory_id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1")""",
        example=f'memory_links(memory_id="{EXAMPLE_ID}")',
        http=Http(
            "GET",
            "/history/links/{id}",
            "memoryLinks",
            "The live memories the subject may read one link away, with the links.",
        ),
    ),
    facade="chronicle",
    profile="full",
    tools_from=80,
)
