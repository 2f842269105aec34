"""LongMemEval_S session retrieval (``shared/bench/README.md``, upstream ``eval_utils.py``).

1. Each question has its own haystack, indexed in a fresh memory space. How sessions become
   memories is the system's choice; :func:`build_memories` offers the granularities of
   :data:`GRANULARITIES`. A session id listed twice in a haystack is indexed twice.
2. The system ranks its memories for the question text; the session ranking is the order in
   which haystack sessions first appear in that list (:func:`session_ranking`).
3. Gold: ``answer_session_ids``; abstention questions (``_abs``) are excluded.
4. recall_any@k, recall_all@k and ndcg_any@k (binary relevance) for k = 1, 5, 10, overall
   and per question type. Sessions are judged by id, so both copies of a duplicated
   session id count as that id (and as relevant, if it is gold).
"""

from __future__ import annotations

import json
import lzma
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.retrieval import metrics

__all__ = [
    "GRANULARITIES",
    "KS",
    "Item",
    "Message",
    "Session",
    "SessionMemory",
    "aggregate",
    "build_memories",
    "eligible_items",
    "item_from_json",
    "load_items",
    "message_text",
    "parse_date",
    "score_item",
    "session_ranking",
]

#: The cut-offs reported.
KS = (1, 5, 10)
#: ``session``: one memory per session, every turn as ``role: content``, one per line;
#: ``session_user``: the same with the user turns only; ``turn``: one memory per turn;
#: ``user_turn``: one memory per user turn; ``round``: a user turn with the assistant turn
#: right after it (an assistant turn with no user turn before it stands alone).
GRANULARITIES = ("session", "session_user", "turn", "user_turn", "round")

_DATE = re.compile(r"\s*(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})\s*")


@dataclass(frozen=True)
class Message:
    """One turn of a haystack session."""

    role: str
    content: str
    has_answer: bool = False


@dataclass(frozen=True)
class Session:
    """A haystack session at ``position`` (its index in the haystack, duplicates distinct)."""

    position: int
    session_id: str
    date: str
    at: datetime | None
    turns: tuple[Message, ...]


@dataclass(frozen=True)
class Item:
    """One question with its haystack."""

    question_id: str
    question_type: str
    question: str
    question_date: str
    answer_session_ids: tuple[str, ...]
    sessions: tuple[Session, ...]

    @property
    def is_abstention(self) -> bool:
        return self.question_id.endswith("_abs")

    @property
    def haystack_ids(self) -> tuple[str, ...]:
        """The session ids in haystack order, duplicates kept."""
        return tuple(session.session_id for session in self.sessions)


@dataclass(frozen=True)
class SessionMemory:
    """One memory built from a haystack: its text and the session (position) it comes from."""

    doc_id: str
    session_position: int
    text: str
    at: datetime | None


# --------------------------------------------------------------------------- loading


def parse_date(raw: object) -> datetime | None:
    """``"2023/04/25 (Tue) 04:07"`` as a UTC datetime; ``None`` if absent or unreadable."""
    if not isinstance(raw, str):
        return None
    match = _DATE.fullmatch(raw)
    if not match:
        return None
    year, month, day, hour, minute = (int(part) for part in match.groups())
    try:
        return datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError:
        return None


def item_from_json(raw: Mapping[str, Any]) -> Item:
    """An :class:`Item` from one upstream JSON object."""
    ids = list(raw["haystack_session_ids"])
    dates = list(raw.get("haystack_dates") or [""] * len(ids))
    bodies = list(raw["haystack_sessions"])
    if not len(ids) == len(dates) == len(bodies):
        raise ValueError(
            f"{raw.get('question_id')}: {len(ids)} session ids, {len(dates)} dates, "
            f"{len(bodies)} sessions"
        )
    sessions = tuple(
        Session(
            position=position,
            session_id=str(session_id),
            date=str(date),
            at=parse_date(date),
            turns=tuple(
                Message(
                    role=str(turn["role"]),
                    content=str(turn["content"]),
                    has_answer=bool(turn.get("has_answer", False)),
                )
                for turn in body
            ),
        )
        for position, (session_id, date, body) in enumerate(zip(ids, dates, bodies, strict=True))
    )
    return Item(
        question_id=str(raw["question_id"]),
        question_type=str(raw["question_type"]),
        question=str(raw["question"]),
        question_date=str(raw.get("question_date", "")),
        answer_session_ids=tuple(str(s) for s in raw["answer_session_ids"]),
        sessions=sessions,
    )


def load_items(path: Path) -> tuple[Item, ...]:
    """Every item of a LongMemEval file: JSON lines or one JSON list, ``.xz`` or plain."""
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        text = handle.read()
    stripped = text.lstrip()
    if stripped.startswith("["):
        raws: Iterable[Mapping[str, Any]] = json.loads(stripped)
    else:
        # split on "\n" only: str.splitlines would also cut at U+2028 inside strings
        raws = (json.loads(line) for line in text.split("\n") if line.strip())
    return tuple(item_from_json(raw) for raw in raws)


def eligible_items(items: Iterable[Item]) -> tuple[Item, ...]:
    """The scored items: abstention questions (``_abs``) excluded, order kept."""
    return tuple(item for item in items if not item.is_abstention)


# --------------------------------------------------------------------------- memories


def message_text(message: Message) -> str:
    """A turn as memory text: ``"<role>: <content>"``."""
    return f"{message.role}: {message.content}"


def build_memories(item: Item, granularity: str) -> list[SessionMemory]:
    """The memories of an item's haystack at ``granularity`` (see :data:`GRANULARITIES`).

    Memories whose text would be blank (an empty session, an empty turn) are left out. Doc
    ids are ``"<position>"`` for session memories and ``"<position>:<n>"`` otherwise.
    """
    if granularity not in GRANULARITIES:
        raise ValueError(f"granularity must be one of {', '.join(GRANULARITIES)}")
    memories: list[SessionMemory] = []
    for session in item.sessions:
        groups = _groups(session.turns, granularity)
        for number, group in enumerate(groups):
            if not any(message.content.strip() for message in group):
                continue
            text = "\n".join(message_text(message) for message in group)
            doc_id = (
                str(session.position)
                if granularity.startswith("session")
                else f"{session.position}:{number}"
            )
            memories.append(SessionMemory(doc_id, session.position, text, session.at))
    return memories


def _groups(turns: Sequence[Message], granularity: str) -> list[list[Message]]:
    if granularity == "session":
        return [list(turns)]
    if granularity == "session_user":
        return [[m for m in turns if m.role == "user"]]
    if granularity == "turn":
        return [[m] for m in turns]
    if granularity == "user_turn":
        return [[m] for m in turns if m.role == "user"]
    rounds: list[list[Message]] = []
    for message in turns:
        if message.role == "user" or not rounds or len(rounds[-1]) == 2:
            rounds.append([message])
        elif rounds[-1][0].role == "user":
            rounds[-1].append(message)
        else:
            rounds.append([message])
    return rounds


def session_ranking(ranked_doc_ids: Iterable[str], memories: Sequence[SessionMemory]) -> list[int]:
    """Haystack positions in the order their sessions first appear among ``ranked_doc_ids``."""
    position_of = {memory.doc_id: memory.session_position for memory in memories}
    order: list[int] = []
    seen: set[int] = set()
    for doc_id in ranked_doc_ids:
        try:
            position = position_of[doc_id]
        except KeyError:
            raise ValueError(f"ranked id {doc_id!r} is no memory of this haystack") from None
        if position not in seen:
            seen.add(position)
            order.append(position)
    return order


# --------------------------------------------------------------------------- scoring


def score_item(
    item: Item, ranked_positions: Sequence[int], ks: Sequence[int] = KS
) -> dict[str, float]:
    """recall_any@k, recall_all@k and ndcg_any@k of a session ranking (haystack positions)."""
    ranked_ids = [item.sessions[position].session_id for position in ranked_positions]
    gold = item.answer_session_ids
    corpus = item.haystack_ids
    scores: dict[str, float] = {}
    for k in ks:
        scores[f"recall_any@{k}"] = metrics.recall_any(ranked_ids, gold, k)
        scores[f"recall_all@{k}"] = metrics.recall_all(ranked_ids, gold, k)
        scores[f"ndcg_any@{k}"] = metrics.ndcg_any(ranked_ids, gold, corpus, k)
    return scores


def aggregate(
    items: Sequence[Item], rows: Sequence[Mapping[str, float]]
) -> dict[str, dict[str, float]]:
    """Plain means overall (key ``"overall"``) and per question type (sorted by name)."""
    result = {"overall": metrics.summarize(rows)}
    per_type = metrics.mean_by_group(rows, [item.question_type for item in items])
    for name in sorted(per_type):
        result[name] = per_type[name]
    return result
