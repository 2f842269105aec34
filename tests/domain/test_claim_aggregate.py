"""The claim aggregate (decision 0081): a judgment about specific material, in its own
stream; record time (a fold up to T) and valid time (declared bounds) are independent."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from embornal.domain.claims.ledger import (
    CLAIM_TYPES,
    ClaimState,
    ClaimStatus,
    CreateClaim,
    NewEvidence,
    Revision,
    choose_stance,
    choose_type,
    decide_adopt,
    decide_create,
    decide_evidence,
    decide_replace,
    decide_retract,
    decide_revise,
    decide_withdraw,
    fold,
    recorded_time,
    valid_at,
)
from embornal.domain.events import DomainEvent, Event, to_payload
from embornal.errors import InvalidInput, ProtocolViolation

T0 = datetime(2026, 3, 1, tzinfo=UTC)


class Stream:
    """One claim's stream, appended one decision at a time, a second apart."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, bodies: Sequence[DomainEvent], reason: str | None = "why") -> None:
        for body in bodies:
            n = len(self.events) + 1
            at = T0 + timedelta(seconds=n)
            self.events.append(
                Event(
                    n,
                    "claim:C1",
                    n,
                    body.TYPE,
                    to_payload(body),
                    "ada",
                    "person",
                    at,
                    reason,
                    known_body=body,
                )
            )

    def state(self, until: datetime | None = None) -> ClaimState:
        s = fold(self.events, until)
        assert s is not None
        return s


def _claim(statement: str = "The release is planned for June.", **more: object) -> Stream:
    s = Stream()
    s.add(decide_create(CreateClaim(statement, "plan", **more), "C1"))  # type: ignore[arg-type]
    return s


def test_the_types_are_the_seeds_and_self_report_is_spelled_either_way() -> None:
    assert set(CLAIM_TYPES) >= {"plan", "observation", "commitment", "self_report"}
    assert choose_type("self-report") == choose_type("Self_Report") == "self_report"
    with pytest.raises(InvalidInput, match="claim_type must be one of"):
        choose_type("fact")
    assert choose_stance(None) == "supports" and choose_stance("contradicts") == "challenges"
    with pytest.raises(InvalidInput):
        choose_stance("maybe")


def test_adoption_is_a_judgment_about_specific_material() -> None:
    s = _claim()
    with pytest.raises(ProtocolViolation, match="no active supporting evidence") as e:
        decide_adopt(s.state())
    assert "add_evidence(" in (e.value.hint or "")
    s.add(decide_evidence(s.state(), NewEvidence("supports", memory_id="M1"), "C1-1"))
    s.add(decide_adopt(s.state()))
    state = s.state()
    assert state.status is ClaimStatus.ADOPTED and state.eligible
    assert [d.action for d in state.history] == ["create_claim", "add_evidence", "adopt_claim"]


def test_evidence_names_one_thing_and_a_repeat_adds_nothing() -> None:
    s = _claim()
    with pytest.raises(InvalidInput, match="names one thing"):
        decide_evidence(s.state(), NewEvidence("supports"), "C1-1")
    with pytest.raises(InvalidInput):
        decide_evidence(s.state(), NewEvidence("supports", "M1", "a label"), "C1-1")
    s.add(decide_evidence(s.state(), NewEvidence("supports", source=" Reuters "), "C1-1"))
    assert decide_evidence(s.state(), NewEvidence("supports", source="Reuters"), "C1-2") == []
    assert decide_evidence(s.state(), NewEvidence("challenges", source="Reuters"), "C1-2") != []


def test_new_evidence_after_adoption_asks_for_review_again() -> None:
    s = _claim()
    s.add(decide_evidence(s.state(), NewEvidence("supports", memory_id="M1"), "C1-1"))
    s.add(decide_adopt(s.state()))
    s.add(decide_evidence(s.state(), NewEvidence("challenges", source="minutes"), "C1-2"))
    assert s.state().review_required and not s.state().eligible
    s.add(decide_adopt(s.state()))  # re-review
    assert s.state().eligible
    s.add(decide_retract(s.state(), "C1-1"))
    assert s.state().review_required  # nothing supports it now


def test_a_fold_until_T_is_what_was_recorded_by_T() -> None:
    s = _claim()
    s.add(decide_evidence(s.state(), NewEvidence("supports", memory_id="M1"), "C1-1"))
    s.add(decide_adopt(s.state()))
    checkpoint = s.events[-1].recorded_at
    s.add(decide_evidence(s.state(), NewEvidence("challenges", source="minutes"), "C1-2"))
    s.add(decide_revise(s.state(), Revision("The release is planned for July.")))
    then = s.state(checkpoint)
    assert [e.evidence_id for e in then.evidence] == ["C1-1"]
    assert then.statement == "The release is planned for June." and then.eligible
    assert fold(s.events, T0) is None  # before the claim was recorded
    assert s.state().statement == "The release is planned for July."


def test_the_recorded_time_never_goes_back_on_a_stream() -> None:
    s = _claim()
    last = s.state().last_at
    assert recorded_time(s.state(), last - timedelta(hours=1)) == last
    assert recorded_time(s.state(), last + timedelta(hours=1)) == last + timedelta(hours=1)


def test_valid_time_is_declared_and_unknown_bounds_admit() -> None:
    june, july = datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC)
    bounded = _claim(valid_from=june, valid_until=july).state()
    assert valid_at(bounded, june) and not valid_at(bounded, july)
    assert not valid_at(bounded, june - timedelta(seconds=1))
    assert valid_at(_claim().state(), datetime(1990, 1, 1, tzinfo=UTC))
    with pytest.raises(InvalidInput, match="valid_until must be after"):
        decide_create(CreateClaim("x", "plan", valid_from=july, valid_until=june), "C2")


def test_withdrawn_and_superseded_are_terminal() -> None:
    s = _claim()
    s.add(decide_withdraw(s.state()))
    for decide in (decide_adopt, decide_withdraw):
        with pytest.raises(ProtocolViolation) as e:
            decide(s.state())
        assert "create_claim(" in (e.value.hint or "")
    with pytest.raises(ProtocolViolation):
        decide_evidence(s.state(), NewEvidence("supports", memory_id="M1"), "C1-1")


def test_a_replacement_supersedes_an_adopted_claim_in_one_decision() -> None:
    old = _claim()
    old.add(decide_evidence(old.state(), NewEvidence("supports", memory_id="M1"), "C1-1"))
    new = Stream()
    new.add(decide_create(CreateClaim("July.", "plan"), "C2"))
    with pytest.raises(ProtocolViolation, match="only an adopted claim"):
        decide_replace(old.state(), new.state())
    old.add(decide_adopt(old.state()))
    with pytest.raises(ProtocolViolation, match="no active supporting evidence"):
        decide_replace(old.state(), new.state())
    new.add(decide_evidence(new.state(), NewEvidence("supports", memory_id="M2"), "C2-1"))
    olds, news = decide_replace(old.state(), new.state())
    old.add(olds)
    new.add(news)
    assert old.state().status is ClaimStatus.SUPERSEDED and old.state().replaced_by == "C2"
    assert new.state().status is ClaimStatus.ADOPTED and new.state().replaces == "C1"


def test_origin_groups_count_reposts_with_a_common_origin_once() -> None:
    s = _claim(sensitive=True)
    for i, (label, origin) in enumerate(
        [("site-a", "wire-1"), ("site-b", "wire-1"), ("site-c", "wire-1")], start=1
    ):
        s.add(
            decide_evidence(
                s.state(), NewEvidence("supports", source=label, common_origin=origin), f"C1-{i}"
            )
        )
    groups = s.state().origin_groups()
    assert groups.independent == ("wire-1",) and not groups.satisfied
    s.add(decide_evidence(s.state(), NewEvidence("supports", source="court record"), "C1-4"))
    assert s.state().origin_groups().satisfied
    memory_only = _claim()
    memory_only.add(decide_evidence(memory_only.state(), NewEvidence("supports", "M1"), "C1-1"))
    assert memory_only.state().origin_groups({"M1": "notice"}).independent == ("notice",)
    assert memory_only.state().origin_groups().independent == ()  # unknown origin
