"""The bodies of the review pages: the proposals, one proposal, the conflicts, one
conflict side by side, and the facts due for review (HTML text).

Each form posts to this site with a hidden form token (``token(action)`` gives its
input, :mod:`.forms`) and works without a script. A form is shown only to a subject
who may decide on these pages: a person (``embornal memory wiki``, or a person's token
under ``embornal serve``), or an assistant when ``proposals.assistants_decide`` says so
(decisions 0069, 0148); an assistant's token reads the same pages without a form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from embornal.interfaces.http.wiki.common import (
    e,
    fact_href,
    kind_label,
    link,
    plural,
    render_content,
    time_text,
)
from embornal.interfaces.http.wiki.fact_page import attribute_rows
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.proposals.results import Proposal, ProposalItem, ProposalSummary
from embornal.service.results import DueFact, FactDetail

__all__ = [
    "conflict_body",
    "conflict_href",
    "conflicts_body",
    "due_body",
    "proposal_body",
    "proposal_href",
    "proposals_body",
    "review_body",
]

Token = Callable[[str], str]

_ASK_A_PERSON = (
    "On these pages you read as an assistant (the token is an assistant's), and a person "
    "decides proposals. Log in with a person's token "
    "(<code>embornal token add SUBJECT --person</code>), or ask the memory's owner to "
    "approve or reject it with <code>embornal proposal approve {id}</code> or on the page "
    "of <code>embornal memory wiki</code>; or let assistants decide "
    "(<code>proposals.assistants_decide</code> in config.yaml)."
)
_READ_ONLY = (
    "On these pages you read as an assistant (the token is an assistant's): a person "
    "decides here. Log in with a person's token "
    "(<code>embornal token add SUBJECT --person</code>), or use {command}."
)
#: How much of a fact's text labels a choice of the conflict form.
_LABEL_CHARS = 90


def proposal_href(proposal_id: str) -> str:
    return "/proposal/" + proposal_id


def conflict_href(conflict_id: str) -> str:
    return "/conflict/" + conflict_id


def _id_link(fact_id: str) -> str:
    return f'<a class="id" href="{e(fact_href(fact_id))}">{e(fact_id)}</a>'


def _note(text: str | None) -> str:
    return f'<p class="notice" role="status">{e(text)}</p>' if text else ""


def _alert(text: str | None) -> str:
    return f'<p class="notice refused" role="alert">{e(text)}</p>' if text else ""


def _excerpt(text: str) -> str:
    """A fact's text as a choice's label: one line, cut at a word."""
    line = " ".join(text.split())
    if len(line) <= _LABEL_CHARS:
        return line
    return line[:_LABEL_CHARS].rsplit(" ", 1)[0] + " …"


def review_body(proposals: int, conflicts: int, due: int, *, more: int) -> str:
    def count(n: int) -> str:
        return f"{n}+" if n >= more else str(n)

    return (
        '<main class="single"><h1>Review</h1>'
        '<p class="note">Automation may propose; only a decision here (or on the command '
        "line) changes what the memory holds, and the log says who decided and why.</p>"
        '<ul class="review">'
        f'<li><a href="/proposals">Proposals</a> <span class="count">{count(proposals)} '
        "open</span></li>"
        f'<li><a href="/conflicts">Conflicts</a> <span class="count">{count(conflicts)} '
        "open</span></li>"
        f'<li><a href="/due">Due for review</a> <span class="count">{count(due)} '
        "stale</span></li></ul></main>"
    )


# -------------------------------------------------------------------------- proposals


def proposals_body(rows: Sequence[ProposalSummary], status: str) -> str:
    tabs = " · ".join(
        f"<b>{e(s)}</b>" if s == status else f'<a href="/proposals?status={e(s)}">{e(s)}</a>'
        for s in ("open", "approved", "rejected", "all")
    )
    head = f'<main class="single"><h1>Proposals</h1><p class="note">{tabs}</p>'
    if not rows:
        return head + '<p class="empty">No proposal to show.</p></main>'
    items = "".join(
        f'<li><a href="{e(proposal_href(p.id))}">{e(p.title or "untitled proposal")}</a>'
        f'<div class="info"><span class="badge">{e(p.status)}</span>'
        f"<span>{plural(p.item_count, 'item')}</span>"
        f"<span>by {e(p.proposer)}</span>"
        + (f"<span>source {e(p.source)}</span>" if p.source else "")
        + f"<span>{time_text(p.opened_at)}</span>"
        + (f"<span>decided by {e(p.decided_by)}</span>" if p.decided_by else "")
        + f'<span class="id">{e(p.id)}</span></div></li>'
        for p in rows
    )
    return head + f'<ol class="facts">{items}</ol></main>'


def _value(value: Any) -> str:
    if isinstance(value, Mapping):
        rows = "".join(f"<li><code>{e(k)}</code> {_value(v)}</li>" for k, v in value.items())
        return f'<ul class="fields">{rows}</ul>'
    if isinstance(value, list | tuple):
        return "".join(f'<span class="tag">{_value(v)}</span>' for v in value) or "—"
    if isinstance(value, float):
        return f"{value:.3f}"
    return e(value)


_SHOWN_APART = ("type", "fact_id", "new_id", "content", "path", "kind", "reason")


def _item(
    item: ProposalItem,
    target: FactDetail | None,
    checkbox: str,
    made: FactDetail | None = None,
    edit: str = "",
) -> str:
    fields = dict(item.fields)
    what = {
        "create": "create",
        "update": "update",
        "archive": "archive",
        "supersede": "correct",
    }.get(item.type, item.type)
    head = f'<span class="badge">{e(what)}</span>'
    if fields.get("kind"):
        head += " " + kind_label(str(fields["kind"]))
    if fields.get("path"):
        head += " at " + link(str(fields["path"]))
    if item.fact_id and item.type != "create":
        head += " fact " + _id_link(item.fact_id)
    if made is not None:  # an applied create: the fact it made, if the reader may read it
        head += " made " + _id_link(str(made.fact.id))
    body = ""
    if target is not None:
        body += (
            '<p class="note">now: '
            f'<span class="content">{render_content(target.fact.content)}</span></p>'
        )
    if fields.get("content"):
        body += f'<p class="content">{render_content(str(fields["content"]))}</p>'
    if fields.get("reason"):
        body += f'<p class="note">why: {e(fields["reason"])}</p>'
    rest = {k: v for k, v in fields.items() if k not in _SHOWN_APART}
    if rest:
        body += "".join(
            f'<div class="info"><code>{e(k)}</code> {_value(v)}</div>' for k, v in rest.items()
        )
    state = ""
    if item.applied is True:
        state = ' <span class="badge fresh">applied</span>'
    elif item.applied is False:
        state = ' <span class="badge">declined</span>'
    return (
        f'<li id="item-{e(item.number)}"><div class="item-head">{checkbox}'
        f'<span class="number">{e(item.number)}.</span> {head}{state}{edit}</div>{body}</li>'
    )


def proposal_body(
    proposal: Proposal,
    targets: Mapping[str, FactDetail],
    token: Token,
    *,
    may_decide: bool,
    notice: str | None = None,
) -> str:
    p = proposal
    is_open = p.status == "open"
    deciding = is_open and may_decide
    action = proposal_href(p.id) + "/approve"
    items = []
    for item in p.items:
        box = ""
        if deciding:
            box = (
                f'<input type="checkbox" form="approve" name="item" value="{e(item.number)}" '
                f'id="check-{e(item.number)}" checked aria-label="item {e(item.number)}">'
            )
        target = targets.get(item.fact_id) if item.fact_id and item.type != "create" else None
        made = targets.get(item.fact_id) if item.fact_id and item.type == "create" else None
        edit = ""
        if deciding:  # change or drop the item on its own page (:mod:`.proposal_edit`)
            href = f"{proposal_href(p.id)}/item/{item.number}"
            verb = "edit or drop" if item.type in ("create", "supersede") else "drop"
            edit = f' <a class="edit" href="{e(href)}">{verb}</a>'
        items.append(_item(item, target, box, made, edit))
    meta = (
        '<dl class="meta">'
        f"<div><dt>status</dt><dd>{e(p.status)}</dd></div>"
        f"<div><dt>items</dt><dd>{len(p.items)}</dd></div>"
        f"<div><dt>proposed by</dt><dd>{e(p.proposer or '—')}</dd></div>"
        f"<div><dt>source</dt><dd>{e(p.source or '—')}</dd></div>"
        f"<div><dt>opened</dt><dd>{time_text(p.opened_at)}</dd></div>"
        + (
            f"<div><dt>decided by</dt><dd>{e(p.decided_by)}</dd></div>"
            f"<div><dt>decided</dt><dd>{time_text(p.decided_at)}</dd></div>"
            if p.decided_by
            else ""
        )
        + "</dl>"
    )
    if p.reason:
        meta += f'<p class="note">reason: <span class="reason">{e(p.reason)}</span></p>'
    forms = ""
    if deciding:
        forms = (
            f'<form id="approve" class="decide" method="post" action="{e(action)}">'
            f"{token(action)}"
            f'<input type="hidden" name="version" value="{p.version}">'
            '<label>Reason (optional) <input type="text" name="reason" maxlength="1000">'
            "</label>"
            '<button type="submit" name="scope" value="chosen">Approve the checked items'
            "</button>"
            '<button type="submit" name="scope" value="all" class="plain">Approve all</button>'
            "</form>"
            f'<form class="decide" method="post" action="{e(proposal_href(p.id))}/reject">'
            f"{token(proposal_href(p.id) + '/reject')}"
            '<label>Reason <input type="text" name="reason" maxlength="1000">'
            '</label><button type="submit" class="plain">Reject</button></form>'
            '<p class="note">Items left unchecked are declined: an approval closes the '
            "proposal.</p>"
        )
    elif is_open:
        forms = f'<p class="note">{_ASK_A_PERSON.format(id=e(p.id))}</p>'
    return (
        '<main class="single"><nav class="crumbs"><ol><li><a href="/proposals">proposals</a>'
        "</li></ol></nav>"
        f'<h1>{e(p.title or "Proposal")} <span class="id">{e(p.id)}</span></h1>'
        f"{_note(notice)}{meta}<h2>Items</h2>"
        f'<ol class="facts items">{"".join(items)}</ol>{forms}</main>'
    )


# -------------------------------------------------------------------------- conflicts


def conflicts_body(rows: Sequence[ConflictRecord], status: str) -> str:
    tabs = " · ".join(
        f"<b>{e(s)}</b>" if s == status else f'<a href="/conflicts?status={e(s)}">{e(s)}</a>'
        for s in ("open", "resolved", "all")
    )
    head = f'<main class="single"><h1>Conflicts</h1><p class="note">{tabs}</p>'
    if not rows:
        return head + '<p class="empty">No conflict to show.</p></main>'
    items = "".join(
        f'<li><a href="{e(conflict_href(c.id))}">{e(c.conflict_class)} of '
        f"{plural(len(c.members), 'fact')}</a>"
        f'<p class="content">' + " ≠ ".join(render_content(m.content) for m in c.members) + "</p>"
        f'<div class="info"><span class="badge">{e(c.status)}</span>'
        f"<span>score {c.score:.2f}</span><span>{e(', '.join(c.findings))}</span>"
        f"<span>{time_text(c.opened_at)}</span>"
        f'<span class="id">{e(c.id)}</span></div></li>'
        for c in rows
    )
    return head + f'<ol class="facts">{items}</ol></main>'


def _evidence(detail: FactDetail) -> str:
    if not detail.evidence:
        return '<p class="empty">No evidence.</p>'
    rows = "".join(
        f'<li><span class="badge">{e(ev.type.value)}</span> '
        f'<span class="evidence-value">{e(ev.value)}</span>'
        + (f'<p class="note">{e(ev.note)}</p>' if ev.note else "")
        + "</li>"
        for ev in detail.evidence
    )
    return f'<ol class="evidence">{rows}</ol>'


def _member(detail: FactDetail, suggested: bool, kept: bool) -> str:
    fact = detail.fact
    marks = ""
    if suggested:
        marks += ' <span class="badge fresh">suggested keep</span>'
    if kept:
        marks += ' <span class="badge fresh">kept</span>'
    stale = '<span class="badge stale">stale</span>' if detail.stale else "fresh"
    attrs = "".join(
        f'<tr><th scope="row"><code>{e(n)}</code></th><td>{v}</td></tr>'
        for n, _, v in attribute_rows(fact)
    )
    return (
        f'<section class="member" id="member-{e(fact.id)}" aria-label="fact {e(fact.id)}">'
        f"<h2>{kind_label(fact.kind)} {_id_link(fact.id)}{marks}</h2>"
        f'<p class="content">{render_content(fact.content)}</p>'
        '<dl class="meta">'
        f"<div><dt>confidence</dt><dd>{detail.confidence:.3f}</dd></div>"
        f"<div><dt>c_eff</dt><dd>{detail.c_eff:.3f}</dd></div>"
        f"<div><dt>staleness</dt><dd>{stale}</dd></div>"
        f"<div><dt>state</dt><dd>{e(fact.state)}</dd></div>"
        f"<div><dt>path</dt><dd>{link(fact.path)}</dd></div>"
        f"<div><dt>created</dt><dd>{time_text(fact.created_at)}</dd></div>"
        "</dl>"
        + (f'<table class="attributes"><tbody>{attrs}</tbody></table>' if attrs else "")
        + f"<h3>Evidence</h3>{_evidence(detail)}</section>"
    )


def _choices(record: ConflictRecord, details: Sequence[FactDetail], chosen: str | None) -> str:
    """The resolve form's choices, each labelled with the facts' text: keep one (the
    others archived), merge the others into one (as ``conflict resolve --merge``), or
    keep both. ``chosen``: the one checked (None: keep the suggested fact)."""
    c = record
    active = [d for d in details if d.fact.state == "active"]

    def choice(value: str, label: str, suggested: bool = False) -> str:
        checked = value == chosen if chosen is not None else suggested
        mark = " checked" if checked else ""
        return (
            f'<label class="choice"><input type="radio" name="choice" value="{e(value)}"'
            f"{mark}> {label}</label>"
        )

    def quoted(d: FactDetail) -> str:
        return f'“{e(_excerpt(d.fact.content))}” <span class="id">{e(d.fact.id)}</span>'

    out = [
        choice(
            f"keep:{d.fact.id}",
            f"<b>keep</b> {quoted(d)}; the others are archived",
            d.fact.id == c.suggested_keep,
        )
        for d in active
    ]
    if len(active) > 1:
        out += [
            choice(
                f"merge:{d.fact.id}",
                f"<b>merge</b> the others into {quoted(d)}: their aliases and evidence join it",
            )
            for d in active
        ]
    if c.conflict_class != "stale":
        out.append(choice("both", "<b>keep both</b>: they are different facts"))
    return "".join(out)


def conflict_body(
    record: ConflictRecord,
    details: Sequence[FactDetail],
    token: Token,
    *,
    may_decide: bool,
    notice: str | None = None,
    error: str | None = None,
    chosen: str | None = None,
    reason: str = "",
) -> str:
    """One conflict side by side; its resolve form for a subject who may decide here,
    with ``error`` (a refused form, its ``chosen`` choice and ``reason`` kept) above it."""
    c = record
    members = "".join(
        _member(d, d.fact.id == c.suggested_keep, d.fact.id == c.kept_id) for d in details
    )
    meta = (
        '<dl class="meta">'
        f"<div><dt>class</dt><dd>{e(c.conflict_class)}</dd></div>"
        f"<div><dt>status</dt><dd>{e(c.status)}</dd></div>"
        f"<div><dt>score</dt><dd>{c.score:.2f}</dd></div>"
        f"<div><dt>found by</dt><dd>{e(c.detected_by)}</dd></div>"
        f"<div><dt>opened</dt><dd>{time_text(c.opened_at)}</dd></div>"
        + (f"<div><dt>resolved by</dt><dd>{e(c.resolved_by)}</dd></div>" if c.resolved_by else "")
        + (f"<div><dt>outcome</dt><dd>{e(c.outcome)}</dd></div>" if c.outcome else "")
        + "</dl>"
        f'<p class="note">findings: {e(", ".join(c.findings) or "—")}</p>'
    )
    if c.reason:
        meta += f'<p class="note">reason: <span class="reason">{e(c.reason)}</span></p>'
    form = ""
    if c.status == "open" and may_decide:
        action = conflict_href(c.id) + "/resolve"
        # No `required`: a missing choice or reason is the server's one visible line
        # (a browser's own bubble leaves no trace on the page).
        form = (
            f'<form class="decide resolve" method="post" action="{e(action)}" novalidate>'
            f"{token(action)}{_alert(error)}"
            f"<fieldset><legend>Resolve</legend>{_choices(c, details, chosen)}</fieldset>"
            '<label>Reason <input type="text" name="reason" maxlength="1000" '
            f'value="{e(reason)}"></label>'
            '<button type="submit">Resolve</button></form>'
        )
    elif c.status == "open":
        command = f"<code>embornal conflict resolve {e(c.id)}</code>"
        form = f'<p class="note">{_READ_ONLY.format(command=command)}</p>'
    return (
        '<main class="wide"><nav class="crumbs"><ol><li><a href="/conflicts">conflicts</a>'
        "</li></ol></nav>"
        f'<h1>A {e(c.conflict_class)} <span class="id">{e(c.id)}</span></h1>'
        f'{_note(notice)}{meta}<div class="side-by-side">{members}</div>{form}</main>'
    )


# -------------------------------------------------------------------------------- due


def due_body(
    rows: Sequence[DueFact], token: Token, *, may_decide: bool, notice: str | None = None
) -> str:
    head = (
        '<main class="single"><h1>Due for review</h1>'
        '<p class="note">Facts whose effective confidence fell below their kind\'s '
        "threshold, most urgent first. Confirming one vouches for it again.</p>"
        f"{_note(notice)}"
    )
    if rows and not may_decide:
        command = "<code>embornal memory confirm ID</code>"
        head += f'<p class="note">{_READ_ONLY.format(command=command)}</p>'
    if not rows:
        return head + '<p class="empty">Nothing is due for review.</p></main>'
    items = []
    for d in rows:
        action = fact_href(d.fact.id) + "/confirm"
        form = (
            f'<form class="decide inline" method="post" action="{e(action)}">{token(action)}'
            '<input type="text" name="reason" maxlength="1000" placeholder="why (optional)" '
            f'aria-label="reason for {e(d.fact.id)}">'
            '<button type="submit">Confirm</button></form>'
        )
        items.append(
            f'<li id="due-{e(d.fact.id)}"><p class="content">{render_content(d.fact.content)}</p>'
            f'<div class="info">{kind_label(d.fact.kind)}{link(d.fact.path)}'
            f"<span>c_eff {d.c_eff:.3f} &lt; {d.threshold:.2f}</span>"
            f"<span>confidence {d.confidence:.3f}</span>"
            f"<span>since {time_text(d.since)}</span>{_id_link(d.fact.id)}</div>"
            f"{form if may_decide else ''}</li>"
        )
    return head + f'<ol class="facts">{"".join(items)}</ol></main>'
