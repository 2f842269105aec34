"""The history protocol on the wiki (read-only): a fact's place in the protocol, and the
bodies of ``/narratives``, ``/timeline`` and ``/audit``.

Every value here came from a read of the memory as the page's subject (``provenance``,
``recall_claims``, ``list_narratives``, ``narrative_history``, ``current_narrative``,
``timeline``, ``audit_log``): the pages show what those reads return and nothing else.
The pages are lists of cards, not wide tables, so they fit a phone's screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlencode

from embornal.domain.events import Event
from embornal.domain.history.audit import action_of
from embornal.interfaces.http.wiki.common import (
    e,
    fact_href,
    plural,
    render_content,
    time_text,
)
from embornal.service.claims.results import ClaimRecord
from embornal.service.facts.read_results import FactProtocol
from embornal.service.history.chronicle_results import AuditEntry
from embornal.service.history.results import ProvenanceReport
from embornal.service.history.timeline_results import TimelineEntry
from embornal.service.narratives.results import Narrative, NarrativeView, SourceIssue

__all__ = [
    "action_label",
    "audit_body",
    "event_label",
    "narratives_body",
    "protocol_section",
    "timeline_body",
    "type_label",
]

#: What each audit action (``domain.audit.action_of``) reads as on a page.
_LABELS: Mapping[str, str] = {
    "store": "stored",
    "supersede": "stored, correcting an earlier fact",
    "update": "attributes updated",
    "forget": "forgotten",
    "restore": "restored",
    "purge": "purged",
    "confirm": "confirmed",
    "contradict": "contradicted",
    "add_evidence": "evidence added",
    "confidence_reset": "confidence reset",
    "visibility": "visibility changed",
    "lifetime": "lifetime changed",
    "pin": "pinned (an anchor)",
    "unpin": "unpinned",
    "unpin_by_sensitivity": "unpinned: flagged sensitive",
    "unpin_noop": "unpin asked (was not pinned)",
    "weight": "weight set",
    "link": "linked",
    "unlink": "unlinked",
    "merge": "merged",
    "remember": "remembered (working material)",
    "promote": "promoted (consolidated)",
    "corroborate": "corroborated",
    "tier": "tier changed",
    "review": "reviewed",
    "flag_sensitive": "flagged sensitive",
    "canonize": "put in a canon",
    "decanonize": "taken out of a canon",
    "decanonize_by_sensitivity": "taken out of a canon: flagged sensitive",
    "end_scope": "left the canon: its scope ended",
    "set_frame": "frame set",
    "set_history_context": "history context set",
    "create_claim": "claim proposed",
    "retract_evidence": "claim evidence retracted",
    "adopt_claim": "claim adopted",
    "revise_claim": "claim revised",
    "withdraw_claim": "claim withdrawn",
    "narrate": "narrative versioned",
    "review_narrative": "narrative reviewed",
    "mark_conflict": "conflict declared",
    "open_conflict": "conflict found",
    "resolve_conflict": "conflict resolved",
    "recalled": "recalled",
}

#: Why a narrative is withheld, by source issue (``domain.narratives``).
_ISSUES: Mapping[str, str] = {
    "missing": "a memory it rests on is gone",
    "forgotten": "a memory it rests on was forgotten",
    "stale_interpretation": "an interpretation it rests on is due for review",
    "insufficient_corroboration": "a memory it rests on lacks the corroboration it needs",
    "link_missing": "a link it rests on was removed",
}


def action_label(action: str) -> str:
    """A readable label for an audit action; an unknown one with its underscores spaced."""
    return _LABELS.get(action, action.replace("_", " "))


def event_label(event: Event) -> str:
    """What an event of a fact's history did, in words (a pin is ``pinned``, not the log's
    ``FactImportanceAdjusted``)."""
    return action_label(action_of(event.type, event.payload, event.reason))


def type_label(event_type: str) -> str:
    """An event type in words, without its payload (a chart's mark): the one type that
    pins, unpins and weighs is named for all three."""
    if event_type == "FactImportanceAdjusted":
        return "pin or weight changed"
    return action_label(action_of(event_type, {}, None))


def _empty(text: str) -> str:
    return f'<p class="empty">{e(text)}</p>'


def _id_link(fact_id: str) -> str:
    return f'<a class="id" href="{e(fact_href(fact_id))}">{e(fact_id)}</a>'


def _badge(text: str, extra: str = "") -> str:
    cls = f"badge {extra}".strip()
    return f'<span class="{e(cls)}">{e(text)}</span>'


def _meta(name: str, value: str, title: str = "") -> str:
    hint = f' title="{e(title)}"' if title else ""
    return f"<div{hint}><dt>{e(name)}</dt><dd>{value}</dd></div>"


def _dash() -> str:
    return '<span class="empty">—</span>'


# ----------------------------------------------------------------------- the fact page


def _gate(p: ProvenanceReport | None) -> str:
    if p is None:
        return _empty("No provenance report for this fact.")
    state = _badge("gate met", "fresh") if p.satisfied else _badge("gate not met", "stale")
    sources = (
        "".join(f'<li><span class="evidence-value">{e(s)}</span></li>' for s in p.sources)
        or '<li class="empty">No corroborating source yet.</li>'
    )
    warning = f'<p class="error">{e(p.warning)}</p>' if p.warning else ""
    return (
        f'<p class="gate">{state} {e(len(p.independent))} of {e(p.needed)} independent '
        f"{'origin' if p.needed == 1 else 'origins'} · "
        f"{plural(p.recorded, 'corroboration')} recorded</p>"
        f'<p class="note">{e(p.explanation)}</p>{warning}'
        f'<h3>Corroborating sources</h3><ul class="sources">{sources}</ul>'
    )


def _claim_card(c: ClaimRecord, fact_id: str) -> str:
    cites = [ev for ev in c.evidence if ev.memory_id == fact_id]
    how = ", ".join(sorted({ev.stance + ("" if ev.active else " (retracted)") for ev in cites}))
    if fact_id in c.about:
        how = "about it" + (f"; cites it: {how}" if how else "")
    elif how:
        how = f"cites it: {how}"
    statement = _dash() if c.statement is None else f'<span class="content">{e(c.statement)}</span>'
    return (
        f'<li><p class="content">{statement}</p><div class="info">'
        f"{_badge(c.status)}<span>{e(c.claim_type)}</span><span>scope {e(c.scope)}</span>"
        f'<span>{e(how)}</span><span class="id">{e(c.id)}</span></div></li>'
    )


def _narrative_line(n: Narrative) -> str:
    href = "/narratives?" + urlencode({"scope": n.scope})
    return (
        f'<li><a href="{e(href)}">{e(n.scope)}</a> <span class="note">'
        f"({e(n.perspective)}, version {e(n.version)})</span> {_status_badge(n)}</li>"
    )


def protocol_section(p: FactProtocol, fact_id: str) -> str:
    """The fact page's *History protocol* part."""
    items = [
        _meta("stage", e(p.stage), "working material, or consolidated"),
        _meta("tier", e(p.tier), "archive, testimony or interpretation"),
        _meta("anchor", "pinned" if p.pinned else "no", "a pinned memory is an anchor"),
        _meta("canon", e(", ".join(p.canon)) if p.canon else "none", "the active canon scopes"),
        _meta("sensitive", "yes" if p.sensitive else "no"),
        _meta("frame", e(p.frame) if p.frame else _dash()),
        _meta("session", _session_link(p.session) if p.session else _dash()),
        _meta("event at", time_text(p.event_at), "when what it tells of happened"),
        _meta("captured", time_text(p.captured_at)),
        _meta("last reviewed", time_text(p.reviewed_at)),
    ]
    claims = (
        '<ol class="facts claims">' + "".join(_claim_card(c, fact_id) for c in p.claims) + "</ol>"
        if p.claims
        else _empty("No claim this subject may see cites it.")
    )
    narratives = (
        '<ul class="plain-list">' + "".join(_narrative_line(n) for n in p.narratives) + "</ul>"
        if p.narratives
        else _empty("No narrative this subject may see rests on it.")
    )
    return (
        f'<dl class="meta protocol">{"".join(items)}</dl>'
        f"<h3>The corroboration gate</h3>{_gate(p.provenance)}"
        f"<h3>Claims that cite it</h3>{claims}"
        f"<h3>Narratives resting on it</h3>{narratives}"
    )


# ----------------------------------------------------------------------- /narratives


def _status_badge(n: Narrative) -> str:
    kind = {"current": "fresh", "stale": "stale"}.get(n.review_status, "")
    return _badge(n.review_status, kind)


def _issues(issues: Sequence[SourceIssue]) -> str:
    if not issues:
        return ""
    rows = "".join(
        f"<li>{e(_ISSUES.get(i.issue, i.issue.replace('_', ' ')))}: "
        f'<code class="id">{e(i.ref)}</code>'
        + ("" if i.live else ' <span class="note">(cleared since; review it again)</span>')
        + (f" <span class='note'>since {time_text(i.at)}</span>" if i.at else "")
        + "</li>"
        for i in issues
    )
    return f'<div class="notice"><p>Why it is withheld:</p><ul>{rows}</ul></div>'


def _refs(n: Narrative) -> str:
    parts = []
    if n.memory_ids:
        parts.append("memories " + " ".join(_id_link(i) for i in n.memory_ids))
    if n.claim_ids:
        parts.append("claims " + " ".join(f'<span class="id">{e(i)}</span>' for i in n.claim_ids))
    if n.link_ids:
        parts.append("links " + " ".join(f'<span class="id">{e(i)}</span>' for i in n.link_ids))
    return "".join(f"<span>{p}</span>" for p in parts)


def _narrative_card(n: Narrative, *, whole: bool) -> str:
    if n.content is None:
        text = '<p class="empty">Text withheld: the account is not usable as it stands.</p>'
    else:
        text = f'<p class="content">{render_content(n.content)}</p>'
    scope = (
        f"<span>scope {e(n.scope)}</span>"
        if whole
        else f'<a href="{e("/narratives?" + urlencode({"scope": n.scope}))}">{e(n.scope)}</a>'
    )
    review = ""
    if n.reviewed_at is not None:
        note = f": {e(n.review_note)}" if n.review_note else ""
        review = f"<span>reviewed {time_text(n.reviewed_at)}{note}</span>"
    reason = f'<p class="note">{e(n.reason)}</p>' if n.reason else ""
    return (
        f'<li id="narrative-{e(n.narrative_id)}">'
        f'<div class="info">{scope}<span>{e(n.perspective)}</span>'
        f"<span>version {e(n.version)}</span>{_status_badge(n)}"
        f"<span>{e(n.provenance_status)}</span>"
        + (_badge("sensitive") if n.security_sensitive else "")
        + f"</div>{text}{reason}"
        + (_issues(n.source_issues) if n.review_status != "superseded" else "")
        + f'<div class="info"><span>{time_text(n.recorded_at)} by {e(n.actor)}</span>'
        f'{review}{_refs(n)}<span class="id">{e(n.narrative_id)}</span></div></li>'
    )


def narratives_body(
    current: Sequence[Narrative],
    scope: str | None = None,
    view: NarrativeView | None = None,
    history: Sequence[Narrative] = (),
) -> str:
    """``/narratives``: each account's current version (its text withheld when it is not
    usable, with why); with a ``scope``, its account and every version of it."""
    if scope is None:
        listing = (
            '<ol class="facts">'
            + "".join(_narrative_card(n, whole=False) for n in current)
            + "</ol>"
            if current
            else _empty("No narrative this subject may see.")
        )
        return (
            '<main class="single"><h1>Narratives</h1>'
            '<p class="note">The current version of each account, the most recently '
            "versioned first. An account whose sources changed since its approval is "
            "withheld until a person reviews it; each scope's page shows its history.</p>"
            f"{listing}</main>"
        )
    notice = ""
    if view is not None and view.narrative_review is not None:
        r = view.narrative_review
        notice = (
            f'<div class="notice"><p><b>The account of {e(r.scope)} is withheld</b> '
            f"({e(r.review_status)}).</p><p>{e(r.hint)}</p></div>"
        )
    elif view is not None and view.narrative is not None:
        notice = '<p class="notice">The current version is usable.</p>'
    versions = "".join(_narrative_card(n, whole=True) for n in history)
    return (
        f'<main class="single"><p class="note"><a href="/narratives">All narratives</a></p>'
        f"<h1>Narrative: {e(scope)}</h1>{notice}"
        f'<h2>Every version, the newest first</h2><ol class="facts">{versions}</ol></main>'
    )


# ----------------------------------------------------------------------- /timeline


def _session_link(session: str) -> str:
    return f'<a href="{e("/timeline?" + urlencode({"session": session}))}">{e(session)}</a>'


def timeline_body(
    entries: Sequence[TimelineEntry], *, session: str | None, start: str, end: str
) -> str:
    """``/timeline``: the memories by event time, grouped by session."""
    form = (
        '<form class="filters" method="get" action="/timeline">'
        f'<label>session <input type="text" name="session" value="{e(session or "")}" '
        'maxlength="200"></label>'
        f'<label>from <input type="text" name="start" value="{e(start)}" '
        'placeholder="2026-01-31" maxlength="40"></label>'
        f'<label>to <input type="text" name="end" value="{e(end)}" '
        'placeholder="2026-12-31" maxlength="40"></label>'
        '<button type="submit">Show</button></form>'
    )
    groups: list[tuple[str | None, list[TimelineEntry]]] = []
    for entry in entries:
        if not groups or groups[-1][0] != entry.session_id:
            groups.append((entry.session_id, []))
        groups[-1][1].append(entry)
    out = []
    for sid, items in groups:
        head = _session_link(sid) if sid is not None else "no session"
        cards = "".join(
            f'<li id="fact-{e(t.fact.id)}"><p class="content">{render_content(t.fact.content)}'
            f'</p><div class="info"><span>{time_text(t.event_at)}</span>'
            + (
                f"<span>place {e(t.session_position)}</span>"
                if t.session_position is not None
                else ""
            )
            + f"<span>{e(t.fact.path)}</span>{_id_link(t.fact.id)}</div></li>"
            for t in items
        )
        out.append(
            f'<section class="session"><h2>Session {head}</h2><ol class="facts">{cards}'
            "</ol></section>"
        )
    listing = "".join(out) or _empty("No memory with a history context this subject may read.")
    title = f"Timeline: {e(session)}" if session else "Timeline"
    back = '<p class="note"><a href="/timeline">The whole timeline</a></p>' if session else ""
    return (
        f'<main class="single">{back}<h1>{title}</h1>'
        '<p class="note">The memories by when what they tell of happened, then their place '
        "in the session; unknown times last.</p>"
        f"{form}{listing}</main>"
    )


# ----------------------------------------------------------------------- /audit


def _filter_href(actor: str | None, action: str | None) -> str:
    params = {k: v for k, v in (("actor", actor), ("action", action)) if v}
    return "/audit" + (f"?{urlencode(params)}" if params else "")


def _target(a: AuditEntry) -> str:
    parts = []
    if a.memory_id:
        parts.append("memory " + _id_link(a.memory_id))
    if a.claim_id:
        parts.append(f'claim <span class="id">{e(a.claim_id)}</span>')
    if a.narrative_id:
        parts.append(f'narrative <span class="id">{e(a.narrative_id)}</span>')
    if a.conflict_id:
        href = "/conflict/" + a.conflict_id
        parts.append(f'conflict <a class="id" href="{e(href)}">{e(a.conflict_id)}</a>')
    return "".join(f"<span>{p}</span>" for p in parts)


def _options(name: str, chosen: str | None, values: Sequence[str], label: str) -> str:
    opts = [f'<option value=""{"" if chosen else " selected"}>any {e(label)}</option>']
    for v in values:
        sel = " selected" if v == chosen else ""
        opts.append(f'<option value="{e(v)}"{sel}>{e(v)}</option>')
    return f'<label>{e(label)} <select name="{e(name)}">{"".join(opts)}</select></label>'


def audit_body(
    entries: Sequence[AuditEntry],
    *,
    actor: str | None,
    action: str | None,
    actors: Sequence[str],
    actions: Sequence[str],
    read: int,
) -> str:
    """``/audit``: the decisions, the newest first, each with its reason; filtered by
    ``actor`` and ``action`` among the ``read`` newest the subject may see."""
    form = (
        '<form class="filters" method="get" action="/audit">'
        f"{_options('actor', actor, actors, 'actor')}"
        f"{_options('action', action, actions, 'action')}"
        '<button type="submit">Filter</button></form>'
    )
    cards = []
    for a in entries:
        reason = (
            f'<p class="content reason">{e(a.reason)}</p>'
            if a.reason
            else '<p class="empty">No reason given.</p>'
        )
        cards.append(
            f'<li id="event-{e(a.position)}"><div class="info">'
            f'<a href="{e(_filter_href(actor, a.action))}"><b>{e(action_label(a.action))}</b></a>'
            f"<span>{time_text(a.at)}</span>"
            f'<span>by <a href="{e(_filter_href(a.actor, action))}">{e(a.actor)}</a> '
            f"({e(a.actor_kind)})</span>{_target(a)}"
            f'<span class="note">event {e(a.position)}</span></div>{reason}</li>'
        )
    listing = (
        f'<ol class="facts audit">{"".join(cards)}</ol>'
        if cards
        else _empty("No decision this subject may see matches.")
    )
    shown = "" if not (actor or action) else ' <a href="/audit">Clear the filters</a>'
    return (
        '<main class="single"><h1>Audit</h1>'
        f'<p class="note">The decisions on what this subject may read, the newest first, '
        f"each with who took it and why: {plural(len(entries), 'decision')} of the "
        f"{e(read)} newest.{shown}</p>{form}{listing}</main>"
    )
