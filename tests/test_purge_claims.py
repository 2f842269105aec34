"""A purge erases the purged memory's text from the claims that cite it too (decision
0081): every event of each such claim loses its text (the statement, the attribution, the
evidence's note, quote, source and reasons), each redaction recorded; the claim then exists
for no one (its material is gone), and a claim that does not cite the memory is untouched."""

from __future__ import annotations

from embornal import Memory
from embornal.storage.sqlite.connect import connect

SECRET = "the vault code is 4-8-15-16"


def _log_text(memory: Memory) -> str:
    conn = connect(memory.db_path)
    try:
        rows = conn.execute("SELECT payload, coalesce(reason, '') FROM events").fetchall()
        return "\n".join(f"{r[0]} {r[1]}" for r in rows)
    finally:
        conn.close()


def test_a_claim_citing_the_purged_memory_loses_its_text(memory: Memory) -> None:
    ledger = memory.chronicle
    secret = memory.store("/secrets", SECRET).id
    other = memory.store("/notes", "The office is on floor 3.").id
    on_secret = ledger.create_claim(f"Ada said {SECRET}.", "assertion", reason=f"re {SECRET}")
    ledger.add_claim_evidence(
        on_secret.id, memory_id=secret, quote="4-8-15-16", note=f"quoting {SECRET}"
    )
    ledger.add_claim_evidence(on_secret.id, source=f"a note on {SECRET}")
    ledger.adopt_claim(on_secret.id, reason=f"because {SECRET}")
    kept = ledger.create_claim("The office is on floor 3.", "observation", about=[other])
    assert SECRET in _log_text(memory)
    memory.purge(secret, reason="a secret")
    assert SECRET not in _log_text(memory) and "4-8-15-16" not in _log_text(memory)
    assert memory.verify() == []
    assert [c.id for c in ledger.recall_claims(status="all").claims] == [kept.id]
    assert ledger.claim(kept.id).statement == "The office is on floor 3."
    memory.rebuild()
    assert memory.verify() == []


def test_a_purge_before_any_claim_cites_nothing(memory: Memory) -> None:
    fact = memory.store("/notes", "Plain.").id
    made = memory.chronicle.create_claim("Unrelated.", "plan")
    memory.purge(fact, reason="gone")
    assert memory.chronicle.claim(made.id).statement == "Unrelated."
    assert memory.verify() == []


def test_a_narrative_resting_on_such_a_claim_loses_its_text(memory: Memory) -> None:
    """Decision 0098: the narrative was written on the claim, the claim on the purged
    words; its versions leave every view too."""
    ledger = memory.chronicle
    secret = memory.store("/secrets", SECRET).id
    c = ledger.create_claim("Ada has the code.", "assertion")
    ledger.add_claim_evidence(c.id, memory_id=secret)
    ledger.adopt_claim(c.id, reason="r")
    n = ledger.narrate(f"Ada knows {SECRET}.", reason=f"about {SECRET}", claim_ids=[c.id])
    ledger.review_narrative(n.narrative_id, note=f"checked {SECRET}")
    other = ledger.narrate("The office is on floor 3.", reason="r", scope="office")
    memory.purge(secret, reason="a secret")
    assert SECRET not in _log_text(memory)
    assert [v.narrative_id for v in ledger.narrative_history()] == [other.narrative_id]
    assert memory.verify() == []
