"""The text of ``export``, ``import`` and ``admin backup``, and ``admin restore`` (written by
hand: it writes over a memory, so none may be open)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.interfaces.cli.app import Context

if TYPE_CHECKING:
    from embornal.interfaces.catalog_types import Operation
    from embornal.service.backup import Backup
    from embornal.service.export import EventsExport, MarkdownExport
    from embornal.service.importing import EventsImport, MarkdownImport

__all__ = [
    "import_events",
    "restore",
    "restore_args",
    "show_backup",
    "show_events_export",
    "show_events_import",
    "show_markdown_export",
    "show_markdown_import",
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
    embed the facts with the model of config.yaml, if one is set."""
    from embornal.interfaces.cli.derived import inputs, show
    from embornal.service.memory import Memory

    given = inputs(ctx, op)
    ctx.prepare()
    provider = ctx.embedder(strict=False).provider
    with Memory.open(
        ctx.db_path,
        subject=ctx.subject,
        actor_kind=ctx.actor_kind,
        default_limit=ctx.config.recall.limit,
        embedder=provider,
        vector_width=ctx.config.embedding.dims if provider is not None else None,
        seed=False,
    ) as mem:
        return show(ctx, op, mem.import_events(**given))


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
    from embornal.service.backup import restore as restore_backup

    result = restore_backup(
        ctx.opt("file"), str(ctx.db_path), SystemClock(), replace=bool(ctx.opt("replace"))
    )
    if ctx.json:
        ctx.emit(result)
    else:
        ctx.say(f"restored {_n(result.events, 'event')} into {result.db_file}")
        ctx.say("the backup was verified before it was written")
    return 0
