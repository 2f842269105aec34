"""Run a :class:`~benchmarks.retrieval.systems.Ranker` through a protocol.

The harness owns the loop (index a space, rank its questions, free it) and nothing of the
protocol's maths: that stays in :mod:`.locomo` and :mod:`.longmemeval`.

Ranking depth: by default every memory of the space is ranked (as upstream LongMemEval ranks
its whole corpus). With ``depth`` set, the first request asks for ``depth`` ids and doubles
only when the ranking ran out before the protocol had what it needs (5 selected turns for
LoCoMo, 10 distinct sessions for LongMemEval).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from benchmarks.retrieval import locomo, longmemeval
from benchmarks.retrieval.systems import Doc, Droppable, Ranker

__all__ = [
    "LocomoResult",
    "LongMemEvalResult",
    "Progress",
    "locomo_docs",
    "locomo_question_time",
    "longmemeval_docs",
    "run_locomo",
    "run_longmemeval",
]

#: Called after each space with (spaces done, spaces in all, space id).
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class LocomoResult:
    questions: tuple[locomo.Question, ...]
    selected: tuple[tuple[str, ...], ...]
    scores: tuple[locomo.QuestionScore, ...]
    metrics: dict[str, dict[str, float]]
    index_seconds: float
    query_seconds: float

    def per_question(self) -> list[dict[str, Any]]:
        """One row per question: ids, category, gold, selection and scores (no data text)."""
        return [
            {
                "id": f"{q.sample_id}:{q.qa_index}",
                "category": q.category,
                "gold": list(q.evidence),
                "selected": list(sel),
                **score.as_dict(),
            }
            for q, sel, score in zip(self.questions, self.selected, self.scores, strict=True)
        ]


@dataclass(frozen=True)
class LongMemEvalResult:
    items: tuple[longmemeval.Item, ...]
    rankings: tuple[tuple[int, ...], ...]
    rows: tuple[dict[str, float], ...]
    metrics: dict[str, dict[str, float]]
    granularity: str
    memories: int
    index_seconds: float
    query_seconds: float

    def per_question(self, top: int = 10) -> list[dict[str, Any]]:
        """One row per question: id, type, gold, the top session ids and the scores."""
        return [
            {
                "id": item.question_id,
                "type": item.question_type,
                "gold": list(item.answer_session_ids),
                "ranked": [item.sessions[p].session_id for p in ranking[:top]],
                **row,
            }
            for item, ranking, row in zip(self.items, self.rankings, self.rows, strict=True)
        ]


def _release(ranker: Ranker, space_id: str) -> None:
    if isinstance(ranker, Droppable):
        ranker.drop(space_id)


def _rank_until(
    ranker: Ranker,
    space_id: str,
    query: str,
    total: int,
    depth: int | None,
    enough: Callable[[list[str]], bool],
    now: datetime | None = None,
) -> list[str]:
    """Rank with ``depth`` (all ``total`` if None), doubling while the list ran short."""
    if total == 0:
        return []
    k = total if depth is None else max(1, min(depth, total))
    while True:
        ranking = ranker.rank(space_id, query, k, now)
        if k >= total or len(ranking) < k or enough(ranking):
            return ranking
        k = min(2 * k, total)


def _budget_filled(text_of: dict[str, str]) -> Callable[[list[str]], bool]:
    def enough(ranking: list[str]) -> bool:
        return len(locomo.select_within_budget(ranking, text_of)) >= locomo.MAX_TURNS

    return enough


def _sessions_found(
    memories: Sequence[longmemeval.SessionMemory], wanted: int
) -> Callable[[list[str]], bool]:
    def enough(ranking: list[str]) -> bool:
        return len(longmemeval.session_ranking(ranking, memories)) >= wanted

    return enough


# --------------------------------------------------------------------------- LoCoMo


def locomo_docs(conversation: locomo.Conversation) -> list[Doc]:
    """A conversation's turns as documents: the exact text, the session date, the session."""
    return [
        Doc(
            doc_id=turn.dia_id,
            text=turn.text,
            at=turn.session_date,
            group=f"session-{turn.session_index}",
        )
        for turn in conversation.turns
    ]


def locomo_question_time(conversation: locomo.Conversation) -> datetime | None:
    """When a LoCoMo question is asked: the protocol gives no time, so the last session's
    date (the questions follow the whole conversation)."""
    dates = [t.session_date for t in conversation.turns if t.session_date is not None]
    return max(dates, default=None)


def run_locomo(
    ranker: Ranker,
    conversations: Sequence[locomo.Conversation],
    *,
    depth: int | None = None,
    progress: Progress | None = None,
) -> LocomoResult:
    """Index each conversation as a space and score its eligible questions."""
    questions: list[locomo.Question] = []
    selected: list[tuple[str, ...]] = []
    scores: list[locomo.QuestionScore] = []
    index_seconds = query_seconds = 0.0
    for done, conversation in enumerate(conversations, start=1):
        space = conversation.sample_id
        docs = locomo_docs(conversation)
        text_of = {doc.doc_id: doc.text for doc in docs}
        asked = locomo_question_time(conversation)
        started = time.perf_counter()
        ranker.index(space, docs)
        index_seconds += time.perf_counter() - started
        try:
            started = time.perf_counter()
            for question in conversation.questions:
                ranking = _rank_until(
                    ranker,
                    space,
                    question.question,
                    len(docs),
                    depth,
                    _budget_filled(text_of),
                    asked,
                )
                chosen = locomo.select_within_budget(ranking, text_of)
                questions.append(question)
                selected.append(tuple(chosen))
                scores.append(locomo.score_question(chosen, question.evidence))
            query_seconds += time.perf_counter() - started
        finally:
            _release(ranker, space)
        if progress is not None:
            progress(done, len(conversations), space)
    return LocomoResult(
        questions=tuple(questions),
        selected=tuple(selected),
        scores=tuple(scores),
        metrics=locomo.aggregate(questions, scores),
        index_seconds=index_seconds,
        query_seconds=query_seconds,
    )


# --------------------------------------------------------------------------- LongMemEval


def longmemeval_docs(memories: Sequence[longmemeval.SessionMemory]) -> list[Doc]:
    """Memories as documents, grouped by haystack position (``session-<position>``)."""
    return [
        Doc(
            doc_id=memory.doc_id,
            text=memory.text,
            at=memory.at,
            group=f"session-{memory.session_position}",
        )
        for memory in memories
    ]


def run_longmemeval(
    ranker: Ranker,
    items: Sequence[longmemeval.Item],
    *,
    granularity: str = "session",
    depth: int | None = None,
    progress: Progress | None = None,
) -> LongMemEvalResult:
    """Index each question's haystack as a fresh space, rank, and score the session ranking."""
    rankings: list[tuple[int, ...]] = []
    rows: list[dict[str, float]] = []
    memory_count = 0
    index_seconds = query_seconds = 0.0
    for done, item in enumerate(items, start=1):
        space = item.question_id
        memories = longmemeval.build_memories(item, granularity)
        memory_count += len(memories)
        started = time.perf_counter()
        ranker.index(space, longmemeval_docs(memories))
        index_seconds += time.perf_counter() - started
        try:
            started = time.perf_counter()
            ranking = _rank_until(
                ranker,
                space,
                item.question,
                len(memories),
                depth,
                _sessions_found(memories, max(longmemeval.KS)),
                longmemeval.parse_date(item.question_date),
            )
            query_seconds += time.perf_counter() - started
        finally:
            _release(ranker, space)
        positions = longmemeval.session_ranking(ranking, memories)
        rankings.append(tuple(positions))
        rows.append(longmemeval.score_item(item, positions))
        if progress is not None:
            progress(done, len(items), space)
    return LongMemEvalResult(
        items=tuple(items),
        rankings=tuple(rankings),
        rows=tuple(rows),
        metrics=longmemeval.aggregate(items, rows),
        granularity=granularity,
        memories=memory_count,
        index_seconds=index_seconds,
        query_seconds=query_seconds,
    )
