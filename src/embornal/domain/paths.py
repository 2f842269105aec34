"""Paths name topics: ``/projects/embornal``.

Rules (docs/model.md, Fact and path): the memory folds each path to lowercase; a segment starts
with a letter or a digit and holds letters, digits, ``.``, ``_`` and ``-``.
The root ``/`` is the only path with no parent.

Before the segment rule, a path is folded with Unicode NFKC, so lookalikes of one
name are one node: fullwidth ``/ａdmin`` and the ligature in ``/ﬁle`` become
``/admin`` and ``/file``. A segment that mixes Latin, Cyrillic and Greek letters
(``/аdmin`` with a Cyrillic ``а``) is refused: NFKC does not fold confusables, and
such a mix is nearly always a spoof. An error names the character as it was typed,
with its code point and name.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache

from embornal.domain.bounds import MAX_PATH_LENGTH
from embornal.errors import InvalidPath

__all__ = [
    "MAX_DEPTH",
    "MAX_PATH_LENGTH",
    "MAX_SEGMENT_LENGTH",
    "ROOT",
    "ancestors",
    "describe_char",
    "fold",
    "is_under",
    "join",
    "name_of",
    "normalize_path",
    "parent_of",
    "segments",
]

ROOT = "/"
MAX_DEPTH = 32
MAX_SEGMENT_LENGTH = 128

_EXTRA = frozenset("._-")
#: Scripts whose letters look alike; one segment may use only one of them.
_CONFUSABLE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def fold(text: str) -> str:
    """NFKC, then lowercase (NFKC again: lowercasing may leave a composable pair)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).lower())


def _typed(raw: str, ch: str) -> str:
    """The character of ``raw`` the user typed that folds to (or into) ``ch``."""
    if ch in raw:
        return ch
    return next((c for c in raw if ch in fold(c)), ch)


def describe_char(ch: str) -> str:
    """``'а' (U+0430 CYRILLIC SMALL LETTER A)``: visible even for a combining mark."""
    name = unicodedata.name(ch, "") or f"a character of category {unicodedata.category(ch)}"
    return f"{ch!r} (U+{ord(ch):04X} {name})"


def _script(ch: str) -> str | None:
    """LATIN, CYRILLIC or GREEK for a letter of those scripts, else None."""
    if not ch.isalpha():
        return None
    head = unicodedata.name(ch, "").split(" ", 1)[0]
    return head if head in _CONFUSABLE_SCRIPTS else None


def _check_scripts(segment: str, raw: str) -> None:
    if segment.isascii():  # every ASCII letter is Latin: one script
        return
    scripts = Counter(s for s in map(_script, segment) if s is not None)
    if len(scripts) < 2:
        return
    main = max(scripts, key=lambda s: (scripts[s], s == "LATIN"))  # a tie: Latin is the base
    odd = next(ch for ch in segment if _script(ch) not in (None, main))
    raise InvalidPath(
        f"segment {segment!r} of path {raw!r} mixes scripts: "
        f"{describe_char(_typed(raw, odd))} among {main.title()} letters",
        hint="Write each segment in one script: type the letter on a keyboard of the "
        "segment's language (a lookalike from another alphabet makes another path).",
    )


def _check_segment(segment: str, raw: str) -> None:
    if not segment:
        raise InvalidPath(f"path {raw!r} has an empty segment")
    if len(segment) > MAX_SEGMENT_LENGTH:
        raise InvalidPath(
            f"segment {segment[:20]!r}... of path is {len(segment)} characters long; "
            f"at most {MAX_SEGMENT_LENGTH} are allowed"
        )
    if not segment[0].isalnum():
        raise InvalidPath(
            f"segment {segment!r} of path {raw!r} must start with a letter or a digit"
        )
    for ch in segment:
        if not (ch.isalnum() or ch in _EXTRA):
            raise InvalidPath(
                f"segment {segment!r} of path {raw!r} holds {describe_char(_typed(raw, ch))}; "
                "only letters, digits, '.', '_' and '-' are allowed"
            )
    _check_scripts(segment, raw)


def normalize_path(raw: str) -> str:
    """Fold ``raw`` to its canonical form or raise :class:`InvalidPath`.

    ``/Projects/Embornal/`` becomes ``/projects/embornal``, ``/ａdmin`` ``/admin``;
    ``/`` stays ``/``.
    """
    if not isinstance(raw, str):
        raise InvalidPath(f"a path must be text, not {type(raw).__name__}")
    return _normalize(raw)


@lru_cache(maxsize=16_384)  # a bulk load names a path many times; a refusal is not kept
def _normalize(raw: str) -> str:
    if not raw:
        raise InvalidPath("the path is empty")
    if len(raw) > MAX_PATH_LENGTH:
        raise InvalidPath(
            f"the path is {len(raw)} characters long; at most {MAX_PATH_LENGTH} are allowed"
        )
    if not raw.startswith("/"):
        raise InvalidPath(f"path {raw!r} must start with '/'")
    folded = fold(raw)
    if len(folded) > MAX_PATH_LENGTH:  # NFKC may lengthen a path (U+FDFA is 18 letters)
        raise InvalidPath(
            f"the path folds to {len(folded)} characters; at most {MAX_PATH_LENGTH} are allowed"
        )
    body = folded.strip("/") if folded.endswith("/") else folded[1:]
    if folded.endswith("//") or not folded.startswith("/"):
        raise InvalidPath(f"path {raw!r} has an empty segment")
    if not body:
        return ROOT
    parts = body.split("/")
    if len(parts) > MAX_DEPTH:
        raise InvalidPath(f"the path has {len(parts)} segments; at most {MAX_DEPTH} are allowed")
    for part in parts:
        _check_segment(part, raw)
    return "/" + "/".join(parts)


def segments(path: str) -> list[str]:
    """The segments of a normalized path (``[]`` for the root)."""
    return [] if path == ROOT else path[1:].split("/")


def parent_of(path: str) -> str | None:
    """The parent of a normalized path; ``None`` for the root."""
    if path == ROOT:
        return None
    head = path.rsplit("/", 1)[0]
    return head or ROOT


def name_of(path: str) -> str:
    """The last segment (``""`` for the root)."""
    return "" if path == ROOT else path.rsplit("/", 1)[1]


def ancestors(path: str) -> list[str]:
    """Every path from the root down to ``path`` itself, root first."""
    out = [ROOT]
    acc = ""
    for seg in segments(path):
        acc += "/" + seg
        out.append(acc)
    return out


def join(parent: str, name: str) -> str:
    return "/" + name if parent == ROOT else parent + "/" + name


def is_under(path: str, prefix: str) -> bool:
    """True when ``path`` is ``prefix`` or lies below it."""
    if prefix == ROOT:
        return True
    return path == prefix or path.startswith(prefix + "/")
