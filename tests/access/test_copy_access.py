"""``admin copy`` is the whole memory, as a backup is: a subject without the unconditional
read (an allow on ``path:/*``, no deny anywhere) copies nothing, and the refusal names no
fact; the memory's operator copies every fact, another owner's private ones too, as the
backup holds them (decision 0102)."""

from __future__ import annotations

from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.errors import AccessDenied


def test_a_subject_that_may_not_read_everything_copies_nothing(
    memory: Memory, tmp_path: Path
) -> None:
    private = memory.store("/private/plans", "The launch moves to March.")
    memory.token_add("bob")  # reads what bob owns, and what is public
    bob = memory.as_subject("bob", "assistant")
    target = tmp_path / "copy.db"
    with pytest.raises(AccessDenied) as refused:
        bob.copy_to(str(target))
    assert private.id not in refused.value.message and "/private" not in refused.value.message
    assert not target.exists() and not list(tmp_path.glob(".*copying*"))


def test_a_deny_anywhere_is_not_the_whole_memory(memory: Memory, tmp_path: Path) -> None:
    memory.store("/team/notes", "Stand-up at nine.")
    memory.policy_add("p", ["carol", "path:/*", "read", "allow"])
    memory.policy_add("p", ["carol", "path:/team/*", "read", "deny"])
    with pytest.raises(AccessDenied, match="whole memory"):
        memory.as_subject("carol").copy_to(str(tmp_path / "copy.db"))
    assert not (tmp_path / "copy.db").exists()


def test_the_operator_copies_every_fact_as_a_backup_holds_them(
    memory: Memory, tmp_path: Path, clock: FixedClock
) -> None:
    mine = memory.store("/private/plans", "The launch moves to March.")
    memory.token_add("bob")
    theirs = memory.as_subject("bob").store("/bob/notes", "Bob's own note.", visibility="private")
    done = memory.copy_to(str(tmp_path / "copy.db"))
    assert done.verified
    with Memory.open(tmp_path / "copy.db", clock=clock) as copy:
        assert copy.show(mine.id).fact.id == mine.id
        assert copy.as_subject("bob").show(theirs.id).fact.content == "Bob's own note."
