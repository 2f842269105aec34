"""A one-line progress display on stderr, redrawn with ``\\r``; silent off a terminal.

Scripts that read stderr get no progress noise: when the stream is not a TTY,
every call here does nothing.
"""

from __future__ import annotations

import time
from typing import Self, TextIO

__all__ = ["DownloadProgress", "ProgressLine", "fmt_bytes"]

_REDRAW_SECONDS = 0.1
_BAR_WIDTH = 24


def fmt_bytes(size: int) -> str:
    """``1.1 GB``, ``512.0 MB``, ``12 B``: decimal units, one decimal above bytes."""
    if size < 1000:
        return f"{size} B"
    value = float(size)
    for unit in ("kB", "MB", "GB", "TB"):
        value /= 1000
        if value < 1000 or unit == "TB":
            return f"{value:.1f} {unit}"
    return f"{value:.1f} TB"  # pragma: no cover - the loop always returns


def _is_tty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (OSError, ValueError):
        return False


class ProgressLine:
    """``label [#####.....]  done/total  pct`` on one line, kept up to date.

    ``update`` redraws at most every 0.1 s (and always on the last step);
    ``finish`` ends the line, as leaving a ``with`` block does however it ends.
    ``as_bytes`` shows sizes instead of counts.
    """

    def __init__(self, stream: TextIO, *, enabled: bool | None = None) -> None:
        self._stream = stream
        self.enabled = _is_tty(stream) if enabled is None else enabled
        self._drawn = False
        self._width = 0
        self._last = 0.0

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.finish()

    def update(self, label: str, done: int, total: int, *, as_bytes: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        final = total > 0 and done >= total
        if self._drawn and not final and now - self._last < _REDRAW_SECONDS:
            return
        self._last = now
        shown = fmt_bytes if as_bytes else str
        if total > 0:
            share = min(1.0, done / total)
            filled = int(share * _BAR_WIDTH)
            bar = "#" * filled + "." * (_BAR_WIDTH - filled)
            text = f"{label} [{bar}] {shown(done)}/{shown(total)} {share:4.0%}"
        else:
            text = f"{label} {shown(done)}"
        pad = " " * max(0, self._width - len(text))
        self._stream.write("\r" + text + pad)
        self._stream.flush()
        self._width = len(text)
        self._drawn = True

    def finish(self) -> None:
        """End the current line (if one was drawn), so the next output starts clean."""
        if self.enabled and self._drawn:
            self._stream.write("\n")
            self._stream.flush()
        self._drawn = False
        self._width = 0


class DownloadProgress:
    """A ``progress(filename, done_bytes, total_bytes)`` callback: one line per file."""

    def __init__(self, stream: TextIO, *, enabled: bool | None = None) -> None:
        self.line = ProgressLine(stream, enabled=enabled)
        self._current: str | None = None

    def __call__(self, filename: str, done: int, total: int) -> None:
        if filename != self._current:
            self.line.finish()
            self._current = filename
        self.line.update(filename, done, total, as_bytes=True)

    def finish(self) -> None:
        self.line.finish()
        self._current = None
