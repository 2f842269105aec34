"""Editing one item of an open proposal from the wiki: its page, with a form to change the
item's content, path, kind and tags (a ``create`` or ``supersede`` item; the others can
only be dropped) and a form to drop it, and the item a posted form makes.

The forms post to ``/proposal/<id>/edit`` (:mod:`.review_routes`), with the same checks as
the review forms (this site, the form token, a person), and the memory edits the proposal
as ``embornal proposal edit`` does (``Memory.edit_proposal``: the item replaced in place,
keeping its number and the id of the fact it will make; or dropped). Each form names the
version of the proposal its page showed: one edited since is refused, and the page comes
back with what was typed kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from embornal.interfaces.http.wiki.common import e, render_content
from embornal.service.proposals.results import Proposal, ProposalItem

__all__ = [
    "EDITABLE",
    "ItemForm",
    "edited_item",
    "item_edit_body",
    "item_edit_href",
    "item_form_of",
]

Token = Callable[[str], str]

#: The item types whose content, kind and tags the page changes (a create's path too).
EDITABLE = ("create", "supersede")


@dataclass(frozen=True)
class ItemForm:
    """What the edit form holds: the item's fields as text (as stored, or as typed)."""

    content: str = ""
    path: str = ""
    kind: str = ""
    tags: str = ""
    reason: str = ""


def item_edit_href(proposal_id: str, number: str) -> str:
    return f"/proposal/{proposal_id}/item/{number}"


def _tags_text(tags: Any) -> str:
    if isinstance(tags, Mapping):
        return ", ".join(f"{k}={v}" for k, v in tags.items())
    if isinstance(tags, list | tuple):
        return ", ".join(str(t) for t in tags)
    return ""


def item_form_of(item: ProposalItem) -> ItemForm:
    """The form of an item as the proposal holds it."""
    f = item.fields
    return ItemForm(
        content=str(f.get("content") or ""),
        path=str(f.get("path") or ""),
        kind=str(f.get("kind") or ""),
        tags=_tags_text(f.get("tags")),
    )


def edited_item(item: ProposalItem, form: ItemForm) -> dict[str, Any]:
    """The item as the form changes it: its other fields (the fact it acts on, the id the
    fact it makes will have, its attributes, sources) kept; an empty kind or tags field
    takes the key out. The memory checks the result as a whole."""
    out: dict[str, Any] = {"type": item.type, **item.fields}
    out["content"] = form.content
    if item.type == "create":
        out["path"] = form.path
    for key, value in (
        ("kind", form.kind.strip()),
        ("tags", [t.strip() for t in form.tags.replace("\n", ",").split(",") if t.strip()]),
    ):
        if value:
            out[key] = value
        else:
            out.pop(key, None)
    return out


def _field(label: str, name: str, value: str, hint: str = "") -> str:
    extra = f' <span class="note">{e(hint)}</span>' if hint else ""
    return (
        f'<label class="field">{e(label)}{extra}'
        f'<input type="text" name="{name}" value="{e(value)}" maxlength="1000"></label>'
    )


def item_edit_body(
    proposal: Proposal,
    item: ProposalItem,
    token: Token,
    *,
    form: ItemForm | None = None,
    error: str | None = None,
) -> str:
    """The page of one item of an open proposal, for a subject who may decide here: its
    edit form (``form``: what was typed, kept after ``error``) and its drop form."""
    p = proposal
    action = f"/proposal/{p.id}/edit"
    shown = form if form is not None else item_form_of(item)
    alert = f'<p class="notice refused" role="alert">{e(error)}</p>' if error else ""
    hidden = (
        f"{token(action)}"
        f'<input type="hidden" name="version" value="{p.version}">'
        f'<input type="hidden" name="item" value="{e(item.number)}">'
    )
    edit = ""
    if item.type in EDITABLE:
        path = (
            _field("Path", "path", shown.path, "where the fact goes")
            if item.type == "create"
            else ""
        )
        edit = (
            f'<form class="decide edit-item" method="post" action="{e(action)}" novalidate>'
            f"{hidden}{alert}"
            '<label class="field">Content'
            f'<textarea name="content" rows="6" maxlength="100000">{e(shown.content)}'
            "</textarea></label>"
            f"{path}{_field('Kind', 'kind', shown.kind, 'empty: a plain fact')}"
            f"{_field('Tags', 'tags', shown.tags, 'key=value, separated by commas')}"
            f"{_field('Reason (optional)', 'reason', shown.reason)}"
            '<button type="submit" name="do" value="save">Save the item</button></form>'
        )
    else:
        now = "".join(
            f'<div class="info"><code>{e(k)}</code> {e(v)}</div>' for k, v in item.fields.items()
        )
        edit = (
            f"{alert}{now}"
            f'<p class="note">A {e(item.type)} item is not changed here: drop it, and '
            "propose it again if needed.</p>"
        )
    drop = (
        f'<form class="decide" method="post" action="{e(action)}">{hidden}'
        '<label>Reason (optional) <input type="text" name="reason" maxlength="1000"></label>'
        '<button type="submit" name="do" value="drop" class="plain">Drop this item</button>'
        "</form>"
    )
    content = item.fields.get("content")
    stored = (
        f'<p class="note">as proposed:</p><p class="content">{render_content(str(content))}</p>'
        if content
        else ""
    )
    return (
        '<main class="single"><nav class="crumbs"><ol><li><a href="/proposals">proposals</a>'
        f'</li><li><a href="/proposal/{e(p.id)}">{e(p.title or p.id)}</a></li></ol></nav>'
        f'<h1>Item {e(item.number)} <span class="badge">{e(item.type)}</span> '
        f'<span class="id">{e(p.id)}</span></h1>{stored}{edit}{drop}'
        '<p class="note">An edit makes a new version of the proposal: approve it after '
        "reading it again.</p></main>"
    )
