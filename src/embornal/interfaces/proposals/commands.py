"""The text of the proposal and retention commands: ``proposal list|show|approve|reject|
edit``, ``memory retention`` and ``memory prune`` (their parsers and calls are derived
from the catalogue)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from embornal.interfaces.cli.render import cell, fmt_time, markdown_table

if TYPE_CHECKING:
    from embornal.interfaces.cli.app import Context
    from embornal.service.proposals.results import (
        Proposal,
        ProposalSummary,
        PruneResult,
        RetentionScore,
    )

__all__ = ["show_list", "show_proposal", "show_prune", "show_retention"]


def show_list(ctx: Context, rows: Sequence[ProposalSummary]) -> None:
    if not rows:
        ctx.say("(no proposals)")
        return
    table = [
        [
            r.id,
            r.status,
            str(r.item_count),
            cell(r.source or ""),
            cell(r.title or ""),
            fmt_time(r.opened_at),
            cell(r.decided_by or ""),
        ]
        for r in rows
    ]
    ctx.say(
        markdown_table(["ID", "Status", "Items", "Source", "Title", "Opened", "Decided by"], table)
    )


def _summary(fields: dict[str, object]) -> str:
    shown = {k: v for k, v in fields.items() if k not in ("new_id", "fact_id")}
    text = json.dumps(shown, ensure_ascii=False, sort_keys=True)
    return cell(text if len(text) <= 120 else text[:117] + "...")


def show_proposal(ctx: Context, p: Proposal) -> None:
    ctx.say(f"proposal {p.id}  {p.status}  version {p.version}  {cell(p.title or '')}")
    ctx.say(
        f"opened {fmt_time(p.opened_at)} by {cell(p.proposer or '?')}"
        + (f", source {cell(p.source)}" if p.source else "")
    )
    if p.decided_by is not None:
        ctx.say(
            f"{p.status} {fmt_time(p.decided_at)} by {cell(p.decided_by)}"
            + (f": {cell(p.reason)}" if p.reason else "")
        )
    marks = {None: "", True: "applied", False: "declined"}
    rows = [
        [i.number, i.type, i.fact_id or "", marks[i.applied], _summary(dict(i.fields))]
        for i in p.items
    ]
    ctx.say(markdown_table(["#", "Type", "Fact", "Applied", "Item"], rows))
    if p.status == "open":
        ctx.say(f"approve what you read: embornal proposal approve {p.id} --version {p.version}")


def show_retention(ctx: Context, scores: Sequence[RetentionScore]) -> None:
    if not scores:
        ctx.say("(no facts)")
        return
    explain = bool(ctx.opt("explain"))
    head = ["ID", "Path", "Kind", "Score"]
    if explain:
        head += ["Recency", "Access", "Links", "c_eff", "Weight"]
    rows = []
    for s in scores:
        row = [
            s.fact_id,
            cell(s.path),
            cell(s.kind),
            "exempt" if s.score is None else f"{s.score:.3f}",
        ]
        if explain:
            row += [
                f"{s.recency:.3f}",
                f"{s.access:.3f} ({s.recall_count})",
                f"{s.centrality:.3f} ({s.links_in})",
                f"{s.confidence:.3f}",
                f"{s.user_weight:.2f}",
            ]
        rows.append(row)
    ctx.say(markdown_table(head, rows))


def show_prune(ctx: Context, result: PruneResult) -> None:
    if result.proposal is None:
        ctx.say(f"scored {result.scored} facts; none below {result.threshold:g}: nothing proposed")
        return
    ctx.say(
        f"scored {result.scored} facts; proposal {result.proposal.id} would archive "
        f"{result.candidates} below {result.threshold:g} (status {result.proposal.status})"
    )
    if result.proposal.status == "open":
        ctx.say(f"review it: embornal proposal show {result.proposal.id}")
