"""Canon and frames of the history protocol (docs/model.md, Canon and scopes, Frames;
decision 0078), pure.

The **canon** is the small, rotating set of memories a task is about, per named scope,
distinct from the permanent anchors. Rules (memory-as-history's; the tests quote its words):

* ``canonize(memory_id, scope, reason)`` only on a consolidated, live memory ("add a
  consolidated memory to the task-scoped active canon"): working material is promoted
  first, a forgotten memory restored first; a sensitive memory enters only with the
  corroboration gate met ("Sensitive pin, canon and narrative routes require recorded
  corroborating source labels"); once per scope;
* ``decanonize(memory_id, scope?, reason)`` / ``end_scope(scope, reason)`` "remove
  memory(ies) from the canon; the memory itself is untouched": only the membership
  changes, never the content, tier or stage;
* ``forget`` refuses a canonized memory (:func:`embornal.domain.history.state.check_forget`);
* flagging a memory sensitive lifts the memberships the gate does not support, in the
  same append as the lift of an unsupported anchor
  (:func:`embornal.domain.history.protocol.decide_flag_sensitive`);
  "Reestablishing evidence does not automatically re-pin or re-canonize."

A **frame** is a label a memory is filed under ("Frames are filters, not complete social
models or access-control boundaries"); re-framing needs a reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.domain.events import DomainEvent
from embornal.domain.events.canon import MemoryCanonized, MemoryDecanonized, MemoryFramed
from embornal.domain.history.protocol import check_settled, gate_of
from embornal.domain.history.state import history_of
from embornal.errors import Conflict, InvalidInput, ProtocolViolation

if TYPE_CHECKING:
    from embornal.domain.facts.aggregate import FactState

__all__ = [
    "CANON_CAUSES",
    "CANON_NOT_UNDOABLE",
    "MAX_LABEL",
    "SOFT_CANON_LIMIT",
    "canon_eligible",
    "check_label",
    "decide_canonize",
    "decide_decanonize",
    "decide_set_frame",
]

#: Active canon entries past this many are kept but warned about (a focused set).
SOFT_CANON_LIMIT = 8
MAX_LABEL = 200
CANON_CAUSES = ("decanonize", "end_scope", "sensitivity")


def check_label(value: object, what: str, *, required: bool = True) -> str | None:
    """A scope or frame label: trimmed, case kept, 1–200 characters, no control
    characters."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(
            f"a {what} is a non-blank label (got {value!r})",
            hint=f"Name the {what}, e.g. 'release-2.0'.",
        )
    text = value.strip()
    if len(text) > MAX_LABEL or any(ord(c) < 32 for c in text):
        raise InvalidInput(
            f"a {what} is a label of at most {MAX_LABEL} characters on one line",
        )
    return text


def _live(state: FactState, doing: str) -> None:
    if state.state == "forgotten":
        raise ProtocolViolation(
            f"memory {state.fact_id} is forgotten: only a live memory can be {doing}",
            hint="Restore it first: restore(memory_id, reason) (`embornal memory restore ID "
            "--reason '...'`).",
        )
    if state.state != "active":
        raise Conflict(
            f"fact {state.fact_id} is {state.state}: only a live memory can be {doing}",
            hint="Work on the fact that replaced it.",
        )


def canon_eligible(state: FactState) -> bool:
    """Whether a canon entry of the memory may take a priority slot: live, and not
    sensitive without the corroboration gate met (a legacy unsupported entry stays
    inspectable, ``eligible_for_recall=false``)."""
    h = history_of(state)
    return state.state == "active" and (not h.sensitive or gate_of(state).satisfied)


def decide_canonize(state: FactState, scope: str) -> list[DomainEvent]:
    """``[MemoryCanonized]``: a consolidated, live memory not yet in ``scope``'s canon; a
    sensitive one only with the corroboration gate met."""
    _live(state, "canonized")
    check_settled(state, "enter the canon", "canonize it")
    if scope in history_of(state).scopes:
        raise ProtocolViolation(
            f"memory {state.fact_id} is already in the active canon of scope {scope!r}",
            hint=f"Call list_canon(scope={scope!r}) (`embornal canon list --scope SCOPE`) to "
            "see the scope's entries.",
        )
    return [MemoryCanonized(state.fact_id, scope)]


def decide_decanonize(
    state: FactState, scope: str | None, cause: str = "decanonize"
) -> list[DomainEvent]:
    """``[MemoryDecanonized]`` for ``scope`` (None: every scope it is in); refused when
    the memory is in no such active canon."""
    h = history_of(state)
    chosen = h.scopes if scope is None else tuple(s for s in h.scopes if s == scope)
    if not chosen:
        where = f" of scope {scope!r}" if scope is not None else ""
        raise ProtocolViolation(
            f"memory {state.fact_id} is not in the active canon{where}",
            hint="Call list_canon() (`embornal canon list`) to see the active canon.",
        )
    return [MemoryDecanonized(state.fact_id, s, cause) for s in chosen]


def decide_set_frame(state: FactState, frame: str) -> list[DomainEvent]:
    """``[MemoryFramed]`` (``[]`` when it has that frame already) on a live memory."""
    _live(state, "framed")
    h = history_of(state)
    if h.frame == frame:
        return []
    return [MemoryFramed(state.fact_id, frame, h.frame)]


_DECISION = "a canon or frame decision is kept as decided; a later decision reverses it "
CANON_NOT_UNDOABLE: dict[type[DomainEvent], str] = {
    MemoryCanonized: _DECISION + "(decanonize the memory)",
    MemoryDecanonized: _DECISION + "(canonize the memory again)",
    MemoryFramed: _DECISION + "(set its frame again)",
}
"""Why no undo exists for each event of canon and frames."""
