"""Races made on purpose: another writer acts between a command's load and its append."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from embornal import Memory
from embornal.domain.facts.aggregate import FactState


def after_first_load(
    mem: Memory, monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[], object]
) -> list[FactState | None]:
    """Run ``meanwhile`` (another writer) right after ``mem`` first loads a fact's state;
    the list collects every state loaded (a retry loads again)."""
    store = mem._store
    real = store.fact_state
    loads: list[FactState | None] = []

    def load(fact_id: str) -> FactState | None:
        state = real(fact_id)
        loads.append(state)
        if len(loads) == 1:
            meanwhile()
        return state

    monkeypatch.setattr(store, "fact_state", load)
    return loads
