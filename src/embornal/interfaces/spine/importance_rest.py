"""The REST models of importance and lifetime: the answers of pin and due, due's query.
The bodies of pin, unpin, weight and lifetime are made from the catalogue
(:mod:`embornal.interfaces.http.derived`, decision 0162)."""

from __future__ import annotations

from pydantic import Field

from embornal.interfaces.http.schemas import FactOut, Limit, Time, UnderIn, _In, _Out

__all__ = ["DueFactOut", "DueOut", "DueQuery", "PinOut"]


class DueFactOut(_Out):
    """A stale fact to confirm again."""

    fact: FactOut
    confidence: float
    c_eff: float = Field(description="The confidence decayed to now.")
    threshold: float = Field(description="The kind's staleness threshold on c_eff.")
    since: Time = Field(description="The last confirmation, or the creation: decay counts from it.")


class DueOut(_Out):
    """Most urgent first (lowest c_eff / threshold)."""

    facts: list[DueFactOut]


class PinOut(FactOut):
    """A fact after a pin: ``warnings`` only when the pin is past the soft anchor limit."""

    warnings: list[str] | None = Field(
        None, exclude=True, description="What the pin warns about (past the soft anchor limit)."
    )


class DueQuery(_In):
    limit: Limit = None
    under: UnderIn = None
