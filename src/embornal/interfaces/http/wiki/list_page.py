"""``/list``: the memory list, filtered, sorted and paged by the store (decision 0159).

Every filter is a GET query parameter, so a URL can be shared: ``under`` (a path),
``kind``, ``tag`` (``key=value``), ``stage``, ``tier``, ``owner``, ``cmin``/``cmax``
(confidence), ``smin``/``smax`` (strength), ``sort``, ``size`` and ``page``; ``all=1``
shows the guide under ``/memory``. The form is real controls with labels, and works with
no script. A page view is not a recall.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from embornal.errors import EmbornalError, InvalidInput
from embornal.interfaces.http.wiki.common import e, error_page, fact_item, page, plural
from embornal.service.facts.listing import STAGES, TIERS, ListedFact, MemoryList
from embornal.service.memory import Memory
from embornal.storage.contract.listing import LIST_SORTS, ListFilter

__all__ = ["PAGE_SIZES", "list_body", "list_routes", "parse_list"]

PAGE_SIZES = (20, 50, 100, 200)
#: The query parameters of the list (anything else is ignored).
FIELDS = (
    "under",
    "kind",
    "tag",
    "stage",
    "tier",
    "owner",
    "cmin",
    "cmax",
    "smin",
    "smax",
    "sort",
    "size",
    "all",
)
_MAX_FIELD = 200
_SORT_LABELS = {
    "newest": "newest first",
    "oldest": "oldest first",
    "strongest": "strongest first",
    "weakest": "weakest first",
    "path": "by path",
}


def _number(params: Mapping[str, str], name: str) -> float | None:
    text = params.get(name, "").strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise InvalidInput(f"{name} must be a number between 0 and 1") from None


def parse_list(params: Mapping[str, str]) -> tuple[ListFilter, int, int, bool]:
    """The filter, page, page size and ``all`` of a list's query (InvalidInput: bad)."""
    if any(len(params.get(f, "")) > _MAX_FIELD for f in FIELDS):
        raise InvalidInput(f"a filter holds at most {_MAX_FIELD} characters")

    def text(name: str) -> str | None:
        return params.get(name, "").strip() or None

    tag = None
    raw_tag = text("tag")
    if raw_tag is not None:
        key, eq, value = raw_tag.partition("=")
        if not eq or not key.strip():
            raise InvalidInput("tag must be key=value")
        tag = (key.strip(), value.strip())
    try:
        size = int(params.get("size") or 50)
        number = int(params.get("page") or 1)
    except ValueError:
        raise InvalidInput("page and size must be whole numbers") from None
    where = ListFilter(
        under=text("under"),
        kind=text("kind"),
        tag=tag,
        stage=text("stage"),
        tier=text("tier"),
        owner=text("owner"),
        min_confidence=_number(params, "cmin"),
        max_confidence=_number(params, "cmax"),
        min_strength=_number(params, "smin"),
        max_strength=_number(params, "smax"),
        sort=text("sort") or "newest",
    )
    return where, number, size, params.get("all") == "1"


def _select(
    name: str,
    label: str,
    options: tuple[str, ...],
    chosen: str | None,
    labels: Mapping[str, str] | None = None,
    any_label: str | None = "any",
) -> str:
    items = [] if any_label is None else [f'<option value="">{e(any_label)}</option>']
    for o in options:
        mark = " selected" if o == chosen else ""
        items.append(f'<option value="{e(o)}"{mark}>{e((labels or {}).get(o, o))}</option>')
    return f'<label>{e(label)} <select name="{name}">{"".join(items)}</select></label>'


def _input(name: str, label: str, value: str, *, kind: str = "text", extra: str = "") -> str:
    return (
        f'<label>{e(label)} <input type="{kind}" name="{name}" value="{e(value)}" '
        f'maxlength="{_MAX_FIELD}"{extra}></label>'
    )


def _unit(name: str, label: str, value: str) -> str:
    extra = ' min="0" max="1" step="0.01" inputmode="decimal" size="5"'
    return _input(name, label, value, kind="number", extra=extra)


def _form(params: Mapping[str, str]) -> str:
    v = {f: params.get(f, "") for f in FIELDS}
    size = int(v["size"]) if v["size"].isdigit() else 50
    sizes = "".join(
        f'<option value="{n}"{" selected" if n == size else ""}>{n}</option>' for n in PAGE_SIZES
    )
    checked = " checked" if v["all"] == "1" else ""
    return (
        '<form class="filters" method="get" action="/list" aria-label="Filter the list">'
        + _input("under", "Path", v["under"], extra=' placeholder="/projects"')
        + _input("kind", "Kind", v["kind"], extra=' placeholder="fact"')
        + _input("tag", "Tag", v["tag"], extra=' placeholder="topic=storage"')
        + _select("stage", "Stage", STAGES, v["stage"] or None)
        + _select("tier", "Tier", TIERS, v["tier"] or None)
        + _input("owner", "Owner", v["owner"])
        + _unit("cmin", "Confidence from", v["cmin"])
        + _unit("cmax", "to", v["cmax"])
        + _unit("smin", "Strength from", v["smin"])
        + _unit("smax", "to", v["smax"])
        + _select("sort", "Sort", LIST_SORTS, v["sort"] or "newest", _SORT_LABELS, None)
        + f'<label>Per page <select name="size">{sizes}</select></label>'
        + f'<label><span>Guide</span><span><input type="checkbox" name="all" value="1"{checked}>'
        " show /memory</span></label>"
        '<button type="submit">Filter</button> <a href="/list">Clear</a></form>'
    )


def _href(params: Mapping[str, str], page_number: int) -> str:
    kept = {f: params[f] for f in FIELDS if params.get(f)}
    return "/list?" + urlencode({**kept, "page": str(page_number)})


def _pager(params: Mapping[str, str], found: MemoryList) -> str:
    if found.pages <= 1:
        return ""
    links = []
    if found.page > 1:
        links.append(f'<a rel="prev" href="{e(_href(params, found.page - 1))}">Previous</a>')
    links.append(f'<span aria-current="page">page {found.page} of {found.pages}</span>')
    if found.page < found.pages:
        links.append(f'<a rel="next" href="{e(_href(params, found.page + 1))}">Next</a>')
    return f'<nav class="pager review-nav" aria-label="Pages">{"".join(links)}</nav>'


def _item(listed: ListedFact) -> str:
    extra = ""
    if listed.stage is not None:
        extra += f'<span title="stage">{e(listed.stage)}</span>'
    if listed.tier is not None:
        extra += f'<span title="tier">{e(listed.tier)}</span>'
    if listed.fact.confidence is not None:
        extra += f'<span title="confidence">confidence {listed.fact.confidence:.2f}</span>'
    extra += f'<span title="owner">{e(listed.fact.owner)}</span>'
    return fact_item(listed.fact, listed.strength, with_path=True, extra=extra)


def list_body(params: Mapping[str, str], found: MemoryList) -> str:
    head = (
        '<main class="single"><h1>Memory list</h1>'
        '<p class="note">The live facts you may read, filtered and sorted; every filter is '
        "in the address, so a link to this page keeps them. The guide under "
        "<code>/memory</code> shows only when asked for.</p>" + _form(params)
    )
    if not found.facts:
        return head + f'<p class="empty">{plural(found.total, "fact")} match.</p></main>'
    first = (found.page - 1) * found.page_size + 1
    count = (
        f'<p class="note" role="status">{plural(found.total, "fact")} match; showing '
        f"{first}–{first + len(found.facts) - 1}.</p>"
    )
    items = "".join(_item(f) for f in found.facts)
    pager = _pager(params, found)
    return head + f'{count}{pager}<ol class="facts">{items}</ol>{pager}</main>'


def list_routes(get_memory: Callable[[Request], Memory]) -> list[BaseRoute]:
    """``/list`` over ``get_memory`` (the same as the wiki's other pages)."""

    async def list_page(request: Request) -> Response:
        params = dict(request.query_params)
        try:
            memory = await run_in_threadpool(get_memory, request)
            where, number, size, everything = parse_list(params)
            found = await run_in_threadpool(
                lambda: memory.list_memories(where, page=number, page_size=size, all=everything)
            )
        except EmbornalError as err:
            return error_page(request, err, "/list")
        return page(request, "Memory list", list_body(params, found), subject=memory.subject)

    return [Route("/list", list_page, methods=["GET"], name="wiki_list")]
