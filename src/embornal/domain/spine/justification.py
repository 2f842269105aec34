"""The justification spine: why a memory deserves to exist (docs/model.md, The spine).

Every memory, whatever its kind, carries: ``source`` (:class:`Provenance`), ``evidence``
(append-only :class:`EvidenceRef` values), ``confidence`` (see
:mod:`embornal.domain.spine.confidence`), ``last_confirmed_at``, ``importance``
(:class:`Importance`), ``lifetime`` (:class:`Lifetime`) and ``visibility``
(:class:`Visibility`). The values here are pure and check themselves when built; the
``parse_…`` functions read the text forms a caller types (``until:2027-01-01``,
``restricted:alice,bob``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum

from embornal.domain.events.base import ActorKind
from embornal.domain.facts.tags import check_subject
from embornal.domain.uris import uri_problem
from embornal.domain.values import value
from embornal.errors import (
    InvalidEvidence,
    InvalidImportance,
    InvalidInput,
    InvalidLifetime,
    InvalidSubject,
    InvalidVisibility,
)

__all__ = [
    "DEFAULT_LIFETIME",
    "DEFAULT_VISIBILITY",
    "MAX_EVIDENCE_NOTE",
    "MAX_EVIDENCE_VALUE",
    "MAX_SOURCE_LABEL",
    "EvidenceRef",
    "EvidenceType",
    "Importance",
    "Lifetime",
    "LifetimePolicy",
    "Provenance",
    "Visibility",
    "VisibilityLevel",
    "append_evidence",
    "as_visibility",
    "carried_visibility",
    "check_lifetime",
    "check_source_label",
    "check_weight",
    "parse_evidence",
    "parse_lifetime",
    "parse_visibility",
    "read_lifetime",
    "stored_visibility",
]

MAX_EVIDENCE_VALUE = 8_192
MAX_EVIDENCE_NOTE = 2_000
MAX_SOURCE_LABEL = 128


def _choices(vocabulary: type[StrEnum]) -> str:
    return ", ".join(m.value for m in vocabulary)


def _member(vocabulary: type[StrEnum], value: str, what: str, error: type[InvalidInput]) -> StrEnum:
    """The member of ``vocabulary`` that ``value`` is (or names); ``error`` naming the
    choices when it is none."""
    try:
        return vocabulary(value)
    except ValueError:
        raise error(f"{what} {str(value)[:40]!r} is not one of: {_choices(vocabulary)}") from None


def _clean_text(raw: object, what: str, limit: int, error: type[InvalidInput]) -> str:
    if not isinstance(raw, str):
        raise error(f"{what} must be text, not {type(raw).__name__}")
    text = raw.strip()
    if not text:
        raise error(f"{what} is empty")
    if len(text) > limit:
        raise error(f"{what} is over {limit:,} characters")
    if "\x00" in text:
        raise error(f"{what} holds a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise error(f"{what} is not valid Unicode text") from e
    return text


# -- source ------------------------------------------------------------------------------


@value
class Provenance:
    """Who put this here: the subject, the kind of actor, and a ``label`` naming the client
    or session (``claude-desktop``, ``import:notion``, ``s-42``): optional, one short line
    of printable text. Subject and actor kind are the envelope's of the fact's
    ``FactStored``; the label is its ``source`` (decision 0037)."""

    subject: str
    actor_kind: ActorKind
    label: str | None = None

    def __post_init__(self) -> None:
        check_subject(self.subject)
        kind = _member(ActorKind, self.actor_kind, "actor kind", InvalidInput)
        object.__setattr__(self, "actor_kind", kind)
        if self.label is not None:
            object.__setattr__(self, "label", check_source_label(self.label))

    def to_payload(self) -> dict[str, object]:
        out: dict[str, object] = {"subject": self.subject, "actor_kind": self.actor_kind.value}
        if self.label is not None:
            out["label"] = self.label
        return out


def check_source_label(label: object) -> str:
    """A source label: text of at most :data:`MAX_SOURCE_LABEL` characters, printable."""
    text = _clean_text(label, "the source label", MAX_SOURCE_LABEL, InvalidInput)
    if not text.isprintable():
        raise InvalidInput(
            "the source label holds a control character",
            hint="Give one short line, e.g. --source claude-desktop",
        )
    return text


# -- evidence ----------------------------------------------------------------------------


class EvidenceType(StrEnum):
    QUOTE = "quote"
    URI = "uri"
    CONVERSATION = "conversation"
    DOCUMENT = "document"
    OBSERVATION = "observation"


@value
class EvidenceRef:
    """What supports a memory: "EvidenceRef = (evidence_type: quote·uri·conversation·
    document·observation, value, note?). Evidence is never edited or removed — corrections
    add new evidence." ``type`` may be given as its text."""

    type: EvidenceType
    value: str
    note: str | None = None

    def __post_init__(self) -> None:
        raw = self.type
        try:
            kind = EvidenceType(raw.strip().lower() if isinstance(raw, str) else raw)
        except ValueError:
            raise InvalidEvidence(
                f"evidence type {str(raw)[:40]!r} is not one of: {_choices(EvidenceType)}",
                hint=f"Use one of: {_choices(EvidenceType)}.",
            ) from None
        object.__setattr__(self, "type", kind)
        value = _clean_text(self.value, "the evidence value", MAX_EVIDENCE_VALUE, InvalidEvidence)
        if kind is EvidenceType.URI:
            problem = uri_problem(value)
            if problem is not None:
                raise InvalidEvidence(
                    f"uri evidence {value[:60]!r} {problem}",
                    hint="Give a URI with its scheme, e.g. https://example.org/page",
                )
        object.__setattr__(self, "value", value)
        if self.note is not None:
            note = _clean_text(self.note, "the evidence note", MAX_EVIDENCE_NOTE, InvalidEvidence)
            object.__setattr__(self, "note", note)

    def to_payload(self) -> dict[str, object]:
        out: dict[str, object] = {"type": self.type.value, "value": self.value}
        if self.note is not None:
            out["note"] = self.note
        return out

    @classmethod
    def from_payload(cls, payload: dict[str, object]) -> EvidenceRef:
        note = payload.get("note")
        return cls(
            EvidenceType(str(payload["type"])),
            str(payload["value"]),
            None if note is None else str(note),
        )


def parse_evidence(evidence: object, note: object = None) -> EvidenceRef:
    """An :class:`EvidenceRef`, its text form ``type:value`` (``quote:she said so``,
    ``uri:https://example.org``) with ``note``, or a mapping of ``type``, ``value`` and
    an optional ``note`` (as JSON gives it); ``InvalidEvidence`` otherwise."""
    if isinstance(evidence, EvidenceRef):
        if note is None:
            return evidence
        return EvidenceRef(evidence.type, evidence.value, note)  # type: ignore[arg-type]
    if isinstance(evidence, Mapping):
        unknown = sorted(set(evidence) - {"type", "value", "note"})
        kind, value = evidence.get("type"), evidence.get("value")
        if unknown or not isinstance(kind, str) or not isinstance(value, str):
            raise InvalidEvidence(
                'evidence as an object is {"type": …, "value": …, "note": …}'
                + (f", not {unknown[0]!r}" if unknown else ""),
            )
        given = evidence.get("note", note)
        if given is not None and not isinstance(given, str):
            raise InvalidEvidence("an evidence note is text")
        return EvidenceRef(kind, value, given)  # type: ignore[arg-type]  # checked when built
    if not isinstance(evidence, str):
        raise InvalidEvidence(
            f"evidence is an EvidenceRef or text like quote:…, not {type(evidence).__name__}"
        )
    head, sep, rest = evidence.strip().partition(":")
    if not sep:
        raise InvalidEvidence(
            f"evidence {evidence[:40]!r} has no type; write TYPE:VALUE, e.g. quote:…",
            hint=f"Use one of: {_choices(EvidenceType)}.",
        )
    return EvidenceRef(head, rest, note)  # type: ignore[arg-type]  # checked when built


def append_evidence(evidence: tuple[EvidenceRef, ...], new: EvidenceRef) -> tuple[EvidenceRef, ...]:
    """The evidence list with ``new`` at the end: append-only, nothing edited or dropped."""
    return (*evidence, new)


def _policy_text(
    text: object, what: str, allowed: str, refuse: type[InvalidInput]
) -> tuple[str, str, str]:
    """A lifetime's or a visibility's text, ``word`` or ``word:argument`` (``allowed`` names
    them): the text stripped, its word in lower case and what follows the first ``:``
    ('' for none); ``refuse`` when it is no text or blank."""
    if not isinstance(text, str) or not text.strip():
        raise refuse(f"a {what} is one of: {allowed}")
    raw = text.strip()
    head, _, rest = raw.partition(":")
    return raw, head.strip().lower(), rest


# -- lifetime ----------------------------------------------------------------------------


class LifetimePolicy(StrEnum):
    PERMANENT = "permanent"
    STANDARD = "standard"
    UNTIL = "until"
    EPHEMERAL = "ephemeral"


@value
class Lifetime:
    """How long a memory should live (docs/model.md, Lifecycle): "permanent (never
    auto-archived: pins, identity-level facts) · standard (subject to decay, the default) ·
    until (explicit expiry date) · ephemeral (auto-archive after the kind's short horizon)".

    ``until`` is inclusive: the memory lives through that UTC day. Building one with a past
    date is allowed (history is read back as written); :func:`parse_lifetime` refuses it.
    """

    policy: LifetimePolicy
    until: date | None = None

    def __post_init__(self) -> None:
        policy = _member(LifetimePolicy, self.policy, "lifetime", InvalidLifetime)
        object.__setattr__(self, "policy", policy)
        if self.policy is LifetimePolicy.UNTIL:
            if not isinstance(self.until, date) or isinstance(self.until, datetime):
                raise InvalidLifetime("an until lifetime needs a date, e.g. until:2027-01-01")
        elif self.until is not None:
            raise InvalidLifetime(f"a {self.policy} lifetime has no date")

    @property
    def expires_at(self) -> datetime | None:
        """For ``until``: the first moment after the last day (midnight UTC)."""
        if self.until is None:
            return None
        return datetime(self.until.year, self.until.month, self.until.day, tzinfo=UTC) + timedelta(
            days=1
        )

    def __str__(self) -> str:
        return f"until:{self.until.isoformat()}" if self.until is not None else self.policy.value


DEFAULT_LIFETIME = Lifetime(LifetimePolicy.STANDARD)


def parse_lifetime(text: object, *, now: datetime) -> Lifetime:
    """``permanent``, ``standard``, ``ephemeral`` or ``until:YYYY-MM-DD`` (today or later)."""
    allowed = "permanent, standard, ephemeral, until:YYYY-MM-DD"
    raw, word, rest = _policy_text(text, "lifetime", allowed, InvalidLifetime)
    if word == LifetimePolicy.UNTIL:
        try:
            day = date.fromisoformat(rest.strip())
        except ValueError:
            raise InvalidLifetime(
                f"lifetime {raw[:40]!r} has no date; write until:YYYY-MM-DD"
            ) from None
        today = now.astimezone(UTC).date()
        if day < today:
            raise InvalidLifetime(
                f"lifetime {raw[:40]!r} is in the past (today is {today.isoformat()})",
                hint="Give a date from today on, or archive the memory instead.",
            )
        return Lifetime(LifetimePolicy.UNTIL, day)
    if ":" in raw or word not in {p.value for p in LifetimePolicy}:
        raise InvalidLifetime(f"lifetime {raw[:40]!r} is not one of: {allowed}")
    return Lifetime(LifetimePolicy(word))


def read_lifetime(text: str | None) -> Lifetime:
    """The lifetime a log or projection holds as text (None: standard); a past ``until``
    reads back as written."""
    if text is None:
        return DEFAULT_LIFETIME
    head, _, rest = text.partition(":")
    if head == LifetimePolicy.UNTIL:
        return Lifetime(LifetimePolicy.UNTIL, date.fromisoformat(rest))
    return Lifetime(LifetimePolicy(head))


def check_lifetime(value: object, *, now: datetime) -> Lifetime:
    """A :class:`Lifetime` or its text form, refused (``InvalidLifetime``) when unknown or
    when an ``until`` date is before today (UTC) at ``now``."""
    if isinstance(value, Lifetime):
        value = str(value)
    return parse_lifetime(value, now=now)


def check_weight(value: object) -> float:
    """A user weight: a number from 0 to 1 (``InvalidImportance`` otherwise)."""
    if isinstance(value, str):
        text = value
        try:
            value = float(text)
        except ValueError:
            raise InvalidImportance(
                f"the user weight {text[:40]!r} is not a number from 0 to 1"
            ) from None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise InvalidImportance("the user weight must be a number from 0 to 1")
    weight = Importance(user_weight=value).user_weight
    assert weight is not None
    return weight


# -- visibility --------------------------------------------------------------------------


class VisibilityLevel(StrEnum):
    SHARED = "shared"
    PRIVATE = "private"
    RESTRICTED = "restricted"


@value
class Visibility:
    """Who may recall a memory: "shared (default — any connected assistant may recall),
    private (only surfaces in the dashboard/CLI, never to assistants), restricted
    (allow-listed actors; the allow-list is an attribute of the restriction, checked at
    recall time)". ``allow`` is sorted and without repeats."""

    level: VisibilityLevel
    allow: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        level = _member(VisibilityLevel, self.level, "visibility", InvalidVisibility)
        object.__setattr__(self, "level", level)
        if isinstance(self.allow, str) or not isinstance(self.allow, tuple | list):
            raise InvalidVisibility("the allow-list is a list of subject names")
        if self.level is VisibilityLevel.RESTRICTED:
            if not self.allow:
                raise InvalidVisibility(
                    "restricted visibility needs an allow-list, e.g. restricted:alice,bob"
                )
            subjects = set()
            for name in self.allow:
                try:
                    subjects.add(check_subject(name))
                except InvalidSubject as e:
                    raise InvalidVisibility(f"in the allow-list: {e.message}") from e
            object.__setattr__(self, "allow", tuple(sorted(subjects)))
        elif self.allow:
            raise InvalidVisibility(f"{self.level} visibility has no allow-list")

    def __str__(self) -> str:
        if self.level is VisibilityLevel.RESTRICTED:
            return f"restricted:{','.join(self.allow)}"
        return self.level.value


DEFAULT_VISIBILITY = Visibility(VisibilityLevel.SHARED)


def parse_visibility(text: object) -> Visibility:
    """``shared``, ``private`` or ``restricted:alice,bob``."""
    allowed = "shared, private, restricted:<subject>,<subject>"
    raw, word, rest = _policy_text(text, "visibility", allowed, InvalidVisibility)
    if word == VisibilityLevel.RESTRICTED:
        names = tuple(n.strip() for n in rest.split(",") if n.strip())
        return Visibility(VisibilityLevel.RESTRICTED, names)
    if ":" in raw or word not in {v.value for v in VisibilityLevel}:
        raise InvalidVisibility(f"visibility {raw[:40]!r} is not one of: {allowed}")
    return Visibility(VisibilityLevel(word))


def as_visibility(value: object) -> Visibility:
    """A :class:`Visibility`, or one read from its text form."""
    return value if isinstance(value, Visibility) else parse_visibility(value)


def stored_visibility(text: str | None) -> str | None:
    """The stored form of a visibility's text: None for shared (the default)."""
    return None if text is None or text == VisibilityLevel.SHARED.value else text


def carried_visibility(text: str | None, old_owner: str, new_owner: str) -> str | None:
    """The visibility of a correction (stored form): the same as the corrected fact's, so
    those who saw it see the correction; a restricted fact's old owner joins the
    allow-list when another subject corrects it."""
    if text is None or new_owner == old_owner:
        return text
    seen = parse_visibility(text)
    if seen.level is VisibilityLevel.RESTRICTED:
        return str(Visibility(VisibilityLevel.RESTRICTED, (*seen.allow, old_owner)))
    return text


# -- importance --------------------------------------------------------------------------


@value
class Importance:
    """The stored importance signals: a pin and an explicit user weight (0..1) or none.
    (Access history is the third signal; it lives in the recall events.)"""

    pinned: bool = False
    user_weight: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.pinned, bool):
            raise InvalidImportance("pinned must be true or false")
        weight = self.user_weight
        if weight is not None:
            if isinstance(weight, bool) or not isinstance(weight, int | float):
                raise InvalidImportance("the user weight must be a number from 0 to 1")
            if not 0.0 <= float(weight) <= 1.0:
                raise InvalidImportance(f"the user weight {weight!r} is outside 0..1")
            object.__setattr__(self, "user_weight", float(weight))
