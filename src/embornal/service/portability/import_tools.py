"""``embornal import memory-as-history|basic-memory|mem0|mcp-memory SOURCE`` (decisions
0076, 0077).

The source is read whole and checked first (:mod:`embornal.adapters.importers`), mapped
to the items of ONE proposal (:mod:`embornal.domain.portability.import_mapping`), and the subject's
right to write at each path is checked before anything is written. The proposal's
source and each fact's source label are ``import:FORMAT``, each fact's confidence the
import prior. By default it waits for a person (``embornal proposal show ID``);
``apply`` approves it at once as the subject: the same two events a later approval
writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from embornal.adapters.importers import read_source
from embornal.domain.facts.tags import OWNER_KEY
from embornal.domain.portability.import_history import HistoryData, map_history
from embornal.domain.portability.import_mapping import (
    FORMATS,
    Graph,
    Planned,
    map_graph,
    map_mem0,
    refuse,
    source_label,
)
from embornal.domain.records import record
from embornal.errors import AccessDenied, InvalidInput
from embornal.service.context import ServiceContext
from embornal.service.proposals import drafts as proposals

__all__ = ["Progress", "ToolImport", "import_tool"]

REASON = "import"
Progress = Callable[[int, int], None] | None


@record
class ToolImport:
    """What an import from another tool made: the proposal (open, or approved with
    ``apply``) and how many facts, links and archives its items hold; ``skipped`` names
    what the source has that could not be carried (a relation to a missing entity)."""

    format: str
    source: str
    proposal_id: str
    status: str
    facts: int
    links: int
    archived: int
    skipped: tuple[str, ...]


def _plan(fmt: str, source: str, under: str | None, progress: Progress) -> Planned:
    data = read_source(fmt, source, progress)
    if isinstance(data, Graph):
        return map_graph(data, under)
    if isinstance(data, HistoryData):
        return map_history(data, under)
    return map_mem0(data, under)


def _require_write(ctx: ServiceContext, items: list[dict[str, Any]]) -> None:
    """The subject's right to write each new fact where (and with the tags) it goes."""
    if ctx.access.unconditional("create"):
        return
    checked: set[tuple[str, tuple[str, ...]]] = set()
    for item in items:
        if item["type"] != "create":
            continue
        tags = tuple(item.get("tags") or ())
        if (item["path"], tags) in checked:
            continue
        checked.add((item["path"], tags))
        own: Mapping[str, str] = dict(
            t.split("=", 1) for t in tags if "=" in t and not t.startswith(OWNER_KEY + "=")
        )
        ctx.access.require("create", ctx.access.new_fact_object(item["path"], own))


def _named(error: InvalidInput, items: list[dict[str, Any]]) -> InvalidInput:
    """The error of a refused item, naming the source record the item was made from."""
    found = re.match(r"item (\d+): (.*)", error.message, re.S)
    if found is None or not 0 < int(found.group(1)) <= len(items):
        return refuse("the source", error.message)
    item = items[int(found.group(1)) - 1]
    return refuse(str(item.get("reason") or f"item {found.group(1)}"), found.group(2))


def _title(fmt: str, source: str) -> str:
    name = source.rstrip("/").rsplit("/", 1)[-1]
    clean = "".join(ch if ch.isprintable() else "?" for ch in name)[:120]
    return f"import from {fmt}: {clean or source[:120]}"


def import_tool(
    ctx: ServiceContext,
    fmt: str,
    source: str,
    *,
    apply: bool = False,
    under: str | None = None,
    progress: Progress = None,
) -> ToolImport:
    if fmt not in FORMATS:
        raise InvalidInput(f"the formats are {', '.join(FORMATS)}, not {fmt!r}")
    if apply and not proposals.may_decide(ctx):
        raise AccessDenied(
            "an assistant may not approve a proposal: a person decides; nothing was imported",
            hint="Import without --apply and ask the user to approve the proposal.",
        )
    plan = _plan(fmt, source, under, progress)
    _require_write(ctx, plan.items)
    try:
        opened = proposals.propose(
            ctx, plan.items, title=_title(fmt, source), source=source_label(fmt), reason=REASON
        )
    except InvalidInput as e:  # an item the checks refuse: name the record it came from
        raise _named(e, plan.items) from None
    done = opened
    if apply and opened.status == "open":
        done = proposals.approve(ctx, opened.id, reason=f"{REASON} --apply")
    return ToolImport(
        format=fmt,
        source=source,
        proposal_id=done.id,
        status=done.status,
        facts=plan.facts,
        links=plan.links,
        archived=plan.archived,
        skipped=plan.skipped,
    )
