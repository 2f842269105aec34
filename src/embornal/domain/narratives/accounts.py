"""Narrative accounts (docs/model.md, Narratives; decisions 0085, 0086), pure: an
account's versions folded from its stream, the inputs of ``narrate``, and whether a version
is usable.

Rules (memory-as-history's; the tests quote its words):

* ``narrate()`` "versions a synthesis per scope" — one account per (scope, perspective),
  each call a new version replacing the previous one;
* "A forgotten, missing, overdue or unsupported sensitive source makes its narrative
  unusable for default recall. Historical text remains available through explicit
  inspection; restoration/corroboration/source review cannot silently approve it." —
  a version is usable only when no dependency has a source issue now **and** none had one
  after the stream versions its approval (the narrate, or the last review) validated;
* "Sensitive synthesis itself requires nonempty, supported links." — a sensitive version
  needs dependencies, each meeting the corroboration gate;
* "Unlinked ordinary narratives remain compatible, with an explicit warning; links do not
  authenticate sources or prove entailment."

A link dependency is named ``SOURCE:relation:TARGET`` (the two fact ids and the relation's
canonical name, as ``memory links`` shows it): it is an issue when the link is taken off,
and its two ends are dependencies like memories.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import reduce
from typing import Any

from embornal.domain.events import Event
from embornal.domain.events.narratives import (
    NarrativeInvalidated,
    NarrativeReviewed,
    NarrativeVersioned,
)
from embornal.domain.history.protocol import INTERPRETATION, REVIEW_DAYS, gate_of, history_of
from embornal.errors import InvalidInput

__all__ = [
    "DEFAULT_PERSPECTIVE",
    "DEFAULT_SCOPE",
    "FORGOTTEN",
    "INSUFFICIENT",
    "LINK_MISSING",
    "MISSING",
    "STALE_INTERPRETATION",
    "UNLINKED_WARNING",
    "Account",
    "Issue",
    "Version",
    "account_stream",
    "check_label",
    "checked_pairs",
    "current_issues",
    "evolve_account",
    "fold_account",
    "format_link",
    "is_narrative_stream",
    "narrative_scope",
    "parse_checked",
    "parse_link",
    "source_issues",
    "state_issues",
]

DEFAULT_SCOPE = "default"
GLOBAL_SCOPE = "global"
"""Another name of the default account (memory-as-history's, whose narratives default to
``global``): one account under both names."""
DEFAULT_PERSPECTIVE = "default"
STREAM_PREFIX = "narrative:"
_MAX_LABEL = 200

# The issue codes (memory-as-history's names where it has them).
MISSING, FORGOTTEN = "missing", "forgotten"
STALE_INTERPRETATION, INSUFFICIENT = "stale_interpretation", "insufficient_corroboration"
LINK_MISSING = "link_missing"

UNLINKED_WARNING = (
    "unlinked narrative: it names no memory, link or claim, so nothing it says can be "
    "traced; links do not authenticate sources or prove entailment"
)


def check_label(value: object, name: str, default: str) -> str:
    """A scope or perspective label: trimmed, case kept, at most 200 characters (None:
    ``default``). A blank one is refused: a label given blank was meant to name one."""
    if value is None:
        return default
    if isinstance(value, str) and not value.strip():
        raise InvalidInput(
            f"a {name} is a non-blank label (got {value!r})",
            hint=f"Name the {name}, or leave it out for the default account.",
        )
    if not isinstance(value, str) or len(value.strip()) > _MAX_LABEL or "\x00" in value:
        raise InvalidInput(f"{name} must be a label of at most {_MAX_LABEL} characters")
    return value.strip()


def narrative_scope(value: object) -> str:
    """A narrative's scope label (None: the default account; ``global`` is that account
    too)."""
    scope = check_label(value, "scope", DEFAULT_SCOPE)
    return DEFAULT_SCOPE if scope == GLOBAL_SCOPE else scope


def account_stream(scope: str, perspective: str) -> str:
    """The stream of the account of ``scope`` from ``perspective`` (one per pair, so two
    first versions of one account race on one stream)."""
    import hashlib  # off the path of memory recall

    digest = hashlib.sha256(f"{scope}\x1f{perspective}".encode()).hexdigest()[:26]
    return STREAM_PREFIX + digest


def is_narrative_stream(stream_id: str) -> bool:
    return stream_id.startswith(STREAM_PREFIX)


def parse_link(text: object) -> tuple[str, str, str]:
    """``(source, relation, target)`` of a link id ``SOURCE:relation:TARGET``."""
    parts = text.strip().split(":") if isinstance(text, str) else []
    if len(parts) != 3 or not all(p.strip() for p in parts):
        raise InvalidInput(
            f"a link id is SOURCE:relation:TARGET (got {text!r})",
            hint="Take it from memory_links(memory_id), e.g. 01J...:derived_from:01K...",
        )
    return parts[0].strip(), parts[1].strip(), parts[2].strip()


def format_link(source: str, relation: str, target: str) -> str:
    return f"{source}:{relation}:{target}"


def checked_pairs(versions: Mapping[str, int]) -> tuple[str, ...]:
    """``checked`` as the events store it: ``<fact id>@<version>``, sorted."""
    return tuple(f"{k}@{v}" for k, v in sorted(versions.items()))


def parse_checked(pairs: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for pair in pairs:
        fact_id, _, version = pair.rpartition("@")
        out[fact_id] = int(version)
    return out


# -- the account -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Version:
    """One version of an account. ``approved_at`` / ``checked``: the narrate's, or the last
    review's (``reviewed_at``, ``review_note``). ``invalidated``: its loss of usability
    has been recorded since (``NarrativeInvalidated``, decision 0142)."""

    narrative_id: str
    number: int
    scope: str
    perspective: str
    content: str | None
    coverage: str | None
    sensitive: bool
    screened: tuple[str, ...]
    memory_ids: tuple[str, ...]
    link_ids: tuple[str, ...]
    claim_ids: tuple[str, ...]
    checked: Mapping[str, int] = field(hash=False)
    recorded_at: datetime
    actor: str
    reason: str | None
    position: int
    replaces: str | None = None
    approved_at: datetime | None = None
    reviewed_at: datetime | None = None
    review_note: str | None = None
    invalidated: bool = False

    @property
    def linked(self) -> bool:
        return bool(self.memory_ids or self.link_ids or self.claim_ids)

    def fact_ids(self) -> tuple[str, ...]:
        """Every fact it depends on: its memories and both ends of its links."""
        out = list(self.memory_ids)
        for link in self.link_ids:
            source, _, target = parse_link(link)
            out += [source, target]
        return tuple(dict.fromkeys(out))


@dataclass(frozen=True)
class Account:
    """An account's versions, oldest first; ``version`` its stream's."""

    stream_id: str
    scope: str
    perspective: str
    version: int
    versions: tuple[Version, ...]

    @property
    def current(self) -> Version:
        return self.versions[-1]

    def find(self, narrative_id: str) -> Version | None:
        return next((v for v in self.versions if v.narrative_id == narrative_id), None)


def evolve_account(account: Account | None, event: Event) -> Account:
    """The account after one more event of its stream."""
    body = event.body
    if isinstance(body, NarrativeVersioned):
        previous = account.versions if account is not None else ()
        v = Version(
            body.narrative_id,
            len(previous) + 1,
            body.scope,
            body.perspective,
            body.content,
            body.coverage,
            body.sensitive,
            body.screened,
            body.memory_ids,
            body.link_ids,
            body.claim_ids,
            parse_checked(body.checked),
            event.recorded_at,
            event.actor,
            event.reason,
            event.position,
            body.replaces,
            event.recorded_at,
        )
        return Account(event.stream_id, body.scope, body.perspective, event.version, (*previous, v))
    if account is None:
        raise ValueError(f"{event.type} before the narrative account was started")
    if isinstance(body, NarrativeReviewed):
        versions = tuple(
            replace(
                v,
                checked=parse_checked(body.checked),
                approved_at=event.recorded_at,
                reviewed_at=event.recorded_at,
                review_note=body.note,
                invalidated=False,
            )
            if v.narrative_id == body.narrative_id
            else v
            for v in account.versions
        )
        return replace(account, version=event.version, versions=versions)
    if isinstance(body, NarrativeInvalidated):
        versions = tuple(
            replace(v, invalidated=True) if v.narrative_id == body.narrative_id else v
            for v in account.versions
        )
        return replace(account, version=event.version, versions=versions)
    raise ValueError(f"{event.type} is not an event of a narrative account")


def fold_account(events: Iterable[Event]) -> Account | None:
    return reduce(evolve_account, events, None)


# -- source issues ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Issue:
    """A source issue of a version: ``ref`` the memory id or link id it is about, ``issue``
    its code, ``live`` whether it holds now (False: it held after the approval and has
    cleared since, which does not approve the version again), ``at`` when it arose (None:
    not known, e.g. a missing stream)."""

    ref: str
    issue: str
    live: bool
    at: datetime | None = None


def state_issues(state: Any, *, require_gate: bool) -> list[str]:
    """The issue codes of one dependency's state (a ``FactState``; None: no such fact)."""
    if state is None or state.status == "purged":
        return [MISSING]
    out = []
    if state.status == "forgotten":
        out.append(FORGOTTEN)
    h = history_of(state)
    if (h.sensitive or require_gate) and not gate_of(state).satisfied:
        out.append(INSUFFICIENT)
    if h.overdue and h.tier == INTERPRETATION:  # found overdue by due_for_review (0142)
        out.append(STALE_INTERPRETATION)
    return out


def current_issues(state: Any, now: datetime, *, require_gate: bool) -> list[str]:
    """The issue codes a dependency has now (an interpretation past its review window
    included): what ``narrate`` and ``review_narrative`` refuse."""
    out = state_issues(state, require_gate=require_gate)
    start = _clock_start(state) if state is not None else None
    overdue = start is not None and now - start > timedelta(days=REVIEW_DAYS)
    if overdue and STALE_INTERPRETATION not in out:
        out.append(STALE_INTERPRETATION)
    return out


def _clock_start(state: Any) -> datetime | None:
    h = history_of(state)
    if h.tier != INTERPRETATION:
        return None
    return h.reviewed_at or h.captured_at


def source_issues(
    fact_id: str,
    events: Sequence[Event],
    checked: int,
    now: datetime,
    *,
    require_gate: bool,
    links: Sequence[tuple[str, str, str]] = (),
) -> list[Issue]:
    """The issues of the dependency ``fact_id`` whose stream is ``events``, approved at
    stream version ``checked``: each that held at some event after ``checked`` (for an
    interpretation: at some moment after it, its review clock past 30 days), ``live``
    when it holds now. ``links``: the link dependencies whose source is this fact."""
    from embornal.domain.facts.aggregate import evolve

    window = timedelta(days=REVIEW_DAYS)
    found: dict[tuple[str, str], Issue] = {}

    def note(ref: str, code: str, at: datetime | None) -> None:
        found.setdefault((ref, code), Issue(ref, code, False, at))

    state: Any = None
    clock: datetime | None = None
    for event in events:
        state = evolve(state, event.body, event.actor_kind, event.recorded_at)
        if event.version <= checked:
            clock = _clock_start(state)
            continue
        for code in state_issues(state, require_gate=require_gate):
            note(fact_id, code, event.recorded_at)
        for link in links:
            if (link[1], link[2]) not in state.links:
                note(format_link(*link), LINK_MISSING, event.recorded_at)
        start = _clock_start(state)
        if clock is not None and start is not None and start != clock:
            if start - clock > window:  # it was overdue before this review
                note(fact_id, STALE_INTERPRETATION, clock + window)
            clock = start
    live = set(state_issues(state, require_gate=require_gate)) if events else {MISSING}
    if not events:
        note(fact_id, MISSING, None)
    if state is not None:
        start = _clock_start(state)
        if start is not None and now - start > window:
            live.add(STALE_INTERPRETATION)
            note(fact_id, STALE_INTERPRETATION, start + window)
        for link in links:
            if (link[1], link[2]) not in state.links:
                note(format_link(*link), LINK_MISSING, None)
    live_links = {
        format_link(*k) for k in links if state is None or (k[1], k[2]) not in state.links
    }
    for code in live:
        note(fact_id, code, None)
    return [
        replace(i, live=(i.issue in live if i.ref == fact_id else i.ref in live_links))
        for i in found.values()
    ]
