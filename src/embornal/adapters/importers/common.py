"""What the readers share: the source named on the command line, found or refused, and
a JSON file read whole or refused with where it went wrong."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from embornal.domain.portability.import_mapping import NESTED_TOO_DEEP, refuse
from embornal.errors import InvalidInput

__all__ = ["existing", "read_json", "text_of"]


def existing(source: str, *, directory: bool, what: str) -> Path:
    """The file (or directory) ``source`` names, or the error saying what to name."""
    path = Path(source).expanduser()
    ok = path.is_dir() if directory else path.is_file()
    if not ok:
        kind = "directory" if directory else "file"
        raise InvalidInput(f"no {kind} at {source}", hint=f"Name {what}.")
    return path


def read_json(source: str, *, what: str, max_bytes: int) -> tuple[Path, Any]:
    """The file ``source`` names and its JSON, or the error saying what is wrong: no file,
    too large, not UTF-8, not JSON (with its line), nested too deep."""
    path = existing(source, directory=False, what=what)
    if path.stat().st_size > max_bytes:
        raise refuse(str(path), f"the file is over {max_bytes} bytes")
    try:
        return path, json.loads(path.read_bytes())
    except UnicodeDecodeError:
        raise refuse(str(path), "the file is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise refuse(f"line {e.lineno}", f"not valid JSON ({e.msg})") from None
    except RecursionError:
        raise refuse(str(path), NESTED_TOO_DEEP) from None


def text_of(raw: object, limit: int = 200) -> str:
    """A value as short text for an error message."""
    text = repr(raw)
    return text if len(text) <= limit else text[: limit - 1] + "…"
