"""Hostile input through the Python API: every bad value is refused with a clear error from
the ``InvalidInput`` family (or ``NotFound``) and nothing is written; text that merely looks
like SQL or FTS5 syntax is stored and found verbatim; recall never raises on any query.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embornal import FixedClock, Memory, NewFact, RecallHit
from embornal.errors import (
    AmbiguousId,
    Conflict,
    EmbornalError,
    InvalidContent,
    InvalidInput,
    InvalidPath,
    InvalidTag,
    InvalidTime,
    NotFound,
    OwnerTagForbidden,
)
from embornal.storage.sqlite.connect import connect

MB = 1024 * 1024


def _event_count(mem: Memory) -> int:
    with closing(connect(mem.db_path)) as conn:
        return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])


def _fact_count(mem: Memory) -> int:
    with closing(connect(mem.db_path)) as conn:
        return int(conn.execute("SELECT count(*) FROM facts").fetchone()[0])


def _refused(mem: Memory, error: type[BaseException], call: Callable[[], object]) -> BaseException:
    """``call`` raises ``error`` with a message, and the event log does not grow."""
    before = _event_count(mem)
    with pytest.raises(error) as info:
        call()
    assert _event_count(mem) == before
    if isinstance(info.value, EmbornalError):
        assert info.value.message
    return info.value


@pytest.fixture
def fact_id(memory: Memory) -> str:
    return memory.store("/hostile/base", "a plain fact to aim at").id


# -- content ---------------------------------------------------------------------------


def test_one_megabyte_content_is_refused_and_nothing_written(memory: Memory) -> None:
    err = _refused(memory, InvalidContent, lambda: memory.store("/big", "x" * MB))
    assert "bytes" in str(err)
    with pytest.raises(NotFound):
        memory.cat("/big")


def test_a_bad_item_in_store_many_writes_none_of_the_batch(memory: Memory) -> None:
    items = [NewFact("/batch", "first good fact"), NewFact("/batch", "y" * MB)]
    facts_before = _fact_count(memory)
    _refused(memory, InvalidContent, lambda: memory.store_many(items))
    assert _fact_count(memory) == facts_before


def test_content_just_under_the_limit_is_stored_whole(memory: Memory) -> None:
    from embornal.domain.facts.fact import MAX_CONTENT_BYTES

    text = "é" * (MAX_CONTENT_BYTES // 2)  # two bytes each: exactly the limit
    fact = memory.store("/big", text)
    assert memory.show(fact.id).fact.content == text
    _refused(memory, InvalidContent, lambda: memory.store("/big", text + "e"))


@pytest.mark.parametrize(
    "content",
    ["a\x00b", "\x00", "lone \ud800 high", "lone \udfff low", "", "   ", "\n\t ", 5, None, b"x"],
    ids=[
        "nul",
        "only-nul",
        "high-surrogate",
        "low-surrogate",
        "empty",
        "spaces",
        "ws",
        "int",
        "none",
        "bytes",
    ],
)
def test_bad_content_is_refused(memory: Memory, content: Any) -> None:
    _refused(memory, InvalidContent, lambda: memory.store("/bad", content))


# -- paths -----------------------------------------------------------------------------


def test_a_path_of_ten_thousand_segments_is_refused_clearly(memory: Memory) -> None:
    deep = "/a" * 10_000
    err = _refused(memory, InvalidPath, lambda: memory.store(deep, "too deep"))
    assert "at most" in str(err)
    for call in (
        lambda: memory.recall("x", under=deep),
        lambda: memory.cat(deep),
        lambda: memory.ls(deep),
        lambda: memory.tree(deep),
        lambda: memory.history(deep),
        lambda: memory.tag_path(deep, ["k=v"]),
    ):
        _refused(memory, InvalidPath, call)


def test_path_depth_limit_is_exact(memory: Memory) -> None:
    from embornal.domain.paths import MAX_DEPTH

    ok = "/a" * MAX_DEPTH
    assert memory.store(ok, "deep but allowed").path == ok
    _refused(memory, InvalidPath, lambda: memory.store(ok + "/a", "one too deep"))


@pytest.mark.parametrize(
    "path",
    [
        "",
        "relative",
        "//",
        "/a//b",
        "/-lead",
        "/a b",
        "/a\x00b",
        "/\ud800",
        "/a/../b",
        "/%",
        "/'; DROP TABLE paths; --",
        "/a/*",
        "/\u0430dmin",  # a Cyrillic а among Latin letters
        "/adm\u03b9n",  # a Greek iota
        "/İstanbul",  # folds to i + a combining dot
        "/a\u202eb",  # a bidi override
        5,
        None,
    ],
)
def test_bad_paths_are_refused(memory: Memory, path: Any) -> None:
    _refused(memory, InvalidPath, lambda: memory.store(path, "content"))


def test_lookalike_paths_are_one_node(memory: Memory) -> None:
    """Fullwidth letters and ligatures fold (NFKC) to the path they imitate."""
    ids = {memory.store(p, f"on {p}").path for p in ("/admin", "/\uff41dmin", "/ADMIN")}
    assert ids == {"/admin"}
    assert memory.store("/\ufb01le", "a ligature").path == "/file"
    assert [v.fact.content for v in memory.cat("/\uff46ile")] == ["a ligature"]
    assert [e.path for e in memory.ls("/") if e.path in ("/admin", "/file")] == [
        "/admin",
        "/file",
    ]


def test_the_root_holds_no_facts(memory: Memory) -> None:
    _refused(memory, InvalidInput, lambda: memory.store("/", "on the root"))


# -- SQL- and FTS-shaped text ----------------------------------------------------------

SQL_SHAPED = [
    "'; DROP TABLE facts; --",
    '"; DELETE FROM events; --',
    "1' OR '1'='1",
    "Robert'); DROP TABLE students;--",
    "x'); UPDATE facts SET content='pwned' WHERE ('1'='1",
]


@pytest.mark.parametrize("text", SQL_SHAPED)
def test_sql_shaped_content_is_stored_and_found_verbatim(memory: Memory, text: str) -> None:
    fact = memory.store("/sql", f"{text} zanzibarmarker", reason=text)
    assert memory.show(fact.id).fact.content == f"{text} zanzibarmarker"
    hits = memory.recall(f"{text} zanzibarmarker", reinforce=False)
    assert fact.id in {h.fact.id for h in hits}
    assert isinstance(memory.recall(text, reinforce=False), list)
    assert memory.show(fact.id).events[0].reason == text.strip()
    with closing(connect(memory.db_path)) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert {"facts", "events", "paths"} <= tables
    assert memory.verify() == []


def test_sql_shaped_tag_value_is_stored_verbatim(memory: Memory) -> None:
    value = "x'); DROP TABLE fact_tags; --"
    fact = memory.store("/sql", "tagged with sql", tags={"src": value})
    assert ("src", value) in {(t.key, t.value) for t in memory.show(fact.id).fact.tags}


FTS_SHAPED = [
    '"',
    '""',
    '"unterminated',
    "(",
    ")",
    "()",
    "NEAR",
    "NEAR(a b)",
    "NEAR(a b, 2)",
    "NEAR/3",
    "*",
    "a*",
    "*a",
    "-",
    "-a",
    "+",
    ":",
    "a:b",
    "body:secret",
    "facts_fts:x",
    "AND",
    "OR",
    "NOT",
    "OR NOT",
    "a AND NOT b",
    "AND OR NOT",
    "^",
    "^a",
    "{a b}",
    "{a b}: c",
    "a OR",
    "rank",
    "bm25(facts_fts)",
    "%",
    "_",
    "'",
    "\\",
    "\x00",
    "\ud800",
    "\u200b",
    "\u202e reversed",
    "\u0301",
    "（）",
    "«»",
    "“quoted”",
    "…",
    "﹡",
    "🧠🔥",
    "🇫🇷",
    "👩‍👩‍👧",
    "記憶",
    "a" * 10_000,
    " ".join(f"w{i}" for i in range(2_000)),
    "NEAR( " * 2_000,
]


@pytest.fixture
def seeded(memory: Memory) -> Memory:
    memory.store("/fts", 'NEAR(a b) AND OR NOT: "quoted" {a b} ^start *star -minus')
    memory.store("/fts", "记忆系统 emoji 🧠 café naïve")
    return memory


@pytest.mark.parametrize("query", FTS_SHAPED, ids=[repr(q[:12]) for q in FTS_SHAPED])
def test_fts_shaped_queries_never_raise(seeded: Memory, query: str) -> None:
    hits = seeded.recall(query, reinforce=False)
    assert isinstance(hits, list)
    assert all(isinstance(h, RecallHit) for h in hits)
    assert isinstance(seeded.recall(query, limit=3, under="/fts"), list)


def test_fts_shaped_content_is_found_by_its_words(seeded: Memory) -> None:
    hits = seeded.recall("near start star minus", reinforce=False)
    assert any(h.fact.content.startswith("NEAR(a b)") for h in hits)


# -- queries, reasons and ids ----------------------------------------------------------


@pytest.mark.parametrize("query", [None, "", "   ", "\n"])
def test_empty_query_recalls_the_strongest(memory: Memory, query: str | None) -> None:
    memory.store("/empty", "something to recall")
    hits = memory.recall(query, reinforce=False)
    assert isinstance(hits, list) and hits


@pytest.mark.parametrize("reason", [None, "", "   "])
def test_forget_restore_and_purge_require_a_reason(
    memory: Memory, fact_id: str, reason: str | None
) -> None:
    for op in (memory.forget, memory.purge):
        _refused(memory, InvalidInput, lambda op=op: op(fact_id, reason=reason))  # type: ignore[misc]
    memory.forget(fact_id, reason="to test restore")
    _refused(memory, InvalidInput, lambda: memory.restore(fact_id, reason=reason))  # type: ignore[arg-type]


def test_reason_limits(memory: Memory, fact_id: str) -> None:
    from embornal.domain.facts.fact import MAX_REASON_LENGTH

    _refused(
        memory, InvalidInput, lambda: memory.forget(fact_id, reason="r" * (MAX_REASON_LENGTH + 1))
    )
    _refused(memory, InvalidInput, lambda: memory.forget(fact_id, reason="a\x00b"))
    _refused(memory, InvalidInput, lambda: memory.forget(fact_id, reason=5))  # type: ignore[arg-type]
    # An empty reason on a store simply means "no reason".
    fact = memory.store("/reasons", "stored without reason", reason="")
    assert memory.show(fact.id).events[0].reason is None


def test_a_nul_in_a_history_label_is_refused(memory: Memory, fact_id: str) -> None:
    """The session and source labels once kept a NUL (PostgreSQL refuses one: 503)."""
    _refused(memory, InvalidInput, lambda: memory.remember("note", session="s\x00"))
    _refused(memory, InvalidInput, lambda: memory.corroborate(fact_id, "a\x00b"))
    _refused(memory, InvalidInput, lambda: memory.corroborate(fact_id, "ok", common_origin="\x00"))
    _refused(
        memory,
        InvalidInput,
        lambda: memory.chronicle.set_history_context(fact_id, session="s\x00", reason="r"),
    )


UNKNOWN_IDS = ["0" * 26, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01ARZ3NDEKTSV4RRFFQ69G5FAV"]
MALFORMED_IDS = [
    "",
    "   ",
    "not-an-id",
    "ILOU",
    "x" * 27,
    "%",
    "_",
    "01ARZ3NDEKTSV4RRFFQ69G5FA%",
    "'; DROP TABLE facts; --",
    "a\x00b",
    "\ud800",
    "🧠",
]


@pytest.mark.parametrize("bad_id", UNKNOWN_IDS)
def test_unknown_ids_are_not_found(memory: Memory, bad_id: str) -> None:
    for call in (
        lambda: memory.show(bad_id),
        lambda: memory.history(bad_id),
        lambda: memory.forget(bad_id, reason="r"),
        lambda: memory.restore(bad_id, reason="r"),
        lambda: memory.purge(bad_id, reason="r"),
        lambda: memory.supersede(bad_id, "new text"),
    ):
        _refused(memory, NotFound, call)


@pytest.mark.parametrize("bad_id", MALFORMED_IDS, ids=[repr(i[:10]) for i in MALFORMED_IDS])
def test_malformed_ids_are_invalid_input(memory: Memory, bad_id: str) -> None:
    for call in (
        lambda: memory.show(bad_id),
        lambda: memory.forget(bad_id, reason="r"),
        lambda: memory.purge(bad_id, reason="r"),
        lambda: memory.supersede(bad_id, "new text"),
    ):
        _refused(memory, InvalidInput, call)


def test_a_short_prefix_is_ambiguous_or_unknown(memory: Memory) -> None:
    memory.store("/prefix", "one")
    memory.store("/prefix", "two")
    _refused(memory, AmbiguousId, lambda: memory.show("0"))
    _refused(memory, NotFound, lambda: memory.show("Z"))


@pytest.mark.parametrize("limit", [0, -1, 10**9, True, False, 1.5, "3", float("nan")])
def test_bad_limits_are_refused(memory: Memory, limit: Any) -> None:
    _refused(memory, InvalidInput, lambda: memory.recall("x", limit=limit))
    _refused(memory, InvalidInput, lambda: memory.cat("/memory", limit=limit))


def test_limit_bounds_are_inclusive(memory: Memory) -> None:
    from embornal.service.memory import MAX_LIMIT

    memory.store("/notes/one", "one fact of the user's")
    assert len(memory.recall(None, limit=1, reinforce=False)) == 1
    assert isinstance(memory.recall(None, limit=MAX_LIMIT, reinforce=False), list)


# -- tags ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tags",
    [
        ["owner=mallory"],
        ["OWNER=mallory"],
        [" owner =mallory"],
        {"owner": "mallory"},
        ["visibility=public", "owner=default"],
    ],
    ids=["plain", "upper", "spaced", "mapping", "second"],
)
def test_owner_tags_are_forbidden_and_nothing_is_written(memory: Memory, tags: Any) -> None:
    facts_before = _fact_count(memory)
    _refused(memory, OwnerTagForbidden, lambda: memory.store("/owned", "mine now", tags=tags))
    assert _fact_count(memory) == facts_before


def test_an_owner_tag_with_an_empty_value_is_refused_too(memory: Memory) -> None:
    _refused(memory, InvalidTag, lambda: memory.store("/owned", "x", tags=["owner="]))


@pytest.mark.parametrize(
    "tag",
    [
        "novalue",
        "=v",
        "k=",
        "a=b,c",
        "a,b=c",
        "k= v",
        "k=v ",
        "k=a\nb",
        "k=a\x00b",
        "k=a\tb",
        "ké y=v",
        "-k=v",
        "k" * 65 + "=v",
        "k=" + "v" * 257,
        "",
    ],
)
def test_malformed_tags_are_refused(memory: Memory, tag: str) -> None:
    _refused(memory, InvalidTag, lambda: memory.store("/tags", "tagged", tags=[tag]))
    _refused(memory, InvalidTag, lambda: memory.tag_path("/tags", [tag]))


def test_a_bare_string_of_tags_is_refused(memory: Memory) -> None:
    _refused(memory, InvalidTag, lambda: memory.store("/tags", "x", tags="colour=red"))


def test_the_owner_is_written_by_the_memory(memory: Memory) -> None:
    fact = memory.store("/owned", "owned by the subject", tags=["colour=red"])
    assert fact.owner == "default"
    assert {(t.key, t.value) for t in fact.tags} == {("owner", "default"), ("colour", "red")}


# -- times -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "at",
    [
        "garbage",
        "",
        "  ",
        "yesterday",
        "2026-13-01",
        "2026-02-30T00:00:00Z",
        "2026-01-01T25:00:00Z",
        "2026-01-01T00:00:00+25:00",
        "1e9",
        "'; DROP TABLE facts; --",
    ],
)
def test_garbage_times_are_refused(memory: Memory, at: str) -> None:
    _refused(memory, InvalidTime, lambda: memory.store("/times", "dated", at=at))


@pytest.mark.parametrize(
    "at",
    [
        pytest.param(
            "0500-01-01T00:00:00Z",
            marks=(),
        ),
        pytest.param(
            datetime.min,
            marks=(),
        ),
        pytest.param(
            "9999-12-31T23:59:59-14:00",
            marks=(),
        ),
        pytest.param(
            "0001-01-01T00:00:00+01:00",
            marks=(),
        ),
        "1000-01-01T00:00:00Z",
        datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC),
        "2026-06-01T12:00:00+02:00",
        "2026-06-01",
    ],
)
def test_extreme_times_are_either_stored_readably_or_refused(memory: Memory, at: Any) -> None:
    """A time at the edge of the calendar is stored (and reads back) or refused cleanly."""
    before = _event_count(memory)
    try:
        fact = memory.store("/times", "dated at the edge", at=at)
    except InvalidInput:
        assert _event_count(memory) == before
    else:
        assert memory.show(fact.id).fact.content == "dated at the edge"
    # Whatever happened, the memory is still readable.
    assert isinstance(memory.recall("dated edge", reinforce=False), list)
    assert isinstance(memory.recall(None, reinforce=False), list)
    memory.cat("/memory")


def test_a_naive_time_counts_as_utc(memory: Memory) -> None:
    fact = memory.store("/times", "naive", at=datetime(2020, 5, 6, 7, 8, 9))
    assert fact.created_at == datetime(2020, 5, 6, 7, 8, 9, tzinfo=UTC)


# -- wrong types through the Python API ------------------------------------------------


def _type_confusion(memory: Memory, fact_id: str) -> dict[str, Callable[[], object]]:
    return {
        "store-at-int": lambda: memory.store("/types", "x", at=5),  # type: ignore[arg-type]
        "recall-query-int": lambda: memory.recall(5),  # type: ignore[arg-type]
        "history-none": lambda: memory.history(None),  # type: ignore[arg-type]
        "untag-none": lambda: memory.untag_path("/types", None),  # type: ignore[arg-type]
        "store-kind-int": lambda: memory.store("/types", "x", kind=5),  # type: ignore[arg-type]
        "show-int": lambda: memory.show(5),  # type: ignore[arg-type]
        "recall-under-int": lambda: memory.recall("x", under=5),  # type: ignore[arg-type]
        "recall-mode-bad": lambda: memory.recall("x", mode="sideways"),
        "cat-order-bad": lambda: memory.cat("/memory", order_by="random"),
        "tags-none-item": lambda: memory.store("/types", "x", tags=[None]),  # type: ignore[list-item]
        "tag-path-empty": lambda: memory.tag_path("/types", []),
        "forget-reason-int": lambda: memory.forget(fact_id, reason=5),  # type: ignore[arg-type]
    }


_TYPE_BUGS = {
    "store-at-int": "bug: parse_time (domain/clock.py) calls .strip() on a non-str 'at' "
    "and raises AttributeError instead of InvalidTime",
    "recall-query-int": "bug: recall (service/recall/use_case.py) calls .strip() on a "
    "non-str query and raises AttributeError instead of InvalidInput",
    "history-none": "bug: Memory.history calls target.startswith on a non-str target "
    "and raises AttributeError instead of InvalidInput",
    "untag-none": "bug: Memory.untag_path iterates keys=None and raises TypeError "
    "instead of InvalidInput",
}

_TYPE_CASES = [
    "store-at-int",
    "recall-query-int",
    "history-none",
    "untag-none",
    "store-kind-int",
    "show-int",
    "recall-under-int",
    "recall-mode-bad",
    "cat-order-bad",
    "tags-none-item",
    "tag-path-empty",
    "forget-reason-int",
]


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=()) if c in _TYPE_BUGS else c for c in _TYPE_CASES],
)
def test_wrong_types_raise_invalid_input(memory: Memory, fact_id: str, case: str) -> None:
    _refused(memory, InvalidInput, _type_confusion(memory, fact_id)[case])


@pytest.mark.parametrize(
    "field",
    [
        pytest.param(
            "tag",
            marks=(),
        ),
        pytest.param(
            "reason",
            marks=(),
        ),
        pytest.param(
            "untag",
            marks=(),
        ),
    ],
)
def test_lone_surrogates_outside_content_raise_invalid_input(
    memory: Memory, fact_id: str, field: str
) -> None:
    calls: dict[str, Callable[[], object]] = {
        "tag": lambda: memory.store("/sur", "x", tags=["k=\ud800"]),
        "reason": lambda: memory.store("/sur", "x", reason="why \ud800"),
        "untag": lambda: memory.untag_path("/sur", ["\ud800"]),
    }
    _refused(memory, InvalidInput, calls[field])


def test_state_errors_are_conflicts(memory: Memory, fact_id: str) -> None:
    _refused(memory, Conflict, lambda: memory.restore(fact_id, reason="not forgotten"))
    memory.forget(fact_id, reason="first")
    _refused(memory, Conflict, lambda: memory.forget(fact_id, reason="second"))
    _refused(memory, Conflict, lambda: memory.supersede(fact_id, "correcting a forgotten fact"))


# -- properties ------------------------------------------------------------------------

# Every code point, lone surrogates included.
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=300)


@pytest.fixture
def prop_memory(tmp_path: Path) -> Iterator[Memory]:
    clock = FixedClock(datetime(2026, 1, 1, 12, 0, tzinfo=UTC))
    with Memory.open(tmp_path / "prop.db", clock=clock) as mem:
        mem.store("/prop", "a seed fact so that queries have something to match")
        yield mem


PROP = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@PROP
@given(query=st.one_of(ANY_TEXT, st.text(max_size=40)))
def test_property_recall_never_raises(prop_memory: Memory, query: str) -> None:
    hits = prop_memory.recall(query, reinforce=False)
    assert isinstance(hits, list)
    assert all(isinstance(h, RecallHit) for h in hits)


@PROP
@given(content=st.one_of(ANY_TEXT, st.text(min_size=1, max_size=200)))
def test_property_content_round_trips_or_is_refused(prop_memory: Memory, content: str) -> None:
    before = _event_count(prop_memory)
    try:
        fact = prop_memory.store("/prop/content", content)
    except InvalidInput:
        assert _event_count(prop_memory) == before
    else:
        assert prop_memory.show(fact.id).fact.content == content
        assert _event_count(prop_memory) == before + 1


@PROP
@given(
    path=st.one_of(
        ANY_TEXT,
        st.lists(st.text(max_size=12), max_size=6).map(lambda parts: "/" + "/".join(parts)),
    )
)
def test_property_paths_normalize_or_are_refused(prop_memory: Memory, path: str) -> None:
    before = _event_count(prop_memory)
    try:
        fact = prop_memory.store(path, "a fact on an arbitrary path")
    except InvalidInput:
        assert _event_count(prop_memory) == before
    else:
        assert fact.path == fact.path.lower()
        assert fact.path.startswith("/")
        assert prop_memory.show(fact.id).fact.path == fact.path
        assert any(v.fact.id == fact.id for v in prop_memory.cat(fact.path))
