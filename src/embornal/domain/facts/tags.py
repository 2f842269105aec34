"""Tags are ``key=value`` pairs on facts and paths (docs/model.md, Fact and path).

The ``owner`` key is reserved: the memory writes it from the subject that
stores a fact, so a store that carries an owner tag stops. Subject names
become tag values, so they hold no space, ``=`` or ``,``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from embornal.domain.values import FieldOrder, value
from embornal.errors import InvalidSubject, InvalidTag, OwnerTagForbidden

__all__ = [
    "OWNER_KEY",
    "Tag",
    "check_subject",
    "encodable",
    "parse_tag",
    "parse_tag_keys",
    "parse_tags",
]

OWNER_KEY = "owner"
MAX_KEY_LENGTH = 64
MAX_VALUE_LENGTH = 256
MAX_SUBJECT_LENGTH = 128
_KEY = re.compile(r"^[a-z0-9][a-z0-9_.:-]*$")
_FORBIDDEN_IN_VALUE = frozenset(",\n\r\t\x00")


@value
class Tag(FieldOrder):
    """A ``key=value`` tag."""

    key: str
    value: str

    def __str__(self) -> str:
        return f"{self.key}={self.value}"


def encodable(text: str) -> bool:
    """Whether ``text`` is valid UTF-8 when encoded (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check(key: str, value: str, raw: str) -> None:
    if not key or len(key) > MAX_KEY_LENGTH or not _KEY.match(key):
        raise InvalidTag(
            f"tag {raw!r} has an invalid key; keys are lowercase letters, digits, "
            "'_', '.', ':' and '-', starting with a letter or digit"
        )
    if not value:
        raise InvalidTag(f"tag {raw!r} has an empty value")
    if len(value) > MAX_VALUE_LENGTH:
        raise InvalidTag(f"tag {raw[:40]!r}... has a value over {MAX_VALUE_LENGTH} characters")
    if not encodable(value):
        raise InvalidTag(f"tag {raw[:40]!r} is not valid Unicode text")
    if value != value.strip() or any(ch in _FORBIDDEN_IN_VALUE for ch in value):
        raise InvalidTag(
            f"tag {raw!r} has a value with a comma, a control character or outer spaces"
        )


def parse_tag(raw: str, *, allow_owner: bool = False) -> Tag:
    """Parse ``key=value``; the key folds to lowercase."""
    if not isinstance(raw, str) or "=" not in raw:
        raise InvalidTag(f"tag {raw!r} is not key=value")
    return _parsed(raw, allow_owner)


@lru_cache(maxsize=4_096)  # a bulk load gives the same few tags to many facts
def _parsed(raw: str, allow_owner: bool) -> Tag:
    key, value = raw.split("=", 1)
    key = key.strip().lower()
    _check(key, value, raw)
    if key == OWNER_KEY and not allow_owner:
        raise OwnerTagForbidden(
            f"tag {raw!r} sets the owner; the memory writes the owner of a fact itself"
        )
    return Tag(key, value)


def parse_tags(
    raw: Iterable[str] | Mapping[str, str] | None, *, allow_owner: bool = False
) -> tuple[Tag, ...]:
    """Parse many tags; a later tag with the same key replaces an earlier one."""
    if raw is None:
        return ()
    if isinstance(raw, str):
        raise InvalidTag(f"tags must be a list of key=value, not the text {raw[:40]!r}")
    items = [f"{k}={v}" for k, v in raw.items()] if isinstance(raw, Mapping) else list(raw)
    by_key: dict[str, Tag] = {}
    for item in items:
        tag = parse_tag(item, allow_owner=allow_owner)
        by_key[tag.key] = tag
    return tuple(sorted(by_key.values()))


def parse_tag_keys(keys: object) -> tuple[str, ...]:
    """Validate the keys of tags to remove: a list of key names (not one string)."""
    if isinstance(keys, str) or not isinstance(keys, (list, tuple, set, frozenset)):
        raise InvalidTag("give the tag keys to remove as a list of names, e.g. ['team']")
    out = set()
    for key in keys:
        if not isinstance(key, str) or not encodable(key):
            raise InvalidTag(f"tag key {key!r} is not text")
        folded = key.strip().lower()
        if not folded or len(folded) > MAX_KEY_LENGTH or not _KEY.match(folded):
            raise InvalidTag(f"{key[:40]!r} is not a tag key")
        out.add(folded)
    if not out:
        raise InvalidTag("give at least one tag key")
    return tuple(sorted(out))


def check_subject(name: str) -> str:
    """Return ``name`` if it can be a subject, else raise :class:`InvalidSubject`."""
    if not isinstance(name, str) or not name:
        raise InvalidSubject("the subject name is empty")
    if len(name) > MAX_SUBJECT_LENGTH:
        raise InvalidSubject(f"the subject name is over {MAX_SUBJECT_LENGTH} characters")
    if not encodable(name):
        raise InvalidSubject("the subject name is not valid Unicode text")
    bad = [ch for ch in name if ch.isspace() or ch in "=," or not ch.isprintable()]
    if bad:
        raise InvalidSubject(f"subject {name!r} holds {bad[0]!r}")
    return name
