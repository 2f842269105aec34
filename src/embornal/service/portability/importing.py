"""``embornal import events FILE`` and ``import markdown DIR`` (decisions 0061 and 0062).

The events go into an empty memory only, each at its own position and version, checked
line by line as they are written in one transaction: a line that breaks the format rolls
it all back (nothing imported) and the error names the line. Vectors are made again
afterwards when an embedding model is set (``embornal memory reindex`` otherwise).

The Markdown is read whole and checked before anything changes: a fact whose content,
kind or attributes differ is superseded, a live fact the files no longer hold is
forgotten, one marked ``state: forgotten`` forgotten, one marked active again restored,
and a block with no id (or an id this memory lacks) stored as a new fact, unless a live
fact of its path says the same words (an export of another memory); each with the
reason ``import``. The directory is then exported again (as its marker says: with
``--all`` or not), so that it names the new facts' ids and a second import changes
nothing. ``dry_run`` reports the plan and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from embornal.domain.events import Event
from embornal.domain.facts.fact import Fact
from embornal.domain.guide import is_guide_path
from embornal.domain.kinds.registry import KINDS
from embornal.domain.portability import log as L
from embornal.domain.portability import markdown as M
from embornal.domain.records import record
from embornal.errors import Conflict, EmbornalError, InvalidImport, InvalidInput
from embornal.service.context import ServiceContext
from embornal.storage.contract.store import Redaction

__all__ = ["EventsImport", "MarkdownImport", "import_events", "import_markdown"]

REASON = "import"


@record
class EventsImport:
    """What ``import events`` restored: the file, its events and facts, the facts given a
    vector again (0 without an embedding model)."""

    file: str
    events: int
    facts: int
    embedded: int


@record
class MarkdownImport:
    """What ``import markdown`` changed (or, with ``dry_run``, would change): how many facts
    it stored, the ids of those it superseded, forgot and restored, how many stayed."""

    directory: str
    stored: int
    superseded: tuple[str, ...]
    forgotten: tuple[str, ...]
    restored: tuple[str, ...]
    unchanged: int
    dry_run: bool


def _readable_file(file: str) -> Path:
    source = Path(file).expanduser()
    if not source.is_file():
        raise InvalidInput(f"no file at {file}", hint="Name a file `embornal export events` wrote.")
    return source


def import_events(ctx: ServiceContext, file: str) -> EventsImport:
    source = _readable_file(file)
    store = ctx.store
    if store.portability.event_count():
        raise Conflict(
            "the memory already holds events: a log is imported only into an empty memory",
            hint="Import into a new memory: `embornal --db NEW.db import events FILE`.",
        )
    reader = L.LogReader()
    facts = 0

    def entries() -> Iterator[tuple[Event, Redaction | None]]:
        nonlocal facts
        with open(source, "rb") as lines:
            while raw := lines.readline(L.MAX_LINE_BYTES + 1):
                entry = reader.feed(raw)
                if entry is None:
                    continue
                event, mark = entry
                facts += event.version == 1 and event.type == "FactStored"
                yield event, None if mark is None else Redaction(*mark)
        reader.finish()

    count = store.portability.restore_log(entries())
    embedded = 0
    if ctx.semantic.usable():
        embedded = ctx.semantic.reindex(limit=None, everything=False, progress=None).embedded
    return EventsImport(file=str(source), events=count, facts=facts, embedded=embedded)


# -- markdown ------------------------------------------------------------------------------


def _read_directory(root: Path) -> tuple[list[M.Block], bool]:
    if not root.is_dir():
        raise InvalidInput(
            f"no directory at {root}", hint="Name a directory `export markdown` wrote."
        )
    marker = root / M.MARKER
    if not marker.is_file():
        raise InvalidImport(
            f"{root} has no {M.MARKER}: it is not an export; nothing was imported",
            hint="Import a directory `embornal export markdown` wrote (and you may have edited).",
        )
    everything = M.parse_marker(marker.read_text("utf-8")).get("all") is True
    blocks: list[M.Block] = []
    for file in sorted(root.rglob("*")):
        relative = file.relative_to(root).as_posix()
        if file.is_dir() or relative == M.MARKER or relative.startswith(".") or "/." in relative:
            continue
        try:
            text = file.read_bytes().decode("utf-8")  # lines as written: M.parse_file ends them
        except UnicodeDecodeError:
            raise InvalidImport(f"{relative} is not UTF-8 text; nothing was imported") from None
        blocks.extend(M.parse_file(relative, text))
    seen: set[str] = set()
    for block in blocks:
        if block.id is not None and block.id in seen:
            raise InvalidImport(f"fact {block.id} is in the files twice; nothing was imported")
        if block.id is not None:
            seen.add(block.id)
        _check_block(block)
    return blocks, everything


def _check_block(block: M.Block) -> None:
    try:
        kind = KINDS.check_kind(block.kind)
        if block.attributes:
            KINDS.validate(kind, block.attributes)
    except EmbornalError as e:
        where = f"{M.file_of(block.path)}, line {block.line}"
        raise InvalidImport(f"{where}: {e.message}; nothing was imported") from None


def _changed(block: M.Block, fact: Fact) -> bool:
    attributes = dict(block.attributes or {})
    return (
        block.content != fact.content
        or block.kind != fact.kind
        or (bool(attributes or fact.attributes) and attributes != dict(fact.attributes))
    )


def import_markdown(
    ctx: ServiceContext, directory: str, *, dry_run: bool = False
) -> MarkdownImport:
    root = Path(directory).expanduser()
    blocks, everything = _read_directory(root)
    current = {f.id: f for f in ctx.store.portability.every_fact(ctx.scope())}
    named = {b.id for b in blocks if b.id is not None}
    new: list[M.Block] = []
    supersede: list[tuple[M.Block, Fact]] = []
    forget: list[Fact] = []
    restore: list[Fact] = []
    unchanged = 0
    same_words = {(f.path, f.content): f for f in current.values() if f.state == "active"}
    for block in blocks:
        fact = current.get(block.id) if block.id else None
        if fact is None:
            twin = same_words.get((block.path, block.content))
            if twin is not None:  # another memory's export: the same fact is here already
                named.add(twin.id)
                unchanged += 1
            elif block.state == "active":
                new.append(block)
        elif block.state == "forgotten" and fact.state == "active":
            forget.append(fact)
        elif block.state == "active" and fact.state == "forgotten":
            restore.append(fact)
        elif block.state == "active" and fact.state == "active" and _changed(block, fact):
            supersede.append((block, fact))
        else:
            unchanged += 1
    forget += [  # a fact no file names is forgotten; the guide is not the files' (0154)
        f
        for f in current.values()
        if f.state == "active" and f.id not in named and not is_guide_path(f.path)
    ]
    if not dry_run:
        _apply(ctx, new, supersede, forget, restore)
        from embornal.service.portability.export import export_markdown

        export_markdown(ctx, str(root), everything=everything)  # the files name the new ids
    return MarkdownImport(
        directory=str(root),
        stored=len(new),
        superseded=tuple(f.id for _, f in supersede),
        forgotten=tuple(f.id for f in forget),
        restored=tuple(f.id for f in restore),
        unchanged=unchanged,
        dry_run=dry_run,
    )


def _apply(
    ctx: ServiceContext,
    new: list[M.Block],
    supersede: list[tuple[M.Block, Fact]],
    forget: list[Fact],
    restore: list[Fact],
) -> None:
    from embornal.service.facts import lifecycle
    from embornal.service.facts import writes as facts
    from embornal.service.facts.details import NewFact

    if new:
        items = [
            NewFact(
                b.path,
                b.content,
                tags=list(b.tags) or None,
                kind=b.kind,
                attributes=b.attributes or None,
                visibility=b.visibility,
            )
            for b in new
        ]
        facts.store_many(ctx, items, reason=REASON)
    for block, fact in supersede:
        facts.supersede(
            ctx,
            fact.id,
            block.content,
            reason=REASON,
            kind=block.kind,
            attributes=block.attributes or None,
        )
    for fact in forget:
        lifecycle.forget(ctx, fact.id, reason=REASON)
    for fact in restore:
        lifecycle.restore(ctx, fact.id, reason=REASON)
