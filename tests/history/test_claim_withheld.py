"""A claim's text while a memory it cites is forgotten (decision 0168): the statement,
the attribution, every evidence text and every reason are withheld (``redacted``,
``withheld_by`` naming the forgotten memories), now and at any ``as_of``, on every read;
restoring the memory shows them again."""

from __future__ import annotations

import json

from embornal import FixedClock, Memory
from embornal.interfaces.wire import to_wire

SECRET = "The merger closes in June"


def _adopted(memory: Memory, clock: FixedClock) -> tuple[str, str, str]:
    fid = memory.remember(f"{SECRET}.", source="board notes").fact.id
    ledger = memory.chronicle
    c = ledger.create_claim(
        f"{SECRET}.", "plan", reason=f"{SECRET}: from the notes", asserted_by="the board"
    )
    ledger.add_claim_evidence(
        c.id, memory_id=fid, note=f"{SECRET} (notes)", quote=SECRET, locator="p. 2"
    )
    adopted = ledger.adopt_claim(c.id, reason=f"{SECRET}, adopted")
    clock.advance(seconds=5)
    return fid, c.id, adopted.history[-1].recorded_at.isoformat()


def _leaks(record: object) -> bool:
    return "merger" in json.dumps(to_wire(record)).casefold()


def test_a_forgotten_source_withholds_the_claims_text_now_and_in_the_past(
    memory: Memory, clock: FixedClock
) -> None:
    fid, cid, checkpoint = _adopted(memory, clock)
    ledger = memory.chronicle
    assert not ledger.claim(cid).redacted
    memory.forget(fid, reason="stop recall of the board notes")
    for as_of in (None, checkpoint):
        seen = ledger.claim(cid, as_of=as_of)
        assert seen.redacted and seen.withheld_by == (fid,)
        assert seen.statement is None and seen.asserted_by is None
        assert not _leaks(seen), to_wire(seen)
        actions = [h.action for h in seen.history]
        assert actions[:3] == ["create_claim", "add_evidence", "adopt_claim"]
        assert seen.evidence[0].memory_id == fid and seen.status == "adopted"
        assert not seen.eligible_for_recall
    everything = ledger.recall_claims(status="all")
    assert [c.id for c in everything.claims] == [cid] and not _leaks(everything)
    assert ledger.recall_claims("merger", status="all").claims == ()
    assert ledger.recall_claims(as_of=checkpoint).claims == ()
    memory.restore(fid, reason="shared again")
    back = ledger.claim(cid)
    assert back.statement == f"{SECRET}." and not back.redacted and back.withheld_by == ()
    assert back.evidence[0].quote == SECRET and back.history[-1].reason == f"{SECRET}, adopted"


def test_any_memory_the_claim_cites_withholds_it(memory: Memory, clock: FixedClock) -> None:
    """The statement may be made of any of its material: a second live source, a challenge
    or a retracted citation does not show it while one cited memory is forgotten."""
    fid, cid, _ = _adopted(memory, clock)
    other = memory.remember("The merger is on track.", source="press").fact.id
    ledger = memory.chronicle
    ledger.add_claim_evidence(cid, memory_id=other)
    memory.forget(fid, reason="private")
    assert ledger.claim(cid).withheld_by == (fid,)
    memory.restore(fid, reason="back")
    ledger.retract_claim_evidence(f"{cid}-2", reason="not a source")
    memory.forget(other, reason="private too")
    seen = ledger.claim(cid)
    assert seen.redacted and seen.withheld_by == (other,) and not _leaks(seen)
    about = memory.remember("Board meeting notes.").fact.id
    on = ledger.create_claim("The board met.", "observation", about=[about])
    memory.forget(about, reason="private")
    assert ledger.claim(on.id).withheld_by == (about,)


def test_a_superseded_source_withholds_nothing(memory: Memory, clock: FixedClock) -> None:
    """A correction is not a forgetting: the claim keeps its text, flagged."""
    fid, cid, _ = _adopted(memory, clock)
    memory.supersede(fid, "The merger closes in July.", reason="corrected")
    seen = memory.chronicle.claim(cid)
    assert not seen.redacted and seen.statement == f"{SECRET}."
