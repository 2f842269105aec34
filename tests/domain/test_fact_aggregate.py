"""The fact aggregate, pure: decide each command on a state, fold a stream (no database)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from embornal.domain.events import FactForgotten, FactPurged, FactRestored, FactStored
from embornal.domain.facts.aggregate import (
    FactState,
    FactStatus,
    ForgetFact,
    PurgeFact,
    RestoreFact,
    StoreFact,
    SupersedeFact,
    decide_forget,
    decide_purge,
    decide_restore,
    decide_store,
    decide_supersede,
    evolve,
    fold,
)
from embornal.domain.facts.tags import Tag
from embornal.errors import Conflict, InvalidContent, InvalidInput

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)
FID = "01KDVDNA00AAAAAAAAAAAAAAAA"
NEW = "01KDVDNA00BBBBBBBBBBBBBBBB"

STORED = FactStored(
    fact_id=FID,
    path="/notes",
    content="tea at four",
    owner="alice",
    created_at=NOW,
    tags=(Tag("colour", "red"), Tag("owner", "alice")),
)
ACTIVE = FactState(FID, 1, "/notes", "fact", "alice", STORED.tags)
FORGOTTEN = replace(ACTIVE, version=2, status=FactStatus.FORGOTTEN)
PURGED = replace(ACTIVE, version=3, status=FactStatus.PURGED)
SUPERSEDED = replace(ACTIVE, superseded_by=NEW)


def test_store_decides_one_fact_stored_with_the_owner_tag() -> None:
    (event,) = decide_store(StoreFact(FID, "/Notes/", "tea at four", "alice", ["colour=red"]), NOW)
    assert event == STORED


@pytest.mark.parametrize(
    ("path", "content", "kind", "error"),
    [
        ("/", "x", "fact", InvalidInput),
        ("/a", "  ", "fact", InvalidContent),
        ("/a", "x", "", InvalidInput),
    ],
)
def test_store_refuses_bad_input(
    path: str, content: str, kind: str, error: type[Exception]
) -> None:
    with pytest.raises(error):
        decide_store(StoreFact(FID, path, content, "alice", kind=kind), NOW)


def test_store_dates_an_import_with_at() -> None:
    (event,) = decide_store(StoreFact(FID, "/a", "x", "alice", at="2025-01-02T00:00:00Z"), NOW)
    assert event.created_at == datetime(2025, 1, 2, tzinfo=UTC)


def test_supersede_keeps_path_kind_and_own_tags() -> None:
    (event,) = decide_supersede(ACTIVE, SupersedeFact(NEW, "tea at five", "bob"), NOW)
    assert (event.fact_id, event.path, event.kind, event.supersedes_id) == (
        NEW,
        "/notes",
        "fact",
        FID,
    )
    assert event.tags == (Tag("colour", "red"), Tag("owner", "bob"))
    (retagged,) = decide_supersede(ACTIVE, SupersedeFact(NEW, "x", "bob", tags=["k=v"]), NOW)
    assert retagged.tags == (Tag("k", "v"), Tag("owner", "bob"))


@pytest.mark.parametrize(
    ("state", "word"), [(FORGOTTEN, "forgotten"), (PURGED, "purged"), (SUPERSEDED, "superseded")]
)
def test_only_an_active_fact_can_be_superseded(state: FactState, word: str) -> None:
    with pytest.raises(Conflict, match=f"is {word}; only an active fact can be superseded") as e:
        decide_supersede(state, SupersedeFact(NEW, "x", "bob"), NOW)
    assert "newest fact of the chain" in e.value.hint


def test_supersede_checks_its_input_before_the_state() -> None:
    with pytest.raises(InvalidContent):
        decide_supersede(FORGOTTEN, SupersedeFact(NEW, "", "bob"), NOW)


def test_forget() -> None:
    assert decide_forget(ACTIVE, ForgetFact(FID), NOW) == [FactForgotten(FID)]
    assert decide_forget(SUPERSEDED, ForgetFact(FID), NOW) == [FactForgotten(FID)]
    for state in (FORGOTTEN, PURGED):
        with pytest.raises(Conflict, match="is already forgotten") as e:
            decide_forget(state, ForgetFact(FID), NOW)
        assert "restore" in e.value.hint


def test_restore() -> None:
    assert decide_restore(FORGOTTEN, RestoreFact(FID), NOW) == [FactRestored(FID)]
    with pytest.raises(Conflict, match="was purged; its content is gone for good"):
        decide_restore(PURGED, RestoreFact(FID), NOW)
    with pytest.raises(Conflict, match="is not forgotten") as e:
        decide_restore(ACTIVE, RestoreFact(FID), NOW)
    assert e.value.hint == "Nothing to restore."


def test_purge() -> None:
    for state in (ACTIVE, FORGOTTEN, SUPERSEDED):
        assert decide_purge(state, PurgeFact(FID), NOW) == [FactPurged(FID)]
    with pytest.raises(Conflict, match="is already purged"):
        decide_purge(PURGED, PurgeFact(FID), NOW)


def test_a_command_for_another_fact_is_a_bug() -> None:
    with pytest.raises(ValueError, match="met the state of"):
        decide_forget(ACTIVE, ForgetFact(NEW), NOW)


def test_evolve_folds_a_stream() -> None:
    stream = [STORED, FactForgotten(FID), FactRestored(FID), FactForgotten(FID), FactPurged(FID)]
    states = []
    state = None
    for event in stream:
        state = evolve(state, event)
        states.append((state.version, state.state))
    assert states == [
        (1, "active"),
        (2, "forgotten"),
        (3, "active"),
        (4, "forgotten"),
        (5, "purged"),
    ]
    assert fold(stream) == state
    assert state is not None and state.tags == (Tag("owner", "alice"),)  # purge drops the rest
    assert fold(stream[:1]) == ACTIVE
    assert fold([]) is None


def test_evolve_refuses_a_broken_stream() -> None:
    with pytest.raises(ValueError, match="before the fact was stored"):
        evolve(None, FactForgotten(FID))
    with pytest.raises(ValueError, match="stored twice"):
        evolve(ACTIVE, STORED)


def test_decisions_made_on_folded_states_replay_a_life() -> None:
    """decide then evolve, step by step: the events decided are the stream folded."""
    (stored,) = decide_store(StoreFact(FID, "/notes", "tea", "alice"), NOW)
    state = evolve(None, stored)
    for decide, command in (
        (decide_forget, ForgetFact(FID)),
        (decide_restore, RestoreFact(FID)),
        (decide_purge, PurgeFact(FID)),
    ):
        for event in decide(state, command, NOW):
            state = evolve(state, event)
    assert (state.version, state.status) == (4, FactStatus.PURGED)
