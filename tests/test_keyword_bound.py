"""The bounded keyword search (decisions 0110 and 0122) against the exact one, on
constructed data.

The thresholds are lowered so that a few thousand facts hold heavy terms (the defaults
make a term heavy past 10,000 documents). What is held:

* a query with no heavy term ranks exactly as the unbounded search (same facts, same
  bm25, same order);
* a query with a heavy term returns exactly the top of its stated candidate set: every
  fact holding a light term, scored by the whole query; unless enough of them score
  above the ceiling, also the newest facts holding heavy terms only (checked against a
  brute-force ranking of FTS5's own bm25 values);
* when the light terms' facts fill the top above the ceiling, the search is the exact
  one (decision 0122);
* the tolerance: for a heavy term with a light one, at least 9.5 of the exact top 10
  are in the bounded top 10 on average (measured here: 9.9, the worst query 9; decision
  0110 held 8 and measured 8.8); for a heavy term alone, or two, every bounded hit
  carries its exact bm25 and ranks within the exact top 40 (measured: within the top 16
  for one, 23 for two).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from embornal import FixedClock, Memory, NewFact
from embornal.domain.recall import keyword_bound
from embornal.domain.recall.text import fts_query
from embornal.storage.contract.store import Store
from embornal.storage.factory import open_store
from embornal.storage.sqlite import keyword_index
from embornal.storage.sqlite.connect import connect

HEAVY = ("comet", "harbor")  # in ~30% and ~20% of the facts
MEDIUM = tuple(f"medium{i}" for i in range(10))  # ~3% each
RARE = tuple(f"rare{i}" for i in range(40))  # ~0.3% each
FILLER = tuple(f"filler{i}" for i in range(300))
FACTS = 3_000


def _content(rng: random.Random) -> str:
    words = [rng.choice(FILLER) for _ in range(rng.randint(4, 14))]
    if rng.random() < 0.3:
        words += ["comet"] * rng.randint(1, 2)
    if rng.random() < 0.2:
        words.append("harbor")
    if rng.random() < 0.3:
        words.append(rng.choice(MEDIUM))
    if rng.random() < 0.12:
        words.append(rng.choice(RARE))
    rng.shuffle(words)
    return " ".join(words)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("bound") / "m.db"
    rng = random.Random(110)
    with Memory.open(db, clock=FixedClock()) as mem:
        items = [NewFact(f"/b/p{i % 50}", _content(rng)) for i in range(FACTS)]
        for start in range(0, FACTS, 500):
            mem.store_many(items[start : start + 500])
    return db


@pytest.fixture
def store(built: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setenv(keyword_index.SWITCH, "off")  # FTS5's bound, as without the extra
    monkeypatch.setattr(keyword_bound, "HEAVY_DF", 400)
    monkeypatch.setattr(keyword_bound, "WINDOW_POSTINGS", 300)
    monkeypatch.setattr(keyword_bound, "SINGLE_POSTINGS", 100)
    opened = open_store(built, FixedClock())
    try:
        yield opened
    finally:
        opened.close()


def _exact(store: Store, terms: list[str], n: int, monkeypatch: pytest.MonkeyPatch) -> list:
    with monkeypatch.context() as m:
        m.setattr(keyword_bound, "HEAVY_DF", 10**12)
        return [(f.id, rank) for f, rank in store.keyword_search(terms, n)]


def _bm25(db: Path, terms: list[str]) -> dict[int, float]:
    with closing(connect(db, readonly=True)) as conn:
        return {
            int(r[0]): float(r[1])
            for r in conn.execute(
                "SELECT rowid, bm25(facts_fts) FROM facts_fts WHERE facts_fts MATCH ?",
                (fts_query(terms),),
            )
        }


def _ids(db: Path) -> dict[int, str]:
    with closing(connect(db, readonly=True)) as conn:
        return {int(r[0]): str(r[1]) for r in conn.execute("SELECT seq, id FROM facts")}


def test_the_constructed_terms_are_heavy_and_light_as_meant(store: Store) -> None:
    df = store.term_df([*HEAVY, MEDIUM[0], RARE[0]])
    assert all(df[t] > keyword_bound.HEAVY_DF for t in HEAVY)
    assert df[MEDIUM[0]] <= keyword_bound.HEAVY_DF and df[RARE[0]] <= keyword_bound.HEAVY_DF


def test_a_query_without_a_heavy_term_ranks_exactly(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(1)
    for _ in range(30):
        terms = rng.sample(MEDIUM + RARE, rng.randint(1, 4))
        assert [(f.id, r) for f, r in store.keyword_search(terms, 50)] == _exact(
            store, terms, 50, monkeypatch
        )


def _stated(store: Store, built: Path, terms: list[str], n: int) -> list[tuple[int, float]]:
    """The top ``n`` of a bounded search's stated candidates (decisions 0110 and 0122),
    by brute force over FTS5's own bm25 values: every fact holding a light term; unless
    ``n`` of them score above the ceiling, also the newest facts holding heavy terms only
    (one heavy term: above the window's start; more: those holding two of them or more
    above it, and any above the narrower window's); fewer than ``n`` in all: every
    match."""
    ids = _ids(built)
    last = max(ids)
    df = store.term_df(terms)
    bound = keyword_bound.bound_search(terms, df, last)
    assert bound is not None
    whole = _bm25(built, terms)
    light = [t for t in terms if t not in bound.heavy]
    holds_light = set(_bm25(built, light)) if light else set()
    ranked = sorted(
        ((s, r) for s, r in whole.items() if s in holds_light), key=lambda x: (x[1], -x[0])
    )
    if len(ranked) >= n and -ranked[n - 1][1] > bound.ceiling:
        return ranked[:n]
    postings = sum(df[t] for t in bound.heavy)

    def start(budget: int) -> int:
        return max(0, last - math.ceil(last * budget / postings))

    wide, narrow = start(keyword_bound.WINDOW_POSTINGS), start(keyword_bound.SINGLE_POSTINGS)
    if len(bound.heavy) == 1:
        narrow = wide
    holding = [set(_bm25(built, [t])) for t in bound.heavy]
    for s, r in whole.items():
        held = sum(s in h for h in holding)
        if s not in holds_light and (s > narrow or (held >= 2 and s > wide)):
            ranked.append((s, r))
    if len(ranked) < n:
        ranked = list(whole.items())
    return sorted(ranked, key=lambda x: (x[1], -x[0]))[:n]


def test_a_heavy_query_returns_the_top_of_its_stated_candidates(store: Store, built: Path) -> None:
    ids = _ids(built)
    for terms in (
        ["comet"],
        ["comet", "harbor"],
        ["comet", RARE[3]],
        ["harbor", MEDIUM[2]],
        ["comet", "harbor", MEDIUM[4], RARE[5]],
        ["harbor", "comet", RARE[7]],
    ):
        for n in (5, 50):
            found = store.keyword_search(terms, n)
            assert [(f.id, pytest.approx(r)) for f, r in found] == [
                (ids[s], pytest.approx(r)) for s, r in _stated(store, built, terms, n)
            ]


def test_a_heavy_query_whose_light_facts_outscore_the_ceiling_ranks_exactly(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Decision 0122: a fact holding heavy terms only scores below the ceiling; when the
    light terms' facts fill the top above it, the bounded search is the exact one."""
    rng = random.Random(3)
    exact_cases = 0
    for _ in range(30):
        terms = [rng.choice(HEAVY), *rng.sample(MEDIUM + RARE, rng.randint(1, 2))]
        exact = _exact(store, terms, 10, monkeypatch)
        bound = keyword_bound.bound_search(
            terms, store.term_df(terms), 10**9, docs=store.doc_count()
        )
        assert bound is not None
        if len(exact) == 10 and -exact[-1][1] > bound.ceiling:
            exact_cases += 1
            found = [(f.id, r) for f, r in store.keyword_search(terms, 10)]
            assert found == [(i, pytest.approx(r)) for i, r in exact]
    assert exact_cases >= 10


def test_the_bounded_top_ten_keeps_the_exact_one_within_the_stated_tolerance(
    store: Store, built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(2)
    overlaps = []
    for _ in range(20):
        terms = [rng.choice(HEAVY), rng.choice(MEDIUM + RARE)]
        exact = {i for i, _ in _exact(store, terms, 10, monkeypatch)}
        bounded = {f.id for f, _ in store.keyword_search(terms, 10)}
        overlaps.append(len(exact & bounded) / len(exact))
    assert sum(overlaps) / len(overlaps) >= 0.95
    seq_of = {v: k for k, v in _ids(built).items()}
    for terms in (["comet"], ["comet", "harbor"]):
        whole = _bm25(built, terms)
        fortieth = sorted(whole.values())[39]
        for fact, rank in store.keyword_search(terms, 10):
            assert whole[seq_of[fact.id]] == pytest.approx(rank)
            assert rank <= fortieth + 1e-9


@pytest.mark.parametrize(
    "terms",
    [[HEAVY[0]], [HEAVY[0], MEDIUM[1]], [HEAVY[1], RARE[3], "absentword"], [MEDIUM[2]]],
)
def test_a_search_after_term_df_bounds_itself_on_those_counts(
    store: Store, terms: list[str]
) -> None:
    """Recall reads the terms' counts (``term_df``), then searches: the search takes those
    counts instead of counting every posting again, and finds exactly what it finds when
    it counts them itself (after counts of other terms, or of none)."""
    counted = [(f.id, rank) for f, rank in store.keyword_search(terms, 30)]
    store.term_df([*terms, MEDIUM[5]])
    assert [(f.id, rank) for f, rank in store.keyword_search(terms, 30)] == counted
    store.term_df([RARE[0]])  # counts not covering the search's terms: read again
    assert [(f.id, rank) for f, rank in store.keyword_search(terms, 30)] == counted


def test_the_ceiling_holds_after_facts_are_forgotten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forgotten facts leave the index but keep their row ids: the ceiling weighs the
    terms over the row ids, never fewer documents than FTS5 does, so a search it calls
    exact still is."""
    monkeypatch.setattr(keyword_bound, "HEAVY_DF", 150)
    monkeypatch.setattr(keyword_bound, "WINDOW_POSTINGS", 100)
    rng = random.Random(122)
    with Memory.open(tmp_path / "m.db", clock=FixedClock()) as mem:
        facts = mem.store_many([NewFact(f"/b/p{i % 20}", _content(rng)) for i in range(1_200)])
        for fact in facts[::3]:
            mem.forget(fact.id, reason="test")
    opened = open_store(tmp_path / "m.db", FixedClock())
    try:
        checked = 0
        for medium in MEDIUM:
            terms = ["comet", medium]
            exact = _exact(opened, terms, 10, monkeypatch)
            bound = keyword_bound.bound_search(terms, opened.term_df(terms), 1_200)
            assert bound is not None
            if len(exact) == 10 and -exact[-1][1] > bound.ceiling:
                checked += 1
                found = [(f.id, r) for f, r in opened.keyword_search(terms, 10)]
                assert found == [(i, pytest.approx(r)) for i, r in exact]
        assert checked >= 3
    finally:
        opened.close()
