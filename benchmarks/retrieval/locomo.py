"""LoCoMo evidence retrieval, the memory-as-history protocol (``shared/bench/README.md``).

1. One memory per turn, one memory space per conversation. A turn's text is exactly
   ``"<speaker>: <text>"``, plus ``"\\nImage caption: <blip_caption>"`` when the caption is
   non-empty; the ``session_<n>`` keys are walked in numeric order (date keys ignored).
2. Eligible questions, in this order: drop category 5; drop an empty evidence list; strip and
   de-duplicate the labels and drop the question if any label is not a dia_id of its
   conversation (labels are never repaired).
3. The query is the question text alone.
4. Context budget: walk the ranking from the top, take a turn if its UTF-8 bytes still fit in
   4,096 bytes in total, else skip it and go on; stop at 5 turns.
5. Recall@5, Hit@5 and MRR@5 per question over the selected turns, then plain means, overall
   and per category.

Everything here is pure: loading turns JSON into frozen dataclasses, the rest are functions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.retrieval import metrics

__all__ = [
    "CATEGORY_NAMES",
    "MAX_BYTES",
    "MAX_TURNS",
    "Conversation",
    "Question",
    "QuestionScore",
    "Turn",
    "aggregate",
    "build_turns",
    "eligible_questions",
    "load_conversations",
    "load_samples",
    "parse_session_date",
    "score_question",
    "select_within_budget",
    "session_keys",
    "turn_text",
]

#: The context budget: at most this many turns ...
MAX_TURNS = 5
#: ... whose texts add up to at most this many UTF-8 bytes.
MAX_BYTES = 4096
#: The excluded category (adversarial questions have no answer in the conversation).
ADVERSARIAL = 5
CATEGORY_NAMES: Mapping[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}

_SESSION_KEY = re.compile(r"session_(\d+)")
_DATE = re.compile(
    r"\s*(\d{1,2}):(\d{2})\s*([ap]\.?m\.?)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*",
    re.IGNORECASE,
)
_MONTHS = {
    name: number
    for number, name in enumerate(
        (
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ),
        start=1,
    )
}


@dataclass(frozen=True)
class Turn:
    """One memory: a turn of the conversation.

    ``session_index`` is the ``n`` of ``session_<n>``; ``session_date`` is its
    ``session_<n>_date_time`` parsed as UTC, or ``None`` when absent or unreadable.
    """

    dia_id: str
    text: str
    session_index: int
    session_date: datetime | None


@dataclass(frozen=True)
class Question:
    """An eligible question with its cleaned evidence (stripped, de-duplicated, in order)."""

    sample_id: str
    qa_index: int
    question: str
    category: int
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Conversation:
    """One memory space: the turns of a sample and its eligible questions."""

    sample_id: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]


@dataclass(frozen=True)
class QuestionScore:
    """The three per-question metrics over the selected turns."""

    recall: float
    hit: float
    mrr: float

    def as_dict(self) -> dict[str, float]:
        return {"recall@5": self.recall, "hit@5": self.hit, "mrr@5": self.mrr}


# --------------------------------------------------------------------------- loading


def load_samples(path: Path) -> list[dict[str, Any]]:
    """The raw samples of a LoCoMo JSON file (a list of objects)."""
    with path.open(encoding="utf-8") as handle:
        data = json.load(handle)
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of samples, got {type(data).__name__}")
    return data


def session_keys(conversation: Mapping[str, Any]) -> list[str]:
    """The ``session_<n>`` keys holding turns, in numeric order (``session_10`` after ``_9``)."""
    found: list[tuple[int, str]] = []
    for key in conversation:
        match = _SESSION_KEY.fullmatch(key)
        if match:
            found.append((int(match.group(1)), key))
    return [key for _, key in sorted(found)]


def parse_session_date(raw: object) -> datetime | None:
    """``"1:56 pm on 8 May, 2023"`` as a UTC datetime; ``None`` if absent or unreadable."""
    if not isinstance(raw, str):
        return None
    match = _DATE.fullmatch(raw)
    if not match:
        return None
    hour, minute, meridiem, day, month_name, year = match.groups()
    month = _MONTHS.get(month_name.lower())
    if month is None:
        return None
    hour_24 = int(hour) % 12 + (12 if meridiem.lower().startswith("p") else 0)
    try:
        return datetime(int(year), month, int(day), hour_24, int(minute), tzinfo=UTC)
    except ValueError:
        return None


def turn_text(turn: Mapping[str, Any]) -> str:
    """Exactly ``"<speaker>: <text>"``, plus ``"\\nImage caption: <caption>"`` if non-empty."""
    text = f"{turn['speaker']}: {turn['text']}"
    caption = turn.get("blip_caption")
    if caption:
        text += f"\nImage caption: {caption}"
    return text


def build_turns(conversation: Mapping[str, Any]) -> tuple[Turn, ...]:
    """The memories of one conversation, session by session in numeric order."""
    turns: list[Turn] = []
    for key in session_keys(conversation):
        index = int(key.removeprefix("session_"))
        date = parse_session_date(conversation.get(f"{key}_date_time"))
        turns.extend(
            Turn(
                dia_id=turn["dia_id"], text=turn_text(turn), session_index=index, session_date=date
            )
            for turn in conversation[key]
        )
    return tuple(turns)


def eligible_questions(
    sample_id: str, qa: Sequence[Mapping[str, Any]], dia_ids: Iterable[str]
) -> tuple[Question, ...]:
    """The questions the protocol scores, with cleaned evidence, in their original order."""
    known = set(dia_ids)
    kept: list[Question] = []
    for qa_index, item in enumerate(qa):
        category = int(item["category"])
        if category == ADVERSARIAL:
            continue
        evidence = item.get("evidence") or []
        if not evidence:
            continue
        labels = tuple(dict.fromkeys(str(label).strip() for label in evidence))
        if any(label not in known for label in labels):
            continue
        kept.append(
            Question(
                sample_id=sample_id,
                qa_index=qa_index,
                question=str(item["question"]),
                category=category,
                evidence=labels,
            )
        )
    return tuple(kept)


def load_conversations(path: Path) -> tuple[Conversation, ...]:
    """Every conversation of a LoCoMo file with its turns and eligible questions."""
    conversations: list[Conversation] = []
    for sample in load_samples(path):
        sample_id = str(sample["sample_id"])
        turns = build_turns(sample["conversation"])
        questions = eligible_questions(sample_id, sample["qa"], (t.dia_id for t in turns))
        conversations.append(Conversation(sample_id=sample_id, turns=turns, questions=questions))
    return tuple(conversations)


# --------------------------------------------------------------------------- budget & scoring


def select_within_budget(
    ranking: Iterable[str],
    text_of: Mapping[str, str],
    *,
    max_turns: int = MAX_TURNS,
    max_bytes: int = MAX_BYTES,
) -> list[str]:
    """Walk ``ranking``: take a turn if its UTF-8 bytes still fit, else skip it; stop at
    ``max_turns``. A repeated id is taken once. ``text_of`` maps each id to its text."""
    selected: list[str] = []
    seen: set[str] = set()
    used = 0
    for doc_id in ranking:
        if len(selected) >= max_turns:
            break
        if doc_id in seen:
            continue
        seen.add(doc_id)
        try:
            size = len(text_of[doc_id].encode("utf-8"))
        except KeyError:
            raise ValueError(f"ranked id {doc_id!r} is no memory of this space") from None
        if used + size <= max_bytes:
            selected.append(doc_id)
            used += size
    return selected


def score_question(selected: Sequence[str], gold: Sequence[str]) -> QuestionScore:
    """Recall@5, Hit@5 and MRR@5 of the selected turns against the gold dia_ids."""
    return QuestionScore(
        recall=metrics.recall_fraction(selected, gold),
        hit=metrics.hit(selected, gold),
        mrr=metrics.reciprocal_rank(selected, gold),
    )


def aggregate(
    questions: Sequence[Question], scores: Sequence[QuestionScore]
) -> dict[str, dict[str, float]]:
    """Plain means overall (key ``"overall"``) and per category (by name, in category order)."""
    rows = [score.as_dict() for score in scores]
    result = {"overall": metrics.summarize(rows)}
    names = [CATEGORY_NAMES.get(q.category, str(q.category)) for q in questions]
    per_category = metrics.mean_by_group(rows, names)
    order = {name: i for i, name in enumerate(CATEGORY_NAMES.values())}
    for name in sorted(per_category, key=lambda n: (order.get(n, len(order)), n)):
        result[name] = per_category[name]
    return result
