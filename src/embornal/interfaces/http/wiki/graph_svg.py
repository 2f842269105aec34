"""A fact's typed links as a small graph, drawn on the server as inline SVG.

The neighbourhood is ``Memory.links(id, depth=2)``, bounded (:data:`MAX_NODES`): the
fact in the middle, the facts one link away on an inner ring, those two links away on
an outer ring near the first fact that reached them. Each node is a link to its fact's
page, with the fact's content as its ``<title>``; each edge is a line marked with its
relation as read from the nearer end. No script, no ``style`` attribute: the page's
stylesheet styles it by class, and every text is escaped (well-formed XML whatever a
fact holds). A list of the same links is the text fallback.
"""

from __future__ import annotations

import math

from embornal.interfaces.http.wiki.common import e, fact_href
from embornal.service.graph.results import LinkGraph

__all__ = ["GRAPH_DEPTH", "MAX_NODES", "graph_list", "graph_svg"]

GRAPH_DEPTH = 2
MAX_NODES = 24
WIDTH = 640
HEIGHT = 440
_R1 = 120.0
_R2 = 200.0
_LABEL = 22
_PAD_X = 72.0  # half a label's width (11 px text), beside the outermost nodes
_PAD_TOP = 16.0
_PAD_BOTTOM = 30.0  # the label under a node


def _label(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _LABEL else text[: _LABEL - 1] + "…"


def _positions(graph: LinkGraph) -> dict[str, tuple[float, float]]:
    cx, cy = WIDTH / 2, HEIGHT / 2
    at: dict[str, tuple[float, float]] = {graph.root.id: (cx, cy)}
    angle: dict[str, float] = {graph.root.id: 0.0}
    first = [n.fact.id for n in graph.nodes if n.depth == 1]
    for i, fid in enumerate(first):
        a = 2 * math.pi * i / max(1, len(first)) - math.pi / 2
        angle[fid] = a
        at[fid] = (cx + _R1 * math.cos(a), cy + _R1 * math.sin(a) * 0.8)
    parent: dict[str, str] = {}
    for step in graph.steps:
        if step.depth == 2 and step.to_id not in parent and step.from_id in angle:
            parent[step.to_id] = step.from_id
    children: dict[str, list[str]] = {}
    for n in graph.nodes:
        if n.depth == 2:
            children.setdefault(parent.get(n.fact.id, graph.root.id), []).append(n.fact.id)
    spread = min(0.45, 2 * math.pi / max(1, sum(len(v) for v in children.values())))
    for pid, kids in children.items():
        base = angle.get(pid, 0.0)
        for i, fid in enumerate(kids):  # around its parent's direction, siblings fanned out
            a = base + (i - (len(kids) - 1) / 2) * spread
            at[fid] = (cx + _R2 * 1.4 * math.cos(a), cy + _R2 * math.sin(a) * 0.95)
    return at


def _frame(at: dict[str, tuple[float, float]]) -> tuple[float, float, float, float]:
    """The box the nodes and their labels take (x, y, width, height): a graph of two
    facts gets a small picture, not the box of the largest neighbourhood."""
    xs = [x for x, _ in at.values()]
    ys = [y for _, y in at.values()]
    left, top = min(xs) - _PAD_X, min(ys) - _PAD_TOP
    return left, top, max(xs) + _PAD_X - left, max(ys) + _PAD_BOTTOM - top


def graph_svg(graph: LinkGraph, *, element_id: str = "link-graph") -> str:
    """The neighbourhood as one ``<svg>`` element (well-formed XML, namespaced); empty text
    when the fact has no typed link the subject may see."""
    if not graph.nodes:
        return ""
    at = _positions(graph)
    left, top, width, height = _frame(at)
    facts = {graph.root.id: graph.root, **{n.fact.id: n.fact for n in graph.nodes}}
    ident = e(element_id)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="{ident}" class="graph" '
        f'viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" width="{width:.0f}" '
        f'height="{height:.0f}" role="img" '
        f'aria-labelledby="{ident}-title">',
        f'<title id="{ident}-title">'
        f"{e(f'Links of fact {graph.root.id}: {len(graph.nodes)} facts within two links')}"
        "</title>",
    ]
    for step in graph.steps:
        if step.from_id not in at or step.to_id not in at:
            continue
        (x1, y1), (x2, y2) = at[step.from_id], at[step.to_id]
        parts.append(
            f'<g class="edge depth-{step.depth}"><line x1="{x1:.1f}" y1="{y1:.1f}" '
            f'x2="{x2:.1f}" y2="{y2:.1f}"/><text x="{(x1 + x2) / 2:.1f}" '
            f'y="{(y1 + y2) / 2 - 3:.1f}" text-anchor="middle">{e(step.name)}</text>'
            f"<title>{e(f'{step.source_id} {step.relation} {step.target_id}')}</title></g>"
        )
    depth = {graph.root.id: 0, **{n.fact.id: n.depth for n in graph.nodes}}
    for fid, (x, y) in at.items():
        fact = facts[fid]
        node = (
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{9 if fid == graph.root.id else 7}"/>'
            f'<text x="{x:.1f}" y="{y + 20:.1f}" text-anchor="middle">'
            f"{e(_label(fact.content))}</text>"
            f"<title>{e(f'{fact.kind} {fact.id}: {fact.content}')}</title>"
        )
        css = f"node depth-{depth[fid]}"
        if fid == graph.root.id:
            parts.append(f'<g class="{css} root">{node}</g>')
        else:
            parts.append(f'<a href="{e(fact_href(fid))}" class="{css}">{node}</a>')
    parts.append("</svg>")
    return "".join(parts)


def graph_list(graph: LinkGraph) -> str:
    """The links of the graph as an HTML list, each to its fact's page."""
    facts = {graph.root.id: graph.root, **{n.fact.id: n.fact for n in graph.nodes}}
    items = []
    for step in graph.steps:
        if step.from_id not in facts or step.to_id not in facts:
            continue
        src, dst = facts[step.from_id], facts[step.to_id]

        def ref(fid: str, text: str) -> str:
            if fid == graph.root.id:
                return f"<b>{e(_label(text))}</b>"
            return f'<a class="id" href="{e(fact_href(fid))}">{e(_label(text))}</a>'

        items.append(
            f"<li>{ref(src.id, src.content)} <code>{e(step.name)}</code> "
            f"{ref(dst.id, dst.content)}</li>"
        )
    note = '<p class="note">More facts are linked than shown.</p>' if graph.truncated else ""
    return f'<ul class="graph-links">{"".join(items)}</ul>{note}'
