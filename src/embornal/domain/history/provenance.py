"""Corroboration by distinct origins: the gate of testimony, sensitive anchors, canon
entries and narrative dependencies (docs/model.md, The history protocol; decision 0066).

A memory has an *origin* (the source label given at capture; blank or missing: unknown)
and the corroborations recorded since, each a source label, optionally declaring the
common origin it repeats (a repost of one article on three sites is one origin group).
Counting them:

* labels are compared with surrounding whitespace trimmed and case kept (``Reuters`` and
  ``reuters`` are two labels; ``" Reuters "`` and ``Reuters`` one);
* each label belongs to its declared origin's group, or is its own group; a repeated label
  or a second label of one group adds nothing;
* a group that is the memory's own origin does not count;
* **a known origin needs one independent group; an unknown origin needs two** (any one of
  them could be the true origin).

Labels are what callers say: they are not authenticated, and the gate only ever counts
what is recorded. Every corroboration is recorded, the ones that add nothing too.
"""

from __future__ import annotations

from collections.abc import Sequence

from embornal.domain.values import value

__all__ = ["Corroboration", "Gate", "clean_label", "gate"]


@value
class Corroboration:
    """One recorded corroboration: the source label and the origin it declares it repeats
    (None: it is its own)."""

    source: str
    common_origin: str | None = None


@value
class Gate:
    """What the recorded sources amount to."""

    origin: str | None  # the cleaned origin label; None: unknown
    sources: tuple[str, ...]  # the distinct cleaned corroborating labels, first seen first
    independent: tuple[str, ...]  # the origin groups that count, first seen first
    needed: int  # 1 for a known origin, 2 for an unknown one

    @property
    def satisfied(self) -> bool:
        return len(self.independent) >= self.needed

    @property
    def missing(self) -> int:
        """How many more independent origins the gate needs (0: it is met)."""
        return max(0, self.needed - len(self.independent))

    def explain(self) -> str:
        """One line: what is there, what is needed."""
        origin = f"origin {self.origin!r}" if self.origin else "unknown origin"
        if self.satisfied:
            return f"{origin}; {len(self.independent)} independent source(s): met"
        return (
            f"{origin}; {len(self.independent)} independent source(s) of {self.needed} "
            f"needed: {self.missing} more, each from an origin not counted yet"
        )


def clean_label(label: str | None) -> str | None:
    """A source label as the gate compares it: whitespace trimmed, case kept; blank is None."""
    if label is None:
        return None
    trimmed = label.strip()
    return trimmed or None


def gate(origin: str | None, corroborations: Sequence[Corroboration]) -> Gate:
    """The gate of a memory of ``origin`` with ``corroborations`` (see the module)."""
    own = clean_label(origin)
    sources: list[str] = []
    groups: list[str] = []
    for c in corroborations:
        label = clean_label(c.source)
        if label is None:
            continue
        if label not in sources:
            sources.append(label)
        group = clean_label(c.common_origin) or label
        if group != own and group not in groups:
            groups.append(group)
    return Gate(own, tuple(sources), tuple(groups), 1 if own is not None else 2)
