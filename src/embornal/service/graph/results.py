"""What the graph's use cases return (:mod:`.links`, :mod:`.merge`): frozen dataclasses."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from embornal.domain.facts.fact import Fact

__all__ = ["DanglingLink", "Link", "LinkGraph", "LinkRecord", "LinkStep", "LinkedFact"]


@dataclass(frozen=True)
class Link:
    """A typed link as stored: ``source_id —relation→ target_id`` (canonical direction)."""

    source_id: str
    relation: str
    target_id: str


@dataclass(frozen=True)
class LinkStep:
    """One link a traversal followed: the stored link, the fact it was read from
    (``from_id``) and the one it reached (``to_id``, a merged source read as its survivor),
    ``name`` the relation as read from ``from_id`` (an inverse name when read against its
    direction) and the ``depth`` of ``to_id``."""

    source_id: str
    relation: str
    target_id: str
    from_id: str
    to_id: str
    name: str
    depth: int


@dataclass(frozen=True)
class LinkedFact:
    """A fact a traversal reached, at ``depth`` links from the start."""

    fact: Fact
    depth: int


@dataclass(frozen=True)
class LinkRecord:
    """One time a link was made (``linked_at``, ``reason``) and, when it was retracted
    since, its retirement (``retired_at``, ``retirement_reason``; None: live)."""

    source_id: str
    relation: str
    target_id: str
    linked_at: datetime
    reason: str | None = None
    retired_at: datetime | None = None
    retirement_reason: str | None = None


@dataclass(frozen=True)
class LinkGraph:
    """A fact's neighbourhood: the facts reached (breadth first, nearest first), the links
    followed, the ``[[/path]]`` links of its content, and the ``relationship`` facts that
    name it as subject or object (tier 2). ``truncated``: the limit stopped the walk."""

    root: Fact
    nodes: tuple[LinkedFact, ...]
    steps: tuple[LinkStep, ...]
    content_links: tuple[str, ...]
    relationships: tuple[Fact, ...]
    truncated: bool = False
    links: tuple[LinkRecord, ...] = ()
    """``memory_links``: the root's links to memories the subject may read, as made,
    oldest first; the retracted ones too when asked (empty for ``links``)."""


@dataclass(frozen=True)
class DanglingLink:
    """A link whose target is no live fact: ``target_state`` forgotten or purged (a merged
    target resolves to its survivor, so it is not dangling)."""

    source_id: str
    relation: str
    target_id: str
    target_state: str
