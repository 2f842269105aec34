"""The justification spine in the fact aggregate, pure: confirm, contradict and evidence are
decided on a state and folded in log order with the weights of the actor kinds (decision
0032)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from embornal.domain.events import (
    ActorKind,
    Event,
    FactConfirmed,
    FactContradicted,
    FactEvidenceAdded,
    FactPurged,
    FactStored,
    to_payload,
)
from embornal.domain.facts.aggregate import FactState, FactStatus, StoreFact, decide_store, fold
from embornal.domain.spine import confidence as C
from embornal.domain.spine.decisions import (
    AddEvidence,
    ConfirmFact,
    ContradictFact,
    decide_add_evidence,
    decide_confirm,
    decide_contradict,
)
from embornal.domain.spine.justification import EvidenceRef, EvidenceType, parse_evidence
from embornal.errors import Conflict, InvalidConfidence, InvalidEvidence, InvalidInput, NotFound

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)
FID = "01KDVDNA00AAAAAAAAAAAAAAAA"
OTHER = "01KDVDNA00BBBBBBBBBBBBBBBB"
QUOTE = EvidenceRef(EvidenceType.QUOTE, "she said so", "at lunch")


def _env(body: object, kind: ActorKind, version: int, at: datetime = NOW) -> Event:
    assert isinstance(body, FactStored | FactConfirmed | FactContradicted | FactEvidenceAdded)
    return Event(
        position=version,
        stream_id=FID,
        version=version,
        type=body.TYPE,
        payload=to_payload(body),
        actor="someone",
        actor_kind=kind.value,
        recorded_at=at,
        known_body=body,
    )


def _stored(confidence: float | None = None) -> FactStored:
    (stored,) = decide_store(StoreFact(FID, "/notes", "tea", "alice", confidence=confidence), NOW)
    return stored


def _state(kind: ActorKind = ActorKind.PERSON) -> FactState:
    state = fold([_env(_stored(), kind, 1)])
    assert state is not None
    return state


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        (ActorKind.PERSON, 0.95),
        (ActorKind.ASSISTANT, 0.60),
        (ActorKind.IMPORT, 0.70),
        (ActorKind.SYSTEM, 0.70),
    ],
)
def test_a_fact_starts_at_the_prior_of_its_actor_kind(kind: ActorKind, expected: float) -> None:
    assert _stored().confidence is None  # not stored: a retune of the priors re-scores it
    assert "confidence" not in to_payload(_stored())  # the old stored format
    assert _state(kind).confidence == expected


def test_a_confidence_given_at_creation_is_stored_and_checked() -> None:
    assert _stored(0.3).confidence == 0.3
    state = fold([_env(_stored(0.3), ActorKind.ASSISTANT, 1)])
    assert state is not None and state.confidence == 0.3
    for bad in (1.5, -0.1, float("nan"), True, "0.5"):
        with pytest.raises(InvalidConfidence):
            _stored(bad)  # type: ignore[arg-type]


def test_confirm_contradict_and_evidence_fold_in_log_order_by_who_acted() -> None:
    state = _state(ActorKind.ASSISTANT)  # 0.60
    steps = [
        (decide_confirm(state, ConfirmFact(FID, QUOTE), NOW), ActorKind.PERSON),
        (decide_contradict(state, ContradictFact(FID), NOW), ActorKind.ASSISTANT),
        (decide_add_evidence(state, AddEvidence(FID, QUOTE), NOW), ActorKind.ASSISTANT),
    ]
    later = NOW + timedelta(days=3)
    stream = [_env(_stored(), ActorKind.ASSISTANT, 1)]
    for i, (events, kind) in enumerate(steps):
        (event,) = events
        stream.append(_env(event, kind, i + 2, later if i == 2 else NOW))
    folded = fold(stream)
    assert folded is not None
    expected = C.confirm(C.contradict(C.confirm(0.60, 0.5), 0.2), 0.1)
    assert folded.confidence == pytest.approx(expected) and folded.confidence == expected
    assert folded.last_confirmed_at == later  # the evidence, after the confirm
    assert folded.evidence == (QUOTE, QUOTE)  # the confirm's and the added one, in order
    assert folded.version == 4


def test_a_contradiction_dates_nothing_and_its_evidence_is_not_the_facts() -> None:
    state = _state()
    (event,) = decide_contradict(
        state, ContradictFact(FID, OTHER, QUOTE), NOW, replace(state, fact_id=OTHER)
    )
    assert isinstance(event, FactContradicted) and event.by_id == OTHER
    assert event.evidence == QUOTE
    folded = fold([_env(_stored(), ActorKind.PERSON, 1), _env(event, ActorKind.PERSON, 2)])
    assert folded is not None
    assert folded.confidence == C.contradict(0.95, 0.5)
    assert folded.last_confirmed_at is None and folded.evidence == ()


def test_only_an_active_fact_is_vouched_for_or_disputed() -> None:
    for state in (
        replace(_state(), status=FactStatus.FORGOTTEN),
        replace(_state(), status=FactStatus.PURGED),
        replace(_state(), superseded_by=OTHER),
    ):
        with pytest.raises(Conflict, match="only an active fact"):
            decide_confirm(state, ConfirmFact(FID), NOW)
        with pytest.raises(Conflict, match="only an active fact"):
            decide_contradict(state, ContradictFact(FID), NOW)
        with pytest.raises(Conflict, match="only an active fact"):
            decide_add_evidence(state, AddEvidence(FID, QUOTE), NOW)


def test_a_contradicting_fact_must_exist_and_be_another() -> None:
    state = _state()
    with pytest.raises(InvalidInput, match="itself"):
        decide_contradict(state, ContradictFact(FID, FID), NOW, state)
    with pytest.raises(NotFound):
        decide_contradict(state, ContradictFact(FID, OTHER), NOW, None)


def test_purge_empties_the_evidence_and_a_redacted_event_still_folds() -> None:
    state = _state()
    (added,) = decide_add_evidence(state, AddEvidence(FID, QUOTE), NOW)
    redacted = replace(added, evidence_value=None, evidence_note=None)  # as a purge leaves it
    assert isinstance(redacted, FactEvidenceAdded) and redacted.evidence is None
    stream = [_env(_stored(), ActorKind.PERSON, 1), _env(redacted, ActorKind.PERSON, 2)]
    folded = fold(stream)
    assert folded is not None and folded.evidence == ()
    assert folded.confidence == C.confirm(0.95, 0.1)  # the step is plain: it still counts
    purged = fold([*(e.body for e in stream[:1]), FactPurged(FID)])
    assert purged is not None and purged.evidence == ()


def test_evidence_parses_its_text_form() -> None:
    assert parse_evidence("quote:she said so", "at lunch") == QUOTE
    assert parse_evidence("URI: https://example.org/x").type is EvidenceType.URI
    assert parse_evidence(QUOTE) is QUOTE
    for bad in ("rumour:heard it", "no type here", "quote:", "uri:not a uri", 42):
        with pytest.raises(InvalidEvidence):
            parse_evidence(bad)
