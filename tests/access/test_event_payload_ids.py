"""An event shown to a subject never names a fact it may not read (decision 0130).

alice holds a token's default rules (her own facts, public ones). default's public fact is
linked to, contradicted by and merged with facts alice may not read, and corrects one of
them: its detail, its history and alice's export show those events with ``[hidden]`` (or
a shorter list) where the hidden ids were; default still sees them whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from embornal import FixedClock, Memory
from embornal.domain.events import ALL_EVENT_CLASSES, HIDDEN_ID, Event, FactStored

PUBLIC = ["visibility=public"]


def _scene(mem: Memory) -> tuple[str, str, list[str]]:
    """The public fact alice reads, the one correcting a hidden fact, and the hidden ids."""
    hidden = [mem.store(f"/team/h{i}", f"hidden note {i}").id for i in range(4)]
    pub = mem.store("/team/plan", "The launch is in June.", tags=PUBLIC).id
    mem.link(pub, "about", hidden[0])
    mem.contradict(pub, by=hidden[1], reason="the board says July")
    mem.merge(pub, hidden[2], reason="the same plan")
    fix = mem.supersede(hidden[3], "The budget is public now.", tags=PUBLIC).id
    mem.token_add("alice")
    return pub, fix, hidden


def _named(events: list[Event] | tuple[Event, ...]) -> str:
    return json.dumps([e.payload for e in events])


def test_detail_and_history_mask_hidden_ids(mem: Memory) -> None:
    pub, fix, hidden = _scene(mem)
    alice = mem.as_subject("alice")
    for events in (
        alice.show(pub).events,
        alice.history(pub),
        alice.show(fix).events,
        alice.history(fix),
        alice.show(pub, as_of="now").events,
    ):
        text = _named(list(events))
        assert not [h for h in hidden if h in text], text
    by_type = {e.type: e.payload for e in alice.history(pub)}
    assert by_type["FactLinked"]["target_id"] == HIDDEN_ID
    assert by_type["FactContradicted"]["by_id"] == HIDDEN_ID
    assert by_type["FactMerged"]["source_id"] == HIDDEN_ID
    assert by_type["FactLinked"]["fact_id"] == pub  # its own id stays
    assert alice.history(fix)[0].payload["supersedes_id"] == HIDDEN_ID
    assert alice.history(fix)[0].body.supersedes_id == HIDDEN_ID  # type: ignore[attr-defined]
    # The owner reads every one of them, so sees them all.
    whole = _named(mem.history(pub)) + _named(mem.show(fix).events)
    assert [h for h in hidden if h not in whole] == []
    # Once alice may read them, she sees them too.
    mem.policy_add("p", ["alice", "path:/team/*", "read", "allow"])
    assert all(h in _named(alice.history(pub)) + _named(alice.history(fix)) for h in hidden)


def test_a_partial_export_masks_hidden_ids_and_imports(
    mem: Memory, tmp_path: Path, clock: FixedClock
) -> None:
    pub, fix, hidden = _scene(mem)
    out = tmp_path / "alice.ndjson"
    result = mem.as_subject("alice").export_events(str(out))
    assert not result.complete
    text = out.read_text("utf-8")
    assert not [h for h in hidden if h in text]
    lines: list[dict[str, Any]] = [json.loads(x) for x in text.splitlines()[1:-1]]
    types = {(e["stream_id"], e["type"]) for e in lines}
    assert (pub, "FactContradicted") in types and (fix, "FactStored") in types
    with Memory.open(tmp_path / "copy.db", clock=clock, seed=False) as copy:
        copy.import_events(str(out))
        assert copy.verify() == []
        assert copy._store.get_fact(fix).supersedes_id == HIDDEN_ID  # type: ignore[union-attr]


def test_rest_detail_and_history_mask_hidden_ids(mem: Memory) -> None:
    from starlette.testclient import TestClient

    from embornal.interfaces.http.app import create_app

    pub, fix, hidden = _scene(mem)
    auth = {"Authorization": f"Bearer {mem.token_add('alice').token}"}
    with TestClient(create_app(mem, mcp=False, wiki=False)) as client:
        api = "/api/v1"
        for url in (
            f"{api}/facts/{pub}",
            f"{api}/facts/{pub}/history",
            f"{api}/facts/{fix}/history",
        ):
            answer = client.get(url, headers=auth)
            assert answer.status_code == 200, answer.text
            assert not [h for h in hidden if h in answer.text], url
            assert HIDDEN_ID in answer.text


def test_every_field_naming_a_fact_is_declared() -> None:
    """Each plain field that holds an id is declared as naming facts, or is the id of
    something else: a new field naming a fact cannot slip past the masking unnoticed."""
    other = {
        "claim_id",
        "conflict_id",
        "evidence_id",
        "narrative_id",
        "proposal_id",
        "token_id",
        "replacement_id",
        "replaces",
        "link_ids",
        "checked",
        "claim_ids",
    }
    for cls in ALL_EVENT_CLASSES:
        for name in cls.PLAIN_FIELDS:
            if name.endswith(("_id", "_ids")) or name in ("members", "about", "archived"):
                assert name in cls.FACT_ID_FIELDS or name in other, (cls.__name__, name)
    assert FactStored.FACT_ID_FIELDS == ("fact_id", "supersedes_id")
