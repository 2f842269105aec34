"""The wiki's routes: each page loads from the memory in the thread pool, then renders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from embornal.domain import paths as P
from embornal.domain.spine.series import SpineSeries
from embornal.errors import EmbornalError, InvalidPath
from embornal.interfaces.http.wiki.access_page import access_routes
from embornal.interfaces.http.wiki.claims_page import claims_routes
from embornal.interfaces.http.wiki.common import (
    MAX_QUERY_LENGTH,
    TOKEN_COOKIE,
    error_page,
    fact_href,
    is_token,
    load_by_id,
    loaded,
    message,
    not_found,
    own_navigation,
    page,
    read_form,
    redirect,
    safe_next,
    same_origin,
    wiki_href,
)
from embornal.interfaces.http.wiki.correction_routes import correction_routes
from embornal.interfaces.http.wiki.corrections_page import DONE, Typed, corrections_section
from embornal.interfaces.http.wiki.fact_page import fact_body
from embornal.interfaces.http.wiki.forms import FormTokens
from embornal.interfaces.http.wiki.graph_svg import GRAPH_DEPTH, MAX_NODES
from embornal.interfaces.http.wiki.history_routes import history_routes
from embornal.interfaces.http.wiki.list_page import list_routes
from embornal.interfaces.http.wiki.map_page import map_routes
from embornal.interfaces.http.wiki.pages import (
    login_body,
    logout_body,
    path_body,
    search_body,
    tree_body,
)
from embornal.interfaces.http.wiki.review_routes import review_routes
from embornal.service.facts.read_results import FactProtocol
from embornal.service.graph.results import LinkGraph
from embornal.service.memory import Memory
from embornal.service.results import FactDetail, FactView, RecallHit, TreeNode

__all__ = ["GetMemory", "wiki_routes"]

GetMemory = Callable[[Request], Memory]

#: The corrections the subject may make on a fact, and whether it decides on these pages.
Fixes = tuple[frozenset[str], bool]
#: What a fact's page reads from the memory.
_FactRead = tuple[FactDetail, SpineSeries, LinkGraph | None, FactProtocol, Fixes]


def _load_fact(memory: Memory, raw: str) -> _FactRead:
    detail = memory.show(raw)
    series = memory.spine_series(detail.fact.id)
    try:
        graph = memory.links(detail.fact.id, depth=GRAPH_DEPTH, limit=MAX_NODES)
    except EmbornalError:  # a forgotten fact has no walk: the page has no graph
        graph = None
    protocol = memory.chronicle.fact_protocol(detail.fact.id)
    fixes: Fixes = (frozenset(), False)
    if memory.may_decide_proposals():
        fixes = memory.permitted(detail.fact.id), True
    return detail, series, graph, protocol, fixes


def _token_cookie(request: Request) -> dict[str, Any]:
    """Where the token's cookie goes and who reads it, as login sets it and logout ends it:
    the whole site, never a script nor another site, over HTTPS only where it is served."""
    return {
        "path": "/",
        "httponly": True,
        "samesite": "strict",
        "secure": request.url.scheme == "https",
    }


def wiki_routes(get_memory: GetMemory) -> list[BaseRoute]:
    """The wiki's routes; ``get_memory(request)`` gives the memory of the request's subject.

    ``get_memory`` runs in the thread pool, like every call into the memory, and may
    raise :class:`Unauthenticated`: the page then redirects to ``/login``. The wiki
    never closes the memory it is given.
    """

    async def tree_page(request: Request) -> Response:
        try:
            memory = await run_in_threadpool(get_memory, request)
            root = await run_in_threadpool(memory.tree, P.ROOT)
        except EmbornalError as err:
            return error_page(request, err, "/")
        return page(request, "Memory", tree_body(root), subject=memory.subject)

    async def wiki_index(request: Request) -> Response:
        return redirect("/", 308)

    async def path_page(request: Request) -> Response:
        raw = "/" + str(request.path_params.get("path", ""))
        try:
            path = P.normalize_path(raw)
        except InvalidPath:
            return not_found(request, raw)
        if path != raw or path == P.ROOT:
            return redirect(wiki_href(path), 308)
        try:
            memory = await run_in_threadpool(get_memory, request)

            def load() -> tuple[TreeNode, list[FactView]]:
                return memory.tree(path), memory.cat(path, order_by="date", recall=False)

            node, views = await run_in_threadpool(load)
        except EmbornalError as err:
            return error_page(request, err, path)
        return page(request, path, path_body(node, views), subject=memory.subject)

    tokens = FormTokens()  # one set for the wiki's forms: the fact page's post to both

    async def show_fact(request: Request, memory: Memory, raw: str, typed: Typed) -> Response:
        """The fact's page with a correction refused for its input (``400``)."""
        got = await loaded(request, raw, lambda: _load_fact(memory, raw))
        if isinstance(got, Response):
            return got
        return fact_view(request, memory, got, typed)

    def fact_view(
        request: Request, memory: Memory, read: _FactRead, typed: Typed | None = None
    ) -> Response:
        """A fact's page; ``typed``: a correction refused for its input (``400``)."""
        detail, series, graph, protocol, (permitted, may) = read
        notice = None if typed is not None else DONE.get(request.query_params.get("done", ""))
        token = lambda action: tokens.field(memory.subject, memory.actor_kind.value, action)  # noqa: E731
        fixes = corrections_section(
            detail, permitted, token, may_decide=may, typed=typed, notice=notice
        )
        body = fact_body(detail, series, graph, protocol, corrections=fixes)
        status = 200 if typed is None else 400
        return page(request, f"Fact {detail.fact.id}", body, status=status, subject=memory.subject)

    async def fact_page(request: Request) -> Response:
        raw = str(request.path_params.get("fact_id", ""))
        got = await load_by_id(
            request,
            raw,
            get_memory,
            lambda memory: _load_fact(memory, raw),
            found=lambda read: read[0].fact.id,
            href=fact_href,
        )
        if isinstance(got, Response):
            return got
        memory, read = got
        return fact_view(request, memory, read)

    async def search_page(request: Request) -> Response:
        query = request.query_params.get("q", "")
        if len(query) > MAX_QUERY_LENGTH:
            return message(
                request, 400, "Bad request", f"A query holds at most {MAX_QUERY_LENGTH} characters."
            )
        try:
            memory = await run_in_threadpool(get_memory, request)
            hits: list[RecallHit] | None = None
            if query.strip():
                # Another site's <img> makes a GET too: only the person's own search
                # lifts the strength of what it finds (decision 0135).
                reinforce = own_navigation(request)
                hits = await run_in_threadpool(memory.recall, query, reinforce=reinforce)
        except EmbornalError as err:
            return error_page(request, err, "/search")
        title = f"Search: {query}" if query.strip() else "Search"
        return page(request, title, search_body(query, hits), query=query, subject=memory.subject)

    async def login(request: Request) -> Response:
        if request.method != "POST":
            next_url = safe_next(request.query_params.get("next"))
            rejected = request.query_params.get("rejected") == "1"
            body = login_body(next_url, rejected=rejected, error=None)
            return page(request, "Log in", body)
        if not same_origin(request):
            return message(request, 403, "Forbidden", "The login form must come from this site.")
        form = await read_form(request)
        if form is None:
            return message(request, 413, "Too large", "The login form is too large.")
        next_url = safe_next(form.get("next"))
        token = form.get("token", "").strip()
        if not is_token(token):
            body = login_body(next_url, rejected=False, error="That is not a token.")
            return page(request, "Log in", body, status=400)
        response = redirect(next_url)
        response.set_cookie(TOKEN_COOKIE, token, **_token_cookie(request))
        return response

    async def logout(request: Request) -> Response:
        if request.method != "POST":
            # A link from anywhere can make a GET: it shows the button, changes nothing.
            return page(request, "Log out", logout_body(TOKEN_COOKIE in request.cookies))
        if not same_origin(request):
            return message(request, 403, "Forbidden", "The logout form must come from this site.")
        response = redirect("/login")
        response.delete_cookie(TOKEN_COOKIE, **_token_cookie(request))
        return response

    return [
        Route("/", tree_page, methods=["GET"], name="wiki_tree"),
        Route("/wiki", wiki_index, methods=["GET"], name="wiki_index"),
        Route("/wiki/{path:path}", path_page, methods=["GET"], name="wiki_page"),
        Route("/fact/{fact_id}", fact_page, methods=["GET"], name="wiki_fact"),
        Route("/search", search_page, methods=["GET"], name="wiki_search"),
        Route("/login", login, methods=["GET", "POST"], name="wiki_login"),
        Route("/logout", logout, methods=["GET", "POST"], name="wiki_logout"),
        *review_routes(get_memory, tokens),
        *correction_routes(get_memory, tokens, show_fact),  # after /fact/{id}/confirm
        *claims_routes(get_memory),
        *history_routes(get_memory),
        *list_routes(get_memory),
        *map_routes(get_memory),
        *access_routes(get_memory),
    ]
