"""``/graph``: the typed links of the whole memory, drawn on the server as inline SVG.

Readable at thousands of facts because it draws only the most linked (decision 0159):
the ``n`` facts with the most links the reader may see (20 to 150; 60 by default), the
links between them, and says how many facts and links are not drawn. ``under`` keeps the
links with an end at or below a path, ``relation`` one relation. Rings from the middle
out, the most linked innermost; on each ring the facts go by path, so a subtree keeps
together. Each node links to its fact's page; a table of the drawn facts is the text
form. No script; every text is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from embornal.domain import paths as P
from embornal.domain.graph.rules import Relation
from embornal.errors import EmbornalError, InvalidInput
from embornal.interfaces.http.wiki.common import e, error_page, fact_href, link, page, plural
from embornal.service.facts.listing import MemoryMap
from embornal.service.memory import Memory

__all__ = ["MAP_SIZES", "map_body", "map_routes", "map_svg"]

MAP_SIZES = (20, 60, 150)
_GAP = 34.0  # px between two nodes on a ring
_RING = 70.0
_LABELLED = 12  # the most linked get a text label; every node has its title


def _label(text: str, size: int = 18) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[: size - 1] + "…"


def _positions(graph: MemoryMap) -> dict[str, tuple[float, float]]:
    """Rings of growing radius, the most linked first; on a ring, by path."""
    at: dict[str, tuple[float, float]] = {}
    rest = list(graph.nodes)
    ring = 0
    while rest:
        radius = 0.0 if ring == 0 else _RING * ring
        room = 1 if ring == 0 else max(6, int(2 * math.pi * radius / _GAP))
        here, rest = rest[:room], rest[room:]
        here.sort(key=lambda n: (n.fact.path, n.fact.id))
        for i, node in enumerate(here):
            a = 2 * math.pi * i / len(here) - math.pi / 2 + ring * 0.35
            at[node.fact.id] = (radius * math.cos(a), radius * math.sin(a))
        ring += 1
    return at


def map_svg(graph: MemoryMap) -> str:
    """The drawn part of the map as one ``<svg>`` element; empty text for no link."""
    if not graph.nodes:
        return ""
    at = _positions(graph)
    extent = max(max(abs(x), abs(y)) for x, y in at.values()) + 80.0
    size = 2 * extent
    most = max(n.degree for n in graph.nodes)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" id="memory-graph" class="graph map" '
        f'viewBox="{-extent:.0f} {-extent:.0f} {size:.0f} {size:.0f}" width="{size:.0f}" '
        f'height="{size:.0f}" role="img" aria-labelledby="memory-graph-title">',
        f'<title id="memory-graph-title">{e(_title(graph))}</title>',
    ]
    for source, relation, target in graph.edges:
        (x1, y1), (x2, y2) = at[source], at[target]
        parts.append(
            f'<g class="edge rel-{e(relation)}"><line x1="{x1:.1f}" y1="{y1:.1f}" '
            f'x2="{x2:.1f}" y2="{y2:.1f}"/><title>{e(f"{source} {relation} {target}")}</title></g>'
        )
    for rank, node in enumerate(graph.nodes):
        x, y = at[node.fact.id]
        r = 4.0 + 8.0 * math.sqrt(node.degree / most)
        text = ""
        if rank < _LABELLED:
            text = (
                f'<text x="{x:.1f}" y="{y + r + 12:.1f}" text-anchor="middle">'
                f"{e(_label(node.fact.content))}</text>"
            )
        tip = f"{node.fact.path} · {plural(node.degree, 'link')} · {node.fact.content}"
        parts.append(
            f'<a href="{e(fact_href(node.fact.id))}" class="node depth-{1 if rank else 0}">'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"/>{text}<title>{e(tip)}</title></a>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _title(graph: MemoryMap) -> str:
    return (
        f"The {len(graph.nodes)} most linked facts of {graph.total_nodes} and "
        f"{len(graph.edges)} of {graph.total_edges} links"
    )


def _form(under: str, relation: str, size: int) -> str:
    rels = '<option value="">any</option>' + "".join(
        f'<option value="{r.value}"{" selected" if r.value == relation else ""}>{r.value}</option>'
        for r in Relation
    )
    sizes = "".join(
        f'<option value="{n}"{" selected" if n == size else ""}>{n}</option>' for n in MAP_SIZES
    )
    return (
        '<form class="filters" method="get" action="/graph" aria-label="Filter the graph">'
        f'<label>Path <input type="text" name="under" value="{e(under)}" maxlength="200" '
        'placeholder="/projects"></label>'
        f'<label>Link type <select name="relation">{rels}</select></label>'
        f'<label>Facts drawn <select name="n">{sizes}</select></label>'
        '<button type="submit">Draw</button> <a href="/graph">Clear</a></form>'
    )


def _table(graph: MemoryMap) -> str:
    rows = "".join(
        f'<tr><td><a class="id" href="{e(fact_href(n.fact.id))}">{e(_label(n.fact.content, 60))}'
        f"</a></td><td>{link(n.fact.path)}</td><td>{n.degree}</td></tr>"
        for n in graph.nodes
    )
    return (
        '<details><summary>The drawn facts as a table</summary><div class="scroll"><table>'
        "<thead><tr><th>Fact</th><th>Path</th><th>Links</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></div></details>"
    )


def map_body(graph: MemoryMap, under: str, relation: str, size: int) -> str:
    head = (
        '<main class="single"><h1>Graph</h1>'
        '<p class="note">The typed links between the facts you may read. To stay readable '
        "it draws only the most linked facts (the most linked in the middle; on each ring by "
        "path, so a subtree keeps together) and the links between them; narrow it by path "
        "or link type.</p>" + _form(under, relation, size)
    )
    if not graph.nodes:
        return head + '<p class="empty">No typed link between facts you may read.</p></main>'
    hidden_nodes = graph.total_nodes - len(graph.nodes)
    hidden_edges = graph.total_edges - len(graph.edges)
    count = (
        f'<p class="note" role="status">{_title(graph)}. Not drawn: '
        f"{plural(hidden_nodes, 'fact')} and {plural(hidden_edges, 'link')}.</p>"
    )
    return (
        head + count + f'<figure class="graph-box map-box">{map_svg(graph)}</figure>'
        f"{_table(graph)}</main>"
    )


def map_routes(get_memory: Callable[[Request], Memory]) -> list[BaseRoute]:
    """``/graph`` over ``get_memory`` (the same as the wiki's other pages)."""

    async def map_page(request: Request) -> Response:
        q = request.query_params
        under = q.get("under", "").strip()
        relation = q.get("relation", "").strip()
        try:
            memory = await run_in_threadpool(get_memory, request)
            size = int(q.get("n") or 60) if (q.get("n") or "60").isdigit() else 0
            if size not in MAP_SIZES:
                raise InvalidInput(f"n must be one of {', '.join(map(str, MAP_SIZES))}")
            if relation and relation not in {r.value for r in Relation}:
                raise InvalidInput("unknown link type")
            norm = P.normalize_path(under) if under else None
            graph = await run_in_threadpool(
                lambda: memory.link_map(
                    under=norm, relation=relation or None, limit=size, all=q.get("all") == "1"
                )
            )
        except EmbornalError as err:
            return error_page(request, err, "/graph")
        body = map_body(graph, under, relation, size)
        return page(request, "Graph", body, subject=memory.subject)

    return [Route("/graph", map_page, methods=["GET"], name="wiki_graph")]
