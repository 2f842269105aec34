"""Drafts of memories read out of a conversation or a note, by rules (no model).

``embornal ingest`` turns text into *proposed* memories (decision 0068): nothing here
writes; a draft becomes a fact only when a proposal that holds it is approved. Each draft
carries the line it came from as evidence (``conversation`` for a transcript, ``document``
for a note) and the names it mentions, which the service resolves to known entities for
``about`` links.

The rules, in the order they are tried on each sentence (a draft per sentence at most):

1. an explicit request: "remember that …", "remember: …", "note to self: …", "don't
   forget (that) …", 记住 / 请记住 / 别忘了 … → a ``fact`` of what follows;
2. a ``key: value`` line of a note (not a speaker's turn): an email address or phone
   number → a ``contact``; anything else → a ``fact`` "key: value";
3. a like, dislike, want, avoid or preference in the first person ("I prefer …", "I
   don't like …", 我喜欢 …) → a ``preference`` with its polarity;
4. a sentence with a date (ISO ``2026-05-03``, "May 3, 2026", "3 May 2026", "on May 3",
   "yesterday", "tomorrow", "last Monday") → an ``event`` that occurred then, resolved
   against ``now`` (the time of the conversation);
5. a first-person statement ("I …", "my …", "we …", "our …", 我 …) of three words or more
   → a ``fact``; in a note, any statement of three words or more (the writer's own).

A date on or before ``now`` is when the event occurred (``occurred_at``), a later one when
it starts (``start_at``).

Questions, greetings and turns of the assistant are not drafted (what an assistant says is
not evidence of the user's world). Names: runs of capitalised words that do not start a
sentence, and the speakers of a transcript, minus the pronouns and the calendar words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from embornal.domain.spine.justification import EvidenceRef, EvidenceType

__all__ = ["Draft", "SourceText", "extract_rules", "split_turns"]

#: The longest draft content (a sentence longer than this is cut at a word).
MAX_DRAFT_CHARS = 2_000


@dataclass(frozen=True)
class Draft:
    """One proposed memory: what to store, of which kind, and what supports it."""

    content: str
    kind: str = "fact"
    attributes: dict[str, Any] = field(default_factory=dict)
    evidence: tuple[EvidenceRef, ...] = ()
    mentions: tuple[str, ...] = ()
    line: int = 0  # 1-based line of the source it came from
    rule: str = ""  # which rule drafted it (shown in the proposal)


@dataclass(frozen=True)
class SourceText:
    """The text to read, with a name for the evidence (a file name, "stdin")."""

    text: str
    name: str = "input"


@dataclass(frozen=True)
class Turn:
    line: int
    speaker: str | None  # None: a line of a note
    text: str


_SPEAKER = re.compile(
    r"^\s*(?:\[[^\]]{0,40}\]\s*)?([A-Za-z][\w .'-]{0,30}|[\u4e00-\u9fff]{1,6})\s*[:：]\s+(.*\S)\s*$"
)
_ASSISTANT = {"assistant", "ai", "bot", "system", "助手", "agent", "model"}
_USER = {"user", "me", "human", "用户", "我"}
_KEY_VALUE = re.compile(r"^\s*[-*]?\s*([A-Za-z][\w ]{0,30}?)\s*:\s+(\S.*?)\s*$")
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_PHONE = re.compile(r"^\+?[\d][\d ()./-]{5,}\d$")


def split_turns(text: str) -> tuple[list[Turn], bool]:
    """The lines of ``text`` as turns, and whether it reads as a conversation (most of its
    non-empty lines are ``Speaker: text`` with a few distinct speakers)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    spoken = [(_SPEAKER.match(line), line) for line in lines]
    nonempty = [m for m, line in spoken if line.strip()]
    said = [m.group(1).strip().lower() for m in nonempty if m is not None]
    speakers = set(said)
    # Most lines are turns, of a few speakers, one of whom speaks twice or is a known
    # role; otherwise "Name: …" lines are the keys and values of a note.
    talk = (
        bool(nonempty)
        and len(said) * 2 > len(nonempty)
        and 1 <= len(speakers) <= 12
        and (len(speakers) < len(said) or bool(speakers & (_ASSISTANT | _USER)))
    )
    turns: list[Turn] = []
    for n, (m, line) in enumerate(spoken, start=1):
        if not line.strip():
            continue
        if talk and m is not None:
            turns.append(Turn(n, m.group(1).strip(), m.group(2).strip()))
        else:
            turns.append(Turn(n, None, line.strip()))
    return turns, talk


# -- the rules ------------------------------------------------------------------------

_EXPLICIT = re.compile(
    r"^(?:please\s+)?(?:remember(?:\s+that)?|note\s+to\s+self|don'?t\s+forget(?:\s+that)?|"
    r"keep\s+in\s+mind(?:\s+that)?)\s*[:,-]?\s+(.+)$",
    re.IGNORECASE,
)
_EXPLICIT_ZH = re.compile(r"^(?:请)?(?:记住|记得|别忘了|不要忘记)[:：,，\s]*(.+)$")
_PREFERENCE = (
    (
        re.compile(r"^i\s+(?:really\s+)?(?:don'?t|do\s+not)\s+(?:like|enjoy|want)\s+(.+)$", re.I),
        "dislikes",
    ),
    (re.compile(r"^i\s+(?:really\s+)?(?:hate|dislike|can'?t\s+stand)\s+(.+)$", re.I), "dislikes"),
    (
        re.compile(
            r"^i\s+(?:always\s+|usually\s+)?(?:avoid|never\s+(?:eat|drink|use))\s+(.+)$", re.I
        ),
        "avoids",
    ),
    (re.compile(r"^i\s+(?:really\s+)?prefer\s+(.+)$", re.I), "prefers"),
    (re.compile(r"^i\s+(?:really\s+)?(?:like|love|enjoy|adore)\s+(.+)$", re.I), "likes"),
    (re.compile(r"^i\s+(?:really\s+)?(?:want|would\s+like|wish)\s+(?:to\s+)?(.+)$", re.I), "wants"),
    (re.compile(r"^我(?:不喜欢|讨厌)(.+)$"), "dislikes"),
    (re.compile(r"^我(?:更)?(?:喜欢|爱)(.+)$"), "likes"),
    (re.compile(r"^我想(?:要)?(.+)$"), "wants"),
)
_FIRST_PERSON = re.compile(r"^(?:i|i'm|i've|i'd|i'll|my|we|we're|our|mine)\b", re.I)
_GREETING = re.compile(
    r"^(?:hi|hello|hey|thanks|thank you|ok|okay|sure|yes|no|bye|good (?:morning|night))\b", re.I
)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")

_MONTHS = {
    m: i
    for i, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for m in names
}
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_DAY = re.compile(
    rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?\b", re.I
)
_DAY_MONTH = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH_RE})\.?(?:,?\s+(\d{{4}}))?\b", re.I
)
_RELATIVE = re.compile(
    r"\b(yesterday|today|tomorrow|last\s+(" + "|".join(_WEEKDAYS) + r"))\b", re.I
)
_ZH_DATE = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]")

_NAME = re.compile(
    r"\b([A-Z][a-z]+(?:[-'][A-Z][a-z]+)?(?:\s+[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?){0,3})\b"
)
_NOT_NAMES = {
    "I",
    "I'm",
    "My",
    "We",
    "Our",
    "The",
    "A",
    "An",
    "It",
    "This",
    "That",
    "He",
    "She",
    "They",
    "You",
    "Your",
    "His",
    "Her",
    "Their",
    "Remember",
    "Note",
    "Please",
    "Yesterday",
    "Today",
    "Tomorrow",
    "Last",
    "Next",
    "And",
    "But",
    "Or",
    "So",
    "Then",
    "Also",
    "OK",
    "Okay",
    *(m.capitalize() for m in _MONTHS),
    *(d.capitalize() for d in _WEEKDAYS),
}


def extract_rules(source: SourceText, now: datetime) -> list[Draft]:
    """The drafts the rules find in ``source`` (see the module), in the order of the text;
    ``now`` resolves relative dates ("yesterday") and years left out."""
    turns, talk = split_turns(source.text)
    evidence_type = EvidenceType.CONVERSATION if talk else EvidenceType.DOCUMENT
    speakers = sorted(
        {t.speaker for t in turns if t.speaker and t.speaker.lower() not in _ASSISTANT | _USER}
    )
    out: list[Draft] = []
    seen: set[tuple[str, str]] = set()
    for turn in turns:
        if turn.speaker is not None and turn.speaker.lower() in _ASSISTANT:
            continue
        who = f"{turn.speaker}: " if turn.speaker else ""
        for sentence in _sentences(turn.text):
            draft = _draft(sentence, turn, now, talk)
            if draft is None:
                continue
            key = (draft.kind, draft.content.lower())
            if key in seen:
                continue
            seen.add(key)
            names = _names(sentence)
            if turn.speaker and turn.speaker in speakers:
                names = [turn.speaker, *names]
            note = f"line {turn.line} of {source.name}"
            proof = EvidenceRef(evidence_type, _cut(f"{who}{turn.text}"), note)
            out.append(
                Draft(
                    draft.content,
                    draft.kind,
                    draft.attributes,
                    (proof,),
                    tuple(dict.fromkeys(names)),
                    turn.line,
                    draft.rule,
                )
            )
    return out


def _sentences(text: str) -> list[str]:
    parts = [p.strip() for p in _SENTENCE.split(text) if p and p.strip()]
    return [p for p in parts if p]


def _draft(sentence: str, turn: Turn, now: datetime, talk: bool) -> Draft | None:
    body = sentence.strip().rstrip(".!。！")
    if not body or body.endswith(("?", "？")) or (_GREETING.match(body) and len(body) < 40):
        return None
    m = _EXPLICIT.match(body) or _EXPLICIT_ZH.match(body)
    if m:
        return _plain(_capital(m.group(1)), "explicit")
    if not talk and turn.speaker is None:
        kv = _KEY_VALUE.match(sentence)
        if kv and not kv.group(2).startswith("//"):
            key, value = kv.group(1).strip(), kv.group(2).strip().rstrip(".")
            return _key_value(key, value)
    for pattern, polarity in _PREFERENCE:
        p = pattern.match(body)
        if p and len(p.group(1).split()) <= 12:
            return Draft(
                _cut(_capital(body)), "preference", {"polarity": polarity}, rule="preference"
            )
    when = _date_in(body, now)
    if when is not None:
        moment = datetime(when.year, when.month, when.day, 12, tzinfo=UTC)
        field_name = "occurred_at" if when <= now.astimezone(UTC).date() else "start_at"
        return Draft(_cut(_capital(body)), "event", {field_name: moment}, rule="date")
    if (_FIRST_PERSON.match(body) and len(body.split()) >= 3) or (
        body.startswith("我") and len(body) >= 4
    ):
        return _plain(_capital(body), "first person")
    if turn.speaker is None and (len(body.split()) >= 3 or (_CJK.search(body) and len(body) >= 4)):
        return _plain(_capital(body), "statement")  # a note's sentence: the writer's own
    return None


def _plain(content: str, rule: str) -> Draft:
    return Draft(_cut(content), "fact", rule=rule)


def _key_value(key: str, value: str) -> Draft:
    label = key.lower()
    if _EMAIL.match(value):
        attrs = {"channel": "email", "value": value, "label": label}
        return Draft(f"{key}: {value}", "contact", attrs, rule="key: value")
    if _PHONE.match(value) and sum(c.isdigit() for c in value) >= 7:
        attrs = {"channel": "phone", "value": value, "label": label}
        return Draft(f"{key}: {value}", "contact", attrs, rule="key: value")
    return Draft(_cut(f"{key}: {value}"), "fact", rule="key: value")


def _date_in(text: str, now: datetime) -> date | None:
    today = now.astimezone(UTC).date()
    for pattern in (_ISO_DATE,):
        m = pattern.search(text)
        if m:
            return _safe_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = _MONTH_DAY.search(text)
    if m:
        year = int(m.group(3)) if m.group(3) else today.year
        return _safe_date(year, _MONTHS[m.group(1).lower()], int(m.group(2)))
    m = _DAY_MONTH.search(text)
    if m:
        year = int(m.group(3)) if m.group(3) else today.year
        return _safe_date(year, _MONTHS[m.group(2).lower()], int(m.group(1)))
    m = _ZH_DATE.search(text)
    if m:
        year = int(m.group(1)) if m.group(1) else today.year
        return _safe_date(year, int(m.group(2)), int(m.group(3)))
    m = _RELATIVE.search(text)
    if m:
        word = m.group(1).lower()
        if word == "yesterday":
            return today - timedelta(days=1)
        if word == "today":
            return today
        if word == "tomorrow":
            return today + timedelta(days=1)
        target = _WEEKDAYS.index(m.group(2).lower())
        back = (today.weekday() - target) % 7 or 7
        return today - timedelta(days=back)
    return None


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _names(sentence: str) -> list[str]:
    out: list[str] = []
    for m in _NAME.finditer(sentence):
        words = [w for w in m.group(1).split() if w not in _NOT_NAMES]
        if not words:
            continue
        start = m.start() + m.group(1).find(words[0])
        if start == len(sentence) - len(sentence.lstrip()) and len(words) == 1:
            continue  # one capitalised word that starts the sentence: any word
        out.append(" ".join(words))
    return out


def _capital(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] if text else text


def _cut(text: str) -> str:
    if len(text) <= MAX_DRAFT_CHARS:
        return text
    head = text[:MAX_DRAFT_CHARS]
    return head[: head.rfind(" ")] if " " in head else head
