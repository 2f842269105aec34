"""The retrieval benchmark protocols: eligibility, budget, metrics, memories, reference BM25."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from pathlib import Path

import pytest
from benchmarks.retrieval import (
    DEFAULT_DATA_DIR,
    LOCOMO_FILE,
    LONGMEMEVAL_FILE,
    harness,
    locomo,
    longmemeval,
    metrics,
)
from benchmarks.retrieval.systems import Bm25Ranker, Doc, EmbornalRanker, bm25_tokens

LOCOMO_PATH = DEFAULT_DATA_DIR / LOCOMO_FILE
LONGMEMEVAL_PATH = DEFAULT_DATA_DIR / LONGMEMEVAL_FILE

needs_locomo = pytest.mark.skipif(not LOCOMO_PATH.is_file(), reason=f"no {LOCOMO_PATH}")
needs_longmemeval = pytest.mark.skipif(
    not LONGMEMEVAL_PATH.is_file(), reason=f"no {LONGMEMEVAL_PATH}"
)


# --------------------------------------------------------------------------- LoCoMo memories


def test_turn_text_is_speaker_colon_text() -> None:
    assert locomo.turn_text({"speaker": "Mel", "text": "Hi!", "dia_id": "D1:1"}) == "Mel: Hi!"


def test_turn_text_appends_a_non_empty_caption() -> None:
    turn = {"speaker": "Mel", "text": "Look", "dia_id": "D1:2", "blip_caption": "a dog"}
    assert locomo.turn_text(turn) == "Mel: Look\nImage caption: a dog"


def test_turn_text_ignores_an_empty_caption() -> None:
    turn = {"speaker": "Mel", "text": "Look", "dia_id": "D1:2", "blip_caption": ""}
    assert locomo.turn_text(turn) == "Mel: Look"


def test_session_keys_are_numeric_and_skip_dates() -> None:
    conversation = {
        "speaker_a": "A",
        "speaker_b": "B",
        "session_10": [],
        "session_2": [],
        "session_9_date_time": "x",
        "session_9": [],
        "session_1": [],
        "session_11_date_time": "extra date key with no session",
    }
    assert locomo.session_keys(conversation) == [
        "session_1",
        "session_2",
        "session_9",
        "session_10",
    ]


def test_build_turns_walks_sessions_in_numeric_order_with_dates() -> None:
    conversation = {
        "session_10": [{"speaker": "A", "dia_id": "D10:1", "text": "ten"}],
        "session_9": [{"speaker": "B", "dia_id": "D9:1", "text": "nine"}],
        "session_9_date_time": "1:56 pm on 8 May, 2023",
    }
    turns = locomo.build_turns(conversation)
    assert [t.dia_id for t in turns] == ["D9:1", "D10:1"]
    assert turns[0] == locomo.Turn("D9:1", "B: nine", 9, datetime(2023, 5, 8, 13, 56, tzinfo=UTC))
    assert turns[1].session_date is None


def test_parse_session_date() -> None:
    assert locomo.parse_session_date("12:09 am on 1 January, 2024") == datetime(
        2024, 1, 1, 0, 9, tzinfo=UTC
    )
    assert locomo.parse_session_date("12:30 pm on 3 March, 2023") == datetime(
        2023, 3, 3, 12, 30, tzinfo=UTC
    )
    assert locomo.parse_session_date("sometime") is None
    assert locomo.parse_session_date(None) is None


# --------------------------------------------------------------------------- LoCoMo eligibility


def _qa(evidence: object, category: int = 4, question: str = "q?") -> dict[str, object]:
    return {"question": question, "answer": "a", "evidence": evidence, "category": category}


def test_eligibility_rules() -> None:
    ids = ["D1:1", "D1:2", "D2:1", "D9:17", "D8:6"]
    qa = [
        _qa(["D1:1"]),  # 0 kept
        _qa(["D1:1"], category=5),  # 1 adversarial
        _qa([]),  # 2 no evidence
        _qa([" D1:2 ", "D1:2", "D2:1"]),  # 3 kept: stripped and de-duplicated
        _qa(["D8:6; D9:17"]),  # 4 not a dia_id
        _qa(["D1:1", "D"]),  # 5 one bad label drops the question
        _qa(["D:11:26"]),  # 6
        _qa(["D1:1 D1:2"]),  # 7 space-joined
        _qa(["D30:1"]),  # 8 not in this conversation
        _qa(["D2:1"], category=1),  # 9 kept
    ]
    kept = locomo.eligible_questions("conv-x", qa, ids)
    assert [q.qa_index for q in kept] == [0, 3, 9]
    assert kept[1].evidence == ("D1:2", "D2:1")
    assert kept[2].category == 1
    assert kept[0].sample_id == "conv-x"


@needs_locomo
def test_dev_file_yields_756_eligible_questions() -> None:
    conversations = locomo.load_conversations(LOCOMO_PATH)
    assert [c.sample_id for c in conversations] == [
        "conv-26",
        "conv-30",
        "conv-41",
        "conv-42",
        "conv-43",
    ]
    assert sum(len(c.questions) for c in conversations) == 756
    for conversation in conversations:
        ids = [t.dia_id for t in conversation.turns]
        assert len(ids) == len(set(ids))
        assert all(q.category != 5 for q in conversation.questions)


# --------------------------------------------------------------------------- budget


def test_budget_skips_an_oversized_turn_and_goes_on() -> None:
    text_of = {"a": "x" * 3000, "b": "y" * 2000, "c": "z" * 1000, "d": "w" * 96, "e": "v"}
    # a (3000) fits; b would make 5000: skipped; c makes 4000; d makes 4096; e does not fit.
    assert locomo.select_within_budget(["a", "b", "c", "d", "e"], text_of) == ["a", "c", "d"]


def test_budget_counts_utf8_bytes_not_characters() -> None:
    text_of = {"a": "é" * 2048, "b": "x"}  # 4096 bytes, then one more byte
    assert locomo.select_within_budget(["a", "b"], text_of) == ["a"]
    assert locomo.select_within_budget(["b", "a"], text_of) == ["b"]


def test_budget_stops_at_five_turns() -> None:
    text_of = {str(i): "t" for i in range(9)}
    assert locomo.select_within_budget([str(i) for i in range(9)], text_of) == [
        "0",
        "1",
        "2",
        "3",
        "4",
    ]


def test_budget_takes_a_repeated_id_once_and_rejects_unknown_ids() -> None:
    text_of = {"a": "1", "b": "2"}
    assert locomo.select_within_budget(["a", "a", "b"], text_of) == ["a", "b"]
    with pytest.raises(ValueError, match="no memory"):
        locomo.select_within_budget(["zz"], text_of)


# --------------------------------------------------------------------------- LoCoMo metrics


def test_recall_hit_mrr_on_hand_made_cases() -> None:
    score = locomo.score_question(["x", "g2", "y", "g1"], ["g1", "g2", "g3"])
    assert score.recall == pytest.approx(2 / 3)
    assert score.hit == 1.0
    assert score.mrr == pytest.approx(1 / 2)
    miss = locomo.score_question(["x", "y"], ["g"])
    assert (miss.recall, miss.hit, miss.mrr) == (0.0, 0.0, 0.0)
    first = locomo.score_question(["g"], ["g"])
    assert (first.recall, first.hit, first.mrr) == (1.0, 1.0, 1.0)


def test_locomo_aggregate_is_plain_mean_overall_and_per_category() -> None:
    questions = [
        locomo.Question("c", 0, "q", 4, ("a",)),
        locomo.Question("c", 1, "q", 4, ("a",)),
        locomo.Question("c", 2, "q", 1, ("a",)),
    ]
    scores = [
        locomo.QuestionScore(1.0, 1.0, 1.0),
        locomo.QuestionScore(0.0, 0.0, 0.0),
        locomo.QuestionScore(0.5, 1.0, 0.5),
    ]
    result = locomo.aggregate(questions, scores)
    assert result["overall"]["recall@5"] == pytest.approx(0.5)
    assert result["overall"]["n"] == 3
    assert result["single-hop"]["recall@5"] == pytest.approx(0.5)
    assert result["multi-hop"]["mrr@5"] == pytest.approx(0.5)
    assert list(result) == ["overall", "multi-hop", "single-hop"]


# --------------------------------------------------------------------------- LongMemEval metrics


def test_dcg_follows_upstream_discount() -> None:
    # Upstream: rel[0] + sum(rel[i] / log2(i + 1)) for i >= 1 (0-based).
    assert metrics.dcg([1, 1, 1], 3) == pytest.approx(1 + 1 + 1 / math.log2(3))
    assert metrics.dcg([0, 0, 1], 2) == 0.0
    assert metrics.dcg([], 5) == 0.0


def test_ndcg_any_binary_relevance() -> None:
    corpus = ["a", "b", "c", "d"]
    assert metrics.ndcg_any(["a", "b"], ["a"], corpus, 10) == 1.0
    # One gold at rank 3 of two gold: dcg 1/log2(3); ideal 1 + 1.
    value = metrics.ndcg_any(["b", "d", "a", "c"], ["a", "c"], corpus, 10)
    assert value == pytest.approx((1 / math.log2(3) + 1 / math.log2(4)) / 2)
    assert metrics.ndcg_any(["b"], ["zz"], corpus, 10) == 0.0


def test_recall_any_and_all() -> None:
    ranked = ["a", "b", "c"]
    assert metrics.recall_any(ranked, ["c", "z"], 3) == 1.0
    assert metrics.recall_any(ranked, ["c"], 2) == 0.0
    assert metrics.recall_all(ranked, ["a", "c"], 3) == 1.0
    assert metrics.recall_all(ranked, ["a", "c"], 2) == 0.0


def _item(ids: list[str], gold: list[str], qtype: str = "multi-session") -> longmemeval.Item:
    sessions = tuple(
        longmemeval.Session(
            position=i,
            session_id=sid,
            date="2023/05/01 (Mon) 10:00",
            at=None,
            turns=(
                longmemeval.Message("user", f"user words {i}"),
                longmemeval.Message("assistant", f"assistant words {i}"),
            ),
        )
        for i, sid in enumerate(ids)
    )
    return longmemeval.Item("q1", qtype, "question?", "", tuple(gold), sessions)


def test_duplicate_session_ids_both_count_as_that_id() -> None:
    item = _item(["s1", "gold", "s2", "gold"], ["gold"])
    # Positions 1 and 3 are both "gold": ranking 0, 3, 1 puts gold at ranks 2 and 3.
    scores = longmemeval.score_item(item, [0, 3, 1, 2])
    assert scores["recall_any@1"] == 0.0
    assert scores["recall_any@5"] == 1.0
    assert scores["recall_all@5"] == 1.0
    # Both copies are relevant: dcg 1/log2(2) + 1/log2(3); the ideal has two relevant.
    assert scores["ndcg_any@10"] == pytest.approx((1 + 1 / math.log2(3)) / 2)
    assert scores["ndcg_any@1"] == 0.0


def test_session_ranking_is_order_of_first_appearance() -> None:
    memories = [
        longmemeval.SessionMemory("0:0", 0, "t", None),
        longmemeval.SessionMemory("0:1", 0, "t", None),
        longmemeval.SessionMemory("1:0", 1, "t", None),
        longmemeval.SessionMemory("2:0", 2, "t", None),
    ]
    assert longmemeval.session_ranking(["1:0", "0:1", "0:0", "2:0"], memories) == [1, 0, 2]
    with pytest.raises(ValueError, match="no memory"):
        longmemeval.session_ranking(["9:9"], memories)


def test_granularities_build_the_expected_memories() -> None:
    session = longmemeval.Session(
        position=0,
        session_id="s",
        date="",
        at=None,
        turns=(
            longmemeval.Message("assistant", "hello"),
            longmemeval.Message("user", "q1"),
            longmemeval.Message("assistant", "a1"),
            longmemeval.Message("user", "q2"),
            longmemeval.Message("user", "q3"),
            longmemeval.Message("assistant", "a3"),
            longmemeval.Message("user", "  "),
        ),
    )
    item = longmemeval.Item("q", "t", "?", "", ("s",), (session,))
    texts = {g: [m.text for m in longmemeval.build_memories(item, g)] for g in ("session", "round")}
    assert texts["session"] == [
        "assistant: hello\nuser: q1\nassistant: a1\nuser: q2\nuser: q3\nassistant: a3\nuser:   "
    ]
    assert texts["round"] == [
        "assistant: hello",
        "user: q1\nassistant: a1",
        "user: q2",
        "user: q3\nassistant: a3",
    ]
    user_turns = longmemeval.build_memories(item, "user_turn")
    assert [m.text for m in user_turns] == ["user: q1", "user: q2", "user: q3"]
    assert [m.doc_id for m in user_turns] == ["0:0", "0:1", "0:2"]
    assert len(longmemeval.build_memories(item, "turn")) == 6
    only_user = longmemeval.build_memories(item, "session_user")
    assert only_user[0].text == "user: q1\nuser: q2\nuser: q3\nuser:   "
    assert only_user[0].doc_id == "0"
    with pytest.raises(ValueError):
        longmemeval.build_memories(item, "paragraph")


def test_abstention_items_are_excluded_and_dates_parsed() -> None:
    raw = {
        "question_id": "abc_abs",
        "question_type": "temporal-reasoning",
        "question": "?",
        "question_date": "2023/05/30 (Tue) 23:40",
        "answer": "",
        "answer_session_ids": ["s"],
        "haystack_dates": ["2023/05/20 (Sat) 02:21"],
        "haystack_session_ids": ["s"],
        "haystack_sessions": [[{"role": "user", "content": "x", "has_answer": True}]],
    }
    item = longmemeval.item_from_json(raw)
    assert item.is_abstention
    assert longmemeval.eligible_items([item]) == ()
    assert item.sessions[0].at == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    assert item.sessions[0].turns[0].has_answer


# --------------------------------------------------------------------------- reference BM25


def test_bm25_tokens() -> None:
    assert bm25_tokens("The cat's 2 toys, snake_case and X-ray!") == [
        "cat",
        "toys",
        "snake_case",
        "ray",
    ]
    assert bm25_tokens("记忆系统") == ["记忆", "忆系", "系统"]
    assert bm25_tokens("a 猫 b") == ["猫"]
    assert bm25_tokens("Café") == ["caf"]  # ASCII words only: é separates


def test_bm25_ranks_by_score_and_breaks_ties_toward_the_later_doc() -> None:
    ranker = Bm25Ranker()
    docs = [
        Doc("d0", "apple banana"),
        Doc("d1", "apple banana"),
        Doc("d2", "cherry"),
        Doc("d3", "banana cherry cherry"),
    ]
    ranker.index("s", docs)
    assert ranker.rank("s", "apple", 2) == ["d1", "d0"]
    # Every document is ranked; those sharing no term come last, later first.
    assert ranker.rank("s", "apple", 10) == ["d1", "d0", "d3", "d2"]
    # Length normalisation: one "cherry" in a 1-token doc beats two in a 3-token doc.
    assert ranker.rank("s", "cherry", 2) == ["d2", "d3"]
    with pytest.raises(ValueError, match="already indexed"):
        ranker.index("s", docs)


@needs_locomo
def test_bm25_reproduces_the_locomo_reference() -> None:
    conversations = locomo.load_conversations(LOCOMO_PATH)
    result = harness.run_locomo(Bm25Ranker(), conversations)
    overall = result.metrics["overall"]
    assert overall["n"] == 756
    assert overall["recall@5"] == pytest.approx(0.4465, abs=0.0005)
    assert overall["hit@5"] == pytest.approx(0.4934, abs=0.0005)
    assert overall["mrr@5"] == pytest.approx(0.3451, abs=0.0005)


@pytest.mark.slow
@needs_longmemeval
def test_bm25_reproduces_the_longmemeval_reference() -> None:
    items = longmemeval.eligible_items(longmemeval.load_items(LONGMEMEVAL_PATH))
    assert len(items) == 98
    overall = harness.run_longmemeval(Bm25Ranker(), items, granularity="session").metrics["overall"]
    assert overall["recall_any@1"] == pytest.approx(0.867, abs=0.0005)
    assert overall["recall_any@5"] == pytest.approx(0.980, abs=0.0005)
    assert overall["recall_any@10"] == pytest.approx(0.990, abs=0.0005)
    assert overall["recall_all@5"] == pytest.approx(0.837, abs=0.0005)
    assert overall["ndcg_any@10"] == pytest.approx(0.909, abs=0.0005)


# --------------------------------------------------------------------------- harness & runner


class _ScriptedRanker:
    """Returns a fixed ranking and counts the depths it was asked for."""

    def __init__(self, ranking: list[str]) -> None:
        self.ranking = ranking
        self.asked: list[int] = []
        self.dropped: list[str] = []

    def index(self, space_id: str, docs: list[Doc]) -> None:
        del space_id, docs

    def rank(self, space_id: str, query: str, k: int, now: object = None) -> list[str]:
        del space_id, query
        self.asked.append(k)
        return self.ranking[:k]

    def drop(self, space_id: str) -> None:
        self.dropped.append(space_id)


def test_harness_deepens_the_ranking_until_the_budget_is_filled() -> None:
    turns = tuple(locomo.Turn(f"D1:{i}", "x" * 1000, 1, None) for i in range(1, 9))
    question = locomo.Question("c", 0, "q?", 4, ("D1:8",))
    conversation = locomo.Conversation("c", turns, (question,))
    ranker = _ScriptedRanker([t.dia_id for t in reversed(turns)])
    result = harness.run_locomo(ranker, [conversation], depth=2)
    assert ranker.asked == [2, 4, 8]
    assert result.selected[0] == ("D1:8", "D1:7", "D1:6", "D1:5")  # 4 x 1000 bytes fit
    assert result.scores[0].mrr == 1.0
    assert ranker.dropped == ["c"]


@needs_locomo
def test_locomo_runner_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.retrieval import run_locomo

    out = tmp_path / "r.json"
    assert run_locomo.main(["--system", "bm25", "--limit", "1", "--out", str(out)]) == 0
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["config"]["system"] == "bm25"
    assert payload["n_questions"] == payload["metrics"]["overall"]["n"] > 0
    assert len(payload["questions"]) == payload["n_questions"]
    assert "| overall |" in capsys.readouterr().out


# --------------------------------------------------------------------------- embornal


def _embornal_api() -> tuple[type, type]:
    embornal = pytest.importorskip("embornal")
    memory, new_fact = getattr(embornal, "Memory", None), getattr(embornal, "NewFact", None)
    if memory is None or new_fact is None:
        pytest.skip("embornal.Memory / NewFact not available yet")
    return memory, new_fact


def test_embornal_ranker_maps_fact_ids_back_to_doc_ids(tmp_path: Path) -> None:
    _embornal_api()
    docs = [
        Doc("D1:1", "Caroline: I went to the support group", group="session-1"),
        Doc("D1:2", "Melanie: I painted a sunrise by the lake", group="session-1"),
        Doc("D2:1", "Caroline: the adoption agency called", at=datetime(2023, 5, 8, tzinfo=UTC)),
    ]
    with EmbornalRanker("keyword", workdir=tmp_path) as ranker:
        ranker.index("conv-1", docs)
        ranked = ranker.rank("conv-1", "When did Melanie paint a sunrise?", 3)
        assert ranked and ranked[0] == "D1:2"
        assert set(ranked) <= {d.doc_id for d in docs}
        ranker.drop("conv-1")
    assert not list(tmp_path.glob("*.db"))
