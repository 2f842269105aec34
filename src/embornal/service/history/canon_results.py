"""What the use cases of canon and frames return (decision 0078)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from embornal.domain.facts.fact import Fact

__all__ = ["CanonEntry", "CanonRemoval", "FrameInUse", "ScopeInUse"]


@dataclass(frozen=True)
class CanonEntry:
    """One active canon membership: the memory (untouched by canon changes), its scope,
    since when, why and by whom; ``eligible_for_recall`` false for a sensitive memory the
    corroboration gate does not support (a legacy entry: inspectable, no priority slot),
    and warnings (past the soft canon limit, an unsupported entry)."""

    fact: Fact
    scope: str
    reason: str | None
    since: datetime
    actor: str
    eligible_for_recall: bool = True
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class CanonRemoval:
    """What a decanonize or an end of scope took out of the active canon: the scopes and
    memories it touched, how many memberships, and why (the memories are untouched)."""

    scopes: tuple[str, ...]
    memory_ids: tuple[str, ...]
    removed: int
    reason: str


@dataclass(frozen=True)
class ScopeInUse:
    """A canon scope with active memberships, and how many."""

    scope: str
    entries: int


@dataclass(frozen=True)
class FrameInUse:
    """A frame carried by live memories, and by how many."""

    frame: str
    memories: int
