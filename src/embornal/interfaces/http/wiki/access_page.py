"""A fact's access log on the wiki, ``/fact/<id>/access``: who recalled it and when, with
the changes of its history, newest first (decision 0160).

The page shows one read of the memory as its subject (``Memory.chronicle.fact_access``):
the log records a reinforcing recall with its actor and time, not a read of a page or a
``show``; the subject sees its own recalls, and every subject's when it owns the fact or
reads everything. Reading the page records nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from embornal.interfaces.http.wiki.common import (
    e,
    fact_href,
    load_by_id,
    page,
    plural,
    time_text,
)
from embornal.interfaces.http.wiki.history_pages import action_label
from embornal.service.facts.read_results import AccessEntry, FactAccess
from embornal.service.memory import Memory

__all__ = ["access_body", "access_href", "access_link", "access_routes"]

_WHAT_IS_RECORDED = (
    "The log records each recall that lifted this fact's strength (a search or recall "
    "that reinforces, the default), with who recalled it and when; opening a page, "
    "<code>show</code>, a read-only recall and a recall as of a past time are not recorded."
)


def access_href(fact_id: str) -> str:
    return fact_href(fact_id) + "/access"


def access_link(fact_id: str) -> str:
    """The fact page's link to its access log."""
    return (
        f'<p class="note"><a href="{e(access_href(fact_id))}">Access log</a>: who recalled '
        "this fact, and when.</p>"
    )


def _entry(a: AccessEntry) -> str:
    who = f'<span class="badge">{e(a.actor_kind)}</span> {e(a.actor)}'
    if a.read:
        what = "recalled" + (f" with {plural(a.facts - 1, 'other fact')}" if a.facts > 1 else "")
    else:
        what = e(action_label(a.action))
    why = f'<p class="note">why: {e(a.reason)}</p>' if a.reason else ""
    kind = "read" if a.read else "change"
    return (
        f'<li class="access {kind}"><div class="info">{time_text(a.at)} '
        f'<span class="badge{" fresh" if a.read else ""}">{kind}</span> '
        f"{what} by {who}</div>{why}</li>"
    )


def access_body(log: FactAccess) -> str:
    reads = sum(1 for a in log.entries if a.read)
    notes = []
    if log.others_hidden:
        notes.append(
            f"{plural(log.others_hidden, 'recall')} by other subjects not shown: the fact's "
            "owner sees everyone's."
        )
    if log.more:
        notes.append("Older recalls are not shown (the newest are).")
    extra = "".join(f'<p class="note">{e(n)}</p>' for n in notes)
    items = "".join(_entry(a) for a in log.entries)
    listed = f'<ol class="facts access-log">{items}</ol>' if items else ""
    return (
        '<main class="single"><nav class="crumbs"><ol>'
        f'<li><a href="{e(fact_href(log.fact_id))}">fact {e(log.fact_id)}</a></li></ol></nav>'
        f'<h1>Access log <span class="id">{e(log.fact_id)}</span></h1>'
        f'<p class="note">{_WHAT_IS_RECORDED}</p>'
        f"<p>{plural(reads, 'recall')} and "
        f"{plural(len(log.entries) - reads, 'change')} shown, newest first.</p>"
        f"{extra}{listed}</main>"
    )


def access_routes(get_memory: Callable[[Request], Memory]) -> list[BaseRoute]:
    """The route of ``/fact/<id>/access``."""

    async def access_page(request: Request) -> Response:
        raw = str(request.path_params["fact_id"])
        got = await load_by_id(
            request,
            raw,
            get_memory,
            lambda memory: memory.chronicle.fact_access(raw),
            found=lambda log: log.fact_id,
            href=access_href,
        )
        if isinstance(got, Response):
            return got
        memory, log = got
        return page(
            request, f"Access log of {log.fact_id}", access_body(log), subject=memory.subject
        )

    return [Route("/fact/{fact_id}/access", access_page, methods=["GET"], name="wiki_access")]
