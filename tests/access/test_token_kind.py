"""Who holds a token, a person or an assistant (decision 0147): kept with the token,
shown in its listing, replayed from the log, and the actor kind of what the token writes
and decides, over REST as on the served pages; MCP's caller stays an assistant."""

from __future__ import annotations

from embornal import FixedClock, Memory
from embornal.domain.events import ActorKind, NewEvent, TokenIssued
from embornal.interfaces.http.app import create_app
from embornal.interfaces.http.auth import Gate


def test_a_token_is_an_assistants_unless_a_person_holds_it(memory: Memory) -> None:
    person = memory.token_add("alice", person=True)
    assistant = memory.token_add("bob")
    assert person.info.actor_kind is ActorKind.PERSON
    assert assistant.info.actor_kind is ActorKind.ASSISTANT
    listed = {t.subject: t.actor_kind for t in memory.tokens()}
    assert listed == {"alice": ActorKind.PERSON, "bob": ActorKind.ASSISTANT}
    assert memory.token_of(person.token).actor_kind is ActorKind.PERSON
    assert memory.token_of(assistant.token).subject == "bob"
    assert memory.verify() == []  # the projection is what the log replays to
    memory.rebuild()
    assert {t.subject: t.actor_kind for t in memory.tokens()} == listed


def test_a_token_issued_before_the_kind_was_recorded_is_an_assistants(
    memory: Memory, clock: FixedClock
) -> None:
    store = memory._store
    body = TokenIssued(token_id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", subject="old", token_hash="h" * 64)
    event = NewEvent(
        stream_id="token:01KCZ8Q3W5R7T9V1X3Z5B7D9F1",
        body=body,
        actor="default",
        actor_kind=ActorKind.PERSON,
        recorded_at=clock.now(),
    )
    with store.transaction("an older token") as conn:
        store.append(conn, [event])
    (stored,) = [e for e in store.read_stream("token:01KCZ8Q3W5R7T9V1X3Z5B7D9F1")]
    assert "actor_kind" not in stored.payload  # the stored format of old events is kept
    (old,) = [t for t in memory.tokens() if t.subject == "old"]
    assert old.actor_kind is ActorKind.ASSISTANT
    assert memory.verify() == []


def test_the_gate_gives_the_holders_kind_and_mcp_an_assistant(memory: Memory) -> None:
    person = memory.token_add("alice", person=True).token
    assistant = memory.token_add("bob").token
    gate = Gate(memory)
    assert gate.for_token(person).actor_kind is ActorKind.PERSON
    assert gate.for_token(assistant).actor_kind is ActorKind.ASSISTANT
    headers = {"authorization": f"Bearer {person}"}
    assert gate.for_headers(headers).actor_kind is ActorKind.PERSON
    assert gate.for_headers(headers, None, ActorKind.ASSISTANT).actor_kind is ActorKind.ASSISTANT
    assert create_app(memory, mcp=False, wiki=False).state.gate is not None


def test_the_kind_on_postgresql(pg_url: str, clock: FixedClock) -> None:
    with Memory.open(pg_url, clock=clock) as memory:
        person = memory.token_add("alice", person=True)
        memory.token_add("bob")
        listed = {t.subject: t.actor_kind for t in memory.tokens()}
        assert listed == {"alice": ActorKind.PERSON, "bob": ActorKind.ASSISTANT}
        assert Gate(memory).for_token(person.token).actor_kind is ActorKind.PERSON
        assert memory.verify() == []
