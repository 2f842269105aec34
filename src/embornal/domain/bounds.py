"""The ranges of the numbers that come from outside: CLI flags, config.yaml, REST, MCP.

Each interface checks its numbers against these where they enter and answers with
its own clear error (exit 2 or 6, a 422); the service checks them again, so no
number out of range reaches ``timedelta``, SQLite or a model.
"""

from __future__ import annotations

import math

__all__ = [
    "MAX_BATCH_SIZE",
    "MAX_CAPTURE_CONTEXT",
    "MAX_CONTENT_BYTES",
    "MAX_EVIDENCE_ITEMS",
    "MAX_EXPIRY_DAYS",
    "MAX_LIMIT",
    "MAX_NARRATIVE_SOURCES",
    "MAX_ORIGIN_ID",
    "MAX_PATH_LENGTH",
    "MAX_PROPOSAL_ITEMS",
    "MAX_QUERY_LENGTH",
    "MAX_REASON_LENGTH",
    "MAX_REINDEX_LIMIT",
    "MAX_TIME_TEXT",
    "MAX_VECTOR_WIDTH",
    "check_query_length",
    "in_range",
    "whole_in_range",
]

#: How many facts a recall or a cat returns at most (``--limit``, ``recall.limit``, ``limit``).
MAX_LIMIT = 1000
#: The longest a token may live: 100 years, in days (``token add --expires-in``).
MAX_EXPIRY_DAYS = 36_500
#: How many facts one ``memory reindex --limit`` may embed.
MAX_REINDEX_LIMIT = 1_000_000_000
#: The widest vector (``embedding.dims``): sqlite-vec indexes at most 8192 dimensions.
MAX_VECTOR_WIDTH = 8192
#: How many texts go to a model at once at most (``embedding.batch_size``).
MAX_BATCH_SIZE = 4096
#: The longest fact, in UTF-8 bytes (:mod:`embornal.domain.facts.fact` checks it).
MAX_CONTENT_BYTES = 65_536
#: The longest reason of an event, in characters.
MAX_REASON_LENGTH = 2_000
#: The longest path, in characters (:mod:`embornal.domain.paths` checks it).
MAX_PATH_LENGTH = 1024
#: The most pieces of evidence one store sends with its fact (REST, MCP, the command line).
MAX_EVIDENCE_ITEMS = 64
#: The most items one proposal holds (a prune pass proposes at most this many).
MAX_PROPOSAL_ITEMS = 10_000
#: The most memories, claims or links a narrative names as its sources, each.
MAX_NARRATIVE_SOURCES = 200
#: The longest ``origin_id`` and ``capture_context`` a capture declares, in characters.
MAX_ORIGIN_ID = 1000
MAX_CAPTURE_CONTEXT = 2000
#: The longest query of a search of the history or of the claims, in characters.
MAX_QUERY_LENGTH = 2_000
#: The longest text of a time, in characters (an ISO-8601 time with an offset is 32; a
#: relative one, "3 days ago", shorter): :mod:`embornal.domain.clock` and
#: :mod:`embornal.domain.as_of` check it, the catalogue declares it.
MAX_TIME_TEXT = 64


def check_query_length(query: object) -> None:
    """Refuse a query longer than :data:`MAX_QUERY_LENGTH` (``InvalidInput``)."""
    if isinstance(query, str) and len(query) > MAX_QUERY_LENGTH:
        from embornal.errors import InvalidInput

        raise InvalidInput(
            f"query is {len(query):,} characters long; at most {MAX_QUERY_LENGTH:,} are allowed",
            hint="Send a shorter query.",
        )


def whole_in_range(value: object, low: int, high: int) -> bool:
    """True when ``value`` is an int (not a bool) from ``low`` to ``high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def in_range(value: object, high: float) -> bool:
    """True when ``value`` is a finite number above 0 and at most ``high`` (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        number = float(value)
    except OverflowError:  # an int too large for a float
        return False
    return math.isfinite(number) and 0 < number <= high
