"""The catalogue's operation that copies a memory whole into another store, on either
backend: ``admin copy --to`` (decision 0102). Local-only, as the other admin commands
(profile ``none``, no REST route): it reads the machine's memory and writes a file or a
database the machine reaches. :mod:`.catalog` splices :data:`OPERATIONS` into
``CATALOG``. Stdlib-only at import (plain data), as the catalogue.
"""

from __future__ import annotations

from embornal.interfaces.catalog_types import Input, Operation, part

__all__ = ["OPERATIONS", "PLACE"]

PLACE = 150
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "copy",
    Operation(
        "copy",
        "Copied",
        (
            Input(
                "target",
                "text",
                "The empty memory to copy into: a new file, or a "
                "postgresql:// URL of a database that holds no memory.",
                True,
                flag="--to",
                metavar="URL_OR_FILE",
                max_length=4096,
                cli_help="a new file, or a postgresql:// URL of an empty database",
            ),
        ),
        call="copy_to",
        read_only=True,
        cli="admin copy",
        cli_help="copy the whole memory into an empty one (SQLite or PostgreSQL)",
        cli_doc="Copy the memory, from one consistent snapshot while writers go on, "
        "into\nURL_OR_FILE: a file that does not exist yet, or a postgresql:// URL "
        "of a\ndatabase that holds no memory. The events keep their ids and "
        "positions, the\nprojections are rebuilt from them, the vectors are carried "
        "with their model,\nand the copy is verified. A target that holds a memory is "
        "exit 2 (nothing written).",
        cli_run="copy.commands:copy",
        cli_show="copy.commands:show_copied",
    ),
)
