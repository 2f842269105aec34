"""The text of ``export``, ``import`` and ``admin backup``, and ``admin restore`` (written by
hand: it writes over a memory, so none may be open)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from embornal.interfaces.cli.app import Context

if TYPE_CHECKING:
    from embornal.interfaces.catalog_types import Operation
    from embornal.service.portability.backup import Backup
    from embornal.service.portability.export import EventsExport, MarkdownExport
    from embornal.service.portability.import_tools import ToolImport
    from embornal.service.portability.importing import EventsImport, MarkdownImport

__all__ = [
    "import_events",
    "import_tool",
    "restore",
    "restore_args",
    "show_backup",
    "show_events_export",
    "show_events_import",
    "show_markdown_export",
    "show_markdown_import",
    "show_tool_import",
]


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def show_markdown_export(ctx: Context, result: MarkdownExport) -> None:
    removed = f"; removed {_n(result.removed, 'stale file')}" if result.removed else ""
    ctx.say(
        f"wrote {_n(result.facts, 'fact')} in {_n(result.files, 'file')} "
        f"to {result.directory}{removed}"
    )


def show_events_export(ctx: Context, result: EventsExport) -> None:
    ctx.say(f"wrote {_n(result.events, 'event')} to {result.file}")
    if not result.complete:
        ctx.say(
            f"not the whole log: {_n(result.left_out, 'event')} left out that "
            f"{ctx.subject} may not read"
        )


def import_events(ctx: Context, op: Operation) -> int:
    """Restore the log into the memory (a new file is created with an empty log), then
    embed the facts with the model of config.yaml, if one is set. A file this command
    created is removed again when the import fails (a memory with an empty log and no
    rules would refuse every write)."""
    from embornal.interfaces.cli.derived import inputs, show
    from embornal.service.memory import Memory
    from embornal.storage.sqlite.portability import remove_file

    given = inputs(ctx, op)
    ctx.prepare()
    provider = ctx.embedder(strict=False).provider
    db = ctx.db_path
    created = isinstance(db, Path) and not db.exists()
    try:
        with Memory.open(
            db,
            subject=ctx.subject,
            actor_kind=ctx.actor_kind,
            default_limit=ctx.config.recall.limit,
            embedder=provider,
            vector_width=ctx.config.embedding.dims if provider is not None else None,
            seed=False,
        ) as mem:
            imported = mem.import_events(**given)
    except BaseException:
        if created and isinstance(db, Path):
            remove_file(db)
        raise
    return show(ctx, op, imported)


def show_events_import(ctx: Context, result: EventsImport) -> None:
    ctx.say(
        f"imported {_n(result.events, 'event')} ({_n(result.facts, 'fact')}) from {result.file}"
    )
    if result.embedded:
        ctx.say(f"embedded {_n(result.embedded, 'fact')}")
    ctx.say("check it with `embornal admin verify`")


def show_markdown_import(ctx: Context, result: MarkdownImport) -> None:
    verb = "would " if result.dry_run else ""
    ctx.say(
        f"{verb}store {result.stored}, {verb}supersede {len(result.superseded)}, "
        f"{verb}forget {len(result.forgotten)}, {verb}restore {len(result.restored)}; "
        f"{result.unchanged} unchanged"
    )
    for label, ids in (
        ("supersede", result.superseded),
        ("forget", result.forgotten),
        ("restore", result.restored),
    ):
        for fact_id in ids:
            ctx.say(f"  {label} {fact_id}")


def import_tool(ctx: Context, op: Operation) -> int:
    """Read another tool's data into one proposal, a progress line on a terminal while
    the source is read."""
    from embornal.interfaces.cli.derived import inputs, show
    from embornal.interfaces.cli.progress import ProgressLine

    given = inputs(ctx, op)
    assert op.call is not None
    with ctx.open_memory(semantic=True) as mem, ProgressLine(ctx.err) as line:
        result = getattr(mem, op.call)(
            **given, progress=lambda done, total: line.update("reading", done, total)
        )
    return show(ctx, op, result)


def show_tool_import(ctx: Context, result: ToolImport) -> None:
    made = f"{_n(result.facts, 'fact')}, {_n(result.links, 'link')}" + (
        f", {_n(result.archived, 'archive')}" if result.archived else ""
    )
    if result.status == "approved":
        ctx.say(f"imported {made} from {result.format} (proposal {result.proposal_id})")
    else:
        ctx.say(f"proposed {made} from {result.format} as proposal {result.proposal_id}")
        ctx.say(
            f"review it: `embornal proposal show {result.proposal_id}`, then "
            f"`embornal proposal approve {result.proposal_id}`"
        )
    for what in result.skipped:
        ctx.say(f"  skipped {what}")


def show_backup(ctx: Context, result: Backup) -> None:
    ctx.say(f"backed up {_n(result.events, 'event')} to {result.file}")


def restore_args(p: object) -> None:
    from embornal.interfaces.cli.parser import ArgParser

    assert isinstance(p, ArgParser)
    p.add_argument("file", metavar="FILE", help="a backup `embornal admin backup` wrote")
    p.add_argument("--replace", action="store_true", help="write it over a memory that holds facts")


def restore(ctx: Context) -> int:
    """Check the backup, then write it over this memory's file."""
    ctx.prepare()
    from embornal.domain.clock import SystemClock
    from embornal.service.portability.backup import restore as restore_backup

    result = restore_backup(
        ctx.opt("file"), str(ctx.db_path), SystemClock(), replace=bool(ctx.opt("replace"))
    )
    if ctx.json:
        ctx.emit(result)
    else:
        ctx.say(f"restored {_n(result.events, 'event')} into {result.db_file}")
        ctx.say("the backup was verified before it was written")
    return 0
