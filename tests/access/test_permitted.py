"""``Memory.permitted``: the corrections a page may offer, read from the rights table."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.errors import NotFound
from embornal.service.facts.rights import CORRECTIONS


def test_the_owner_may_make_every_correction_and_store(memory: Memory) -> None:
    fact = memory.store("/notes/a", "A fact.")
    assert memory.permitted(fact.id) == frozenset(CORRECTIONS)
    assert memory.permitted() == {"store"}


def test_a_reader_may_correct_nothing_a_writer_what_write_allows(memory: Memory) -> None:
    fact = memory.store("/notes/a", "A fact.")
    memory.policy_add("p", ["bob", "path:/*", "read", "allow"])
    memory.policy_add("p", ["carol", "path:/*", "read", "allow"])
    memory.policy_add("p", ["carol", "path:/*", "write", "allow"])
    assert memory.as_subject("bob", "person").permitted(fact.id) == frozenset()
    assert memory.as_subject("bob", "person").permitted() == frozenset()
    carol = memory.as_subject("carol", "person")
    # write: pin, confirm, contradict; not what takes the fact out of recall (delete)
    assert carol.permitted(fact.id) == {"confirm", "contradict", "pin"}
    assert carol.permitted() == {"store"}


def test_a_fact_the_subject_may_not_read_is_not_found(memory: Memory) -> None:
    fact = memory.store("/notes/a", "A fact.")
    with pytest.raises(NotFound):
        memory.as_subject("dave", "person").permitted(fact.id)
