"""A purge reaches as far on every backend (decisions 0055, 0081, 0086, 0101): the purged
memory's text leaves the proposals that quote it, the narrative versions that depend on it
and the claims that cite it, in the log, in an export of the events and in every read; what
does not name it stays as it was. Run on the local memory of each backend (no side: what
the log holds is the store's, whichever client asked)."""

from __future__ import annotations

import json
from pathlib import Path

from embornal import Memory

SECRET = "the vault code is 4-8-15-16"


def _everything_written(memory: Memory, tmp_path: Path) -> str:
    """Every event's text as the store reads it back, and an export of the events."""
    logged = "\n".join(repr(e) for e in memory._store.read_all())
    target = tmp_path / "events.jsonl"
    memory.export_events(str(target))
    return logged + target.read_text(encoding="utf-8")


def test_a_purge_takes_the_text_out_of_proposals_narratives_and_claims(
    memory: Memory, tmp_path: Path
) -> None:
    fact = memory.remember(SECRET, source="a note").fact.id
    memory.promote(fact, reason="agreed")
    other = memory.store("/notes", "The office is on floor 3.").id
    proposal = memory.propose(
        [
            {"type": "supersede", "fact_id": fact, "content": SECRET + " and the safe's too"},
            {"type": "archive", "fact_id": other, "reason": "old"},
        ],
        title=f"about {SECRET}",
    )
    untouched = memory.propose([{"type": "create", "path": "/notes", "content": "Floor 4."}])
    ledger = memory.chronicle
    told = ledger.narrate(
        f"Remember: {SECRET}.",
        reason="vault",
        memory_ids=[fact],
        coverage=f"covers {SECRET}",
        scope="vault",
    )
    kept_story = ledger.narrate("The office moved.", reason="office", memory_ids=[other])
    claim = ledger.create_claim(f"Ada said {SECRET}.", "assertion", reason=f"re {SECRET}")
    ledger.add_claim_evidence(claim.id, memory_id=fact, quote="4-8-15-16", note=f"quoting {SECRET}")
    kept_claim = ledger.create_claim("The office is on floor 3.", "observation", about=[other])
    assert SECRET in _everything_written(memory, tmp_path)

    memory.purge(fact, reason="a secret")

    written = _everything_written(memory, tmp_path)
    assert SECRET not in written and "4-8-15-16" not in written
    assert memory.verify() == []
    shown = memory.proposal(proposal.id)
    assert shown.status == "open" and shown.title is None
    assert all(SECRET not in json.dumps(i.fields) for i in shown.items)
    assert memory.proposal(untouched.id).items[0].fields["content"] == "Floor 4."
    history = ledger.narrative_history(scope="vault")
    assert [(n.narrative_id, n.content) for n in history] == [(told.narrative_id, None)]
    current = ledger.current_narrative().narrative
    assert current is not None and current.content == kept_story.content
    assert [c.id for c in ledger.recall_claims(status="all").claims] == [kept_claim.id]
    memory.rebuild()
    assert memory.verify() == []
    assert SECRET not in _everything_written(memory, tmp_path)


def test_a_narrative_resting_on_a_claim_that_cites_the_purged_memory_loses_its_text(
    memory: Memory, tmp_path: Path
) -> None:
    """Decision 0098 on every backend: the narrative was written on the claim, the claim
    on the purged words; its versions lose their text in the log and the export."""
    ledger = memory.chronicle
    secret = memory.store("/secrets", SECRET).id
    claim = ledger.create_claim("Ada has the code.", "assertion")
    ledger.add_claim_evidence(claim.id, memory_id=secret)
    ledger.adopt_claim(claim.id, reason="the note")
    told = ledger.narrate(f"Ada knows {SECRET}.", reason=f"about {SECRET}", claim_ids=[claim.id])
    ledger.review_narrative(told.narrative_id, note=f"checked {SECRET}")
    other = ledger.narrate("The office is on floor 3.", reason="office", scope="office")
    assert SECRET in _everything_written(memory, tmp_path)

    memory.purge(secret, reason="a secret")

    assert SECRET not in _everything_written(memory, tmp_path)
    assert [v.narrative_id for v in ledger.narrative_history()] == [other.narrative_id]
    assert memory.verify() == []
