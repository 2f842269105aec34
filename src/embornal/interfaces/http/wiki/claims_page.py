"""``/claims``: the claims ledger, read-only: the claims the subject may see (the one
access filter, as ``recall_claims``), filtered by status, optionally as recorded at an
earlier time (``as_of``). Nothing here writes; a page view is not a recall.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from embornal.errors import EmbornalError
from embornal.interfaces.http.wiki.common import e, error_page, fact_href, message, page, time_text
from embornal.service.claims.results import ClaimList, ClaimRecord
from embornal.service.claims.views import STATUSES
from embornal.service.memory import Memory

__all__ = ["CLAIMS_SHOWN", "claims_body", "claims_routes"]

#: The claims one page lists at most (the count says how many matched).
CLAIMS_SHOWN = 200
_MAX_AS_OF = 64


def _support(c: ClaimRecord) -> str:
    s = c.support
    return (
        f"<span>{s.supporting} supporting</span><span>{s.challenging} challenging</span>"
        f"<span>{s.context} context</span>"
    )


def _claim(c: ClaimRecord) -> str:
    statement = "[redacted]" if c.redacted or c.statement is None else c.statement
    about = "".join(f'<a class="id" href="{e(fact_href(fid))}">{e(fid)}</a>' for fid in c.about)
    marks = ""
    if c.review_required:
        marks += ' <span class="badge stale">review required</span>'
    if c.eligible_for_recall:
        marks += ' <span class="badge fresh">in recall</span>'
    return (
        f'<li id="claim-{e(c.id)}"><p class="content">{e(statement)}</p>'
        f'<div class="info"><span class="badge">{e(c.status)}</span>{marks}'
        f"<span>{e(c.claim_type)}</span><span>scope {e(c.scope)}</span>{_support(c)}"
        f"<span>by {e(c.owner)}</span><span>{time_text(c.recorded_at)}</span>"
        f'<span class="id">{e(c.id)}</span></div>'
        + (f'<div class="info"><span>about</span>{about}</div>' if about else "")
        + "</li>"
    )


def claims_body(found: ClaimList, as_of: str) -> str:
    status = found.status
    keep = f"&amp;as_of={e(as_of)}" if as_of else ""
    tabs = " · ".join(
        f"<b>{e(s)}</b>" if s == status else f'<a href="/claims?status={e(s)}{keep}">{e(s)}</a>'
        for s in STATUSES
    )
    when = (
        '<form class="search" method="get" action="/claims">'
        f'<input type="hidden" name="status" value="{e(status)}">'
        f'<label>as of <input type="text" name="as_of" value="{e(as_of)}" '
        f'maxlength="{_MAX_AS_OF}" placeholder="2026-01-01T12:00:00Z"></label>'
        '<button type="submit" class="plain">Read</button></form>'
    )
    head = (
        '<main class="single"><h1>Claims</h1>'
        '<p class="note">The ledger of claims you may read: what was asserted, the '
        "evidence for and against it, and its status. <i>current</i>: the adopted claims "
        f'whose review is current (what recall uses).</p><p class="note">{tabs}</p>{when}'
    )
    if found.as_of is not None:
        head += f'<p class="note">As recorded at {time_text(found.as_of)}.</p>'
    if not found.claims:
        return head + '<p class="empty">No claim to show.</p></main>'
    more = (
        f'<p class="note">The first {len(found.claims)} of {found.eligible_count}.</p>'
        if found.truncated
        else ""
    )
    items = "".join(_claim(c) for c in found.claims)
    return head + f'{more}<ol class="facts">{items}</ol></main>'


def claims_routes(get_memory: Callable[[Request], Memory]) -> list[BaseRoute]:
    """``/claims`` over ``get_memory`` (the same as the wiki's other pages)."""

    async def claims_page(request: Request) -> Response:
        status = request.query_params.get("status", "current")
        as_of = request.query_params.get("as_of", "").strip()
        if status not in STATUSES:
            return message(request, 400, "Bad request", "Unknown status.")
        if len(as_of) > _MAX_AS_OF:
            return message(request, 400, "Bad request", "The time is too long.")
        try:
            memory = await run_in_threadpool(get_memory, request)
            found = await run_in_threadpool(
                lambda: memory.chronicle.recall_claims(
                    status=status, as_of=as_of or None, limit=CLAIMS_SHOWN
                )
            )
        except EmbornalError as err:
            return error_page(request, err, "/claims")
        return page(request, "Claims", claims_body(found, as_of), subject=memory.subject)

    return [Route("/claims", claims_page, methods=["GET"], name="wiki_claims")]
