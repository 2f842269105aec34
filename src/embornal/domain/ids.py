"""Identifiers are ULIDs: 26 Crockford base-32 characters, time-ordered."""

from __future__ import annotations

import re
import secrets
from datetime import datetime

from ulid import ULID

from embornal.errors import InvalidInput

__all__ = ["ID_LENGTH", "new_id", "normalize_prefix"]

ID_LENGTH = 26
_CROCKFORD = re.compile(r"^[0-9A-HJKMNP-TV-Z]+$")


def new_id(moment: datetime) -> str:
    """A new ULID whose time part is ``moment`` and whose 80 random bits are fresh.

    Fresh randomness (not the monotonic counter of some ULID libraries) keeps short
    prefixes unique even for facts written in the same millisecond.
    """
    millis = int(moment.timestamp() * 1000)
    return str(ULID.from_bytes(millis.to_bytes(6, "big") + secrets.token_bytes(10)))


def normalize_prefix(raw: str) -> str:
    """Upper-case an id or id prefix and check its alphabet."""
    if not isinstance(raw, str):
        raise InvalidInput("an id must be text")
    text = raw.strip().upper()
    if not text:
        raise InvalidInput("the id is empty", hint="Give a fact id or a unique prefix of one.")
    if len(text) > ID_LENGTH or not _CROCKFORD.match(text):
        raise InvalidInput(
            f"{raw[:40]!r} is not a fact id",
            hint="Fact ids are 26 characters of 0-9 and A-Z (no I, L, O, U); a prefix works.",
        )
    return text
