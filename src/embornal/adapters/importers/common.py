"""What the readers share: the source named on the command line, found or refused."""

from __future__ import annotations

from pathlib import Path

from embornal.errors import InvalidInput

__all__ = ["existing", "text_of"]


def existing(source: str, *, directory: bool, what: str) -> Path:
    """The file (or directory) ``source`` names, or the error saying what to name."""
    path = Path(source).expanduser()
    ok = path.is_dir() if directory else path.is_file()
    if not ok:
        kind = "directory" if directory else "file"
        raise InvalidInput(f"no {kind} at {source}", hint=f"Name {what}.")
    return path


def text_of(raw: object, limit: int = 200) -> str:
    """A value as short text for an error message."""
    text = repr(raw)
    return text if len(text) <= limit else text[: limit - 1] + "…"
