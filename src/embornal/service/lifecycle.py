"""Load, decide, append: how the service runs a command on the fact aggregate.

The state is loaded outside the write transaction, the pure ``decide_…`` function of
:mod:`embornal.domain.fact_aggregate` turns it into events, and ``write`` appends them
with ``expected_version`` = the version loaded. When another writer moved the fact
meanwhile, the append raises :class:`ConcurrencyError`, and the whole load → decide →
append runs again on the new state (which may now refuse the command), at most
:data:`MAX_ATTEMPTS` times.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from embornal.domain.events import FactStored
from embornal.domain.fact_aggregate import FactState
from embornal.domain.facts import Fact
from embornal.domain.strength import INITIAL_STABILITY_DAYS
from embornal.errors import ConcurrencyError, NotFound
from embornal.storage.contract import Store, Tx

__all__ = ["MAX_ATTEMPTS", "new_fact", "run_command"]

MAX_ATTEMPTS = 3

D = TypeVar("D")
R = TypeVar("R")


def run_command(
    store: Store,
    fact_id: str,
    decide: Callable[[FactState], D],
    write: Callable[[Tx, FactState, D], R],
    doing: str,
) -> R:
    """``write(conn, state, decide(state))`` in one transaction, on a fresh state each try.

    ``decide`` raises the domain error that refuses the command; ``write`` appends with
    ``expected_version=state.version`` (and may check what else the decision read).
    """
    for _ in range(MAX_ATTEMPTS):
        state = store.fact_state(fact_id)
        if state is None:
            raise NotFound(f"no fact with id {fact_id}")
        decided = decide(state)
        try:
            with store.transaction(doing) as conn:
                return write(conn, state, decided)
        except ConcurrencyError:
            continue
    raise ConcurrencyError(
        f"fact {fact_id} changed {MAX_ATTEMPTS} times while {doing}; nothing was written",
        hint="Other writers are busy with this fact; read it again and retry.",
    )


def new_fact(b: FactStored) -> Fact:
    """The fact a FactStored event creates, as the projection holds it (no re-read)."""
    return Fact(
        id=b.fact_id,
        path=b.path,
        content=b.content or "",
        kind=b.kind,
        owner=b.owner,
        created_at=b.created_at,
        last_recall_at=None,
        recall_count=0,
        stability_days=INITIAL_STABILITY_DAYS,
        supersedes_id=b.supersedes_id,
        superseded_by=None,
        deleted_at=None,
        purged_at=None,
        tags=tuple(sorted(b.tags)),
    )
