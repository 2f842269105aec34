"""The REST models of importance and lifetime: pin, unpin, weight, lifetime, due."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from embornal.domain.facts import MAX_REASON_LENGTH
from embornal.domain.paths import MAX_PATH_LENGTH
from embornal.interfaces.http.schemas import FactOut, LifetimeText, Limit, Time, _In, _Out

__all__ = ["DueFactOut", "DueOut", "DueQuery", "LifetimeIn", "PinIn", "PinOut", "WeightIn"]


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


class PinIn(_In):
    reason: str | None = Field(None, max_length=MAX_REASON_LENGTH, description="Why.")


class WeightIn(_In):
    weight: float | None = Field(
        ge=0.0,
        le=1.0,
        strict=True,  # a boolean is not a weight (JSON false is not 0)
        description="0..1 (0.5 neutral); null takes the weight off.",
    )
    reason: str | None = Field(None, max_length=MAX_REASON_LENGTH, description="Why.")


class LifetimeIn(_In):
    lifetime: LifetimeText
    reason: str | None = Field(None, max_length=MAX_REASON_LENGTH, description="Why.")


class DueQuery(_In):
    limit: Limit = None
    under: Annotated[
        str | None,
        Field(
            min_length=1,
            max_length=MAX_PATH_LENGTH,
            pattern="^/",
            description="Only facts at or below this path.",
        ),
    ] = None
