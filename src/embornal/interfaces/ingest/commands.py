"""``embornal ingest FILE|-``: read a conversation or note into one proposal (decision 0068)."""

from __future__ import annotations

import sys
from pathlib import Path

from embornal.errors import InvalidContent, InvalidInput
from embornal.interfaces.catalog_types import Operation
from embornal.interfaces.cli.app import Context

__all__ = ["ingest"]

#: The most bytes a file or standard input may hold (as the service's text limit).
MAX_BYTES = 4_000_000


def ingest(ctx: Context, op: Operation) -> int:
    """Read FILE (``-`` or none: standard input) as strict UTF-8, then propose."""
    from embornal.interfaces.cli.derived import inputs, show

    given = inputs(ctx, op)  # the flags are checked before anything is read
    where = ctx.opt("file")
    if where in (None, "-"):
        stream = sys.stdin
        if stream is None:
            raise InvalidContent("there is no standard input to read the text from")
        if stream.isatty():
            ctx.note("reading the text from standard input; end it with Ctrl-D")
        data, name = stream.buffer.read(MAX_BYTES + 1), "stdin"
    else:
        path = Path(str(where)).expanduser()
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError as e:
            raise InvalidInput(
                f"cannot read {path}: {e.strerror or e}", hint="Give a readable text file."
            ) from None
        name = path.name
    if len(data) > MAX_BYTES:
        raise InvalidInput(
            f"{name} is larger than {MAX_BYTES:,} bytes", hint="Split it into parts."
        )
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise InvalidContent(
            f"{name} is not valid UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start})",
            hint="Convert the text to UTF-8 first, for example with `iconv -t UTF-8`.",
        ) from None
    with ctx.open_memory_api() as mem:
        result = mem.ingest(text, name=name, **given)
    return show(ctx, op, result)
