"""Identifiers are ULIDs: 26 Crockford base-32 characters, time-ordered.

48 bits of milliseconds, then 80 fresh random bits (not the monotonic counter
of some ULID libraries), so short prefixes stay unique even for facts written
in the same millisecond. Ordering inside one millisecond comes from
``facts.seq``, not from the id.
"""

from __future__ import annotations

import re
from datetime import datetime
from os import urandom

from embornal.errors import InvalidInput, MalformedId

__all__ = ["ID_LENGTH", "new_id", "normalize_prefix"]

ID_LENGTH = 26
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_CROCKFORD = r"^[0-9A-HJKMNP-TV-Z]+$"  # compiled by ``re`` on first use (not by a recall)
#: Two characters for each 10 bits, most significant first: 13 pairs are the 26 characters.
_PAIRS = tuple(a + b for a in _ALPHABET for b in _ALPHABET)
_SHIFTS = tuple(range(ID_LENGTH * 5 - 10, -1, -10))


def new_id(moment: datetime) -> str:
    """A new ULID whose time part is ``moment``."""
    millis = int(moment.timestamp() * 1000) & ((1 << 48) - 1)
    # 80 bits from the system's entropy, as ``random.SystemRandom().getrandbits(80)`` and
    # ``secrets.randbits(80)`` read them (``os.urandom``) without importing either: ``random``
    # builds and seeds a generator at import, ``secrets`` loads hmac and OpenSSL.
    value = (millis << 80) | int.from_bytes(urandom(10), "big")
    return "".join([_PAIRS[(value >> shift) & 1023] for shift in _SHIFTS])


def normalize_prefix(raw: str) -> str:
    """Upper-case an id or id prefix and check its alphabet."""
    if not isinstance(raw, str):
        raise InvalidInput("an id must be text")
    text = raw.strip().upper()
    if not text:
        raise InvalidInput("the id is empty", hint="Give a fact id or a unique prefix of one.")
    if len(text) > ID_LENGTH or not re.match(_CROCKFORD, text):
        raise MalformedId(
            f"{raw[:40]!r} is not a fact id",
            hint="Fact ids are 26 characters of 0-9 and A-Z (no I, L, O, U); a prefix works.",
        )
    return text
