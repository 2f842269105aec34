"""How a command on one fact runs: load, decide, append.

The state is loaded outside the write transaction, the pure ``decide_…`` function of
:mod:`embornal.domain.facts.aggregate` turns it into events, and ``write`` appends them
with ``expected_version`` = the version loaded. When another writer moved the fact
meanwhile, the append raises :class:`ConcurrencyError`, and the whole load → decide →
append runs again on the new state (which may now refuse the command), at most
:data:`MAX_ATTEMPTS` times (decision 0026).
"""

from __future__ import annotations

from collections.abc import Callable

from embornal.domain.facts.aggregate import FactState
from embornal.errors import ConcurrencyError, NotFound
from embornal.hints import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from embornal.storage.contract.store import Store, Tx

__all__ = ["MAX_ATTEMPTS", "run_command"]

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
