"""The history protocol of a memory (docs/model.md, The history protocol; decisions
0064–0066), pure: its state folded from the
fact's stream, and the rules of capture, consolidation, anchors, tiers, corroboration,
sensitivity and accountable forgetting.

A memory is an ordinary fact. One captured by ``remember`` starts as *working material*
(``MemoryCaptured``); ``promote(id, reason)`` consolidates it — importance never confers
truth, so promotion leaves its tier alone. A fact stored any other way (``store``, an
import) was put there on purpose and counts as consolidated, archive, not sensitive
(decision 0064).

Rules (memory-as-history's; the tests quote its words):

* ``pin`` only on consolidated memories: "This memory is still working-tier. Call
  promote(memory_id, reason) first"; a sensitive memory is pinned only when the
  corroboration gate is met (:mod:`embornal.domain.history.provenance`);
* ``testimony`` is reached only through corroboration: asking for it at capture is an
  error; an archive memory becomes testimony when the gate is met; "interpretation remains
  interpretation";
* every corroboration is recorded, "including duplicates";
* flagging a memory sensitive lifts an anchor and the canon memberships the gate does not
  support, in the same append (audited, reversible: corroborate, then pin and canonize
  again);
* ``forget`` refuses an anchored or canonized memory ("must unpin() first if anchored";
  "decanonize() (or end_scope()) first");
* an unpin of a memory that is not pinned is recorded as a no-op, distinct from a removal;
  one without a reason records ``legacy unpin: caller did not provide a reason``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.domain.bounds import MAX_CAPTURE_CONTEXT, MAX_ORIGIN_ID
from embornal.domain.events import DomainEvent, FactImportanceAdjusted
from embornal.domain.events.canon import MemoryDecanonized
from embornal.domain.events.protocol import (
    MemoryCaptured,
    MemoryContextSet,
    MemoryCorroborated,
    MemoryFlaggedSensitive,
    MemoryPromoted,
    MemoryRefused,
    MemoryReviewed,
    MemoryReviewOverdue,
    MemoryTierChanged,
    MemoryUnpinNoop,
)
from embornal.domain.history.provenance import Corroboration, Gate, clean_label, gate
from embornal.domain.history.screening import screen
from embornal.domain.history.state import (
    ARCHIVE,
    CONSOLIDATED,
    INTERPRETATION,
    TESTIMONY,
    UNSPECIFIED,
    WORKING,
    HistoryState,
    check_forget,
    evolve_history,
    history_of,
    is_protocol_event,
)
from embornal.errors import GateRefusal, InvalidInput, ProtocolViolation

if TYPE_CHECKING:
    from datetime import datetime

    from embornal.domain.facts.aggregate import FactState

__all__ = [
    "ARCHIVE",
    "CAPTURE_TIERS",
    "CONSOLIDATED",
    "GATE_ISSUE",
    "INTERPRETATION",
    "LEGACY_UNPIN_REASON",
    "MATERIAL_TYPES",
    "PROTOCOL_NOT_UNDOABLE",
    "REVIEW_DAYS",
    "SOFT_ANCHOR_LIMIT",
    "TESTIMONY",
    "TIERS",
    "WORKING",
    "HistoryState",
    "check_forget",
    "check_material",
    "check_pin",
    "check_settled",
    "check_tier",
    "decide_capture",
    "decide_corroborate",
    "decide_flag_sensitive",
    "decide_overdue",
    "decide_promote",
    "decide_refused",
    "decide_review",
    "evolve_history",
    "gate_of",
    "history_of",
    "is_protocol_event",
    "testimony_warning",
    "unpin_noop",
]

TIERS = (ARCHIVE, TESTIMONY, INTERPRETATION)
CAPTURE_TIERS = (ARCHIVE, INTERPRETATION)

#: Anchors past this many are kept but warned about (docs/model.md, Anchors).
SOFT_ANCHOR_LIMIT = 12
#: An interpretation not reviewed for this many days is due (``due_for_review``).
REVIEW_DAYS = 30
LEGACY_UNPIN_REASON = "legacy unpin: caller did not provide a reason"
#: What a capture may say its material is (memory-as-history's values; decision 0156).
MATERIAL_TYPES = (UNSPECIFIED, "document", "utterance", "observation", "summary")


def gate_of(state: FactState) -> Gate:
    """The corroboration gate of the memory: its origin is the source given at capture."""
    return gate(state.source, history_of(state).corroborations)


def testimony_warning(state: FactState) -> str | None:
    """A warning for testimony the recorded sources do not support (a historical label)."""
    h = history_of(state)
    g = gate_of(state)
    if h.tier == TESTIMONY and not g.satisfied:
        return f"testimony without sufficient recorded corroboration: {g.explain()}"
    return None


# -- decisions -----------------------------------------------------------------------------


def _active(state: FactState, doing: str) -> None:
    from embornal.errors import Conflict

    if state.state != "active":
        raise Conflict(
            f"fact {state.fact_id} is {state.state}: only an active memory can be {doing}",
            hint="Restore it first (`embornal memory restore ID --reason '...'`)."
            if state.state == "forgotten"
            else "Work on the fact that replaced it.",
        )


def check_tier(tier: object) -> str:
    """A tier a capture may ask for (``testimony`` only through corroboration)."""
    if tier is None:
        return ARCHIVE
    if not isinstance(tier, str) or tier.strip().lower() not in TIERS:
        raise InvalidInput(
            f"tier must be one of {', '.join(CAPTURE_TIERS)} (got {tier!r})",
            hint="Capture as archive, or interpretation for your own reading of the material.",
        )
    t = tier.strip().lower()
    if t == TESTIMONY:  # a value capture does not take, as memory-as-history refuses it
        raise InvalidInput(
            "testimony cannot be asked for at capture: it is reached only through "
            "corroboration by independent sources",
            hint="Capture it as archive, then call corroborate(memory_id, source) with each "
            "actual independent source (`embornal memory corroborate ID SOURCE`).",
        )
    return t


def _declared(value: object, name: str, most: int, hint: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > most or "\x00" in value:
        raise InvalidInput(
            f"{name} must be non-blank text of at most {most} characters, without NUL, or "
            f"left out (got {str(value)[:60]!r})",
            hint=hint,
        )
    return value


def check_material(
    material_type: object, origin_id: object, capture_context: object
) -> tuple[str | None, str | None, str | None]:
    """What a capture declares of its material (decision 0156): its type (None:
    unspecified), the original it repeats (trimmed; None: unknown) and how it was
    collected (as given; None: not said). A string is text, whatever it looks like."""
    if material_type is not None and material_type not in MATERIAL_TYPES:
        raise InvalidInput(
            f"material_type must be one of {', '.join(MATERIAL_TYPES)} (got "
            f"{str(material_type)[:60]!r})",
            hint="Choose unspecified, document, utterance, observation or summary; it says "
            "what the material is, not how far it is trusted (that is its tier).",
        )
    origin = _declared(
        origin_id,
        "origin_id",
        MAX_ORIGIN_ID,
        "Name the shared original its reposts repeat (a URL, a document id); leave it out "
        "when unknown.",
    )
    context = _declared(
        capture_context,
        "capture_context",
        MAX_CAPTURE_CONTEXT,
        "Say how it was collected, e.g. 'published meeting summary only'; leave it out "
        "when not known.",
    )
    kind = None if material_type in (None, UNSPECIFIED) else str(material_type)
    return kind, None if origin is None else origin.strip(), context


def decide_capture(
    fact_id: str,
    content: str,
    *,
    tier: object = None,
    security_sensitive: bool = False,
    session: str | None = None,
    event_at: datetime | None = None,
    session_position: int | None = None,
    material_type: object = None,
    origin_id: object = None,
    capture_context: object = None,
) -> MemoryCaptured:
    """The capture of the fact just stored: working material, screened for known
    injection shapes (a match flags it sensitive whatever the caller said), with what the
    caller declared of the material (:func:`check_material`)."""
    t = check_tier(tier)
    kind, origin, context = check_material(material_type, origin_id, capture_context)
    found = screen(content)
    return MemoryCaptured(
        fact_id,
        t,
        bool(security_sensitive) or found.flagged,
        found.matches,
        session,
        event_at,
        session_position,
        kind,
        origin,
        context,
    )


def decide_promote(state: FactState) -> list[DomainEvent]:
    """``[MemoryPromoted]`` for working material; ``[]`` for a consolidated memory."""
    _active(state, "promoted")
    if history_of(state).stage != WORKING:
        return []
    return [MemoryPromoted(state.fact_id)]


def decide_corroborate(
    state: FactState, source: object, common_origin: object = None
) -> list[DomainEvent]:
    """``[MemoryCorroborated]`` (always), then ``MemoryTierChanged`` to testimony when an
    archive memory now meets the gate."""
    _active(state, "corroborated")
    label = clean_label(source) if isinstance(source, str) else None
    if label is None:
        raise InvalidInput(
            "a corroboration needs a source label (who or what says it)",
            hint="Give a stable source id, e.g. a site, document or person.",
        )
    origin = clean_label(common_origin) if isinstance(common_origin, str) else None
    out: list[DomainEvent] = [MemoryCorroborated(state.fact_id, label, origin)]
    h = history_of(state)
    after = gate(state.source, (*h.corroborations, Corroboration(label, origin)))
    if h.tier == ARCHIVE and after.satisfied:
        out.append(MemoryTierChanged(state.fact_id, TESTIMONY, ARCHIVE))
    return out


def decide_review(state: FactState, note: object) -> list[DomainEvent]:
    """``[MemoryReviewed]`` for an interpretation (the note is required)."""
    _active(state, "reviewed")
    if not isinstance(note, str) or not note.strip():
        raise InvalidInput("a review needs a note: what was re-examined and what holds")
    if history_of(state).tier != INTERPRETATION:
        raise ProtocolViolation(
            f"memory {state.fact_id} is {history_of(state).tier}, not an interpretation: "
            "only interpretations are reviewed",
            hint="Call due_for_review() for the interpretations that are due "
            "(`embornal memory due-for-review`).",
        )
    return [MemoryReviewed(state.fact_id, note.strip())]


def decide_flag_sensitive(state: FactState, screened: tuple[str, ...] = ()) -> list[DomainEvent]:
    """``[MemoryFlaggedSensitive]``, and the lift of an anchor the gate does not support
    (a ``FactImportanceAdjusted`` unpinning it) and of every canon membership it does not
    support (a ``MemoryDecanonized`` of cause ``sensitivity`` per scope: "Retroactive
    sensitivity removes unsupported canon memberships ... atomically"); ``[]`` when it
    is sensitive already."""
    if state.state in ("purged",):
        _active(state, "flagged")
    if history_of(state).sensitive:
        return []
    out: list[DomainEvent] = [MemoryFlaggedSensitive(state.fact_id, screened)]
    if state.pinned and not gate_of(state).satisfied:
        out.append(
            FactImportanceAdjusted(state.fact_id, False, state.user_weight, True, state.user_weight)
        )
    if not gate_of(state).satisfied:
        out += [
            MemoryDecanonized(state.fact_id, s, "sensitivity") for s in history_of(state).scopes
        ]
    return out


def check_pin(state: FactState) -> None:
    """The protocol's conditions on a new anchor (``ProtocolViolation``: not met)."""
    check_settled(state, "be pinned", "pin it")


def check_settled(state: FactState, may: str, then: str) -> None:
    """What an anchor and a canon entry ask of a memory: consolidated (``ProtocolViolation``),
    and when security-sensitive, the corroboration gate met (``GateRefusal``). ``may``: what
    it would become (``"be pinned"``), ``then``: the call the hint suggests after
    corroborating (``"pin it"``)."""
    h = history_of(state)
    if h.stage == WORKING:
        raise ProtocolViolation(
            f"memory {state.fact_id} is still working material: only a consolidated memory "
            f"can {may}",
            hint="This memory is still working-tier. Call promote(memory_id, reason) first "
            "(`embornal memory promote ID --reason '...'`).",
        )
    if h.sensitive:
        g = gate_of(state)
        if not g.satisfied:
            raise GateRefusal(
                f"memory {state.fact_id} is security-sensitive and cannot {may} without "
                f"independent corroboration ({g.explain()})",
                hint="Record each actual independent source with corroborate(memory_id, "
                f"source) (`embornal memory corroborate ID SOURCE`), then {then}; never "
                "invent a label to pass the gate.",
            )


#: The issue a refusal of the corroboration gate records (a narrative's source issue too).
GATE_ISSUE = "insufficient_corroboration"


def decide_refused(
    state: FactState, operation: str, *, require_gate: bool = False
) -> list[DomainEvent]:
    """``[MemoryRefused]`` when the corroboration gate refuses ``operation`` (``pin``,
    ``canonize``, ``narrate``) on this memory now, else ``[]``: a sensitive memory (or,
    with ``require_gate``, any: a sensitive synthesis) without independent
    corroboration. A pin or canonize of working material is refused for that, not by
    the gate, and records nothing (decision 0142)."""
    h = history_of(state)
    if operation != "narrate" and h.stage == WORKING:
        return []
    if (h.sensitive or require_gate) and not gate_of(state).satisfied:
        return [MemoryRefused(state.fact_id, operation, GATE_ISSUE)]
    return []


def decide_overdue(state: FactState, days: int) -> list[DomainEvent]:
    """``[MemoryReviewOverdue]`` for a live interpretation not marked overdue since its
    last review (``due_for_review`` found it past ``days``), else ``[]``."""
    h = history_of(state)
    if state.status.value != "active" or h.tier != INTERPRETATION or h.overdue:
        return []
    return [MemoryReviewOverdue(state.fact_id, days)]


def unpin_noop(state: FactState) -> list[DomainEvent]:
    return [MemoryUnpinNoop(state.fact_id)]


_DECISION = "a protocol decision is kept as decided; a later decision reverses it "
PROTOCOL_NOT_UNDOABLE: dict[type[DomainEvent], str] = {
    MemoryCaptured: _DECISION + "(forget the memory)",
    MemoryPromoted: _DECISION + "(the record of the promotion stays)",
    MemoryCorroborated: _DECISION + "(every corroboration stays recorded)",
    MemoryTierChanged: _DECISION + "(the tier follows the recorded corroboration)",
    MemoryReviewed: _DECISION + "(review it again)",
    MemoryContextSet: _DECISION + "(set the history context again)",
    MemoryFlaggedSensitive: _DECISION + "(sensitivity is never silently lifted)",
    MemoryUnpinNoop: "an audited no-op changed nothing: there is nothing to undo",
    MemoryRefused: "an audited refusal changed nothing: there is nothing to undo",
    MemoryReviewOverdue: _DECISION + "(review it again)",
}
"""Why no undo exists for each protocol event (:data:`embornal.domain.undo.NOT_UNDOABLE`)."""
