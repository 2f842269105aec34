"""What ``cat`` returns for each fact: the fact with its strength when read. Apart from
:mod:`embornal.service.results` (which re-exports it), so that a recall, which never returns
one, does not make its class."""

from __future__ import annotations

from embornal.domain.facts.fact import Fact
from embornal.domain.values import value

__all__ = ["FactView"]


@value
class FactView:
    """A fact with its strength at the moment it was read."""

    fact: Fact
    strength: float
