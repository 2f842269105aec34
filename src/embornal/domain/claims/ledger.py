"""The claims ledger (docs/model.md, Claims; decision 0081): a claim is an aggregate
of its own, in the stream ``claim:<id>``; pure state, ``evolve``/``fold`` and the decisions.

A claim is a **judgment about specific material**, kept apart from the material: a
statement of a type (``plan``, ``observation``, ``commitment``, ``self_report``…), given
evidence (a memory of the store or a source label, each with a stance), then adopted,
revised, superseded by a replacement or withdrawn, each with its reason. Adoption records
the judgment; it never certifies the statement true.

Two times, independent:

* **record time** (``as_of``): what the ledger held at T. ``fold(events, until=T)`` keeps
  the events recorded by T; the times of one stream never go back (each decision is
  recorded at the later of now and the stream's last time), so that view is a prefix of
  the stream and evidence recorded after T never enters it, whatever time it claims;
* **valid time** (``valid_at``): when the statement holds, ``[valid_from, valid_until)``
  as the caller declares it; a bound not given is unknown, and ``valid_at`` filters only
  on the bounds that are known.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum

from embornal.domain.events import DomainEvent, Event
from embornal.domain.events.claims import (
    ClaimAdopted,
    ClaimCreated,
    ClaimEvidenceAdded,
    ClaimEvidenceRetracted,
    ClaimRevised,
    ClaimSuperseded,
    ClaimWithdrawn,
)
from embornal.domain.history.provenance import Corroboration, Gate, clean_label, gate
from embornal.errors import InvalidInput, ProtocolViolation

__all__ = [
    "CLAIM_TYPES",
    "STANCES",
    "ClaimState",
    "ClaimStatus",
    "CreateClaim",
    "Evidence",
    "NewEvidence",
    "Revision",
    "choose_stance",
    "choose_type",
    "decide_adopt",
    "decide_create",
    "decide_evidence",
    "decide_replace",
    "decide_retract",
    "decide_revise",
    "decide_withdraw",
    "fold",
    "stream_of",
    "valid_at",
]

ID_PREFIX = "C"
CLAIM_TYPES = ("assertion", "observation", "plan", "commitment", "interpretation", "self_report")
_TYPE_ALIASES = {"self-report": "self_report", "selfreport": "self_report"}
STANCES = ("supports", "challenges", "context")
_STANCE_ALIASES = {
    "support": "supports",
    "supporting": "supports",
    "contradicts": "challenges",
    "contradict": "challenges",
    "challenge": "challenges",
    "refutes": "challenges",
    "contradicting": "challenges",
}
_CREATE_HINT = (
    "create_claim(statement, claim_type, reason) records a new judgment instead "
    "(`embornal claim create STATEMENT --type TYPE`)"
)


def stream_of(claim_id: str) -> str:
    return f"claim:{claim_id}"


class ClaimStatus(StrEnum):
    PROPOSED = "proposed"
    ADOPTED = "adopted"
    WITHDRAWN = "withdrawn"
    SUPERSEDED = "superseded"


def choose_type(raw: object) -> str:
    """A claim type as stored (``self-report`` is ``self_report``), or bad input naming them."""
    text = str(raw or "").strip().lower()
    text = _TYPE_ALIASES.get(text, text)
    if text not in CLAIM_TYPES:
        raise InvalidInput(
            f"claim_type must be one of {', '.join(CLAIM_TYPES)}, not {str(raw)[:40]!r}",
            hint='e.g. create_claim(statement="...", claim_type="plan", reason="...")',
        )
    return text


def choose_stance(raw: object) -> str:
    """A stance as stored (``contradicts`` is ``challenges``; none: ``supports``)."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return "supports"
    text = str(raw).strip().lower()
    text = _STANCE_ALIASES.get(text, text)
    if text not in STANCES:
        raise InvalidInput(
            f"stance must be one of {', '.join(STANCES)} (contradicts means challenges), "
            f"not {str(raw)[:40]!r}"
        )
    return text


@dataclass(frozen=True)
class Evidence:
    """One evidence association as recorded (``retracted_at``: None while active)."""

    evidence_id: str
    stance: str
    memory_id: str | None
    source: str | None
    note: str | None
    quote: str | None
    locator: str | None
    common_origin: str | None
    recorded_at: datetime
    recorded_by: str
    retracted_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.retracted_at is None


@dataclass(frozen=True)
class Decision:
    """One entry of the claim's history: what was done, when, by whom and why."""

    action: str
    recorded_at: datetime
    actor: str
    reason: str | None
    detail: str | None = None


@dataclass(frozen=True)
class ClaimState:
    """A claim as its stream (up to some record time) makes it."""

    claim_id: str
    version: int
    owner: str
    claim_type: str
    scope: str
    statement: str | None
    asserted_by: str | None
    statement_at: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None
    about: tuple[str, ...]
    sensitive: bool
    screened: tuple[str, ...]
    created_at: datetime
    last_at: datetime
    status: ClaimStatus = ClaimStatus.PROPOSED
    replaced_by: str | None = None
    replaces: str | None = None
    evidence: tuple[Evidence, ...] = ()
    history: tuple[Decision, ...] = ()
    adopted_at: datetime | None = None
    changed_since_adoption: bool = False
    revisions: int = 0
    redacted: bool = False

    @property
    def is_open(self) -> bool:
        return self.status in (ClaimStatus.PROPOSED, ClaimStatus.ADOPTED)

    @property
    def active_evidence(self) -> tuple[Evidence, ...]:
        return tuple(e for e in self.evidence if e.active)

    @property
    def supporting(self) -> tuple[Evidence, ...]:
        return tuple(e for e in self.active_evidence if e.stance == "supports")

    @property
    def review_required(self) -> bool:
        """Adopted, but its evidence changed since (or none supports it any more)."""
        return self.status is ClaimStatus.ADOPTED and (
            self.changed_since_adoption or not self.supporting
        )

    @property
    def eligible(self) -> bool:
        """Adopted and its review current: what ``recall_claims`` returns by default."""
        return self.status is ClaimStatus.ADOPTED and not self.review_required

    def cited(self) -> tuple[str, ...]:
        """Every memory the claim ever cited (about, and evidence, retracted too)."""
        out = dict.fromkeys(self.about)
        out.update(dict.fromkeys(e.memory_id for e in self.evidence if e.memory_id))
        return tuple(out)

    def origin_groups(self, origins: Mapping[str, str | None] | None = None) -> Gate:
        """The origin groups of the supporting evidence, counted as the corroboration gate
        counts them (an unknown origin: two needed). A source label is its own group
        unless it declares a common origin; a memory's group is its declared common
        origin, else its capture source (``origins``), else unknown (it counts nothing)."""
        found = origins or {}
        items = []
        for e in self.supporting:
            label = e.source if e.memory_id is None else found.get(e.memory_id)
            label = clean_label(e.common_origin) or clean_label(label)
            if label is not None:
                items.append(Corroboration(label, e.common_origin))
        return gate(None, items)


def valid_at(state: ClaimState, moment: datetime) -> bool:
    """Whether the claim's known valid-time bounds admit ``moment`` (unknown bounds do)."""
    if state.valid_from is not None and moment < state.valid_from:
        return False
    return not (state.valid_until is not None and moment >= state.valid_until)


def _decided(state: ClaimState, e: Event, action: str, detail: str | None = None) -> ClaimState:
    entry = Decision(action, e.recorded_at, e.actor, e.reason, detail)
    return replace(
        state,
        version=e.version,
        last_at=max(state.last_at, e.recorded_at),
        history=(*state.history, entry),
        redacted=state.redacted or e.redacted,
    )


def evolve(state: ClaimState | None, e: Event) -> ClaimState | None:
    """The claim after one event of its stream."""
    b = e.body
    if isinstance(b, ClaimCreated):
        new = ClaimState(
            b.claim_id,
            e.version,
            e.actor,
            b.claim_type,
            b.scope,
            b.statement,
            b.asserted_by,
            b.statement_at,
            b.valid_from,
            b.valid_until,
            b.about,
            b.sensitive,
            b.screened,
            e.recorded_at,
            e.recorded_at,
        )
        return _decided(new, e, "create_claim")
    if state is None:
        return None
    if isinstance(b, ClaimEvidenceAdded):
        ev = Evidence(
            b.evidence_id,
            b.stance,
            b.memory_id,
            b.source,
            b.note,
            b.quote,
            b.locator,
            b.common_origin,
            e.recorded_at,
            e.actor,
        )
        state = replace(
            state,
            evidence=(*state.evidence, ev),
            changed_since_adoption=state.adopted_at is not None,
        )
        return _decided(state, e, "add_evidence", b.evidence_id)
    if isinstance(b, ClaimEvidenceRetracted):
        kept = tuple(
            replace(x, retracted_at=e.recorded_at) if x.evidence_id == b.evidence_id else x
            for x in state.evidence
        )
        state = replace(state, evidence=kept, changed_since_adoption=state.adopted_at is not None)
        return _decided(state, e, "retract_evidence", b.evidence_id)
    if isinstance(b, ClaimAdopted):
        state = replace(
            state,
            status=ClaimStatus.ADOPTED,
            adopted_at=e.recorded_at,
            changed_since_adoption=False,
            replaces=b.replaces or state.replaces,
        )
        return _decided(state, e, "adopt_claim", b.replaces)
    if isinstance(b, ClaimRevised):
        state = replace(
            state,
            statement=b.statement,
            valid_from=b.valid_from,
            valid_until=b.valid_until,
            revisions=state.revisions + 1,
        )
        return _decided(state, e, "revise_claim")
    if isinstance(b, ClaimSuperseded):
        state = replace(state, status=ClaimStatus.SUPERSEDED, replaced_by=b.replacement_id)
        return _decided(state, e, "revise_claim", b.replacement_id)
    if isinstance(b, ClaimWithdrawn):
        return _decided(replace(state, status=ClaimStatus.WITHDRAWN), e, "withdraw_claim")
    return _decided(state, e, e.type)


def fold(events: Iterable[Event], until: datetime | None = None) -> ClaimState | None:
    """The claim from its stream; ``until``: as the ledger held it at that record time
    (None before the claim was recorded)."""
    state: ClaimState | None = None
    for e in events:
        if until is not None and e.recorded_at > until:
            break  # a stream's times never go back: the rest is later too
        state = evolve(state, e)
    return state


def recorded_time(state: ClaimState | None, now: datetime) -> datetime:
    """When a decision on the claim is recorded: now, or the stream's last time when the
    clock stepped back (so a view at T is always a prefix of the stream)."""
    return now if state is None or now >= state.last_at else state.last_at


# -- the decisions ------------------------------------------------------------------------


@dataclass(frozen=True)
class CreateClaim:
    statement: str
    claim_type: str
    scope: str = "global"
    asserted_by: str | None = None
    statement_at: datetime | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    about: tuple[str, ...] = ()
    sensitive: bool = False
    screened: tuple[str, ...] = ()


def _check_bounds(start: datetime | None, end: datetime | None) -> None:
    if start is not None and end is not None and end <= start:
        raise InvalidInput(
            "valid_until must be after valid_from (the valid time is [valid_from, valid_until))"
        )


def decide_create(command: CreateClaim, claim_id: str) -> list[DomainEvent]:
    _check_bounds(command.valid_from, command.valid_until)
    return [
        ClaimCreated(
            claim_id,
            command.statement,
            command.claim_type,
            command.scope,
            command.asserted_by,
            command.statement_at,
            command.valid_from,
            command.valid_until,
            command.about,
            command.sensitive,
            command.screened,
        )
    ]


def _require_open(state: ClaimState, doing: str) -> None:
    if not state.is_open:
        raise ProtocolViolation(
            f"claim {state.claim_id} is {state.status.value}: it cannot {doing}",
            hint=f"A {state.status.value} claim is closed; {_CREATE_HINT}.",
        )


@dataclass(frozen=True)
class NewEvidence:
    stance: str
    memory_id: str | None = None
    source: str | None = None
    note: str | None = None
    quote: str | None = None
    locator: str | None = None
    common_origin: str | None = None


def decide_evidence(state: ClaimState, command: NewEvidence, evidence_id: str) -> list[DomainEvent]:
    """One evidence association; none when the same material with the same stance is
    already active (a repeat adds nothing: the existing association stands)."""
    if (command.memory_id is None) == (command.source is None):
        raise InvalidInput(
            "evidence names one thing: a memory of this store (memory_id) or a source label",
            hint='e.g. add_evidence(claim_id="C…", memory_id="01K…", stance="supports")',
        )
    _require_open(state, "take new evidence")
    for e in state.active_evidence:
        if (e.memory_id, clean_label(e.source), e.stance) == (
            command.memory_id,
            clean_label(command.source),
            command.stance,
        ):
            return []
    return [
        ClaimEvidenceAdded(
            state.claim_id,
            evidence_id,
            command.stance,
            command.memory_id,
            command.source,
            command.note,
            command.quote,
            command.locator,
            command.common_origin,
        )
    ]


def decide_retract(state: ClaimState, evidence_id: str) -> list[DomainEvent]:
    _require_open(state, "retract evidence")
    found = [e for e in state.evidence if e.evidence_id == evidence_id]
    if not found:
        raise InvalidInput(
            f"claim {state.claim_id} has no evidence {evidence_id}",
            hint=f'inspect_claim(claim_id="{state.claim_id}") lists its evidence ids '
            "(`embornal claim show ID`)",
        )
    if not found[0].active:
        return []
    return [ClaimEvidenceRetracted(state.claim_id, evidence_id)]


def check_adoptable(state: ClaimState, problems: Sequence[str] = ()) -> None:
    """Refuse adoption of a closed claim, of one no active evidence supports, or one whose
    material has ``problems`` (found by the service: a sensitive source without its gate,
    a sensitive claim without independent origins, a forgotten memory)."""
    if not state.is_open:
        raise ProtocolViolation(
            f"claim {state.claim_id} is {state.status.value}: it cannot be adopted",
            hint=f"{_CREATE_HINT}; revise_claim(claim_id, replacement_id, reason) replaces "
            "an adopted claim with a new one",
        )
    if not state.supporting:
        raise ProtocolViolation(
            f"claim {state.claim_id} has no active supporting evidence: adoption is a "
            "judgment about specific material",
            hint=f'add_evidence(claim_id="{state.claim_id}", memory_id="…", stance="supports") '
            "first, then adopt it (`embornal claim evidence ID --memory MEMORY_ID`)",
        )
    if problems:
        raise ProtocolViolation(
            f"claim {state.claim_id} cannot be adopted: " + "; ".join(problems),
            hint="corroborate(memory_id, source) the sensitive material, or add_evidence("
            "claim_id, source=…) from an origin not counted yet, then adopt it",
        )


def decide_adopt(state: ClaimState, problems: Sequence[str] = ()) -> list[DomainEvent]:
    check_adoptable(state, problems)
    return [ClaimAdopted(state.claim_id)]


@dataclass(frozen=True)
class Revision:
    """A new version: the statement and valid time from now on (None: unchanged);
    ``clear_*``: make that bound unknown again."""

    statement: str | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    clear: tuple[str, ...] = field(default=())


def decide_revise(state: ClaimState, revision: Revision) -> list[DomainEvent]:
    _require_open(state, "be revised")
    start = None if "valid_from" in revision.clear else (revision.valid_from or state.valid_from)
    end = None if "valid_until" in revision.clear else (revision.valid_until or state.valid_until)
    statement = revision.statement if revision.statement is not None else state.statement
    if (statement, start, end) == (state.statement, state.valid_from, state.valid_until):
        raise InvalidInput(
            "the revision changes nothing: give a new statement or valid time",
            hint="revise_claim(claim_id, reason, statement=…), or replacement_id=… to replace "
            "it (`embornal claim revise ID --statement TEXT --reason WHY`)",
        )
    _check_bounds(start, end)
    return [ClaimRevised(state.claim_id, statement, start, end)]


def decide_replace(
    old: ClaimState, new: ClaimState, problems: Sequence[str] = ()
) -> tuple[list[DomainEvent], list[DomainEvent]]:
    """memory-as-history's revision: the adopted ``old`` is superseded by the proposed
    ``new``, which is adopted, in one append: (the old stream's events, the new one's)."""
    if old.claim_id == new.claim_id:
        raise InvalidInput("a claim cannot replace itself")
    if old.status is not ClaimStatus.ADOPTED:
        raise ProtocolViolation(
            f"claim {old.claim_id} is {old.status.value}: only an adopted claim is replaced",
            hint="adopt_claim(claim_id, reason) it first, or revise_claim(claim_id, reason, "
            "statement=…) to change a proposed one (`embornal claim adopt ID --reason WHY`)",
        )
    if new.status is not ClaimStatus.PROPOSED:
        raise ProtocolViolation(
            f"claim {new.claim_id} is {new.status.value}: a replacement is a proposed claim",
            hint=f"{_CREATE_HINT}, with evidence, then revise_claim(claim_id, replacement_id, "
            "reason)",
        )
    if old.scope != new.scope:
        raise InvalidInput(
            f"a replacement stays in the scope of the claim it replaces ({old.scope!r}, "
            f"not {new.scope!r})"
        )
    check_adoptable(new, problems)
    return (
        [ClaimSuperseded(old.claim_id, new.claim_id)],
        [ClaimAdopted(new.claim_id, replaces=old.claim_id)],
    )


def decide_withdraw(state: ClaimState) -> list[DomainEvent]:
    _require_open(state, "be withdrawn")
    return [ClaimWithdrawn(state.claim_id)]
