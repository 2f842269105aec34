"""Where each method of the SQLite store's query parts lives, so that opening a store
imports none of them (decision 0094).

:class:`~embornal.storage.sqlite.store.SqliteStore` derives from
:class:`~embornal.storage.sqlite.parts.QueryParts` for the type checker only; at run time
it derives from :class:`LazyParts`, whose ``__getattr__`` finds a missing name in
:data:`PART_METHODS`, imports that part's module, binds the class's function to the
store and keeps it on the store, so the next call is an ordinary attribute. A name no
part has is an ``AttributeError`` as before. A test checks that the map holds every
method of the parts, private helpers too (the parts call them on the store), and
nothing else.

Why the map is kept, when the projector's areas are found with none (decision 0181): it
restates what the parts' classes say, but saying it here is what lets a command load only
the part it calls. Reading it from the classes would import them all at the first call of
any: some 16 ms and 21 modules (the history protocol's state and event classes among
them) where one part costs well under 1 ms. A name does not say its part, as an event's
module says its area. So a new part method is added here too, and the test above names
what is missing.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["PART_METHODS", "LazyParts"]

_PORTABILITY = "embornal.storage.sqlite.portability:SqlitePortability"
_PROPOSALS = "embornal.storage.common.proposals:ProposalQueries"
_LINKS = "embornal.storage.common.graph:LinkReads"
_PROTOCOL = "embornal.storage.common.protocol:ProtocolReads"
_TIMELINE = "embornal.storage.common.timeline:TimelineQueries"
_CANON = "embornal.storage.common.canon:CanonQueries"
_NARRATIVES = "embornal.storage.common.narratives:NarrativeQueries"
_CLAIMS = "embornal.storage.common.claims:ClaimQueries"
_CONFLICTS = "embornal.storage.common.conflict_reads:ConflictQueries"
_LISTING = "embornal.storage.common.listing:ListingQueries"

#: Method name → ``"module:Class"`` of the class that defines it (the first of the parts'
#: bases that does, as in :class:`~embornal.storage.sqlite.parts.QueryParts`).
PART_METHODS: dict[str, str] = {
    "every_fact": _PORTABILITY,
    "fact_ids": _PORTABILITY,
    "redactions": _PORTABILITY,
    "event_count": _PORTABILITY,
    "last_position": _PORTABILITY,
    "restore_log": _PORTABILITY,
    "backup": _PORTABILITY,
    "snapshot": _PORTABILITY,
    "proposal_rows": _PROPOSALS,
    "proposal_ids": _PROPOSALS,
    "retention_rows": _PROPOSALS,
    "link_in_degree": _PROPOSALS,
    "link_rows": _LINKS,
    "link_events": _LINKS,
    "merged_into": _LINKS,
    "merged_sources": _LINKS,
    "dangling_rows": _LINKS,
    "relationship_ids": _LINKS,
    "_protocol_list": _PROTOCOL,
    "working_memories": _PROTOCOL,
    "interpretations_due": _PROTOCOL,
    "forgotten_memories": _PROTOCOL,
    "audit_events": _PROTOCOL,
    "anchor_facts": _PROTOCOL,
    "frames_of": _PROTOCOL,
    "anchor_count": _PROTOCOL,
    "fact_counts": _PROTOCOL,
    "_timeline": _TIMELINE,
    "timeline_rows": _TIMELINE,
    "history_search_rows": _TIMELINE,
    "session_rows": _TIMELINE,
    "context_rows": _TIMELINE,
    "canon_rows": _CANON,
    "_label_counts": _CANON,
    "canon_scopes": _CANON,
    "frame_counts": _CANON,
    "narrative_accounts": _NARRATIVES,
    "narratives_on": _NARRATIVES,
    "narrative_row": _NARRATIVES,
    "claim_rows": _CLAIMS,
    "claim_citations": _CLAIMS,
    "claims_citing": _CLAIMS,
    "claim_ids": _CLAIMS,
    "events_of_types": _CLAIMS,
    "entity_matches": _CONFLICTS,
    "entity_groups": _CONFLICTS,
    "fact_texts": _CONFLICTS,
    "conflict_states": _CONFLICTS,
    "_age_days": _LISTING,
    "_rate": _LISTING,
    "_list_where": _LISTING,
    "list_rows": _LISTING,
    "link_map": _LISTING,
}


def part_function(name: str) -> Any:
    """The function of the part method ``name`` (its module imported); KeyError: none."""
    module, _, cls = PART_METHODS[name].partition(":")
    return vars(getattr(import_module(module), cls))[name]


class LazyParts:
    """The run-time base of the SQLite store: the parts' methods, bound when first used."""

    def __getattr__(self, name: str) -> Any:
        if name not in PART_METHODS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        method = part_function(name).__get__(self, type(self))
        self.__dict__[name] = method
        return method
