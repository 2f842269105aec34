"""Chat conversations read from an assistant's export, as the transcripts ingest reads.

``embornal import chatgpt|claude FILE`` (decision 0145) reads each conversation of the
export (:mod:`embornal.adapters.importers.conversations`) into a :class:`Conversation`;
:func:`transcripts` writes it as ``User: …`` / ``Assistant: …`` lines, the transcript form
:mod:`embornal.domain.proposals.ingest` drafts memories from (an assistant's turns give context and
are never drafted). A conversation longer than one ingest may read is cut into parts at
turn boundaries (a single turn longer than a part, at a line). Pure: no I/O.
"""

from __future__ import annotations

from embornal.domain.records import record

__all__ = ["PART_CHARS", "ChatTurn", "Conversation", "label_of", "transcripts"]

#: The most characters of one transcript part (ingest reads at most a million).
PART_CHARS = 400_000
_SPEAKERS = {"user": "User", "assistant": "Assistant"}


@record
class ChatTurn:
    """One message: who said it (``user`` or ``assistant``), its text, and when (ISO-8601
    UTC, or None when the export has no time)."""

    role: str
    text: str
    at: str | None = None


@record
class Conversation:
    """One conversation of an export: its title, when it began, its turns in order, and
    where it is in the file (``conversation 3``) for messages."""

    title: str
    created_at: str | None
    turns: tuple[ChatTurn, ...]
    where: str


def label_of(conversation: Conversation) -> str:
    """The source name ingest keeps with each memory's evidence: the title and the day."""
    day = f" ({conversation.created_at[:10]})" if conversation.created_at else ""
    title = " ".join(conversation.title.split())[: 190 - len(day)] or "untitled"
    return title + day


def _lines(turn: ChatTurn) -> list[str]:
    who = _SPEAKERS[turn.role]
    return [f"{who}: {line.strip()}" for line in turn.text.splitlines() if line.strip()]


def transcripts(conversation: Conversation, part_chars: int = PART_CHARS) -> list[str]:
    """The conversation as transcript text, in parts of at most ``part_chars`` characters
    (none: no turn holds text)."""
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for turn in conversation.turns:
        lines = [line[:part_chars] for line in _lines(turn)]
        length = sum(len(line) + 1 for line in lines)
        if current and size + length > part_chars:
            parts.append("\n".join(current))
            current, size = [], 0
        for line in lines:
            if current and size + len(line) + 1 > part_chars:
                parts.append("\n".join(current))
                current, size = [], 0
            current.append(line)
            size += len(line) + 1
    if current:
        parts.append("\n".join(current))
    return parts
