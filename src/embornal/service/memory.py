"""The one application API. CLI, MCP and HTTP call these methods and nothing below them.

>>> from embornal import Memory
>>> with Memory.open("/tmp/m.db") as mem:            # doctest: +SKIP
...     fact = mem.store("/projects/embornal", "The memory lives in SQLite.")
...     hits = mem.recall("sqlite")
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from embornal.domain import paths as P
from embornal.domain.bounds import MAX_LIMIT, whole_in_range
from embornal.domain.clock import Clock, SystemClock
from embornal.domain.events import (
    ActorKind,
    DomainEvent,
    Event,
    FactsRecalled,
    FactStored,
    NewEvent,
)
from embornal.domain.fact_aggregate import (
    FactState,
    ForgetFact,
    PurgeFact,
    RestoreFact,
    StoreFact,
    SupersedeFact,
    decide_forget,
    decide_purge,
    decide_restore,
    decide_store,
    decide_supersede,
)
from embornal.domain.facts import DEFAULT_KIND, Fact, check_reason
from embornal.domain.ids import new_id, normalize_prefix
from embornal.domain.links import extract_links
from embornal.domain.ranking import FusionSettings
from embornal.domain.scope import ReadScope
from embornal.domain.strength import strength
from embornal.domain.tags import check_subject
from embornal.errors import ConcurrencyError, InvalidInput, NotFound
from embornal.service.access import Access
from embornal.service.lifecycle import new_fact, run_command
from embornal.service.recall import Recaller
from embornal.service.results import (
    FactDetail,
    FactView,
    NewFact,
    PathEntry,
    PurgeResult,
    RecallHit,
    TreeNode,
)
from embornal.service.semantic import ReindexResult, Semantic
from embornal.service.sharing import Sharing
from embornal.service.tagging import PathTagging
from embornal.storage.contract import Store, Tx
from embornal.storage.factory import open_store

if TYPE_CHECKING:
    from embornal.adapters.embeddings.base import EmbeddingProvider

__all__ = ["MAX_LIMIT", "Memory"]

R = TypeVar("R")


def _limit(limit: int | None, default: int) -> int:
    if limit is None:
        return default
    if not whole_in_range(limit, 1, MAX_LIMIT):
        raise InvalidInput(f"limit must be a whole number from 1 to {MAX_LIMIT}, not {limit!r}")
    return limit


class Memory(Sharing, PathTagging):
    """A memory: open it, store facts, recall them, inspect and correct them.

    Every read is filtered by the access rules of ``subject``; every write and
    delete is checked against them.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        subject: str = "default",
        actor_kind: ActorKind = ActorKind.PERSON,
        default_limit: int = 10,
        semantic: Semantic | None = None,
        fusion: FusionSettings | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self.subject = check_subject(subject)
        self.actor_kind = actor_kind
        self.default_limit = default_limit
        self._access = Access(store, self.subject)
        self._semantic = semantic or Semantic(store, None)
        self._recaller = Recaller(store, self._semantic, fusion or FusionSettings())

    # -- life cycle -------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        *,
        clock: Clock | None = None,
        subject: str = "default",
        actor_kind: ActorKind | str = ActorKind.PERSON,
        default_limit: int = 10,
        embedder: EmbeddingProvider | None = None,
        vector_width: int | None = None,
        fusion: FusionSettings | None = None,
    ) -> Memory:
        """Open (creating and migrating as needed) the memory at ``path``.

        With no path, the data directory of the platform holds ``memory.db``.
        ``embedder`` turns on recall by meaning; ``vector_width`` (default: the
        embedder's) is written into ``meta`` and must match it on every later open.
        A missing directory is created 0700 and a new database file 0600.
        """
        if path is None:
            from embornal.adapters.dirs import default_dirs, ensure_dir

            dirs = default_dirs()
            ensure_dir(dirs.data_dir)
            path = dirs.db_file
        the_clock = clock or SystemClock()
        store = open_store(Path(path).expanduser() if str(path) != ":memory:" else path, the_clock)
        semantic = Semantic(store, embedder)
        try:
            semantic.setup(vector_width)
        except BaseException:
            store.close()
            raise
        return cls(
            store,
            clock=the_clock,
            subject=subject,
            actor_kind=ActorKind(actor_kind),
            default_limit=default_limit,
            semantic=semantic,
            fusion=fusion,
        )

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def db_path(self) -> str:
        return self._store.path

    @property
    def migrations_applied(self) -> list[str]:
        """The migrations that opening this memory applied (empty: it was up to date)."""
        return list(self._store.migrations_applied)

    def as_subject(self, subject: str, actor_kind: ActorKind | str | None = None) -> Memory:
        """The same memory (same store) seen by another subject, e.g. a token's."""
        return Memory(
            self._store,
            clock=self._clock,
            subject=subject,
            actor_kind=ActorKind(actor_kind) if actor_kind else self.actor_kind,
            default_limit=self.default_limit,
            semantic=self._semantic,
            fusion=self._recaller.fusion,
        )

    # -- access ----------------------------------------------------------------------------

    def _visibility(self) -> ReadScope:
        return self._access.read_filter()

    def _event(
        self,
        stream_id: str,
        body: DomainEvent,
        reason: str | None,
        expected_version: int | None = None,
    ) -> NewEvent:
        return NewEvent(
            stream_id=stream_id,
            body=body,
            actor=self.subject,
            actor_kind=self.actor_kind,
            recorded_at=self._clock.now(),
            reason=reason,
            expected_version=expected_version,
        )

    def _resolve(self, fact_id: str) -> Fact:
        full = self._store.resolve_id(normalize_prefix(fact_id), self._visibility())
        fact = self._store.get_fact(full, self._visibility())
        if fact is None:  # pragma: no cover - resolve_id applied the same filter
            raise NotFound(f"no fact with id {fact_id}")
        return fact

    # -- writing ------------------------------------------------------------------------

    def store(
        self,
        path: str,
        content: str,
        *,
        tags: Sequence[str] | Mapping[str, str] | None = None,
        at: datetime | str | None = None,
        kind: str = DEFAULT_KIND,
        reason: str | None = None,
    ) -> Fact:
        """Store one fact on ``path``. ``at`` dates it (imports); the event keeps the real time."""
        return self.store_many([NewFact(path, content, tags, at, kind)], reason=reason)[0]

    def store_many(self, items: Sequence[NewFact], *, reason: str | None = None) -> list[Fact]:
        """Store many facts in one transaction: all of them, or none."""
        why = check_reason(reason, required=False)
        bodies: list[FactStored] = []
        for item in items:
            now = self._clock.now()
            command = StoreFact(
                new_id(now), item.path, item.content, self.subject, item.tags, item.kind, item.at
            )
            bodies.extend(decide_store(command, now))
        if not bodies:
            return []
        for b in bodies:
            self._require_write(b)
        vecs = self._semantic.embed_documents([b.content or "" for b in bodies])
        with self._store.transaction("storing facts") as conn:
            self._store.append(conn, [self._event(b.fact_id, b, why, 0) for b in bodies])
            if vecs is not None:
                self._semantic.write(
                    conn, list(zip([b.fact_id for b in bodies], vecs, strict=True))
                )
        return [new_fact(b) for b in bodies]

    def _require_write(self, new: FactStored) -> None:
        if self._access.unconditional("write"):
            return
        own = {t.key: t.value for t in new.tags}
        self._access.require("write", self._access.new_fact_object(new.path, own))

    def supersede(
        self,
        fact_id: str,
        content: str,
        *,
        tags: Sequence[str] | Mapping[str, str] | None = None,
        reason: str | None = None,
        at: datetime | str | None = None,
    ) -> Fact:
        """Correct a fact: a new fact on the same path points at the old one."""
        old = self._resolve(fact_id)
        why = check_reason(reason, required=False)
        now = self._clock.now()
        command = SupersedeFact(new_id(now), content, self.subject, tags, at)
        embedded: list[Any] = []  # the first decision checks access and embeds, once

        def decide(state: FactState) -> FactStored:
            (new,) = decide_supersede(state, command, now)
            if not embedded:
                # Replacing a fact removes it from recall: it takes the right forget takes.
                old_obj = self._access.fact_object(old)
                self._access.require("write", old_obj)
                self._access.require(
                    "delete", old_obj, why=f" (superseding fact {old.id} removes it)"
                )
                self._require_write(new)
                embedded.append(self._semantic.embed_documents([new.content or ""]))
            return new

        def write(conn: Tx, state: FactState, new: FactStored) -> None:
            # The successor's stream is new; the decision also read the old fact's state.
            if self._store.fact_state(state.fact_id) != state:
                raise ConcurrencyError(f"fact {state.fact_id} changed while superseding it")
            self._store.append(conn, [self._event(new.fact_id, new, why, 0)])
            if embedded[0] is not None:
                self._semantic.write(conn, [(new.fact_id, embedded[0][0])])

        run_command(self._store, old.id, decide, write, "superseding a fact")
        fact = self._store.get_fact(command.new_id)
        assert fact is not None
        return fact

    def _on_fact(
        self,
        fact_id: str,
        decide: Callable[[FactState], list[DomainEvent]],
        why: str | None,
        doing: str,
        then: Callable[[Tx, list[Event]], R] | None = None,
    ) -> R | None:
        """Load the fact's state, decide, append at the loaded version (retried)."""

        def write(conn: Tx, state: FactState, bodies: list[DomainEvent]) -> R | None:
            events = self._store.append(
                conn,
                [self._event(fact_id, b, why, state.version + i) for i, b in enumerate(bodies)],
            )
            return then(conn, events) if then else None

        return run_command(self._store, fact_id, decide, write, doing)

    def forget(self, fact_id: str, *, reason: str) -> Fact:
        """Hide a fact from recall, keeping it (and why) in the history; restorable."""
        why = check_reason(reason)
        fact = self._resolve(fact_id)
        self._access.require("delete", self._access.fact_object(fact))
        now = self._clock.now()
        command = ForgetFact(fact.id)
        self._on_fact(fact.id, lambda s: decide_forget(s, command, now), why, "forgetting a fact")
        return self._reload(fact.id)

    def restore(self, fact_id: str, *, reason: str) -> Fact:
        """Bring a forgotten fact back into recall."""
        why = check_reason(reason)
        fact = self._resolve(fact_id)
        self._access.require("delete", self._access.fact_object(fact))
        now = self._clock.now()
        command = RestoreFact(fact.id)
        self._on_fact(fact.id, lambda s: decide_restore(s, command, now), why, "restoring a fact")
        return self._reload(fact.id)

    def purge(self, fact_id: str, *, reason: str) -> PurgeResult:
        """Erase a fact's content from every table, index and event payload. Irreversible."""
        why = check_reason(reason)
        fact = self._resolve(fact_id)
        self._access.require("delete", self._access.fact_object(fact))
        now = self._clock.now()
        command = PurgeFact(fact.id)

        def erase(conn: Tx, events: list[Event]) -> int:
            redacted = self._store.redact_stream(conn, fact.id, events[-1].position)
            self._store.erase_in_transaction(conn)
            return redacted

        redacted = self._on_fact(
            fact.id, lambda s: decide_purge(s, command, now), why, "purging a fact", erase
        )
        assert redacted is not None
        compacted = self._store.compact_after_purge()
        return PurgeResult(fact.id, redacted, compacted)

    def _reload(self, fact_id: str) -> Fact:
        fact = self._store.get_fact(fact_id, self._visibility())
        assert fact is not None
        return fact

    def _reinforce(self, facts: Sequence[Fact]) -> None:
        if not facts:
            return
        now = self._clock.now()
        body = FactsRecalled(fact_ids=tuple(f.id for f in facts), at=now)
        event = self._event(f"recall:{new_id(now)}", body, None)
        with self._store.transaction("recording a recall") as conn:
            self._store.append(conn, [event])

    # -- reading -------------------------------------------------------------------------

    def recall(
        self,
        query: str | None = None,
        *,
        limit: int | None = None,
        under: str | None = None,
        reinforce: bool = True,
        mode: str = "auto",
    ) -> list[RecallHit]:
        """Find facts by keyword, by meaning, or both; with no query, the strongest.

        ``mode``: ``keyword`` (bm25 rescaled + 0.5·strength, seed 000), ``vector``,
        ``hybrid``, or ``auto`` (hybrid when a model is set up, else keyword). Each hit
        counts as a recall and lifts its strength unless ``reinforce=False``.
        Superseded and forgotten facts stay out.
        """
        n = _limit(limit, self.default_limit)
        if query is not None and not isinstance(query, str):
            raise InvalidInput(f"the query must be text, not {type(query).__name__}")
        prefix = P.normalize_path(under) if under is not None else None
        hits = self._recaller.recall(
            query, n, self._visibility(), self._clock.now(), under=prefix, mode=mode
        )
        if reinforce:
            self._reinforce([h.fact for h in hits])
        return hits

    def reindex(
        self,
        *,
        limit: int | None = None,
        everything: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> ReindexResult:
        """Give a vector to each fact waiting for one; ``everything`` re-embeds all facts."""
        return self._semantic.reindex(limit=limit, everything=everything, progress=progress)

    def pending_embeddings(self) -> int:
        """How many live facts wait for a vector (or, a long fact of an older memory, for
        its pieces' vectors); ``reindex`` embeds them."""
        return self._semantic.pending()

    def ls(self, path: str = "/") -> list[PathEntry]:
        """One level below ``path``: each child with its own fact count and child count."""
        norm = P.normalize_path(path)
        rows = self._store.subtree(norm, self._visibility())
        if not rows and norm != P.ROOT:
            raise NotFound(f"path {norm} holds nothing", hint="See `embornal memory tree /`.")
        parent_depth = len(P.segments(norm))
        return [
            PathEntry(r.path, r.fact_count, r.child_count)
            for r in rows
            if r.path != norm and len(P.segments(r.path)) == parent_depth + 1
        ]

    def tree(self, path: str = "/", *, dirs_only: bool = False) -> TreeNode:
        """The whole tree below ``path``; ``dirs_only`` keeps the paths that hold paths."""
        norm = P.normalize_path(path)
        rows = self._store.subtree(norm, self._visibility())
        if not rows and norm != P.ROOT:
            raise NotFound(f"path {norm} holds nothing", hint="See `embornal memory tree /`.")
        kids: dict[str, list[str]] = {}
        counts = {r.path: r for r in rows}
        for r in rows:
            parent = P.parent_of(r.path)
            if r.path != norm and parent is not None:
                kids.setdefault(parent, []).append(r.path)

        def build(p: str) -> TreeNode:
            children = [c for c in kids.get(p, []) if not dirs_only or counts[c].child_count > 0]
            row = counts.get(p)
            return TreeNode(
                path=p,
                name=P.name_of(p) or "/",
                fact_count=row.fact_count if row else 0,
                children=tuple(build(c) for c in sorted(children)),
            )

        return build(norm)

    def cat(
        self,
        path: str,
        *,
        limit: int | None = None,
        order_by: str = "date",
        recall: bool = False,
    ) -> list[FactView]:
        """The facts of one path, oldest first (``date``) or strongest first (``signal``).

        Not a recall unless ``recall=True``.
        """
        norm = P.normalize_path(path)
        if order_by not in ("date", "signal"):
            raise InvalidInput(f"order_by must be 'date' or 'signal', not {order_by!r}")
        n = _limit(limit, MAX_LIMIT)
        now = self._clock.now()
        facts = self._store.facts_at(norm, self._visibility())
        if not facts and not self._store.subtree(norm, self._visibility()):
            raise NotFound(f"path {norm} holds nothing", hint="See `embornal memory tree /`.")
        views = [FactView(f, strength(f.signals, now)) for f in facts]
        if order_by == "signal":
            views.sort(key=lambda v: -v.strength)
        views = views[:n]
        if recall:
            self._reinforce([v.fact for v in views])
        return views

    def show(self, fact_id: str) -> FactDetail:
        """One fact whole: its state, strength, tags with their sources, links and events."""
        fact = self._resolve(fact_id)
        return FactDetail(
            fact=fact,
            strength=strength(fact.signals, self._clock.now()),
            effective_tags=tuple(self._store.effective_tags(fact.id)),
            links=tuple(extract_links(fact.content)),
            events=tuple(self._store.stream(fact.id)),
        )

    def history(self, target: str) -> list[Event]:
        """The events of a fact (id or prefix) or of every fact on a path, oldest first.

        A fact's history includes the facts that supersede it and that it supersedes.
        """
        if not isinstance(target, str):
            raise InvalidInput("give a fact id or a path")
        events: list[Event] = []
        if target.startswith("/"):
            norm = P.normalize_path(target)
            facts = self._store.facts_at(norm, self._visibility(), include_inactive=True)
            path_events = self._store.stream(f"path:{norm}")
            if not facts and not (path_events and self._store.subtree(norm, self._visibility())):
                raise NotFound(f"path {norm} has no history", hint="Check the path with ls.")
            ids = [f.id for f in facts]
            events.extend(path_events)
        else:
            ids = self._chain(self._resolve(target))
        for fid in ids:
            events.extend(self._store.stream(fid))
        return sorted(events, key=lambda e: e.position)

    def _chain(self, fact: Fact) -> list[str]:
        """The ids of the supersession chain that ``fact`` belongs to, visible ones only."""
        vis = self._visibility()
        seen = [fact.id]
        back = fact
        while back.supersedes_id and back.supersedes_id not in seen:
            prev = self._store.get_fact(back.supersedes_id, vis)
            if prev is None:
                break
            seen.insert(0, prev.id)
            back = prev
        fwd = fact
        while fwd.superseded_by and fwd.superseded_by not in seen:
            nxt = self._store.get_fact(fwd.superseded_by, vis)
            if nxt is None:
                break
            seen.append(nxt.id)
            fwd = nxt
        return seen

    # -- admin ----------------------------------------------------------------------------

    def rebuild(self, *, progress: Callable[[str, int, int], None] | None = None) -> int:
        """Replay the event log into fresh projections and swap them in; return the number
        of events. Writers and readers go on meanwhile; ``progress(step, done, total)``."""
        return self._store.rebuild(progress)

    def verify(self) -> list[str]:
        """What differs between the live projections and a replay (empty: all equal)."""
        return self._store.verify()
