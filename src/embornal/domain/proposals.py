"""The proposal aggregate: draft items a person (or a configured policy) approves or
rejects (seed 001 §4 "proposed", decision 0055).

A proposal's stream is ``proposal:<id>``. Its items are drafts: nothing of them is in
any projection, nor recallable, until an approval applies them. Each item has a type
from :data:`ITEM_TYPES` (create, update, archive, supersede); a type is one
:class:`ItemType` — how to check a raw item, which fact it acts on, and the fact events
it makes — so another (a link, a merge) joins by registering one.

Everything here is pure: the service loads the proposal's and the targets' states,
decides, and appends the approval with every fact event it applies in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from embornal.domain.events import DomainEvent, Event
from embornal.domain.events.proposals import (
    ProposalApproved,
    ProposalEdited,
    ProposalOpened,
    ProposalRejected,
)
from embornal.domain.fact_aggregate import (
    FactState,
    ForgetFact,
    StoreFact,
    SupersedeFact,
    UpdateAttributes,
    decide_forget,
    decide_store,
    decide_supersede,
    decide_update,
)
from embornal.domain.ids import normalize_prefix
from embornal.errors import Conflict, InvalidInput

__all__ = [
    "ITEM_TYPES",
    "MAX_ITEMS",
    "STREAM_PREFIX",
    "Applied",
    "ApproveProposal",
    "EditProposal",
    "ItemType",
    "OpenProposal",
    "ProposalState",
    "ProposalStatus",
    "apply_item",
    "check_item",
    "decide_approve",
    "decide_edit",
    "decide_open",
    "decide_reject",
    "evolve",
    "fold",
    "register_item_type",
    "stream_of",
]

STREAM_PREFIX = "proposal:"
MAX_ITEMS = 10_000
"""The most items one proposal holds (a prune pass proposes at most this many)."""

_TEXT_KEYS = ("content", "reason", "path", "source", "lifetime", "visibility")


def stream_of(proposal_id: str) -> str:
    return STREAM_PREFIX + proposal_id


class ProposalStatus(StrEnum):
    OPEN = "open"
    APPROVED = "approved"
    REJECTED = "rejected"


@dataclass(frozen=True)
class ProposalState:
    """A proposal folded from its stream: its items by number, who opened it, and how it
    ended (``decided_by``: the approver or the rejecter; ``applied``: the items approved)."""

    proposal_id: str
    version: int
    items: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False)
    title: str | None = None
    source: str | None = None
    proposer: str | None = None
    opened_at: datetime | None = None
    status: ProposalStatus = ProposalStatus.OPEN
    decided_by: str | None = None
    decided_at: datetime | None = None
    reason: str | None = None
    applied: tuple[str, ...] = ()

    def targets(self) -> list[str]:
        """The facts the items act on, in item order (creates act on none)."""
        out = []
        for n in _ordered(self.items):
            t = target_of(self.items[n])
            if t is not None:
                out.append(t)
        return out


def _ordered(items: Iterable[str]) -> list[str]:
    return sorted(items, key=int)


def evolve(state: ProposalState | None, event: Event) -> ProposalState:
    """The state after one more event of the proposal's stream."""
    body = event.body
    if isinstance(body, ProposalOpened):
        if state is not None:
            raise ValueError(f"proposal {state.proposal_id} is opened twice")
        return ProposalState(
            proposal_id=body.proposal_id,
            version=event.version,
            items={k: dict(v) for k, v in (body.items or {}).items()},
            title=body.title,
            source=body.source,
            proposer=event.actor,
            opened_at=event.recorded_at,
        )
    if state is None:
        raise ValueError(f"{event.type} before the proposal was opened")
    step = replace(state, version=event.version)
    if isinstance(body, ProposalEdited):
        items = {k: v for k, v in state.items.items() if k not in body.dropped}
        items.update({k: dict(v) for k, v in (body.items or {}).items()})
        return replace(step, items=items)
    if isinstance(body, ProposalApproved):
        return replace(
            step,
            status=ProposalStatus.APPROVED,
            decided_by=body.approver,
            decided_at=event.recorded_at,
            reason=event.reason,
            applied=body.items,
        )
    if isinstance(body, ProposalRejected):
        return replace(
            step,
            status=ProposalStatus.REJECTED,
            decided_by=event.actor,
            decided_at=event.recorded_at,
            reason=event.reason,
        )
    raise ValueError(f"{event.type} is not an event of a proposal's stream")


def fold(events: Iterable[Event]) -> ProposalState | None:
    state: ProposalState | None = None
    for e in events:
        state = evolve(state, e)
    return state


# -- item types --------------------------------------------------------------------------


@dataclass(frozen=True)
class Applied:
    """What applying one item does: events by stream (the target's, or a new fact's)."""

    events: tuple[tuple[str, DomainEvent], ...]


Check = Callable[[Mapping[str, Any], Callable[[], str]], dict[str, Any]]
Apply = Callable[[Mapping[str, Any], FactState | None, str, datetime], Applied]


@dataclass(frozen=True)
class ItemType:
    """One type of item. ``check`` turns a raw item into its canonical form (a new fact's
    id chosen with the id maker it gets) or raises :class:`InvalidInput`; ``apply`` gives
    the fact events for the target's state (None: the item targets none), made by
    ``owner`` at ``now``, or raises the domain error that forbids it. ``actions``: what
    the approver needs on the target (``write``, ``delete``, ``rewrite``)."""

    name: str
    check: Check
    apply: Apply
    actions: tuple[str, ...]
    targets: bool = True


ITEM_TYPES: dict[str, ItemType] = {}


def register_item_type(item_type: ItemType) -> None:
    if item_type.name in ITEM_TYPES:
        raise TypeError(f"item type {item_type.name!r} is registered twice")
    ITEM_TYPES[item_type.name] = item_type


def _type_of(raw: Mapping[str, Any]) -> ItemType:
    name = raw.get("type") if isinstance(raw, Mapping) else None
    found = ITEM_TYPES.get(name) if isinstance(name, str) else None
    if found is None:
        raise InvalidInput(
            f"an item's type must be one of {', '.join(ITEM_TYPES)}, not {name!r}",
            hint='Give each item as {"type": "create", "path": "/notes", "content": "..."}.',
        )
    return found


def target_of(item: Mapping[str, Any]) -> str | None:
    value = item.get("fact_id")
    return value if isinstance(value, str) and ITEM_TYPES[item["type"]].targets else None


def _allowed(raw: Mapping[str, Any], keys: Sequence[str], required: Sequence[str]) -> None:
    kind = raw["type"]
    unknown = sorted(set(raw) - {"type", *keys})
    if unknown:
        raise InvalidInput(
            f"a {kind} item takes {', '.join(keys)}; not {unknown[0]!r}",
            hint="See `embornal proposal --help` for the shape of each item.",
        )
    for k in required:
        if raw.get(k) in (None, ""):
            raise InvalidInput(f"a {kind} item needs {k!r}")
    for k in _TEXT_KEYS:
        if k in raw and raw[k] is not None and not isinstance(raw[k], str):
            raise InvalidInput(f"{k!r} of a {kind} item must be text")
    for k in ("attributes", "score"):
        if k in raw and raw[k] is not None and not isinstance(raw[k], Mapping):
            raise InvalidInput(f"{k!r} of a {kind} item must be an object")


def _target(raw: Mapping[str, Any]) -> str:
    value = raw.get("fact_id")
    if not isinstance(value, str):
        raise InvalidInput(f"a {raw['type']} item needs the 'fact_id' it acts on")
    return normalize_prefix(value)


def _clean(raw: Mapping[str, Any], **more: Any) -> dict[str, Any]:
    out = {k: v for k, v in raw.items() if v is not None}
    out.update(more)
    return out


_CREATE_KEYS = ("path", "content", "kind", "attributes", "tags", "confidence", "source",
                "evidence", "lifetime", "visibility", "reason", "new_id")  # fmt: skip


def _check_create(raw: Mapping[str, Any], make_id: Callable[[], str]) -> dict[str, Any]:
    _allowed(raw, _CREATE_KEYS, ("path", "content"))
    return _clean(raw, new_id=raw.get("new_id") or make_id())


def _store_command(item: Mapping[str, Any], owner: str) -> StoreFact:
    return StoreFact(
        item["new_id"], item["path"], item["content"], owner, item.get("tags"),
        item.get("kind", "fact"), None, item.get("attributes"), item.get("confidence"),
        item.get("visibility"), item.get("source"), item.get("evidence") or (),
        item.get("lifetime"),
    )  # fmt: skip


def _apply_create(
    item: Mapping[str, Any], state: FactState | None, owner: str, now: datetime
) -> Applied:
    (stored,) = decide_store(_store_command(item, owner), now)
    return Applied(((stored.fact_id, stored),))


def _check_update(raw: Mapping[str, Any], make_id: Callable[[], str]) -> dict[str, Any]:
    _allowed(raw, ("fact_id", "attributes", "reason"), ("fact_id", "attributes"))
    return _clean(raw, fact_id=_target(raw))


def _apply_update(
    item: Mapping[str, Any], state: FactState | None, owner: str, now: datetime
) -> Applied:
    assert state is not None
    events = decide_update(state, UpdateAttributes(state.fact_id, item["attributes"]), now)
    return Applied(tuple((state.fact_id, e) for e in events))


def _check_archive(raw: Mapping[str, Any], make_id: Callable[[], str]) -> dict[str, Any]:
    _allowed(raw, ("fact_id", "reason", "score"), ("fact_id",))
    return _clean(raw, fact_id=_target(raw))


def _apply_archive(
    item: Mapping[str, Any], state: FactState | None, owner: str, now: datetime
) -> Applied:
    assert state is not None
    events = decide_forget(state, ForgetFact(state.fact_id), now)
    return Applied(tuple((state.fact_id, e) for e in events))


def _check_supersede(raw: Mapping[str, Any], make_id: Callable[[], str]) -> dict[str, Any]:
    keys = ("fact_id", "content", "kind", "attributes", "tags", "reason", "new_id")
    _allowed(raw, keys, ("fact_id", "content"))
    return _clean(raw, fact_id=_target(raw), new_id=raw.get("new_id") or make_id())


def _apply_supersede(
    item: Mapping[str, Any], state: FactState | None, owner: str, now: datetime
) -> Applied:
    assert state is not None
    command = SupersedeFact(item["new_id"], item["content"], owner, item.get("tags"), None,
                            item.get("kind"), item.get("attributes"))  # fmt: skip
    (new,) = decide_supersede(state, command, now)
    return Applied(((new.fact_id, new),))


for _t in (
    ItemType("create", _check_create, _apply_create, ("write",), targets=False),
    ItemType("update", _check_update, _apply_update, ("rewrite",)),
    ItemType("archive", _check_archive, _apply_archive, ("delete",)),
    ItemType("supersede", _check_supersede, _apply_supersede, ("rewrite",)),
):
    register_item_type(_t)


def check_item(raw: object, make_id: Callable[[], str]) -> dict[str, Any]:
    """A raw item in its canonical form (:class:`InvalidInput` naming what is wrong)."""
    if not isinstance(raw, Mapping):
        raise InvalidInput("each item is an object with a 'type'")
    return _type_of(raw).check(raw, make_id)


def apply_item(
    item: Mapping[str, Any], state: FactState | None, owner: str, now: datetime
) -> Applied:
    """The fact events of one item on its target's ``state``."""
    return ITEM_TYPES[item["type"]].apply(item, state, owner, now)


# -- commands ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenProposal:
    proposal_id: str
    items: Sequence[object]
    title: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class EditProposal:
    """Drop items by number, replace some (by number), add new ones at the end."""

    drop: Sequence[str] = ()
    replace: Mapping[str, object] = field(default_factory=dict)
    add: Sequence[object] = ()


@dataclass(frozen=True)
class ApproveProposal:
    """Approve ``items`` (numbers; None: all) as ``approver``."""

    approver: str
    items: Sequence[str] | None = None


def _check_items(items: Mapping[str, Mapping[str, Any]]) -> None:
    if not items:
        raise InvalidInput("a proposal needs at least one item")
    if len(items) > MAX_ITEMS:
        raise InvalidInput(f"a proposal holds at most {MAX_ITEMS} items, not {len(items)}")
    seen: dict[str, str] = {}
    for n in _ordered(items):
        t = target_of(items[n])
        if t is None:
            continue
        if t in seen:
            raise InvalidInput(
                f"items {seen[t]} and {n} both act on fact {t}; one item per fact",
                hint="Put the changes to one fact into one item.",
            )
        seen[t] = n


def decide_open(command: OpenProposal, make_id: Callable[[], str]) -> list[ProposalOpened]:
    """``[ProposalOpened]`` with the items checked and numbered from 1."""
    if isinstance(command.items, str | bytes | Mapping):
        raise InvalidInput("items is a list of objects, each with a 'type'")
    items = {str(i): check_item(raw, make_id) for i, raw in enumerate(command.items, 1)}
    _check_items(items)
    title = None if command.title is None else _short(command.title, "title")
    source = None if command.source is None else _short(command.source, "source")
    return [ProposalOpened(command.proposal_id, items, title, source)]


def _short(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise InvalidInput(f"the {what} must be one line of 1 to 200 characters")
    if not value.isprintable():
        raise InvalidInput(f"the {what} holds a control character")
    return value.strip()


def _require_open(state: ProposalState, doing: str) -> None:
    if state.status is ProposalStatus.OPEN:
        return
    raise Conflict(
        f"proposal {state.proposal_id} is {state.status.value}; only an open one can be {doing}",
        hint="See `embornal proposal show` for who decided it and why.",
    )


def _numbers(state: ProposalState, numbers: Iterable[object]) -> list[str]:
    out = []
    for raw in numbers:
        n = str(raw).strip()
        if n not in state.items:
            have = ", ".join(_ordered(state.items)) or "none"
            raise InvalidInput(
                f"proposal {state.proposal_id} has no item {n[:20]!r} (its items: {have})",
                hint="See `embornal proposal show ID` for its items.",
            )
        if n not in out:
            out.append(n)
    return _ordered(out)


def decide_edit(
    state: ProposalState, command: EditProposal, make_id: Callable[[], str]
) -> list[ProposalEdited]:
    """``[ProposalEdited]``: the items after the edit are checked as a whole."""
    _require_open(state, "edited")
    dropped = _numbers(state, command.drop)
    replaced = {n: check_item(raw, make_id) for n, raw in zip(
        _numbers(state, command.replace), command.replace.values(), strict=True)}  # fmt: skip
    top = max((int(n) for n in state.items), default=0)
    added = {str(top + i): check_item(raw, make_id) for i, raw in enumerate(command.add, 1)}
    changed = {**replaced, **added}
    if not dropped and not changed:
        raise InvalidInput("nothing to edit", hint="Give --drop N, or an item to add.")
    after = {k: v for k, v in state.items.items() if k not in dropped}
    after.update(changed)
    _check_items(after)
    return [ProposalEdited(state.proposal_id, changed or None, tuple(dropped), len(after))]


def decide_approve(state: ProposalState, command: ApproveProposal) -> list[ProposalApproved]:
    """``[ProposalApproved]`` naming the items chosen (all when none are named)."""
    _require_open(state, "approved")
    chosen = _ordered(state.items) if command.items is None else _numbers(state, command.items)
    if not chosen:
        raise InvalidInput("choose at least one item to approve, or reject the proposal")
    return [ProposalApproved(state.proposal_id, tuple(chosen), command.approver)]


def decide_reject(state: ProposalState) -> list[ProposalRejected]:
    _require_open(state, "rejected")
    return [ProposalRejected(state.proposal_id)]
