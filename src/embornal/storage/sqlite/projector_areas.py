"""Which module projects the events of each area, so that applying an event imports only
its own area's (decision 0094).

:mod:`embornal.storage.sqlite.projector` projects the core's events itself (a fact's store,
lifecycle, confidence and recalls; tags; access rules; tokens; most written once for both
backends in :mod:`embornal.storage.common.projector`); an area's module
(its ``HANDLERS``) is imported the first time one of its events is applied, and its
handlers join the projector's. A test checks that every event type is the projector's
own or named here, by the module whose ``HANDLERS`` has it.
"""

from __future__ import annotations

from functools import cache

__all__ = ["AREAS", "projection_tables"]

_BY_AREA: dict[str, tuple[str, ...]] = {
    "common.conflict_projection": ("ConflictOpened", "ConflictResolved"),  # decision 0059
    "common.graph": ("FactLinked", "FactUnlinked", "FactMerged"),
    "common.proposals": (
        "ProposalOpened",
        "ProposalEdited",
        "ProposalApproved",
        "ProposalRejected",
    ),
    "common.protocol": (  # the history protocol's (decision 0064)
        "MemoryCaptured",
        "MemoryPromoted",
        "MemoryCorroborated",
        "MemoryTierChanged",
        "MemoryReviewed",
        "MemoryFlaggedSensitive",
        "MemoryUnpinNoop",
        "MemoryContextSet",
        "MemoryRefused",
        "MemoryReviewOverdue",
    ),
    "common.canon": ("MemoryCanonized", "MemoryDecanonized", "MemoryFramed"),  # decision 0078
    "common.narratives": (  # decisions 0085, 0142
        "NarrativeVersioned",
        "NarrativeReviewed",
        "NarrativeInvalidated",
    ),
    "common.claims": (  # the claims ledger's (decision 0081)
        "ClaimCreated",
        "ClaimEvidenceAdded",
        "ClaimEvidenceRetracted",
        "ClaimAdopted",
        "ClaimRevised",
        "ClaimSuperseded",
        "ClaimWithdrawn",
    ),
}

#: Stored event type → the module that projects it.
AREAS: dict[str, str] = {
    event_type: f"embornal.storage.{module}"
    for module, types in _BY_AREA.items()
    for event_type in types
}


@cache
def projection_tables() -> tuple[str, ...]:
    """Tables rebuilt from the log, in the order a replay clears them (children first)."""
    from embornal.storage.common import canon, conflict_projection, graph, history, protocol
    from embornal.storage.common import claims as claims_sql
    from embornal.storage.common import narratives as narratives_sql
    from embornal.storage.common import proposals as proposals_sql

    return (
        *conflict_projection.TABLES,
        *graph.TABLES,
        "fact_visibility_allow",
        *history.TABLES,
        *protocol.TABLES,
        *canon.TABLES,
        "fact_evidence",
        "fact_tags",
        "path_tags",
        "facts",
        "path_closure",
        "paths",
        "casbin_rule",
        "tokens",
        proposals_sql.TABLE,
        *narratives_sql.TABLES,
        *claims_sql.TABLES,
    )
