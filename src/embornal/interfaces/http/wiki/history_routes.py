"""The history protocol's pages: ``/narratives``, ``/timeline`` and ``/audit`` (what the
fact page reads of the protocol is one read, ``Memory.chronicle.fact_protocol``).

Each page reads through the memory of its subject, with the same calls the CLI and REST
make (``Memory.chronicle``'s ``list_narratives``, ``narrative_history``,
``current_narrative``, ``timeline``, ``audit_log``; ``Memory.provenance``), so nothing the
subject may not read reaches a page. Reading changes nothing: no page is a recall.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from embornal.domain.bounds import MAX_LIMIT
from embornal.errors import EmbornalError
from embornal.interfaces.http.wiki.common import error_page, message, not_found, page
from embornal.interfaces.http.wiki.history_pages import (
    audit_body,
    narratives_body,
    timeline_body,
)
from embornal.service.history.chronicle_results import AuditEntry
from embornal.service.history.timeline_results import TimelineEntry
from embornal.service.memory import Memory
from embornal.service.narratives.results import Narrative, NarrativeView

__all__ = ["AUDIT_READ", "history_routes"]

#: How many of the newest decisions ``/audit`` reads, then filters by actor and action.
AUDIT_READ = MAX_LIMIT
_NARRATIVES = 200
_TIMELINE = 500
_MAX_PARAM = 200


def _param(request: Request, name: str) -> str | None:
    value = request.query_params.get(name, "").strip()
    return value or None


def history_routes(get_memory: Callable[[Request], Memory]) -> list[BaseRoute]:
    """The routes of ``/narratives``, ``/timeline`` and ``/audit``."""

    def too_long(request: Request) -> Response | None:
        if any(len(v) > _MAX_PARAM for v in request.query_params.values()):
            return message(
                request, 400, "Bad request", f"A filter holds at most {_MAX_PARAM} characters."
            )
        return None

    async def narratives_page(request: Request) -> Response:
        if (refused := too_long(request)) is not None:
            return refused
        scope = _param(request, "scope")
        try:
            memory = await run_in_threadpool(get_memory, request)

            def load() -> tuple[list[Narrative], NarrativeView | None, list[Narrative]]:
                chronicle = memory.chronicle
                if scope is None:
                    return chronicle.list_narratives(limit=_NARRATIVES), None, []
                history = chronicle.narrative_history(scope=scope, limit=_NARRATIVES)
                return [], chronicle.current_narrative(scope=scope), history

            current, view, history = await run_in_threadpool(load)
        except EmbornalError as err:
            return error_page(request, err, "/narratives")
        if scope is not None and not history:  # unknown, or nothing the subject may see
            return not_found(request, scope)
        title = "Narratives" if scope is None else f"Narrative: {scope}"
        body = narratives_body(current, scope, view, history)
        return page(request, title, body, subject=memory.subject)

    async def timeline_page(request: Request) -> Response:
        if (refused := too_long(request)) is not None:
            return refused
        session = _param(request, "session")
        start, end = _param(request, "start"), _param(request, "end")
        try:
            memory = await run_in_threadpool(get_memory, request)

            def load() -> list[TimelineEntry]:
                return memory.chronicle.timeline(
                    session=session, start=start, end=end, limit=_TIMELINE
                )

            entries = await run_in_threadpool(load)
        except EmbornalError as err:
            return error_page(request, err, "/timeline")
        if session is not None and not entries and start is None and end is None:
            return not_found(request, session)
        body = timeline_body(entries, session=session, start=start or "", end=end or "")
        title = "Timeline" if session is None else f"Timeline: {session}"
        return page(request, title, body, subject=memory.subject)

    async def audit_page(request: Request) -> Response:
        if (refused := too_long(request)) is not None:
            return refused
        actor, action = _param(request, "actor"), _param(request, "action")
        try:
            memory = await run_in_threadpool(get_memory, request)

            def load() -> list[AuditEntry]:
                return memory.chronicle.audit_log(limit=AUDIT_READ)

            read = await run_in_threadpool(load)
        except EmbornalError as err:
            return error_page(request, err, "/audit")
        shown = [
            a
            for a in read
            if (actor is None or a.actor == actor) and (action is None or a.action == action)
        ]
        body = audit_body(
            shown,
            actor=actor,
            action=action,
            actors=sorted({a.actor for a in read} | ({actor} if actor else set())),
            actions=sorted({a.action for a in read} | ({action} if action else set())),
            read=len(read),
        )
        return page(request, "Audit", body, subject=memory.subject)

    return [
        Route("/narratives", narratives_page, methods=["GET"], name="wiki_narratives"),
        Route("/timeline", timeline_page, methods=["GET"], name="wiki_timeline"),
        Route("/audit", audit_page, methods=["GET"], name="wiki_audit"),
    ]
