"""What every wiki page shares: escaping, links, the layout, the headers, the errors.

Every value from the memory goes through :func:`e` (:func:`html.escape`, quotes too),
in text and in attribute values alike. The layout inlines the one stylesheet, allowed by
its hash in :data:`CONTENT_SECURITY_POLICY`, which allows no script at all.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar
from urllib.parse import parse_qs, quote, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from embornal.domain import paths as P
from embornal.domain.clock import format_time
from embornal.domain.facts.fact import Fact
from embornal.errors import (
    AccessDenied,
    AmbiguousId,
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

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "ID",
    "MAX_QUERY_LENGTH",
    "TOKEN_COOKIE",
    "day",
    "e",
    "error_page",
    "fact_href",
    "fact_item",
    "is_token",
    "kind_label",
    "link",
    "load_by_id",
    "loaded",
    "message",
    "not_found",
    "own_navigation",
    "page",
    "plural",
    "read_body",
    "read_form",
    "redirect",
    "render_content",
    "safe_next",
    "same_origin",
    "time_text",
    "wiki_href",
]

TOKEN_COOKIE = "embornal_token"
#: An id in a URL, or a prefix of one: Crockford base32 letters and digits, any case.
ID = re.compile(r"[0-9A-Za-z]{1,26}")
MAX_FORM_BYTES = 8_192
MAX_TOKEN_LENGTH = 1_024
MAX_QUERY_LENGTH = 1_000

# The same link form as ``embornal.domain.facts.links``: ``[[/path]]``, read at display time.
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


def _shown(ch: str) -> str:
    code = ord(ch)
    if (code < 32 and ch not in "\t\n") or 0xD800 <= code <= 0xDFFF or ch in "\ufffe\uffff\r":
        return "\ufffd"
    return ch


def e(value: object) -> str:
    """Escape any value for HTML text and attribute values (quotes too), and replace each
    character XML 1.0 cannot hold (controls but tab and newline, lone surrogates,
    U+FFFE/U+FFFF) by U+FFFD: the same text is then safe inside an inline SVG."""
    text = str(value)
    if not text.isprintable():
        text = "".join(_shown(ch) for ch in text)
    return html.escape(text, quote=True)


def wiki_href(path: str) -> str:
    """The URL of a normalized path's page (``/`` is the tree)."""
    if path == P.ROOT:
        return "/"
    return "/wiki" + quote(path, safe="/")


def link(path: str, text: str | None = None) -> str:
    return f'<a href="{e(wiki_href(path))}">{e(path if text is None else text)}</a>'


def render_content(content: str) -> str:
    """Escaped fact content; each well-formed ``[[/path]]`` becomes a link to its page.

    A link whose target is not a valid path stays text, so no ``href`` ever holds
    anything but ``/wiki/...`` built from a normalized path.
    """
    out: list[str] = []
    pos = 0
    for match in _LINK.finditer(content):
        out.append(e(content[pos : match.start()]))
        try:
            target = P.normalize_path(match.group(1).strip())
        except InvalidPath:
            out.append(e(match.group(0)))
        else:
            out.append(
                f'<a class="link" href="{e(wiki_href(target))}" title="{e(target)}">{e(target)}</a>'
            )
        pos = match.end()
    out.append(e(content[pos:]))
    return "".join(out)


def signal(value: float) -> str:
    shown = f"{min(1.0, max(0.0, value)):.3f}"
    return (
        f'<span class="signal" title="signal strength">signal '
        f'<meter min="0" max="1" low="0.3" high="0.7" optimum="1" value="{shown}">'
        f"{shown}</meter> <b>{shown}</b></span>"
    )


def day(moment: datetime) -> str:
    stamp = format_time(moment, micro=False)
    return f'<time datetime="{e(stamp)}">{e(stamp[:10])}</time>'


def time_text(moment: datetime | None) -> str:
    """A moment to the second, in a ``<time>`` element (``—``: none)."""
    if moment is None:
        return "—"
    stamp = format_time(moment, micro=False)
    return f'<time datetime="{e(stamp)}">{e(stamp.replace("T", " "))}</time>'


def tags(fact: Fact) -> str:
    return "".join(f'<span class="tag">{e(f"{t.key}={t.value}")}</span>' for t in fact.tags)


def fact_href(fact_id: str) -> str:
    """The URL of a fact's page (ids are Crockford base32: nothing to encode, but quoted
    all the same)."""
    return "/fact/" + quote(fact_id, safe="")


def kind_label(kind: str) -> str:
    return f'<span class="kind" title="kind">{e(kind)}</span>'


def fact_item(fact: Fact, strength: float, *, with_path: bool, extra: str = "") -> str:
    where = link(fact.path) if with_path else ""
    return (
        f'<li id="fact-{e(fact.id)}">'
        f'<p class="content">{render_content(fact.content)}</p>'
        f'<div class="info">{kind_label(fact.kind)}{where}{signal(strength)}{extra}'
        f"<span>{day(fact.created_at)}</span>{tags(fact)}"
        f'<a class="id" href="{e(fact_href(fact.id))}" title="the fact\'s page">'
        f"{e(fact.id)}</a></div>"
        "</li>"
    )


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def safe_next(target: str | None) -> str:
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


def secure(response: Response) -> Response:
    for key, value in _HEADERS.items():
        response.headers[key] = value
    return response


def _history_nav(subject: str | None) -> str:
    # Only on a page read as a subject: not before login under ``serve``.
    if subject is None:
        return ""
    return (
        '<a href="/claims">Claims</a><a href="/narratives">Narratives</a>'
        '<a href="/timeline">Timeline</a><a href="/audit">Audit</a>'
        '<a href="/new">New fact</a>'
    )


def _search_and_review(query: str, subject: str | None) -> str:
    return (
        '<form class="search" method="get" action="/search" role="search">'
        f'<input type="search" name="q" value="{e(query)}" placeholder="Search the memory"'
        ' aria-label="Search the memory" maxlength="1000">'
        '<button type="submit">Search</button></form>'
        '<nav class="review-nav"><a href="/list">List</a><a href="/graph">Graph</a>'
        f'<a href="/review">Review</a>{_history_nav(subject)}</nav>'
    )


def _reader_known(request: Request, subject: str | None) -> bool:
    # Search and Review lead to /login before a login under ``serve``: shown only to a
    # page read as a subject, a logged-in browser, or the local wiki (its key, no login).
    local = getattr(request.app.state, "wiki_key", None) is not None
    return subject is not None or TOKEN_COOKIE in request.cookies or local


def layout(
    request: Request, title: str, body: str, *, query: str = "", subject: str | None = None
) -> str:
    who = ""
    if subject is not None:
        who = f"<span>reading as <b>{e(subject)}</b></span>"
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
        f"<title>{e(title)} · embornal</title>"
        f"<style>{_CSS}</style></head><body>"
        '<header class="top"><a class="brand" href="/">embornal</a>'
        f"{_search_and_review(query, subject) if _reader_known(request, subject) else ''}"
        f'<div class="who">{who}</div></header>'
        f"{body}</body></html>\n"
    )


def page(
    request: Request,
    title: str,
    body: str,
    *,
    status: int = 200,
    query: str = "",
    subject: str | None = None,
) -> Response:
    text = layout(request, title, body, query=query, subject=subject)
    return secure(HTMLResponse(text, status_code=status))


def message(request: Request, status: int, title: str, text: str) -> Response:
    body = (
        f'<main class="single"><h1>{e(title)}</h1><p>{text}</p>'
        f'<p><a href="/">Back to the tree</a></p></main>'
    )
    return page(request, title, body, status=status)


def not_found(request: Request, shown: str) -> Response:
    # The same page for a missing path and a hidden one: the wiki must not tell them apart.
    return message(request, 404, "Not found", f"Nothing to show at <b>{e(shown)}</b>.")


def redirect(url: str, status: int = 303) -> Response:
    return secure(RedirectResponse(url, status_code=status))


def to_login(request: Request) -> Response:
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    params = {"next": here} if safe_next(here) != "/" else {}
    if TOKEN_COOKIE in request.cookies:
        params["rejected"] = "1"
    response = redirect("/login" + (f"?{urlencode(params)}" if params else ""))
    if TOKEN_COOKIE in request.cookies:
        response.delete_cookie(TOKEN_COOKIE, path="/", httponly=True, samesite="strict")
    return response


def error_page(request: Request, err: EmbornalError, shown: str) -> Response:
    if isinstance(err, Unauthenticated):
        return to_login(request)
    if isinstance(err, NotFound | InvalidPath):
        return not_found(request, shown)
    if isinstance(err, AccessDenied):
        return message(request, 403, "Forbidden", "This subject may not read this page.")
    if isinstance(err, InvalidInput):
        return message(request, 400, "Bad request", e(err.message))
    return message(
        request,
        err.http_status if err.http_status >= 500 else 500,
        "The memory failed",
        e(err.message),
    )


_Loaded = TypeVar("_Loaded")


async def loaded(request: Request, shown: str, load: Callable[[], _Loaded]) -> _Loaded | Response:
    """What ``load`` reads from the memory (in the thread pool) for the page of an id, or
    the page that answers instead: a prefix that fits more than one id is the 404 page (the
    same as an id never used), any other error the memory raises is :func:`error_page`'s."""
    try:
        return await run_in_threadpool(load)
    except AmbiguousId:
        return not_found(request, shown)
    except EmbornalError as err:
        return error_page(request, err, shown)


async def load_by_id(
    request: Request,
    raw: str,
    get_memory: Callable[[Request], Memory],
    load: Callable[[Memory], _Loaded],
    *,
    found: Callable[[_Loaded], str],
    href: Callable[[str], str],
) -> tuple[Memory, _Loaded] | Response:
    """The subject's memory and what ``load`` reads from it for the page of the id ``raw``
    (a fact, a proposal, a conflict), or the page that answers instead: not letters and
    digits, 404; the memory's error, as :func:`loaded` says; an id given in lower case or
    by a prefix, a 308 to ``href`` of the full id (``found`` in what was read)."""
    if not ID.fullmatch(raw):
        return not_found(request, raw)

    def both() -> tuple[Memory, _Loaded]:
        memory = get_memory(request)
        return memory, load(memory)

    got = await loaded(request, raw, both)
    if isinstance(got, Response):
        return got
    full = found(got[1])
    if full != raw:  # a prefix or lower case: one address
        return redirect(href(full), 308)
    return got


async def read_body(request: Request, limit: int) -> str | None:
    """A form's body as text, ``None`` when it holds more than ``limit`` bytes (read no
    further)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", errors="replace")


async def read_form(request: Request) -> dict[str, str] | None:
    """A small urlencoded form body (first value of each field); ``None`` when too big."""
    text = await read_body(request, MAX_FORM_BYTES)
    if text is None:
        return None
    return {k: v[0] for k, v in parse_qs(text, keep_blank_values=True).items() if v}


def same_origin(request: Request) -> bool:
    """False when the browser says that a form came from another site.

    The same rule as the app's Host/Origin guard (which runs first under ``serve``
    and ``memory wiki``); checked here too for an app that mounts the routes alone.
    """
    return not from_another_site(request.headers, request.headers.get("host", ""))


def own_navigation(request: Request) -> bool:
    """True when the browser says that the request is the person's own: typed, bookmarked
    (``Sec-Fetch-Site: none``) or sent from a page of this site (``same-origin``).

    A search reinforces what it finds only then (decision 0135): a page of another site
    can make a browser send a GET (an ``<img>``), and must not lift a fact's strength.
    Without the header (an old browser, a script) a search reads and does not reinforce.
    """
    return request.headers.get("sec-fetch-site") in ("same-origin", "none")


def is_token(text: str) -> bool:
    return 0 < len(text) <= MAX_TOKEN_LENGTH and all(
        33 <= ord(ch) <= 126 and ch not in _NOT_IN_TOKEN for ch in text
    )
