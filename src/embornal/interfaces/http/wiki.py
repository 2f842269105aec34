"""The wiki: read-only HTML pages over the memory, rendered on the server.

``wiki_routes(get_memory)`` returns Starlette routes; the HTTP app mounts them.
``get_memory(request)`` gives the :class:`~embornal.service.memory.Memory` of the
request's subject, so every page shows only what that subject may read. It may
raise :class:`~embornal.errors.Unauthenticated`; the wiki then sends the browser
to ``/login``, which keeps the token in an HttpOnly, SameSite=Strict cookie.

Pages (see ``docs/wiki.md``):

* ``/``                the tree: every path, ``*`` where facts are, the counts
* ``/wiki/<path>``     one path: breadcrumb, metadata, its facts newest first
* ``/search?q=``       a recall: each hit counts as a recall and lifts its strength
* ``/login``; ``/logout`` (POST; a GET shows the button and changes nothing)

A page view is not a recall (``cat(..., recall=False)``); a search is. No page runs
a script: the Content-Security-Policy allows none, and the one stylesheet is inline,
allowed by its hash. Every value from the memory goes through :func:`html.escape`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from urllib.parse import parse_qs, quote, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from embornal.domain import paths as P
from embornal.domain.clock import format_time
from embornal.domain.facts import Fact
from embornal.errors import (
    AccessDenied,
    EmbornalError,
    InvalidInput,
    InvalidPath,
    NotFound,
    Unauthenticated,
)
from embornal.interfaces.http.guard import from_another_site
from embornal.interfaces.http.wiki_style import CSS as _CSS
from embornal.interfaces.http.wiki_style import CSS_HASH as _CSS_HASH
from embornal.service.memory import Memory
from embornal.service.results import FactView, RecallHit, TreeNode

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "TOKEN_COOKIE",
    "render_content",
    "wiki_href",
    "wiki_routes",
]

TOKEN_COOKIE = "embornal_token"
MAX_FORM_BYTES = 8_192
MAX_TOKEN_LENGTH = 1_024
MAX_QUERY_LENGTH = 1_000

GetMemory = Callable[[Request], Memory]

# The same link form as ``embornal.domain.links``: ``[[/path]]``, read at display time.
_LINK = re.compile(r"\[\[(/[^\[\]\n]*)\]\]")
# A token is printable ASCII without a space, a quote, a backslash, ';' or ','.
_NOT_IN_TOKEN = frozenset('",;\\')

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; "
    f"style-src 'sha256-{_CSS_HASH}'; "
    "img-src 'none'; "
    "form-action 'self'; "
    "base-uri 'none'; "
    "frame-ancestors 'none'"
)

_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # same-origin: no other site learns a URL of the wiki, and the wiki's own forms
    # carry their real Origin (under no-referrer, browsers send ``Origin: null``).
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


# ------------------------------------------------------------------------ helpers


def _e(value: object) -> str:
    """Escape any value for HTML text and attribute values."""
    return html.escape(str(value), quote=True)


def wiki_href(path: str) -> str:
    """The URL of a normalized path's page (``/`` is the tree)."""
    if path == P.ROOT:
        return "/"
    return "/wiki" + quote(path, safe="/")


def _link(path: str, text: str | None = None) -> str:
    return f'<a href="{_e(wiki_href(path))}">{_e(path if text is None else text)}</a>'


def render_content(content: str) -> str:
    """Escaped fact content; each well-formed ``[[/path]]`` becomes a link to its page.

    A link whose target is not a valid path stays text, so no ``href`` ever holds
    anything but ``/wiki/...`` built from a normalized path.
    """
    out: list[str] = []
    pos = 0
    for match in _LINK.finditer(content):
        out.append(_e(content[pos : match.start()]))
        try:
            target = P.normalize_path(match.group(1).strip())
        except InvalidPath:
            out.append(_e(match.group(0)))
        else:
            out.append(
                f'<a class="link" href="{_e(wiki_href(target))}" '
                f'title="{_e(target)}">{_e(target)}</a>'
            )
        pos = match.end()
    out.append(_e(content[pos:]))
    return "".join(out)


def _signal(value: float) -> str:
    shown = f"{min(1.0, max(0.0, value)):.3f}"
    return (
        f'<span class="signal" title="signal strength">signal '
        f'<meter min="0" max="1" low="0.3" high="0.7" optimum="1" value="{shown}">'
        f"{shown}</meter> <b>{shown}</b></span>"
    )


def _day(moment: datetime) -> str:
    stamp = format_time(moment, micro=False)
    return f'<time datetime="{_e(stamp)}">{_e(stamp[:10])}</time>'


def _tags(fact: Fact) -> str:
    return "".join(f'<span class="tag">{_e(f"{t.key}={t.value}")}</span>' for t in fact.tags)


def _fact_item(fact: Fact, strength: float, *, with_path: bool, extra: str = "") -> str:
    where = _link(fact.path) if with_path else ""
    return (
        f'<li id="fact-{_e(fact.id)}">'
        f'<p class="content">{render_content(fact.content)}</p>'
        f'<div class="info">{where}{_signal(strength)}{extra}'
        f"<span>{_day(fact.created_at)}</span>{_tags(fact)}"
        f'<span class="id" title="fact id">{_e(fact.id)}</span></div>'
        "</li>"
    )


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _subtree_facts(node: TreeNode) -> int:
    return node.fact_count + sum(_subtree_facts(c) for c in node.children)


def _subtree_paths(node: TreeNode) -> int:
    return len(node.children) + sum(_subtree_paths(c) for c in node.children)


def _safe_next(target: str | None) -> str:
    """A local URL to go to after login; anything else becomes ``/``."""
    if (
        not target
        or not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or len(target) > 2_000
        or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in target)
        or target.startswith(("/login", "/logout"))
    ):
        return "/"
    return target


def _secure(response: Response) -> Response:
    for key, value in _HEADERS.items():
        response.headers[key] = value
    return response


def _layout(
    request: Request, title: str, body: str, *, query: str = "", subject: str | None = None
) -> str:
    who = ""
    if subject is not None:
        who = f"<span>reading as <b>{_e(subject)}</b></span>"
    if TOKEN_COOKIE in request.cookies:
        who += (
            '<form method="post" action="/logout">'
            '<button class="plain" type="submit">Log out</button></form>'
        )
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="same-origin">'
        f"<title>{_e(title)} · embornal</title>"
        f"<style>{_CSS}</style></head><body>"
        '<header class="top"><a class="brand" href="/">embornal</a>'
        '<form class="search" method="get" action="/search" role="search">'
        f'<input type="search" name="q" value="{_e(query)}" placeholder="Search the memory"'
        ' aria-label="Search the memory" maxlength="1000">'
        '<button type="submit">Search</button></form>'
        f'<div class="who">{who}</div></header>'
        f"{body}</body></html>\n"
    )


def _page(
    request: Request,
    title: str,
    body: str,
    *,
    status: int = 200,
    query: str = "",
    subject: str | None = None,
) -> Response:
    text = _layout(request, title, body, query=query, subject=subject)
    return _secure(HTMLResponse(text, status_code=status))


def _message(request: Request, status: int, title: str, text: str) -> Response:
    body = (
        f'<main class="single"><h1>{_e(title)}</h1><p>{text}</p>'
        f'<p><a href="/">Back to the tree</a></p></main>'
    )
    return _page(request, title, body, status=status)


def _not_found(request: Request, shown: str) -> Response:
    # The same page for a missing path and a hidden one: the wiki must not tell them apart.
    return _message(request, 404, "Not found", f"Nothing to show at <b>{_e(shown)}</b>.")


def _redirect(url: str, status: int = 303) -> Response:
    return _secure(RedirectResponse(url, status_code=status))


def _to_login(request: Request) -> Response:
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    params = {"next": here} if _safe_next(here) != "/" else {}
    if TOKEN_COOKIE in request.cookies:
        params["rejected"] = "1"
    response = _redirect("/login" + (f"?{urlencode(params)}" if params else ""))
    if TOKEN_COOKIE in request.cookies:
        response.delete_cookie(TOKEN_COOKIE, path="/", httponly=True, samesite="strict")
    return response


def _error_page(request: Request, err: EmbornalError, shown: str) -> Response:
    if isinstance(err, Unauthenticated):
        return _to_login(request)
    if isinstance(err, NotFound | InvalidPath):
        return _not_found(request, shown)
    if isinstance(err, AccessDenied):
        return _message(request, 403, "Forbidden", "This subject may not read this page.")
    if isinstance(err, InvalidInput):
        return _message(request, 400, "Bad request", _e(err.message))
    return _message(
        request,
        err.http_status if err.http_status >= 500 else 500,
        "The memory failed",
        _e(err.message),
    )


async def _read_form(request: Request) -> dict[str, str] | None:
    """A small urlencoded form body (first value of each field); ``None`` when too big."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_FORM_BYTES:
            return None
        chunks.append(chunk)
    text = b"".join(chunks).decode("utf-8", errors="replace")
    return {k: v[0] for k, v in parse_qs(text, keep_blank_values=True).items() if v}


def _same_origin(request: Request) -> bool:
    """False when the browser says that a form came from another site.

    The same rule as the app's Host/Origin guard (which runs first under ``serve``
    and ``memory wiki``); checked here too for an app that mounts the routes alone.
    """
    return not from_another_site(request.headers, request.headers.get("host", ""))


def _is_token(text: str) -> bool:
    return 0 < len(text) <= MAX_TOKEN_LENGTH and all(
        33 <= ord(ch) <= 126 and ch not in _NOT_IN_TOKEN for ch in text
    )


# -------------------------------------------------------------------------- pages


def _tree_items(nodes: Iterable[TreeNode]) -> str:
    out: list[str] = []
    for node in nodes:
        star = '<span class="star" title="holds facts">*</span>' if node.fact_count else ""
        count = (
            f' <span class="count">{_plural(node.fact_count, "fact")}</span>'
            if node.fact_count
            else ""
        )
        below = _subtree_facts(node) - node.fact_count
        if node.children and below:
            count += f' <span class="count">· {below} below</span>'
        kids = f"<ul>{_tree_items(node.children)}</ul>" if node.children else ""
        out.append(
            f'<li><a href="{_e(wiki_href(node.path))}" title="{_e(node.path)}">'
            f"{_e(node.name)}</a>{star}{count}{kids}</li>"
        )
    return "".join(out)


def _tree_body(root: TreeNode) -> str:
    total = _subtree_facts(root)
    paths = _subtree_paths(root)
    if not root.children:
        listing = '<p class="empty">The memory holds no facts this subject may read.</p>'
    else:
        listing = f'<ul class="tree">{_tree_items(root.children)}</ul>'
    return (
        '<main class="single"><h1>Memory</h1>'
        f'<p class="note">{_plural(paths, "path")}, {_plural(total, "fact")}. '
        '<span class="star">*</span> marks a path that holds facts of its own.</p>'
        f"{listing}</main>"
    )


def _crumbs(path: str) -> str:
    items: list[str] = []
    for p in P.ancestors(path):
        label = "/" if p == P.ROOT else P.name_of(p)
        if p == path:
            items.append(f'<li aria-current="page">{_e(label)}</li>')
        else:
            items.append(f"<li>{_link(p, label)}</li>")
    return f'<nav class="crumbs" aria-label="Breadcrumb"><ol>{"".join(items)}</ol></nav>'


def _path_body(node: TreeNode, views: Sequence[FactView]) -> str:
    newest = sorted(views, key=lambda v: (v.fact.created_at, v.fact.id), reverse=True)
    mean = f"{sum(v.strength for v in views) / len(views):.3f}" if views else "—"
    meta = (
        '<dl class="meta">'
        f"<div><dt>Facts here</dt><dd>{len(views)}</dd></div>"
        f"<div><dt>Facts in subtree</dt><dd>{_subtree_facts(node)}</dd></div>"
        f"<div><dt>Children</dt><dd>{len(node.children)}</dd></div>"
        f"<div><dt>Mean signal</dt><dd>{mean}</dd></div>"
        "</dl>"
    )
    if newest:
        facts = (
            '<ol class="facts">'
            + "".join(_fact_item(v.fact, v.strength, with_path=False) for v in newest)
            + "</ol>"
        )
    else:
        facts = '<p class="empty">This path holds no facts of its own; see its children.</p>'
    if node.children:
        kids = "".join(
            f"<li>{_link(c.path, c.name)}"
            f'<span class="count">{c.fact_count}'
            + (f" / {_subtree_facts(c)}" if c.children else "")
            + "</span></li>"
            for c in node.children
        )
        side = (
            '<aside aria-label="Children"><h2>Children</h2>'
            f'<ul>{kids}</ul><p class="note">facts here / in subtree</p></aside>'
        )
    else:
        side = '<aside aria-label="Children"><h2>Children</h2><p class="empty">None.</p></aside>'
    return (
        '<div class="layout"><main>'
        f"{_crumbs(node.path)}<h1>{_e(node.path)}</h1>{meta}"
        f"<h2>Facts, newest first</h2>{facts}</main>{side}</div>"
    )


def _search_body(query: str, hits: Sequence[RecallHit] | None) -> str:
    head = '<main class="single"><h1>Search</h1>'
    if hits is None:
        return (
            head + '<p class="note">Type words to find facts by keyword. Each result counts '
            "as a recall and lifts the strength of its fact.</p></main>"
        )
    if not hits:
        return head + f'<p class="empty">No fact matches <b>{_e(query)}</b>.</p></main>'
    items = "".join(
        _fact_item(
            h.fact,
            h.strength,
            with_path=True,
            extra=f'<span title="rank score">score {h.score:.3f}</span>',
        )
        for h in hits
    )
    return (
        head + f'<p class="note">{_plural(len(hits), "result")} for <b>{_e(query)}</b>. '
        "The signal shown is the strength when found; this search counted as a recall.</p>"
        f'<ol class="facts">{items}</ol></main>'
    )


def _login_body(next_url: str, *, rejected: bool, error: str | None) -> str:
    notes = ""
    if rejected:
        notes += '<p class="error">The token was not accepted. Give a valid one.</p>'
    if error:
        notes += f'<p class="error">{_e(error)}</p>'
    return (
        '<main class="single"><h1>Log in</h1>'
        '<p class="note">Give a token from <code>embornal token add</code>. '
        "It stays in an HttpOnly cookie of this browser until you log out.</p>"
        f'{notes}<form class="login" method="post" action="/login">'
        f'<input type="hidden" name="next" value="{_e(next_url)}">'
        '<input type="password" name="token" aria-label="Token" placeholder="emb_…" '
        'autocomplete="off" required maxlength="1024">'
        '<button type="submit">Log in</button></form></main>'
    )


def _logout_body(logged_in: bool) -> str:
    if not logged_in:
        return (
            '<main class="single"><h1>Log out</h1><p class="note">This browser holds no token.'
            ' <a href="/login">Log in</a></p></main>'
        )
    return (
        '<main class="single"><h1>Log out</h1>'
        '<p class="note">Drop the token cookie of this browser?</p>'
        '<form method="post" action="/logout"><button type="submit">Log out</button></form>'
        "</main>"
    )


# ------------------------------------------------------------------------- routes


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
            return _error_page(request, err, "/")
        return _page(request, "Memory", _tree_body(root), subject=memory.subject)

    async def wiki_index(request: Request) -> Response:
        return _redirect("/", 308)

    async def path_page(request: Request) -> Response:
        raw = "/" + str(request.path_params.get("path", ""))
        try:
            path = P.normalize_path(raw)
        except InvalidPath:
            return _not_found(request, raw)
        if path != raw or path == P.ROOT:
            return _redirect(wiki_href(path), 308)
        try:
            memory = await run_in_threadpool(get_memory, request)

            def load() -> tuple[TreeNode, list[FactView]]:
                return memory.tree(path), memory.cat(path, order_by="date", recall=False)

            node, views = await run_in_threadpool(load)
        except EmbornalError as err:
            return _error_page(request, err, path)
        return _page(request, path, _path_body(node, views), subject=memory.subject)

    async def search_page(request: Request) -> Response:
        query = request.query_params.get("q", "")
        if len(query) > MAX_QUERY_LENGTH:
            return _message(
                request, 400, "Bad request", f"A query holds at most {MAX_QUERY_LENGTH} characters."
            )
        try:
            memory = await run_in_threadpool(get_memory, request)
            hits: list[RecallHit] | None = None
            if query.strip():
                hits = await run_in_threadpool(memory.recall, query)
        except EmbornalError as err:
            return _error_page(request, err, "/search")
        title = f"Search: {query}" if query.strip() else "Search"
        return _page(request, title, _search_body(query, hits), query=query, subject=memory.subject)

    async def login(request: Request) -> Response:
        if request.method != "POST":
            next_url = _safe_next(request.query_params.get("next"))
            rejected = request.query_params.get("rejected") == "1"
            body = _login_body(next_url, rejected=rejected, error=None)
            return _page(request, "Log in", body)
        if not _same_origin(request):
            return _message(request, 403, "Forbidden", "The login form must come from this site.")
        form = await _read_form(request)
        if form is None:
            return _message(request, 413, "Too large", "The login form is too large.")
        next_url = _safe_next(form.get("next"))
        token = form.get("token", "").strip()
        if not _is_token(token):
            body = _login_body(next_url, rejected=False, error="That is not a token.")
            return _page(request, "Log in", body, status=400)
        response = _redirect(next_url)
        response.set_cookie(
            TOKEN_COOKIE,
            token,
            path="/",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )
        return response

    async def logout(request: Request) -> Response:
        if request.method != "POST":
            # A link from anywhere can make a GET: it shows the button, changes nothing.
            return _page(request, "Log out", _logout_body(TOKEN_COOKIE in request.cookies))
        if not _same_origin(request):
            return _message(request, 403, "Forbidden", "The logout form must come from this site.")
        response = _redirect("/login")
        response.delete_cookie(
            TOKEN_COOKIE,
            path="/",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )
        return response

    return [
        Route("/", tree_page, methods=["GET"], name="wiki_tree"),
        Route("/wiki", wiki_index, methods=["GET"], name="wiki_index"),
        Route("/wiki/{path:path}", path_page, methods=["GET"], name="wiki_page"),
        Route("/search", search_page, methods=["GET"], name="wiki_search"),
        Route("/login", login, methods=["GET", "POST"], name="wiki_login"),
        Route("/logout", logout, methods=["GET", "POST"], name="wiki_logout"),
    ]
