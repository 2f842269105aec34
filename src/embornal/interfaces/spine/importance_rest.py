"""The REST models of importance and lifetime: the answers of pin and due, due's query.
The bodies of pin, unpin, weight and lifetime are made from the catalogue
(:mod:`embornal.interfaces.http.derived`, decision 0162)."""

from __future__ import annotations

from pydantic import Field

from embornal.interfaces.http.derived import answer_model, list_answer
from embornal.interfaces.http.schemas import FactOut
from embornal.service.facts.details import DueFact

__all__ = ["DueFactOut", "DueOut", "PinOut"]


DueFactOut = answer_model(
    DueFact,
    doc="A stale fact to confirm again.",
    c_eff="The confidence decayed to now.",
    threshold="The kind's staleness threshold on c_eff.",
    since="The last confirmation, or the creation: decay counts from it.",
)


DueOut = list_answer(
    "DueOut", "facts", DueFactOut, doc="Most urgent first (lowest c_eff / threshold)."
)


class PinOut(FactOut):
    """A fact after a pin: ``warnings`` only when the pin is past the soft anchor limit."""

    warnings: list[str] | None = Field(
        None, exclude=True, description="What the pin warns about (past the soft anchor limit)."
    )
