"""``/claims``: the claims ledger on the wiki, read-only, by status and ``as_of``, through
the one access filter (a claim citing a fact the reader may not read is not listed)."""

from __future__ import annotations

from review_helpers import local, served

from embornal import FixedClock, Memory
from embornal.interfaces.http.wiki import TOKEN_COOKIE


def test_the_ledger_by_status_and_as_of(memory: Memory, clock: FixedClock) -> None:
    fact = memory.store("/notes/birds", "The swift sleeps in flight.")
    early = memory.chronicle.create_claim("Swifts sleep while flying.", "assertion")
    memory.chronicle.add_claim_evidence(early.id, memory_id=fact.id)
    before = clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    clock.advance(days=1)
    memory.chronicle.adopt_claim(early.id, "the note says so")
    other = memory.chronicle.create_claim("Swifts never land.", "assertion")
    with local(memory) as c:
        adopted = c.get("/claims?status=adopted").text
        assert "Swifts sleep while flying." in adopted and "Swifts never land." not in adopted
        assert "1 supporting" in adopted and "in recall" in adopted
        proposed = c.get("/claims?status=proposed").text
        assert "Swifts never land." in proposed and f"claim-{other.id}" in proposed
        then = c.get("/claims", params={"status": "all", "as_of": before}).text
        assert "Swifts sleep while flying." in then and "Swifts never land." not in then
        assert "As recorded at" in then
        assert c.get("/claims?status=bogus").status_code == 400
        assert c.get("/claims", params={"as_of": "not a time"}).status_code == 400
        assert 'method="post"' not in c.get("/claims").text  # read-only
        assert 'href="/claims"' in c.get("/").text  # in the header of every page


def test_a_claim_on_a_fact_the_reader_may_not_read_is_not_listed(memory: Memory) -> None:
    secret = memory.store("/notes/secret", "The vault code is 4711.")
    claim = memory.chronicle.create_claim("The vault has a code.", "assertion", about=[secret.id])
    issued = memory.token_add("bob", person=True)
    with served(memory) as c:
        c.cookies.set(TOKEN_COOKIE, issued.token)
        page = c.get("/claims?status=all")
        assert page.status_code == 200
        assert "The vault has a code." not in page.text and claim.id not in page.text
        assert "No claim to show." in page.text
    with local(memory) as c:
        assert "The vault has a code." in c.get("/claims?status=all").text
