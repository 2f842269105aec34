"""Which module projects the events of each area, so that applying an event imports only
its own area's (decision 0094).

:mod:`embornal.storage.projector` projects the core's events itself (a fact's store,
lifecycle, confidence and recalls; tags; access rules; tokens; most written once for both
backends in :mod:`embornal.storage.projector_sql`); an area's module
(its ``HANDLERS``) is imported the first time one of its events is applied, and its
handlers join the projector's. A test checks that every event type is the projector's
own or named here, by the module whose ``HANDLERS`` has it.
"""

from __future__ import annotations

from functools import cache

__all__ = ["AREAS", "projection_tables"]

_BY_AREA: dict[str, tuple[str, ...]] = {
    "conflict_projection": ("ConflictOpened", "ConflictResolved"),  # decision 0059
    "graph": ("FactLinked", "FactUnlinked", "FactMerged"),
    "proposals_sql": ("ProposalOpened", "ProposalEdited", "ProposalApproved", "ProposalRejected"),
    "protocol": (  # the history protocol's (decision 0064)
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
    "canon": ("MemoryCanonized", "MemoryDecanonized", "MemoryFramed"),  # decision 0078
    "narratives_sql": (  # decisions 0085, 0142
        "NarrativeVersioned",
        "NarrativeReviewed",
        "NarrativeInvalidated",
    ),
    "claims_sql": (  # the claims ledger's (decision 0081)
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
    from embornal.storage import (
        canon,
        claims_sql,
        conflict_projection,
        graph,
        history,
        narratives_sql,
        proposals_sql,
        protocol,
    )

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
