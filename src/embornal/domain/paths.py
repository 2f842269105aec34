"""Paths name topics: ``/projects/embornal``.

Rules (seed 000): the memory folds each path to lowercase; a segment starts
with a letter or a digit and holds letters, digits, ``.``, ``_`` and ``-``.
The root ``/`` is the only path with no parent.
"""

from __future__ import annotations

from embornal.errors import InvalidPath

__all__ = [
    "MAX_DEPTH",
    "MAX_PATH_LENGTH",
    "MAX_SEGMENT_LENGTH",
    "ROOT",
    "ancestors",
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
MAX_PATH_LENGTH = 1024

_EXTRA = frozenset("._-")


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
                f"segment {segment!r} of path {raw!r} holds {ch!r}; "
                "only letters, digits, '.', '_' and '-' are allowed"
            )


def normalize_path(raw: str) -> str:
    """Fold ``raw`` to its canonical form or raise :class:`InvalidPath`.

    ``/Projects/Embornal/`` becomes ``/projects/embornal``; ``/`` stays ``/``.
    """
    if not isinstance(raw, str):
        raise InvalidPath(f"a path must be text, not {type(raw).__name__}")
    if not raw:
        raise InvalidPath("the path is empty")
    if len(raw) > MAX_PATH_LENGTH:
        raise InvalidPath(
            f"the path is {len(raw)} characters long; at most {MAX_PATH_LENGTH} are allowed"
        )
    if not raw.startswith("/"):
        raise InvalidPath(f"path {raw!r} must start with '/'")
    folded = raw.lower()
    body = folded.strip("/") if folded.endswith("/") else folded[1:]
    if folded.endswith("//"):
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
