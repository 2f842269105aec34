"""The corrections of a fact on its page, and the page that stores a new fact (HTML text).

A fact's page shows, to a subject who may decide on these pages (a person; decision
0148), one small form per correction it may make on that fact
(:meth:`~embornal.service.memory.Memory.permitted`): supersede, forget, confirm,
contradict, pin or unpin, and its lifetime for an active fact; restore for a forgotten
one. Each is a ``<details>`` (no script) whose form posts to this site with the wiki's
form token (:mod:`.forms`). A form the memory refused for its input comes back open, its
error above it (``role="alert"``) and what was typed kept (decision 0158). An assistant's
token reads the same page with one line saying how a person corrects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from embornal.domain.facts.fact import DEFAULT_KIND
from embornal.domain.spine.justification import LifetimePolicy
from embornal.interfaces.http.wiki.common import e, fact_href
from embornal.service.results import FactDetail

__all__ = [
    "CORRECTION_VERBS",
    "DONE",
    "Typed",
    "corrections_section",
    "new_fact_body",
]

Token = Callable[[str], str]

#: The verbs a fact page posts to (``/fact/<id>/<verb>``) and the operation of each;
#: ``confirm`` posts to the review pages' route (``back=fact`` brings it here again).
CORRECTION_VERBS: Mapping[str, str] = {
    "supersede": "supersede",
    "forget": "forget",
    "restore": "restore",
    "contradict": "contradict",
    "pin": "pin",
    "unpin": "unpin",
    "lifetime": "set_lifetime",
}

#: The line a fact's page shows after each correction (``?done=``).
DONE: Mapping[str, str] = {
    "stored": "Stored: this is the new fact.",
    "superseded": "Superseded: this fact corrects the one it points at, kept in the history.",
    "forgotten": "Forgotten: out of recall, kept in the history with its reason; restorable.",
    "restored": "Restored: back in recall.",
    "confirmed": "Confirmed: it is fresh again.",
    "contradicted": "Contradicted: its confidence went down.",
    "pinned": "Pinned: it ranks higher in recall.",
    "unpinned": "Unpinned.",
    "lifetime": "Lifetime set.",
}

_MAX_REASON = 1000
_ASSISTANT = (
    "On these pages you read as an assistant (the token is an assistant's): a person "
    "corrects facts here. Log in with a person's token "
    "(<code>embornal token add SUBJECT --person</code>), or use "
    "<code>embornal memory supersede ID</code> (or <code>forget</code>, <code>restore</code>, "
    "<code>confirm</code>, <code>contradict</code>, <code>pin</code>)."
)


@dataclass(frozen=True)
class Typed:
    """A correction form the memory refused for its input: which, why, and what was typed."""

    verb: str
    error: str
    fields: Mapping[str, str] = field(default_factory=dict)


def _alert(text: str) -> str:
    return f'<p class="notice refused" role="alert">{e(text)}</p>'


def _value(typed: Typed | None, verb: str, name: str, default: str = "") -> str:
    if typed is not None and typed.verb == verb:
        return typed.fields.get(name, default)
    return default


def _reason(typed: Typed | None, verb: str, *, required: bool) -> str:
    label = "Reason" if required else "Reason (optional)"
    return (
        f'<label>{label} <input type="text" name="reason" maxlength="{_MAX_REASON}" '
        f'value="{e(_value(typed, verb, "reason"))}"></label>'
    )


def _form(
    action: str, token: Token, verb: str, title: str, inner: str, button: str, typed: Typed | None
) -> str:
    """One correction: a ``<details>`` (open when its form was refused) holding the form.
    No ``required``: a missing value is the server's one visible line."""
    refused = typed is not None and typed.verb == verb
    error = _alert(typed.error) if refused and typed is not None else ""
    return (
        f'<details class="correct"{" open" if refused else ""}><summary>{e(title)}</summary>'
        f'<form class="correct" method="post" action="{e(action)}" novalidate>'
        f"{token(action)}{error}{inner}"
        f'<button type="submit">{e(button)}</button></form></details>'
    )


def _lifetime_choices(current: str) -> str:
    options = []
    for policy in LifetimePolicy:
        chosen = " selected" if policy.value == current else ""
        options.append(f'<option value="{e(policy.value)}"{chosen}>{e(policy.value)}</option>')
    return "".join(options)


def corrections_section(
    detail: FactDetail,
    permitted: frozenset[str],
    token: Token,
    *,
    may_decide: bool,
    typed: Typed | None = None,
    notice: str | None = None,
) -> str:
    """The section of a fact's page that corrects it: its forms, the line a correction
    left (``notice``), or, for an assistant's token, how a person corrects."""
    fact = detail.fact
    done = f'<p class="notice" role="status">{e(notice)}</p>' if notice else ""
    if not may_decide:  # a note where a person would find forms
        shown = fact.state in ("active", "forgotten")
        return done + (f'<p class="note corrections">{_ASSISTANT}</p>' if shown else "")
    base = fact_href(fact.id)
    forms: list[str] = []

    def add(verb: str, title: str, inner: str, button: str) -> None:
        if CORRECTION_VERBS.get(verb, verb) in permitted:
            forms.append(_form(f"{base}/{verb}", token, verb, title, inner, button, typed))

    if fact.state == "active":
        content = _value(typed, "supersede", "content", fact.content)
        add(
            "supersede",
            "Supersede: correct its content",
            '<label>New content <textarea name="content" rows="4">'
            f"{e(content)}</textarea></label>{_reason(typed, 'supersede', required=True)}",
            "Supersede",
        )
        add(
            "confirm",
            "Confirm: vouch for it",
            '<input type="hidden" name="back" value="fact">'
            + _reason(typed, "confirm", required=False),
            "Confirm",
        )
        add(
            "contradict",
            "Contradict: dispute it",
            '<label>Contradicted by (a fact id, optional) <input type="text" name="by" '
            f'maxlength="26" value="{e(_value(typed, "contradict", "by"))}"></label>'
            + _reason(typed, "contradict", required=True),
            "Contradict",
        )
        verb = "unpin" if detail.pinned else "pin"
        add(verb, verb.capitalize(), _reason(typed, verb, required=False), verb.capitalize())
        policy, _, day = detail.lifetime.partition(":")  # "standard", "until:2027-01-01"
        current = _value(typed, "lifetime", "lifetime", policy)
        until = _value(typed, "lifetime", "until", day)
        add(
            "lifetime",
            f"Lifetime: now {detail.lifetime}",
            f'<label>Lifetime <select name="lifetime">{_lifetime_choices(current)}</select>'
            '</label><label>Until (for an until lifetime) <input type="date" name="until" '
            f'value="{e(until)}"></label>{_reason(typed, "lifetime", required=False)}',
            "Set the lifetime",
        )
        add(
            "forget",
            "Forget: take it out of recall",
            _reason(typed, "forget", required=True),
            "Forget",
        )
    elif fact.state == "forgotten":
        add(
            "restore",
            "Restore: bring it back into recall",
            _reason(typed, "restore", required=True),
            "Restore",
        )
    if not forms:
        return done
    return (
        f'<section class="corrections" aria-label="Corrections"><h2>Correct this fact</h2>'
        f"{done}{''.join(forms)}</section>"
    )


# ------------------------------------------------------------------------------- new


def new_fact_body(
    token: Token,
    kinds: tuple[str, ...],
    *,
    may_store: bool,
    error: str | None = None,
    fields: Mapping[str, str] | None = None,
) -> str:
    """The page that stores a new fact: path, content, kind, attributes, tags, source."""
    head = (
        '<main class="single"><h1>New fact</h1>'
        '<p class="note">Stored as you, with your actor kind; it shows in recall at once.</p>'
    )
    if not may_store:
        return (
            head + '<p class="note">This subject may not store a fact on these pages: a '
            "person with the right to create one does (<code>embornal memory store</code>)."
            "</p></main>"
        )
    got = dict(fields or {})
    kind = got.get("kind", DEFAULT_KIND)
    options = "".join(
        f'<option value="{e(k)}"{" selected" if k == kind else ""}>{e(k)}</option>' for k in kinds
    )
    alert = _alert(error) if error else ""

    def text(name: str, label: str, hint: str = "") -> str:
        return (
            f'<label><span>{label}</span> <input type="text" name="{name}" maxlength="4000" '
            f'value="{e(got.get(name, ""))}"{hint}></label>'
        )

    path = text("path", "Path", ' placeholder="/notes/topic"')
    return head + (
        f'<form class="correct new" method="post" action="/new" novalidate>{token("/new")}'
        f"{alert}{path}"
        f'<label>Content <textarea name="content" rows="5">{e(got.get("content", ""))}'
        f'</textarea></label><label>Kind <select name="kind">{options}</select></label>'
        "<label><span>Attributes of its kind (one <code>field=value</code> a line; a "
        "<code>fact</code> needs none)</span> "
        f'<textarea name="attributes" rows="3">{e(got.get("attributes", ""))}</textarea>'
        f"</label>{text('tags', 'Tags (<code>key=value</code>, comma-separated)')}"
        f"{text('source', 'Source (optional: where it comes from)')}"
        f"{text('reason', 'Reason (optional)')}"
        '<button type="submit">Store</button></form></main>'
    )
