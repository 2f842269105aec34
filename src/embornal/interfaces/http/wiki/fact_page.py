"""The body of a fact's page: its content, kind and attributes, spine, evidence, the chart
of its confidence and strength over time, and its history.

Every value goes through :func:`~embornal.interfaces.http.wiki.chart.xml_text` (escaped,
and stripped of control characters). A link leaves the wiki only for an ``http`` or
``https`` URI (``rel="noopener noreferrer"``); any other URI is shown as text. The spine
fields of :class:`~embornal.service.results.FactDetail` and :class:`Fact` that this page
does not know by name are shown too, each as its name and its text.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from embornal.domain.events import Event
from embornal.domain.facts.fact import Fact
from embornal.domain.spine.justification import EvidenceRef
from embornal.domain.spine.series import SpineSeries
from embornal.interfaces.http.wiki.chart import chart_svg, chart_table, xml_text
from embornal.interfaces.http.wiki.common import (
    fact_href,
    kind_label,
    link,
    render_content,
    tags,
    time_text,
)
from embornal.interfaces.http.wiki.graph_svg import graph_list, graph_svg
from embornal.interfaces.http.wiki.history_pages import event_label, protocol_section
from embornal.interfaces.http.wiki.pages import crumbs
from embornal.service.facts.read_results import FactProtocol
from embornal.service.graph.results import LinkGraph
from embornal.service.results import FactDetail

__all__ = ["attribute_rows", "fact_body", "uri_html"]

_x = xml_text
_FACT_ID = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")

#: The fields of FactDetail and Fact this page shows by name; any other is shown generically.
_KNOWN_DETAIL = frozenset(
    {
        "fact",
        "strength",
        "effective_tags",
        "links",
        "events",
        "confidence",
        "c_eff",
        "stale",
        "last_confirmed_at",
        "evidence",
        "source",
        "pinned",
        "user_weight",
        "lifetime",
        "expires_at",
        "expired",
        "expired_because",
        "as_of",
    }
)
_KNOWN_FACT = frozenset(
    {
        "id",
        "path",
        "content",
        "kind",
        "owner",
        "created_at",
        "last_recall_at",
        "recall_count",
        "stability_days",
        "supersedes_id",
        "superseded_by",
        "deleted_at",
        "purged_at",
        "tags",
        "successor_hidden",
        "attributes",
        "confidence",
        "last_confirmed_at",
        "visibility",
        "pinned",
        "user_weight",
        "lifetime",
        "expires_at",
    }
)


def uri_html(value: str) -> str:
    """An ``http(s)`` URI as a link that tells the other site nothing and gets no handle
    on this page; anything else (``javascript:``, ``file:``, ``mailto:``…) as text."""
    try:
        parts = urlsplit(value)
    except ValueError:
        parts = None
    plain = any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in value)
    if parts is not None and parts.scheme in ("http", "https") and parts.netloc and not plain:
        return f'<a class="external" href="{_x(value)}" rel="noopener noreferrer">{_x(value)}</a>'
    return f'<span class="uri">{_x(value)}</span>'


def _number(value: float) -> str:
    return f"{value:.3f}"


def _generic(value: Any) -> str:
    """Any spine value as HTML text: none, yes/no, numbers, times, lists, records."""
    if value is None:
        return '<span class="empty">—</span>'
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return _x(value.value)
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, datetime):
        return time_text(value)
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return ", ".join(_generic(v) for v in items) if items else '<span class="empty">—</span>'
    if isinstance(value, Mapping):
        return ", ".join(f"{_x(k)}={_generic(v)}" for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if type(value).__str__ is not object.__str__ and "__str__" in type(value).__dict__:
            return _x(str(value))
        return ", ".join(
            f"{_x(f.name)}={_generic(getattr(value, f.name))}"
            for f in dataclasses.fields(value)
            if getattr(value, f.name) is not None
        )
    return _x(value)


def _attribute_value(value: Any, fmt: str | None) -> str:
    if value is None:
        return '<span class="empty">—</span>'
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return "".join(f'<span class="tag">{_x(v)}</span>' for v in value) or "—"
    text = str(value)
    if fmt == "fact_id" and _FACT_ID.fullmatch(text):
        return f'<a class="id" href="{_x(fact_href(text))}">{_x(text)}</a>'
    if fmt == "uri":
        return uri_html(text)
    return _x(text)


def attribute_rows(fact: Fact) -> list[tuple[str, str, str]]:
    """(name, type, value HTML) of each attribute: the schema's fields in its order for a
    registered kind (a ``fact``'s statement, when derived, is its content), else the stored
    names as they are."""
    from embornal.domain.kinds.fields import FieldType
    from embornal.domain.kinds.registry import KINDS

    attrs = dict(fact.attributes)
    if fact.kind not in KINDS:
        return [(name, "", _attribute_value(v, None)) for name, v in attrs.items()]
    rows = []
    for spec in KINDS.entry(fact.kind).fields:
        kind = spec.value_type.value
        if spec.vocabulary is not None:
            kind = "one of " + ", ".join(m.value for m in spec.vocabulary)
        elif spec.value_type is FieldType.TEXT and spec.format.value != "plain":
            kind = f"text ({spec.format.value})"
        if spec.required:
            kind += ", required"
        value = attrs.get(spec.name)
        if value is None and fact.kind == "fact" and spec.name == "statement":
            shown = '<span class="note">its content</span>'
        else:
            shown = _attribute_value(value, spec.format.value)
        rows.append((spec.name, kind, shown))
    return rows


def _attributes(fact: Fact) -> str:
    rows = attribute_rows(fact)
    if not rows:
        return '<p class="empty">This kind has no attributes.</p>'
    body = "".join(
        f'<tr><th scope="row"><code>{_x(n)}</code></th><td class="type">{_x(t)}</td>'
        f"<td>{v}</td></tr>"
        for n, t, v in rows
    )
    return (
        '<table class="attributes"><thead><tr><th>field</th><th>type</th><th>value</th>'
        f"</tr></thead><tbody>{body}</tbody></table>"
    )


def _meta(name: str, value: str, title: str = "") -> str:
    hint = f' title="{_x(title)}"' if title else ""
    return f"<div{hint}><dt>{_x(name)}</dt><dd>{value}</dd></div>"


def _spine(detail: FactDetail) -> str:
    fact = detail.fact
    stale = (
        '<span class="badge stale">stale</span>'
        if detail.stale
        else '<span class="badge fresh">fresh</span>'
    )
    items = [
        _meta("confidence", _generic(detail.confidence), "how sure the memory is (0..1)"),
        _meta("c_eff", _generic(detail.c_eff), "confidence decayed since last confirmed"),
        _meta("staleness", stale),
        _meta("last confirmed", time_text(detail.last_confirmed_at)),
        _meta("strength", _number(detail.strength), "how findable it still is (0..1)"),
        _meta("recalls", str(fact.recall_count)),
        _meta("last recalled", time_text(fact.last_recall_at)),
        _meta("state", _x(fact.state)),
        _meta("owner", _x(fact.owner)),
        _meta("created", time_text(fact.created_at)),
        _meta("pinned", _generic(detail.pinned)),
        _meta("user weight", _generic(detail.user_weight), "0..1; 0.5 is neutral"),
        _meta("lifetime", _x(detail.lifetime)),
        _meta("visibility", _x(fact.visibility)),
    ]
    if detail.expires_at is not None:
        items.append(_meta("expires", time_text(detail.expires_at)))
    if detail.expired_because:
        items.append(_meta("expired", _x(detail.expired_because)))
    if detail.source is not None:
        src = detail.source
        via = "" if src.label is None else f" via {src.label}"
        items.append(_meta("source", _x(f"{src.subject} ({src.actor_kind.value}){via}")))
    for f in dataclasses.fields(detail):
        if f.name not in _KNOWN_DETAIL:
            items.append(_meta(f.name.replace("_", " "), _generic(getattr(detail, f.name))))
    for f in dataclasses.fields(fact):
        if f.name not in _KNOWN_FACT:
            items.append(_meta(f.name.replace("_", " "), _generic(getattr(fact, f.name))))
    return f'<dl class="meta spine">{"".join(items)}</dl>'


def _evidence(evidence: tuple[EvidenceRef, ...]) -> str:
    if not evidence:
        return '<p class="empty">No evidence yet.</p>'
    items = []
    for ev in evidence:
        value = uri_html(ev.value) if ev.type.value == "uri" else _x(ev.value)
        note = f'<p class="note">{_x(ev.note)}</p>' if ev.note else ""
        items.append(
            f'<li><span class="badge">{_x(ev.type.value)}</span> '
            f'<span class="evidence-value">{value}</span>{note}</li>'
        )
    return f'<ol class="evidence">{"".join(items)}</ol>'


def _history(events: tuple[Event, ...]) -> str:
    rows = []
    for ev in events:
        reason = _x(ev.reason) if ev.reason else '<span class="empty">—</span>'
        if ev.redacted:
            reason += ' <span class="badge">redacted</span>'
        rows.append(
            f"<tr><td>{time_text(ev.recorded_at)}</td><td>{_x(event_label(ev))}</td>"
            f"<td>{_x(ev.actor)}</td><td>{_x(ev.actor_kind)}</td>"
            f'<td class="reason">{reason}</td></tr>'
        )
    return (
        '<div class="scroll"><table class="history"><thead><tr><th>time (UTC)</th>'
        "<th>event</th><th>actor</th>"
        f"<th>actor kind</th><th>reason</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        "</div>"
    )


def _related(detail: FactDetail) -> str:
    fact = detail.fact
    items = [f"<li>path {link(fact.path)}</li>"]
    if fact.supersedes_id:
        items.append(
            f'<li>corrects <a class="id" href="{_x(fact_href(fact.supersedes_id))}">'
            f"{_x(fact.supersedes_id)}</a></li>"
        )
    if fact.superseded_by:
        items.append(
            f'<li>corrected by <a class="id" href="{_x(fact_href(fact.superseded_by))}">'
            f"{_x(fact.superseded_by)}</a></li>"
        )
    items.extend(f"<li>links to {link(target)}</li>" for target in detail.links)
    for tag, source in detail.effective_tags:
        where = f" from {link(source)}" if source else ""
        items.append(f'<li><span class="tag">{_x(tag)}</span>{where}</li>')
    return f'<aside aria-label="Related"><h2>Related</h2><ul>{"".join(items)}</ul></aside>'


def _graph(graph: LinkGraph | None) -> str:
    if graph is None or not graph.nodes:
        return '<p class="empty">No typed link to a fact this subject may read.</p>'
    return (
        f'<figure class="graph-box">{graph_svg(graph)}'
        '<figcaption class="note">The facts within two links; each node opens its page.'
        f"</figcaption><details><summary>The links as a list</summary>{graph_list(graph)}"
        "</details></figure>"
    )


def fact_body(
    detail: FactDetail,
    series: SpineSeries,
    graph: LinkGraph | None = None,
    protocol: FactProtocol | None = None,
    *,
    corrections: str = "",
) -> str:
    """The page's body; ``corrections``: the section that corrects the fact
    (:func:`~embornal.interfaces.http.wiki.corrections_page.corrections_section`), under
    its content."""
    fact = detail.fact
    history = (
        ""
        if protocol is None
        else f"<h2>History protocol</h2>{protocol_section(protocol, fact.id)}"
    )
    chart = (
        '<figure class="chart-box">'
        f"{chart_svg(series)}"
        '<figcaption class="note">Confidence (solid blue) steps at each confirm, '
        "contradiction and piece of evidence; c_eff (dashed) decays with the kind's "
        "half-life; strength (green) decays and each recall lifts it. The dotted line is "
        "the kind's staleness threshold. Hover a dot for its event.</figcaption>"
        f"<details><summary>The values as a table</summary>{chart_table(series)}</details>"
        "</figure>"
    )
    return (
        '<div class="layout"><main>'
        f"{crumbs(fact.path, here=False)}"
        f'<h1>{kind_label(fact.kind)} <span class="id">{_x(fact.id)}</span></h1>'
        f'<p class="content fact-content">{render_content(fact.content)}</p>'
        f'<div class="info">{tags(fact)}</div>'
        f"{corrections}"
        f"<h2>Kind <code>{_x(fact.kind)}</code> and its attributes</h2>{_attributes(fact)}"
        f"<h2>Justification</h2>{_spine(detail)}"
        f"{history}<h2>Evidence</h2>{_evidence(detail.evidence)}"
        f"<h2>Confidence and strength over time</h2>{chart}"
        f"<h2>Links</h2>{_graph(graph)}"
        f"<h2>History</h2>{_history(detail.events)}{_access(fact.id)}"
        f"</main>{_related(detail)}</div>"
    )


# ------------------------------------------------------------------- the access log link


def _access(fact_id: str) -> str:
    """The link to the fact's access log (:mod:`.access_page`, decision 0160)."""
    from embornal.interfaces.http.wiki.access_page import access_link

    return access_link(fact_id)
