"""What ``Memory.reindex`` returns: off the start-up path of the short commands."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ReindexResult"]


@dataclass(frozen=True)
class ReindexResult:
    """What a reindex embedded, and what still waits."""

    embedded: int
    remaining: int
    model: str | None
