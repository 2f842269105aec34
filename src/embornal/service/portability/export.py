"""``embornal export events FILE`` and ``export markdown DIR``: the memory as the subject
may read it, out to files (decisions 0061 and 0062).

The events: the whole log when the subject reads everything (every fact, and an allow on
``path:/*`` with no deny); otherwise the streams of the facts it may read, and each
recall naming only those (a recall of none of them left out), and no path, policy or
token event (``complete`` is then false); an id of a fact it may not read in any payload
is masked as everywhere an event is shown (decision 0130). Purged content is redacted as
in the database.
The Markdown: one file a path, live facts only unless ``everything`` (then forgotten and
superseded too; purged never). Each file is written beside its place and renamed, and a
file of the directory's earlier export whose path now holds nothing is removed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from embornal.domain.events import EVENTS, Event, EventType
from embornal.domain.facts.fact import Fact
from embornal.domain.portability import log as L
from embornal.domain.portability import markdown as M
from embornal.domain.records import record
from embornal.errors import InvalidInput
from embornal.service.context import ServiceContext
from embornal.service.shown_events import mask
from embornal.storage.contract.store import Redaction

__all__ = ["EventsExport", "MarkdownExport", "export_events", "export_markdown"]


@record
class EventsExport:
    """What ``export events`` wrote: the file, its events, and whether it is the whole log
    (False: the subject may not read all of it)."""

    file: str
    events: int
    complete: bool
    left_out: int


@record
class MarkdownExport:
    """What ``export markdown`` wrote: the directory, its files and facts, the stale files
    it removed."""

    directory: str
    files: int
    facts: int
    removed: int


def _write_atomically(target: Path, chunks: Iterator[str]) -> None:
    part = target.with_name(f".{target.name}.part")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # private, as the db
        with open(fd, "w", encoding="utf-8", newline="\n") as out:
            for chunk in chunks:
                out.write(chunk)
        os.replace(part, target)
    finally:
        if part.exists():
            part.unlink()


def _writable_file(file: str) -> Path:
    target = Path(file).expanduser()
    if target.is_dir():
        raise InvalidInput(f"{file} is a directory", hint="Name a file to write the log to.")
    if not target.parent.is_dir():
        raise InvalidInput(f"{target.parent} is not a directory", hint="Create it first.")
    return target


def export_events(ctx: ServiceContext, file: str) -> EventsExport:
    target = _writable_file(file)
    store = ctx.store
    until = (
        store.portability.last_position()
    )  # the log as it is now: what is written meanwhile waits
    visible = store.portability.fact_ids(ctx.scope())
    every_fact = store.portability.fact_ids()
    everyone = ctx.access.unconditional("read")
    redactions = store.portability.redactions()
    counts = {"events": 0, "left_out": 0}

    whole = everyone and visible == every_fact

    def shown(event: Event) -> str | None:
        if whole:
            return L.event_line(event, _mark(redactions, event))
        if event.stream_id in every_fact:
            if event.stream_id not in visible:
                return None
        elif event.type == EventType.FACTS_RECALLED:
            if not EVENTS.named_facts(event.type, event.payload) & visible:
                return None
        elif not everyone:
            return None
        masked = mask(event, visible)  # the other facts it names (decision 0130)
        return L.event_line(masked, _mark(redactions, event))

    def lines() -> Iterator[str]:
        yield L.header_line(ctx.subject, complete=whole) + "\n"
        for event in store.read_all(until=until):
            line = shown(event)
            if line is None:
                counts["left_out"] += 1
                continue
            counts["events"] += 1
            yield line + "\n"
        yield L.end_line(counts["events"]) + "\n"

    _write_atomically(target, lines())
    return EventsExport(
        file=str(target),
        events=counts["events"],
        complete=whole,
        left_out=counts["left_out"],
    )


def _mark(redactions: Mapping[int, Redaction], event: Event) -> tuple[int, str] | None:
    mark = redactions.get(event.position)
    return None if mark is None else (mark.purge_position, mark.redacted_at)


def _exported(fact: Fact, everything: bool, ctx: ServiceContext) -> bool:
    if fact.state == "purged":
        return False
    if everything:
        return True
    return fact.state == "active" and not fact.expired(ctx.now())


def export_markdown(
    ctx: ServiceContext, directory: str, *, everything: bool = False
) -> MarkdownExport:
    root = Path(directory).expanduser()
    if root.exists() and not root.is_dir():
        raise InvalidInput(f"{directory} is not a directory", hint="Name a directory to write to.")
    marker = root / M.MARKER
    if root.is_dir() and any(root.iterdir()) and not marker.exists():
        raise InvalidInput(
            f"{directory} holds files that are not an export",
            hint="Export into an empty directory, or into one an earlier export wrote.",
        )
    root.mkdir(parents=True, exist_ok=True)
    by_path: dict[str, list[Fact]] = {}
    for fact in ctx.store.portability.every_fact(ctx.scope()):
        if _exported(fact, everything, ctx):
            by_path.setdefault(fact.path, []).append(fact)
    written: set[Path] = set()
    for path, facts in by_path.items():
        target = root / M.file_of(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        text = M.render_file(path, facts)
        written.add(target)
        if target.exists() and target.read_bytes() == text.encode("utf-8"):
            continue  # the same bytes: leave its time alone
        _write_atomically(target, iter((text,)))
    _write_atomically(marker, iter((M.marker_text(ctx.subject, everything=everything),)))
    removed = _remove_stale(root, written)
    return MarkdownExport(
        directory=str(root),
        files=len(written),
        facts=sum(len(f) for f in by_path.values()),
        removed=removed,
    )


def _remove_stale(root: Path, written: set[Path]) -> int:
    """Remove the ``.md`` files an earlier export left whose path holds nothing now, and the
    directories that leaves empty (never a hidden one: ``.git``)."""
    removed = 0
    for file in sorted(root.rglob("*.md"), reverse=True):
        relative = file.relative_to(root)
        if any(part.startswith(".") for part in relative.parts) or file in written:
            continue
        file.unlink()
        removed += 1
    for folder in sorted((d for d in root.rglob("*") if d.is_dir()), reverse=True):
        relative = folder.relative_to(root)
        if not any(part.startswith(".") for part in relative.parts) and not any(folder.iterdir()):
            folder.rmdir()
    return removed
