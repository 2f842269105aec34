"""What every command shares: the parsed options, output, directories, config, memory.

Nothing here runs at import time; the config loader and the service are
imported when a command asks for them, so ``--help`` and ``bootstrap`` stay cheap.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from embornal.errors import EmbornalError, VerificationFailed

if TYPE_CHECKING:
    from embornal.adapters.config import Config
    from embornal.adapters.dirs import Dirs
    from embornal.service.memory import Memory

__all__ = ["Context", "DetailedError", "tilde"]


class DetailedError(VerificationFailed):
    """A verification failure that carries the list of differences for ``--json``."""

    def __init__(self, message: str, details: list[str]) -> None:
        super().__init__(message)
        self.details = details


def tilde(path: Path, home: Path | None = None) -> str:
    """``path`` with the home directory written as ``~`` (for messages)."""
    base = home if home is not None else Path.home()
    try:
        rest = path.relative_to(base)
    except ValueError:
        return str(path)
    return "~" if str(rest) == "." else f"~/{rest}"


@dataclass
class Context:
    """One run of the command line: options, streams and lazily loaded state."""

    args: argparse.Namespace
    out: TextIO = field(default_factory=lambda: sys.stdout)
    err: TextIO = field(default_factory=lambda: sys.stderr)
    _dirs: Dirs | None = None
    _config: Config | None = None
    _prepared: bool = False

    # -- options ------------------------------------------------------------------

    @property
    def json(self) -> bool:
        return bool(getattr(self.args, "json", False))

    @property
    def subject(self) -> str:
        value = getattr(self.args, "as_subject", None)
        return value if value is not None else "default"

    def opt(self, name: str, default: Any = None) -> Any:
        """The parsed option ``name``, or ``default`` when the command has none."""
        return getattr(self.args, name, default)

    # -- output ---------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """One block of text on stdout."""
        self.out.write(text + "\n")

    def note(self, text: str) -> None:
        """One line for the person at the terminal, on stderr."""
        self.err.write(f"embornal: {text}\n")

    def emit(self, data: object) -> None:
        """``data`` as JSON on stdout (service objects pass through ``to_jsonable``)."""
        from embornal.interfaces.cli.render import to_jsonable

        self.out.write(json.dumps(to_jsonable(data), ensure_ascii=False, indent=2) + "\n")

    # -- places -------------------------------------------------------------------

    @property
    def dirs(self) -> Dirs:
        if self._dirs is None:
            from embornal.adapters.dirs import default_dirs

            self._dirs = default_dirs()
        return self._dirs

    @property
    def db_path(self) -> Path:
        """``--db`` when given, else ``memory.db`` in the data dir."""
        given = getattr(self.args, "db", None)
        if given:
            return Path(given).expanduser().absolute()
        return self.dirs.db_file

    def prepare(self) -> None:
        """Move the files of an older build out of ``~/.embornal`` (once), saying which."""
        if self._prepared:
            return
        self._prepared = True
        from embornal.adapters.dirs import migrate_legacy

        home = Path.home()
        for moved in migrate_legacy(self.dirs, home):
            self.note(f"moved {tilde(moved.source, home)} to {tilde(moved.destination, home)}")

    @property
    def config(self) -> Config:
        """The configuration in effect (``config.yaml`` of the config dir, env applied)."""
        if self._config is None:
            from embornal.adapters.config import load_config

            self.prepare()
            self._config = load_config(self.dirs.config_file)
        return self._config

    def open_memory(self) -> Memory:
        """Open the memory for this run, after the legacy move and the config load."""
        self.prepare()
        limit = self.config.recall.limit
        from embornal.service.memory import Memory

        return Memory.open(self.db_path, subject=self.subject, default_limit=limit)

    # -- errors -------------------------------------------------------------------

    def fail(self, err: EmbornalError) -> int:
        """Report ``err`` (one line on stderr; JSON too with ``--json``); return its code."""
        line = f"embornal: {err.message}"
        if err.hint:
            line += f" (hint: {err.hint})"
        self.err.write(line + "\n")
        if self.json:
            data: dict[str, Any] = dict(err.to_dict())
            if isinstance(err, DetailedError):
                data["details"] = err.details
            self.out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return err.exit_code
