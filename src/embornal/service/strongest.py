"""Recall with no query: the strongest facts the subject may see, with the spine added."""

from __future__ import annotations

from datetime import datetime

from embornal.domain.clock import format_time
from embornal.domain.ranking import ScoreParts, candidate_count, spine_parts
from embornal.domain.scope import ReadScope
from embornal.domain.strength import strength
from embornal.service.results import RecallHit
from embornal.storage.contract import PastReads, Store

__all__ = ["strongest"]


def strongest(
    store: Store | PastReads, n: int, vis: ReadScope, now: datetime, under: str | None
) -> list[RecallHit]:
    """The ``n`` strongest (strength + spine) of the store's strongest candidates."""
    hits = []
    for f in store.strongest(candidate_count(n), format_time(now), vis, under=under):
        s = strength(f.signals, now)
        sp = spine_parts(f, now)
        total = s + sp["spine"]
        hits.append(RecallHit(f, total, s, ScoreParts(total=total, strength=s, **sp)))
    hits.sort(key=lambda h: h.score, reverse=True)  # stable: ties keep the store's order
    return hits[:n]
