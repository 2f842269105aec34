"""The fact aggregate: its state folded from its stream, and the rules of its life cycle.

``evolve(state, event)`` folds one event of a fact's stream into its :class:`FactState`;
each ``decide_…(state, command, now)`` returns the events a command makes, or raises the
domain error that forbids it. Both are pure: the service loads the state, decides, and
appends the events with ``expected_version=state.version``, again on a concurrent write.

Who may do it (the access rules) is the service's check, not the aggregate's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from embornal.domain import paths as P
from embornal.domain.clock import parse_time
from embornal.domain.events import (
    DomainEvent,
    FactForgotten,
    FactPurged,
    FactRestored,
    FactStored,
)
from embornal.domain.facts import DEFAULT_KIND, check_content
from embornal.domain.tags import OWNER_KEY, Tag, parse_tags
from embornal.errors import Conflict, InvalidInput

__all__ = [
    "FactState",
    "FactStatus",
    "ForgetFact",
    "PurgeFact",
    "RestoreFact",
    "StoreFact",
    "SupersedeFact",
    "decide_forget",
    "decide_purge",
    "decide_restore",
    "decide_store",
    "decide_supersede",
    "evolve",
    "fold",
]

TagsArg = Sequence[str] | Mapping[str, str] | None


class FactStatus(StrEnum):
    ACTIVE = "active"
    FORGOTTEN = "forgotten"
    PURGED = "purged"


@dataclass(frozen=True)
class FactState:
    """What the rules of a fact need to know: its stream's version and its life cycle.

    ``superseded_by`` is the one part not in the fact's own stream (a successor's
    ``FactStored`` names it): the store fills it in from the successor's stream.
    """

    fact_id: str
    version: int
    path: str
    kind: str
    owner: str
    tags: tuple[Tag, ...]
    supersedes_id: str | None = None
    status: FactStatus = FactStatus.ACTIVE
    superseded_by: str | None = None

    @property
    def state(self) -> str:
        """``active``, ``superseded``, ``forgotten`` or ``purged`` (as :attr:`Fact.state`)."""
        if self.status is FactStatus.ACTIVE and self.superseded_by is not None:
            return "superseded"
        return self.status.value


def evolve(state: FactState | None, event: DomainEvent) -> FactState:
    """The state after one more event of the fact's stream."""
    if isinstance(event, FactStored):
        if state is not None:
            raise ValueError(f"fact {state.fact_id} is stored twice")
        return FactState(
            fact_id=event.fact_id,
            version=1,
            path=event.path,
            kind=event.kind,
            owner=event.owner,
            tags=event.tags,
            supersedes_id=event.supersedes_id,
        )
    if state is None:
        raise ValueError(f"{event.TYPE} before the fact was stored")
    step = replace(state, version=state.version + 1)
    if isinstance(event, FactForgotten):
        return replace(step, status=FactStatus.FORGOTTEN)
    if isinstance(event, FactRestored):
        return replace(step, status=FactStatus.ACTIVE)
    if isinstance(event, FactPurged):
        owner_tags = tuple(t for t in state.tags if t.key == OWNER_KEY)
        return replace(step, status=FactStatus.PURGED, tags=owner_tags)
    raise ValueError(f"{event.TYPE} is not an event of a fact's stream")


def fold(events: Iterable[DomainEvent]) -> FactState | None:
    """The state of a fact from its whole stream (None: an empty stream)."""
    state: FactState | None = None
    for event in events:
        state = evolve(state, event)
    return state


# -- commands --------------------------------------------------------------------------


@dataclass(frozen=True)
class StoreFact:
    """A new fact. ``fact_id`` is chosen by the caller (ids carry randomness); ``at`` dates
    it (imports), defaulting to ``now``."""

    fact_id: str
    path: str
    content: object
    owner: str
    tags: TagsArg = None
    kind: object = DEFAULT_KIND
    at: datetime | str | None = None


@dataclass(frozen=True)
class SupersedeFact:
    """A correction: a new fact on the old one's path, of its kind. ``tags`` None keeps the
    old fact's own tags (but its owner's, which is the new owner's)."""

    new_id: str
    content: object
    owner: str
    tags: TagsArg = None
    at: datetime | str | None = None


@dataclass(frozen=True)
class ForgetFact:
    fact_id: str


@dataclass(frozen=True)
class RestoreFact:
    fact_id: str


@dataclass(frozen=True)
class PurgeFact:
    fact_id: str


# -- decisions ---------------------------------------------------------------------------


def _stored(cmd: StoreFact, now: datetime, *, supersedes: str | None = None) -> list[FactStored]:
    path = P.normalize_path(cmd.path)
    if path == P.ROOT:
        raise InvalidInput(
            "the root / holds no facts", hint="Store the fact on a topic path such as /notes."
        )
    content = check_content(cmd.content)
    tags = parse_tags(cmd.tags)
    if not isinstance(cmd.kind, str) or not cmd.kind:
        raise InvalidInput("kind must be a non-empty name")
    created = parse_time(cmd.at) if cmd.at is not None else now
    return [
        FactStored(
            fact_id=cmd.fact_id,
            path=path,
            content=content,
            owner=cmd.owner,
            created_at=created,
            tags=tuple(sorted([Tag(OWNER_KEY, cmd.owner), *tags])),
            kind=cmd.kind,
            supersedes_id=supersedes,
        )
    ]


def decide_store(command: StoreFact, now: datetime) -> list[FactStored]:
    """``[FactStored]`` for a valid new fact (``InvalidInput`` otherwise)."""
    return _stored(command, now)


def decide_supersede(state: FactState, command: SupersedeFact, now: datetime) -> list[FactStored]:
    """``[FactStored]`` of the successor (its stream is new); only an active fact that no
    live fact supersedes yet can be superseded."""
    tags = command.tags
    if tags is None:
        tags = [str(t) for t in state.tags if t.key != OWNER_KEY]
    new = StoreFact(
        command.new_id, state.path, command.content, command.owner, tags, state.kind, command.at
    )
    events = _stored(new, now, supersedes=state.fact_id)
    if state.state != "active":
        raise Conflict(
            f"fact {state.fact_id} is {state.state}; only an active fact can be superseded",
            hint="Supersede the newest fact of the chain (see `embornal memory show`).",
        )
    return events


def _check_target(state: FactState, command: ForgetFact | RestoreFact | PurgeFact) -> None:
    if command.fact_id != state.fact_id:
        raise ValueError(f"a command for fact {command.fact_id} met the state of {state.fact_id}")


def decide_forget(state: FactState, command: ForgetFact, now: datetime) -> list[DomainEvent]:
    """``[FactForgotten]``, unless the fact is forgotten (or purged) already."""
    _check_target(state, command)
    if state.status is not FactStatus.ACTIVE:
        raise Conflict(
            f"fact {state.fact_id} is already forgotten",
            hint="Use `embornal memory restore` to bring it back.",
        )
    return [FactForgotten(fact_id=state.fact_id)]


def decide_restore(state: FactState, command: RestoreFact, now: datetime) -> list[DomainEvent]:
    """``[FactRestored]`` for a forgotten fact; a purged one is gone for good."""
    _check_target(state, command)
    if state.status is FactStatus.PURGED:
        raise Conflict(f"fact {state.fact_id} was purged; its content is gone for good")
    if state.status is not FactStatus.FORGOTTEN:
        raise Conflict(f"fact {state.fact_id} is not forgotten", hint="Nothing to restore.")
    return [FactRestored(fact_id=state.fact_id)]


def decide_purge(state: FactState, command: PurgeFact, now: datetime) -> list[DomainEvent]:
    """``[FactPurged]``, unless it is purged already (any other state may be purged)."""
    _check_target(state, command)
    if state.status is FactStatus.PURGED:
        raise Conflict(f"fact {state.fact_id} is already purged")
    return [FactPurged(fact_id=state.fact_id)]
