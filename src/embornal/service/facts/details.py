"""The service values a recall never uses: a fact to store, a fact whole, a fact due for
confirmation, a purge's result. :mod:`embornal.service.results` re-exports them and loads
this module when one of them is first named (their classes cost a recall's start-up)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from datetime import datetime

from embornal.domain.events import Event
from embornal.domain.facts.fact import Fact
from embornal.domain.facts.tags import Tag
from embornal.domain.values import value
from embornal.hints import TYPE_CHECKING

if TYPE_CHECKING:  # only annotations name them
    from embornal.domain.spine.justification import EvidenceRef, Lifetime, Provenance, Visibility

__all__ = ["DueFact", "FactDetail", "NewFact", "PathEntry", "PurgeResult", "TreeNode"]


@value
class NewFact:
    """One fact to store (``Memory.store_many``); ``attributes``, ``confidence``,
    ``visibility``, ``source`` and ``evidence`` as for ``Memory.store``."""

    path: str
    content: str
    tags: Sequence[str] | Mapping[str, str] | None = None
    at: datetime | str | None = None
    kind: str = "fact"
    attributes: Mapping[str, object] | None = None
    confidence: float | None = None
    visibility: Visibility | str | None = None
    source: str | None = None
    evidence: Sequence[EvidenceRef | str] = ()
    lifetime: Lifetime | str | None = None  # permanent, standard, ephemeral, until:DATE


@value
class FactDetail:
    """One fact whole. The spine is derived when read, never stored: ``confidence`` and
    ``evidence`` folded from the stream, ``c_eff`` (decayed since ``last_confirmed_at``
    or creation by the kind's half-life) and ``stale`` at the moment of reading. ``as_of``:
    the past time the whole detail stands for (None: now)."""

    fact: Fact
    strength: float
    effective_tags: tuple[tuple[Tag, str | None], ...]
    links: tuple[str, ...]
    events: tuple[Event, ...] = field(default=())
    confidence: float | None = None
    c_eff: float | None = None
    stale: bool = False
    last_confirmed_at: datetime | None = None
    evidence: tuple[EvidenceRef, ...] = ()
    # Who put it here: the subject and actor kind of its FactStored, and its source label.
    source: Provenance | None = None
    # Importance and lifetime (the fact carries them too): ``expired`` when the lifetime
    # ran out at the moment of reading (the fact has left recall), and why.
    pinned: bool = False
    user_weight: float | None = None
    lifetime: str = "standard"
    expires_at: datetime | None = None
    expired: bool = False
    expired_because: str | None = None
    as_of: datetime | None = None  # the past time the whole detail stands for; None: now


@value
class DueFact:
    """A stale fact to confirm again (``memory due``): its stored confidence, ``c_eff`` now,
    the kind's staleness threshold, and the moment its decay counts from."""

    fact: Fact
    confidence: float
    c_eff: float
    threshold: float
    since: datetime


@value
class PurgeResult:
    """What a purge erased."""

    fact_id: str
    redacted_events: int
    file_compacted: bool


@value
class PathEntry:
    """One path below another, with its fact and child counts."""

    path: str
    fact_count: int
    child_count: int


@value
class TreeNode:
    """One path of a tree, with its children."""

    path: str
    name: str
    fact_count: int
    children: tuple[TreeNode, ...] = ()
