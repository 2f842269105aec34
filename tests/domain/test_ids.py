"""Ids (decision 0007): a ULID of the clock's millisecond and 80 fresh random bits."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from embornal.domain import ids
from embornal.domain.ids import ID_LENGTH, new_id, normalize_prefix

MOMENT = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def test_the_random_bits_are_what_system_random_would_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same 10 bytes of entropy make the id ``SystemRandom().getrandbits(80)`` made."""
    entropy = bytes.fromhex("8f3a01d2c4b5e6f70819")
    monkeypatch.setattr(ids, "urandom", lambda n: entropy[:n])
    monkeypatch.setattr(random, "_urandom", lambda n: entropy[:n])
    millis = int(MOMENT.timestamp() * 1000)
    value = (millis << 80) | random.SystemRandom().getrandbits(80)
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    want = "".join(alphabet[(value >> (5 * i)) & 31] for i in reversed(range(ID_LENGTH)))
    assert new_id(MOMENT) == want


def test_ids_of_one_millisecond_differ_after_the_time_part() -> None:
    made = {new_id(MOMENT) for _ in range(1000)}
    assert len(made) == 1000
    assert {len(i) for i in made} == {ID_LENGTH}
    assert len({i[:10] for i in made}) == 1  # 48 bits of milliseconds: 10 characters
    assert normalize_prefix(next(iter(made)).lower()) in made
