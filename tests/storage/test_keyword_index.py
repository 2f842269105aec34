"""The keyword index beside the SQLite file (decision 0165) ranks exactly as FTS5's
exact bm25 search, on constructed data with heavy terms (the thresholds lowered so that
a few hundred facts hold one): for everyone and for a subject who reads part of the
memory, under a path, with superseded, forgotten, restored and purged facts, facts longer
than tantivy's exact lengths, after events written without the index (caught up) and
after its directory is removed (rebuilt). Without tantivy (or switched off) the search is
FTS5's as before and no index is written."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from embornal import FixedClock, Memory, NewFact
from embornal.domain.access.scope import EVERYTHING, ReadScope
from embornal.domain.recall import keyword_bound
from embornal.storage.factory import open_store
from embornal.storage.sqlite import keyword_index
from embornal.storage.sqlite import store as store_module
from embornal.storage.sqlite.store import SqliteStore

needs_tantivy = pytest.mark.skipif(
    not keyword_index.available(), reason="the keyword-index extra (tantivy) is not installed"
)

FILLER = tuple(f"filler{i}" for i in range(200))
MEDIUM = tuple(f"medium{i}" for i in range(6))


def _content(rng: random.Random, i: int) -> str:
    words = [rng.choice(FILLER) for _ in range(rng.randint(3, 12))]
    if i % 37 == 0:  # longer than tantivy keeps exactly
        words += [rng.choice(FILLER) for _ in range(rng.randint(35, 70))]
    if rng.random() < 0.35:
        words += ["comet"] * rng.randint(1, 2)
    if rng.random() < 0.25:
        words.append("harbor")
    if rng.random() < 0.2:
        words.append(rng.choice(MEDIUM))
    rng.shuffle(words)
    return " ".join(words)


def _load(mem: Memory, rng: random.Random, n: int, start: int = 0) -> list[str]:
    items = [
        NewFact(
            f"/{'sky' if i % 3 else 'sea'}/p{i % 7}",
            _content(rng, i),
            tags=["visibility=private"] if i % 4 == 0 else ["visibility=public"],
        )
        for i in range(start, start + n)
    ]
    return [f.id for f in mem.store_many(items)]


QUERIES = [
    ["comet"],
    ["harbor"],
    ["comet", "harbor"],
    ["comet", "medium1"],
    ["harbor", "medium2", "filler3"],
    ["comet", "harbor", "filler7", "medium0"],
    ["filler11", "comet"],
]


@pytest.fixture
def heavy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keyword_bound, "HEAVY_DF", 100)
    monkeypatch.setattr(keyword_bound, "WINDOW_POSTINGS", 150)
    monkeypatch.setattr(keyword_bound, "SINGLE_POSTINGS", 60)


@pytest.fixture
def built(tmp_path: Path, heavy: None) -> Iterator[tuple[Path, Memory]]:
    db = tmp_path / "m.db"
    rng = random.Random(165)
    with Memory.open(db, clock=FixedClock()) as mem:
        ids = _load(mem, rng, 1200)
        for fid in ids[5:400:9]:
            mem.forget(fid, reason="test")
        for fid in ids[400:800:13]:
            mem.supersede(fid, _content(rng, 1) + " comet", reason="test")
        mem.token_add("bob")
        yield db, mem


def _search(
    store: SqliteStore,
    terms: list[str],
    n: int,
    scope: ReadScope = EVERYTHING,
    *,
    under: str | None = None,
    include_superseded: bool = False,
) -> list[tuple[str, float]]:
    found = store.keyword_search(
        terms, n, scope, under=under, include_superseded=include_superseded
    )
    return [(f.id, r) for f, r in found]


def _exact(
    store: SqliteStore,
    terms: list[str],
    n: int,
    scope: ReadScope = EVERYTHING,
    *,
    under: str | None = None,
    include_superseded: bool = False,
) -> list[tuple[str, float]]:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(keyword_bound, "HEAVY_DF", 10**12)  # no bound: FTS5 ranks every match
        return _search(store, terms, n, scope, under=under, include_superseded=include_superseded)


def _same(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> None:
    assert [i for i, _ in got] == [i for i, _ in want]
    for (_, a), (_, b) in zip(got, want, strict=True):
        assert a == pytest.approx(b, rel=1e-5)


def _open(db: Path) -> SqliteStore:
    store = open_store(db, FixedClock())
    assert isinstance(store, SqliteStore)
    return store


def _scopes(mem: Memory) -> list[ReadScope]:
    return [EVERYTHING, mem.as_subject("bob")._ctx.scope()]


@needs_tantivy
def test_the_index_ranks_as_fts5_exactly(built: tuple[Path, Memory]) -> None:
    db, mem = built
    store = _open(db)
    try:
        for scope in _scopes(mem):
            for terms in QUERIES:
                for under in (None, "/sky", "/sea/p3"):
                    for superseded in (False, True):
                        for n in (10, 50):
                            _same(
                                _search(
                                    store,
                                    terms,
                                    n,
                                    scope,
                                    under=under,
                                    include_superseded=superseded,
                                ),
                                _exact(
                                    store,
                                    terms,
                                    n,
                                    scope,
                                    under=under,
                                    include_superseded=superseded,
                                ),
                            )
        assert keyword_index.index_dir(str(db)).is_dir()
        assert store.verify() == []
    finally:
        store.close()


@needs_tantivy
def test_the_bounded_search_it_replaces_was_not_exact(built: tuple[Path, Memory]) -> None:
    db, _ = built
    store = _open(db)
    try:
        with pytest.MonkeyPatch.context() as m:
            m.setenv(keyword_index.SWITCH, "off")
            off = _open(db)
            try:
                differs = [t for t in QUERIES if _search(off, t, 10) != _exact(off, t, 10)]
            finally:
                off.close()
        assert differs  # the constructed data reaches the bound's approximation
        for terms in differs:
            _same(_search(store, terms, 10), _exact(store, terms, 10))
    finally:
        store.close()


@needs_tantivy
def test_forget_restore_and_purge_keep_it_exact(built: tuple[Path, Memory]) -> None:
    db, mem = built
    store = _open(db)
    try:
        top = [i for i, _ in _search(store, ["comet", "harbor"], 10)]
        mem.forget(top[0], reason="test")
        mem.purge(top[1], reason="test")
        assert not keyword_index.index_dir(str(db)).exists()  # its terms left the disk
        mem.restore(top[0], reason="test")
        mem.forget(top[2], reason="test")
        for terms in QUERIES:
            for scope in _scopes(mem):
                _same(_search(store, terms, 20, scope), _exact(store, terms, 20, scope))
        assert top[1] not in {i for t in QUERIES for i, _ in _search(store, t, 50)}
    finally:
        store.close()


def _meta(db: Path) -> dict[str, object]:
    return dict(
        json.loads((keyword_index.index_dir(str(db)) / "embornal-keyword.json").read_text())
    )


@needs_tantivy
def test_it_catches_up_with_events_written_without_it(
    built: tuple[Path, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, mem = built
    store = _open(db)
    try:
        _search(store, ["comet"], 10)
        before = _meta(db)
        monkeypatch.setenv(keyword_index.SWITCH, "off")
        with Memory.open(db, clock=FixedClock()) as other:  # a writer without the index
            _load(other, random.Random(7), 300, start=5000)
            off = _open(db)
            _search(off, ["comet", "harbor"], 10)
            off.close()
        monkeypatch.delenv(keyword_index.SWITCH)
        assert _meta(db) == before  # behind the log
        for terms in QUERIES:
            _same(_search(store, terms, 10), _exact(store, terms, 10))
        after = _meta(db)
        assert after["docs"] == int(before["docs"]) + 300  # type: ignore[call-overload]
        assert after["position"] > before["position"]  # type: ignore[operator]
        fresh = _open(db)  # another process: the checkpoint, nothing to add
        try:
            _same(_search(fresh, ["comet"], 10), _exact(fresh, ["comet"], 10))
        finally:
            fresh.close()
        assert _meta(db) == after
    finally:
        store.close()
    assert mem.recall("comet", reinforce=False, mode="keyword")


@needs_tantivy
def test_a_removed_or_damaged_index_is_rebuilt(built: tuple[Path, Memory]) -> None:
    db, _ = built
    folder = keyword_index.index_dir(str(db))
    store = _open(db)
    try:
        want = _exact(store, ["comet", "harbor"], 10)
        _same(_search(store, ["comet", "harbor"], 10), want)
    finally:
        store.close()
    shutil.rmtree(folder)
    store = _open(db)
    try:
        _same(_search(store, ["comet", "harbor"], 10), want)
        assert folder.is_dir()
    finally:
        store.close()
    (folder / "embornal-keyword.json").write_text("{not json")
    store = _open(db)
    try:
        _same(_search(store, ["comet", "harbor"], 10), want)
        assert _meta(db)["format"] == keyword_index.FORMAT
        assert store.rebuild() > 0  # admin rebuild recreates it
        assert folder.is_dir() and store.verify() == []
        _same(_search(store, ["comet", "harbor"], 10), want)
    finally:
        store.close()


def test_without_tantivy_the_search_is_fts5s_and_writes_no_index(
    built: tuple[Path, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, _ = built
    monkeypatch.setenv(keyword_index.SWITCH, "off")
    off = _open(db)
    try:
        switched_off = {tuple(t): _search(off, t, 10) for t in QUERIES}
    finally:
        off.close()
    monkeypatch.delenv(keyword_index.SWITCH)
    monkeypatch.setattr(keyword_index, "find_spec", lambda name: None)  # not installed
    store = _open(db)
    try:
        assert {tuple(t): _search(store, t, 10) for t in QUERIES} == switched_off
        assert store.verify() == []
    finally:
        store.close()
    assert not keyword_index.index_dir(str(db)).exists()


@needs_tantivy
def test_verify_names_what_the_index_and_fts5_disagree_on(built: tuple[Path, Memory]) -> None:
    db, _ = built
    store = _open(db)
    try:
        _search(store, ["comet"], 10)
        index = store._keyword_index()
        assert index is not None and index.differences(store._rows) == []
        with store.transaction() as conn:  # a row gone from FTS5 behind the log's back
            conn.execute("DELETE FROM facts_fts WHERE rowid = (SELECT max(seq) FROM facts)")
        assert index.differences(store._rows) == [
            "keyword index: 1 facts not in facts_fts, 0 missing, 0 held twice"
        ]
    finally:
        store.close()


@needs_tantivy
def test_it_counts_a_terms_documents_as_fts5_does(
    built: tuple[Path, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, mem = built
    mem.purge(mem.recall("comet harbor", reinforce=False, mode="keyword")[0].fact.id, reason="t")
    terms = ["comet", "harbor", "medium1", "filler3", "absent"]
    monkeypatch.setattr(store_module, "DF_FROM_INDEX", 0)  # a large memory: from the index
    store = _open(db)
    try:
        counted = store.term_df(terms)
        assert store._keywords is not None and keyword_index.index_dir(str(db)).is_dir()
    finally:
        store.close()
    monkeypatch.setattr(store_module, "DF_FROM_INDEX", 10**12)  # from FTS5's vocabulary
    store = _open(db)
    try:
        assert store.term_df(terms) == counted
        assert store._keywords is None  # the index was not opened to count
        assert "absent" not in counted and counted["comet"] > 100
        _search(store, ["comet"], 10)  # a heavy search opens the index ...
        assert store._keywords is not None
        assert store.term_df(terms) == counted  # ... and the next count reads it
    finally:
        store.close()


@needs_tantivy
def test_an_index_another_writer_holds_leaves_the_search_to_fts5(
    built: tuple[Path, Memory],
) -> None:
    import tantivy

    db, mem = built
    store = _open(db)
    try:
        _search(store, ["comet"], 10)
        _load(mem, random.Random(8), 20, start=9000)  # the index is behind
        held = tantivy.Index.open(str(keyword_index.index_dir(str(db)))).writer(
            heap_size=20_000_000, num_threads=1
        )  # as another process would hold it
        try:
            with pytest.MonkeyPatch.context() as m:
                m.setenv(keyword_index.SWITCH, "off")
                off = _open(db)
                try:
                    bounded = _search(off, ["comet", "harbor"], 10)
                finally:
                    off.close()
            assert _search(store, ["comet", "harbor"], 10) == bounded
            assert bounded != _exact(store, ["comet", "harbor"], 10)  # the bound's, not exact
        finally:
            held.rollback()
            held.wait_merging_threads()
        _same(_search(store, ["comet", "harbor"], 10), _exact(store, ["comet", "harbor"], 10))
    finally:
        store.close()
