"""The catalogue's operations that move a memory whole: export, import and backup
(decisions 0061–0063).

All are local-only (profile ``none``, no REST route): they read and write files on the
machine that holds the memory, and in client mode their commands refuse. ``admin
restore`` is written by hand (:mod:`.commands`): no memory may be open while
it writes over one. :mod:`embornal.interfaces.catalog` splices :data:`OPERATIONS` into
``CATALOG``. Stdlib-only at import (plain data), as the catalogue.
"""

from __future__ import annotations

from embornal.interfaces.catalog_inputs import switch
from embornal.interfaces.catalog_types import Input, Operation, part

__all__ = ["OPERATIONS", "PLACE"]

_RUN = "portability.commands:"


def _place(name: str, what: str, metavar: str) -> Input:
    return Input(name, "text", what, True, metavar=metavar, cli_help="", max_length=4096)


_TOOLS = (
    ("memory-as-history", "memory-as-history's SQLite database (memory.db)", "FILE"),
    ("basic-memory", "a basic-memory project's directory of Markdown files", "DIR"),
    ("mem0", 'a mem0 export: the JSON of get_all ({"results": [...]})', "FILE"),
    ("mcp-memory", "the MCP reference memory server's memory.jsonl", "FILE"),
)


def _tool_import(fmt: str, what: str, metavar: str) -> Operation:
    """``import FORMAT SOURCE``: another memory tool's data as one proposal (decision 0076)."""
    return Operation(
        "import_" + fmt.replace("-", "_"),
        "ToolImport",
        (
            _place("source", f"The source: {what}.", metavar),
            switch(
                "apply",
                "Approve the proposal at once.",
                "approve the proposal at once (a person's right)",
            ),
            Input(
                "under",
                "text",
                "The path to import under (default /imported/FORMAT).",
                metavar="PATH",
                max_length=4096,
                cli_help=f"the path to import under (default /imported/{fmt})",
            ),
        ),
        cli=f"import {fmt}",
        cli_help=f"propose the memories of {fmt} as facts (--apply: store them)",
        cli_doc=f"Read {what},\ncheck it whole, and open ONE proposal of its memories as "
        "facts (source kind\nimport, the import prior confidence, the original ids and "
        "times as evidence,\nits relations as typed links). `embornal proposal approve ID` "
        "stores them;\n--apply approves at once. A bad source stops with the line or "
        "record it names,\nand nothing is imported. See docs/importing.md.",
        cli_run=_RUN + "import_tool",
        cli_show=_RUN + "show_tool_import",
    )


PLACE = 140
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "portability",
    Operation(
        "export_markdown",
        "MarkdownExport",
        (
            _place("directory", "The directory to write (empty, or an earlier export).", "DIR"),
            switch(
                "everything",
                "Also forgotten and superseded facts.",
                "also forgotten and superseded facts (purged ones never)",
                flag="--all",
            ),
        ),
        read_only=True,
        cli="export markdown",
        cli_help="write one Markdown file per path into DIR (stable for git diffs)",
        cli_doc="Write the facts you may read into DIR, one file per path (the root: "
        "_root.md),\neach fact a YAML front matter block (id, kind, spine, attributes) "
        "and its\ncontent, [[/path]] links kept. Same memory, same bytes: a git diff "
        "of two\nexports shows what changed. Live facts only unless --all; purged "
        "ones never.",
        cli_show=_RUN + "show_markdown_export",
    ),
    Operation(
        "export_events",
        "EventsExport",
        (_place("file", "The NDJSON file to write.", "FILE"),),
        read_only=True,
        cli="export events",
        cli_help="write the event log to FILE as NDJSON (the lossless form)",
        cli_doc="Write the event log to FILE, one JSON object a line: a header, every "
        "event\n(payloads at their current version, purged text redacted as in the "
        "database)\nand an end line. A subject that may not read everything gets the "
        "streams of\nthe facts it may read (the header says complete: false).",
        cli_show=_RUN + "show_events_export",
    ),
    Operation(
        "import_events",
        "EventsImport",
        (_place("file", "The NDJSON file `export events` wrote.", "FILE"),),
        cli="import events",
        cli_help="restore an exported log into this empty memory, exactly",
        cli_doc="Restore FILE into an empty memory: the same ids, positions and "
        "history;\n`admin verify` passes. Each line is checked as it is written; a "
        "bad one\n(truncated, unknown type, future version, bad path, duplicate) "
        "stops it with\nthe line's number and nothing is imported.",
        cli_run=_RUN + "import_events",
        cli_show=_RUN + "show_events_import",
    ),
    Operation(
        "import_markdown",
        "MarkdownImport",
        (
            _place("directory", "The directory `export markdown` wrote (edited or not).", "DIR"),
            switch("dry_run", "Only say what would change.", "only print what would change"),
        ),
        cli="import markdown",
        cli_help="read an (edited) Markdown export back into the memory",
        cli_doc="Read DIR back: a fact whose content, kind or attributes changed is "
        "superseded,\na fact no file holds any more is forgotten, a block with no id is "
        'stored as a\nnew fact; each with the reason "import". Every file is checked '
        "first: an\nerror names the file and line, and nothing changes.",
        cli_show=_RUN + "show_markdown_import",
    ),
    *(_tool_import(fmt, what, metavar) for fmt, what, metavar in _TOOLS),
    Operation(
        "backup",
        "Backup",
        (_place("file", "The new file to write the copy to.", "FILE"),),
        read_only=True,
        cli="admin backup",
        cli_help="copy the whole memory to a new FILE while writers go on",
        cli_doc="Copy the memory to FILE (which must not exist) with SQLite's online "
        "backup:\none consistent snapshot, while other processes go on writing. "
        "`admin restore`\nputs it back. A PostgreSQL memory's backup is a SQLite "
        "memory file written\nfrom one REPEATABLE READ snapshot (no pg_dump).",
        cli_show=_RUN + "show_backup",
    ),
)
