"""``embornal admin copy --to TARGET``: the whole memory into an empty one, on either
backend (decision 0102).

One consistent read of the source (its log with the redaction records, and its vectors:
``Store.snapshot``) is written into the target: the events at their own positions, ids,
versions, times and actors (``restore_log``, which rebuilds the projections from them),
then the vectors, with the identity of the model that made them (a target opened with
another model asks for ``memory reindex --all``, as the source would). The target is then
verified. A file target must not exist yet (it is written beside its place and renamed);
a PostgreSQL target must hold no event. A copy is the whole memory, as a backup is: the
subject must be the memory's operator (an unconditional read: an allow on ``path:/*`` and
no deny), and the copy then holds every fact, another owner's private ones too, as the
backup does (``export events`` writes what a narrower subject may read).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from embornal.domain.clock import Clock
from embornal.domain.events import Event
from embornal.domain.records import record
from embornal.errors import AccessDenied, InvalidInput, StorageError
from embornal.service.context import ServiceContext
from embornal.storage.contract.store import Redaction, Store
from embornal.storage.factory import backend_of, open_store

__all__ = ["Copied", "copy_between", "copy_to", "into_database", "refuse_non_empty", "shown_target"]

Progress = Callable[[str, int, int], None] | None  # (step, done, total)


@record
class Copied:
    """What ``admin copy`` wrote: the target (a URL without its password), its backend,
    the events and vectors copied, the vectors' model, and that the target verified."""

    target: str
    backend: str
    events: int
    vectors: int
    model: str | None
    verified: bool


def shown_target(target: str) -> str:
    """``target`` as it may be printed: a URL's password left out."""
    if backend_of(target) == "sqlite":
        return target
    parts = urlsplit(target)
    if parts.password is None:
        return target
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def copy_to(ctx: ServiceContext, target: str, progress: Progress = None) -> Copied:
    if not ctx.access.unconditional("read"):
        raise AccessDenied(
            f"subject {ctx.subject} may not read the whole memory: a copy is all of it",
            hint="Copy as the memory's operator (an allow on path:/* and no deny: the "
            "subject default), or `embornal export events FILE`.",
        )
    backend = backend_of(target)
    if target.strip() == "" or target == ctx.store.path:
        raise InvalidInput(
            "name the memory to copy into: a new file or an empty PostgreSQL database",
            hint="e.g. `embornal admin copy --to postgresql://HOST/DB` or `--to NEW.db`.",
        )
    if backend == "sqlite":
        return _to_file(ctx, target, progress)
    return into_database(ctx.store, target, ctx.clock, progress)


def into_database(source: Store, target: str, clock: Clock, progress: Progress) -> Copied:
    """``source`` copied into the PostgreSQL database ``target``, which must hold no event
    (``admin copy``, and ``admin restore`` of a backup into a database)."""
    refuse_non_empty(target, clock)
    dest = open_store(target, clock, seed=False)
    try:
        return copy_between(source, dest, shown_target(target), backend_of(target), progress)
    finally:
        dest.close()


def refuse_non_empty(target: str, clock: Clock) -> None:
    """:class:`InvalidInput` unless the database ``target`` holds no event (written: none)."""
    probe = open_store(target, clock, migrate=False)
    try:
        held = probe.portability.event_count()
    except StorageError:
        held = 0  # a database no memory was made in: the copy's open creates it
    finally:
        probe.close()
    if held:
        raise InvalidInput(
            f"{shown_target(target)} holds a memory ({held} events): a copy goes into an "
            "empty one; nothing was written",
            hint="Create a new database (`createdb NAME`) and copy into it.",
        )


def _to_file(ctx: ServiceContext, target: str, progress: Progress) -> Copied:
    dest = Path(target.removeprefix("sqlite://")).expanduser()
    if dest.exists():
        raise InvalidInput(
            f"{dest} already exists: a copy is written to a new file; nothing was written",
            hint="Name a file that does not exist yet.",
        )
    if not dest.parent.is_dir():
        raise InvalidInput(f"{dest.parent} is not a directory", hint="Create it first.")
    part = dest.with_name(f".{dest.name}.copying")
    _remove(part)
    try:
        store = open_store(part, ctx.clock, seed=False)
        try:
            result = copy_between(ctx.store, store, str(dest), "sqlite", progress)
        finally:
            store.close()
        os.replace(part, dest)
        return result
    finally:
        _remove(part)


def _remove(part: Path) -> None:
    for name in (part, Path(f"{part}-wal"), Path(f"{part}-shm"), Path(f"{part}-journal")):
        if name.exists():
            name.unlink()


def copy_between(
    source: Store, dest: Store, shown: str, backend: str, progress: Progress
) -> Copied:
    """One snapshot of ``source`` into the empty ``dest``, then ``dest`` verified."""
    if dest.portability.event_count():
        raise InvalidInput(
            f"{shown} holds a memory: a copy goes into an empty one; nothing was written",
            hint="Name a new file, or an empty PostgreSQL database.",
        )
    vectors = 0
    with source.portability.snapshot() as snap:
        total = snap.events

        def entries() -> Iterator[tuple[Event, Redaction | None]]:
            for done, entry in enumerate(snap.log(), 1):
                if progress is not None and (done % 1000 == 0 or done == total):
                    progress("copying events", done, total)
                yield entry

        events = dest.portability.restore_log(entries())
        carried = snap.vector_model()
        if carried is not None:
            dest.prepare_vectors(carried[0])
            for page in snap.vectors():
                with dest.transaction("copying vectors") as tx:
                    dest.write_vectors(tx, page, model=carried[1])
                vectors += len(page)
                if progress is not None:
                    progress("copying vectors", vectors, vectors)
    if progress is not None:
        progress("verifying the copy", 0, 1)
    differences = dest.verify()
    if differences:
        raise StorageError(
            f"the copy at {shown} does not verify: {differences[0]}",
            hint="Report it; the source is unchanged (`embornal admin verify` checks it).",
        )
    return Copied(
        target=shown,
        backend=backend,
        events=events,
        vectors=vectors,
        model=None if carried is None else carried[1],
        verified=True,
    )
