"""The corrections' routes: store a new fact (``/new``) and correct one from its page.

Each ``POST`` goes through the review forms' checks (:func:`.forms.posted`: same site,
small body, a subject, the wiki's form token for this subject and action, a subject who
may decide on these pages, decision 0148), then the ``Memory`` call of the command line
(``store``, ``supersede``, ``forget``, ``restore``, ``contradict``, ``pin``, ``unpin``,
``set_lifetime``) as the page's subject with its actor kind, so the rights table and the
read filter decide and every change is an event with that subject as its actor. A
success is ``303`` to the fact's page (a superseded fact: its successor's) saying what was
done; a form refused for its input is the same page, ``400``, the error above that form
and what was typed kept (decision 0158). Confirming posts to the review pages' route.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from embornal.domain.kinds.registry import KINDS
from embornal.errors import AmbiguousId, Conflict, EmbornalError, InvalidInput
from embornal.interfaces.http.wiki.common import (
    ID,
    e,
    error_page,
    fact_href,
    message,
    not_found,
    page,
    redirect,
)
from embornal.interfaces.http.wiki.corrections_page import (
    CORRECTION_VERBS,
    Typed,
    new_fact_body,
)
from embornal.interfaces.http.wiki.forms import FormTokens, first, posted, refused
from embornal.service.memory import Memory

__all__ = ["ShowFact", "correction_routes"]

#: The fact's page again, the refused form open with its error (routes.py renders it).
ShowFact = Callable[[Request, Memory, str, Typed], Awaitable[Response]]

_DONE = {
    "supersede": "superseded",
    "forget": "forgotten",
    "restore": "restored",
    "contradict": "contradicted",
    "pin": "pinned",
    "unpin": "unpinned",
    "lifetime": "lifetime",
}
#: The fields a correction form has; what was typed in them is shown again on a refusal.
_KEPT = ("content", "reason", "by", "lifetime", "until")
_NEW_FIELDS = ("path", "content", "kind", "attributes", "tags", "source", "reason")


def _said(err: EmbornalError) -> str:
    """The refusal as one sentence (the command line's hints name its flags: left out)."""
    text = err.message.rstrip(".") + "."
    return text[0].upper() + text[1:]


def _raw(fields: dict[str, list[str]], name: str) -> str:
    """A field as typed (content keeps its spaces and lines)."""
    return (fields.get(name) or [""])[0]


def _required_reason(fields: dict[str, list[str]], doing: str) -> str:
    reason = first(fields, "reason")
    if not reason:
        raise InvalidInput(f"{doing} needs a reason: it is kept in the history")
    return reason


def _apply(memory: Memory, verb: str, fact_id: str, fields: dict[str, list[str]]) -> str:
    """Make the correction; the id of the fact whose page shows it."""
    reason = first(fields, "reason") or None
    if verb == "supersede":
        content = _raw(fields, "content")
        why = _required_reason(fields, "a correction")
        return memory.supersede(fact_id, content, reason=why).id
    if verb == "forget":
        return memory.forget(fact_id, reason=_required_reason(fields, "forgetting")).id
    if verb == "restore":
        return memory.restore(fact_id, reason=_required_reason(fields, "restoring")).id
    if verb == "contradict":
        why = _required_reason(fields, "a contradiction")
        return memory.contradict(fact_id, by=first(fields, "by") or None, reason=why).id
    if verb == "pin":
        return memory.pin(fact_id, reason=reason).id
    if verb == "unpin":
        return memory.unpin(fact_id, reason=reason).id
    lifetime = first(fields, "lifetime")
    if lifetime == "until":
        lifetime = "until:" + first(fields, "until")
    return memory.set_lifetime(fact_id, lifetime, reason=reason).id


def _lines(text: str) -> dict[str, str]:
    """``field=value`` lines (blank lines skipped) as the command line's ``--attr``."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition("=")
        if not sep or not name.strip():
            raise InvalidInput(f"attribute line {line.strip()[:40]!r} is not field=value")
        out[name.strip()] = value.strip()
    return out


def _store(memory: Memory, fields: dict[str, list[str]]) -> str:
    kind = first(fields, "kind") or "fact"
    given = _lines(_raw(fields, "attributes"))
    attributes = KINDS.coerce_from_text(kind, given) if given else None
    tags = [t.strip() for t in re.split(r"[,\n]", _raw(fields, "tags")) if t.strip()]
    fact = memory.store(
        first(fields, "path"),
        _raw(fields, "content"),
        kind=kind,
        attributes=attributes,
        tags=tags or None,
        source=first(fields, "source") or None,
        reason=first(fields, "reason") or None,
    )
    return fact.id


def correction_routes(
    get_memory: Callable[[Request], Memory], tokens: FormTokens, show_fact: ShowFact
) -> list[BaseRoute]:
    """The correction routes over ``get_memory``, with the wiki's form ``tokens``;
    ``show_fact`` renders a fact's page with a refused form."""

    def token_of(memory: Memory) -> Callable[[str], str]:
        return lambda action: tokens.field(memory.subject, memory.actor_kind.value, action)

    async def correct(request: Request) -> Response:
        raw = str(request.path_params["fact_id"])
        verb = str(request.path_params["verb"])
        if not ID.fullmatch(raw) or verb not in CORRECTION_VERBS:
            return not_found(request, raw)
        got = await posted(request, fact_href(raw), get_memory, tokens)
        if isinstance(got, Response):
            return got
        memory, fields = got
        try:
            shown = await run_in_threadpool(_apply, memory, verb, raw, fields)
        except AmbiguousId:
            return not_found(request, raw)
        except InvalidInput as err:
            kept = {name: _raw(fields, name) for name in _KEPT}
            return await show_fact(request, memory, raw, Typed(verb, _said(err), kept))
        except Conflict as err:  # e.g. forgotten since the page was read
            hint = f" {e(err.hint)}" if err.hint else ""
            again = f' <a href="{e(fact_href(raw))}">Read the fact again</a>.'
            return message(request, 409, "Not done", e(err.message) + hint + again)
        except EmbornalError as err:
            return refused(request, err, raw)
        return redirect(f"{fact_href(shown)}?done={_DONE[verb]}")

    async def new_page(request: Request) -> Response:
        try:
            memory = await run_in_threadpool(get_memory, request)

            def may() -> bool:
                return memory.may_decide_proposals() and "store" in memory.permitted()

            allowed = await run_in_threadpool(may)
        except EmbornalError as err:
            return error_page(request, err, "/new")
        path = request.query_params.get("path", "")[:4000]
        body = new_fact_body(
            token_of(memory), KINDS.kinds(), may_store=allowed, fields={"path": path}
        )
        return page(request, "New fact", body, subject=memory.subject)

    async def store(request: Request) -> Response:
        got = await posted(request, "/new", get_memory, tokens)
        if isinstance(got, Response):
            return got
        memory, fields = got
        try:
            made = await run_in_threadpool(_store, memory, fields)
        except InvalidInput as err:
            kept = {name: _raw(fields, name) for name in _NEW_FIELDS}
            body = new_fact_body(
                token_of(memory), KINDS.kinds(), may_store=True, error=_said(err), fields=kept
            )
            return page(request, "New fact", body, status=400, subject=memory.subject)
        except EmbornalError as err:
            return refused(request, err, "/new")
        return redirect(f"{fact_href(made)}?done=stored")

    return [
        Route("/new", new_page, methods=["GET"], name="wiki_new"),
        Route("/new", store, methods=["POST"], name="wiki_store"),
        Route("/fact/{fact_id}/{verb}", correct, methods=["POST"], name="wiki_fact_correct"),
    ]
