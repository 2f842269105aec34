"""The wire shape of the recall cascade (spliced into :mod:`embornal.interfaces.wire`;
decisions 0095-0096): its sections in their order of priority, each item in its own
type's shape (a fact, a canon entry, a recall hit, a memory due for review, a narrative
or its review notice, a conflict)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from embornal.domain.facts.fact import Fact
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.history.canon_results import CanonEntry
from embornal.service.history.cascade_results import Cascade
from embornal.service.history.results import DueMemory
from embornal.service.narratives.results import Narrative, NarrativeReview
from embornal.service.results import RecallHit

if TYPE_CHECKING:
    from embornal.interfaces.wire import Readers, Shapes, WireCore

__all__ = ["SECTIONS", "shapes"]

Wire = dict[str, Any]

SECTIONS = ("anchors", "canon", "memories", "hits", "stale_interpretations", "conflicts")
"""The list sections of a cascade, in its order."""

_KINDS: dict[str, type] = {
    "anchors": Fact,
    "canon": CanonEntry,
    "memories": RecallHit,
    "hits": RecallHit,
    "stale_interpretations": DueMemory,
    "conflicts": ConflictRecord,
}


def shapes(core: WireCore) -> tuple[Shapes, Readers]:
    """The shape and reader of :class:`Cascade`, given the wire's ``to_wire`` and
    ``from_wire`` (each item in its own type's shape)."""
    encode, decode = core.encode, core.decode

    def shape(c: Cascade) -> Wire:
        out: Wire = {"query": c.query, "frame": c.frame, "limit": c.limit}
        for name in SECTIONS[:5]:
            out[name] = [encode(item) for item in getattr(c, name)]
        out["narrative"] = encode(c.narrative)
        out["narrative_review"] = encode(c.narrative_review)
        out["conflicts"] = [encode(item) for item in c.conflicts]
        return out

    def read(d: Mapping[str, Any]) -> Cascade:
        lists: dict[str, tuple[Any, ...]] = {
            name: tuple(decode(_KINDS[name], item) for item in d.get(name) or ())
            for name in SECTIONS
        }
        narrative, review = d.get("narrative"), d.get("narrative_review")
        return Cascade(
            query=None if d.get("query") is None else str(d["query"]),
            frame=None if d.get("frame") is None else str(d["frame"]),
            limit=int(d["limit"]),
            narrative=None if narrative is None else decode(Narrative, narrative),
            narrative_review=None if review is None else decode(NarrativeReview, review),
            **lists,
        )

    return {Cascade: shape}, {Cascade: read}
