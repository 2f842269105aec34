"""A fact's confidence and strength over time as an inline SVG, drawn on the server.

:func:`chart_svg` turns a :class:`~embornal.domain.spine.series.SpineSeries` into one
``<svg>`` element: axes with labels, the staleness threshold, three polylines
(confidence, effective confidence, strength) and a dot at each event with a ``<title>``
tooltip, plus ``<title>``/``<desc>`` for screen readers. No script, no ``style``
attribute (the page's stylesheet styles it by class), no external reference: it passes
the wiki's Content-Security-Policy. Every text in it is escaped and stripped of the
characters XML cannot hold, so the element is well-formed XML whatever a reason says.
:func:`chart_table` gives the same values as an HTML table, the chart's text fallback.
"""

from __future__ import annotations

from datetime import datetime

from embornal.domain.clock import format_time
from embornal.domain.spine.series import SeriesMark, SeriesPoint, SpineSeries
from embornal.interfaces.http.wiki.common import e
from embornal.interfaces.http.wiki.history_pages import type_label

__all__ = [
    "HEIGHT",
    "MAX_MARKS",
    "MAX_TABLE_ROWS",
    "PLOT",
    "WIDTH",
    "chart_svg",
    "chart_table",
    "xml_text",
]

WIDTH = 640
HEIGHT = 260
#: The plot area inside the viewBox: left, top, right, bottom.
PLOT = (52.0, 34.0, 624.0, 222.0)
#: At most this many event dots (the newest); the lines keep every point.
MAX_MARKS = 300
#: At most this many rows in the table (the newest events).
MAX_TABLE_ROWS = 100
_REASON_SHOWN = 200

_SERIES = (
    ("confidence", "line-confidence", "confidence"),
    ("effective", "line-effective", "effective confidence (c_eff)"),
    ("strength", "line-strength", "strength"),
)


xml_text = e
"""Text for XML and HTML alike: :func:`~embornal.interfaces.http.wiki.common.e`."""


def _stamp(moment: datetime, *, with_time: bool, seconds: bool = False) -> str:
    text = format_time(moment, micro=False).replace("T", " ")
    if not with_time:
        return text[:10]
    return text[:19] if seconds else text[:16]


class _Scale:
    """Maps times and values (0..1) into the plot area."""

    def __init__(self, start: datetime, end: datetime) -> None:
        self.start = start
        self.span = max((end - start).total_seconds(), 0.0)

    def x(self, at: datetime) -> float:
        left, _, right, _ = PLOT
        if self.span <= 0:
            return left
        share = (at - self.start).total_seconds() / self.span
        return left + min(1.0, max(0.0, share)) * (right - left)

    @staticmethod
    def y(value: float) -> float:
        _, top, _, bottom = PLOT
        return bottom - min(1.0, max(0.0, value)) * (bottom - top)


def _points(points: tuple[SeriesPoint, ...], scale: _Scale) -> str:
    return " ".join(f"{scale.x(p.at):.1f},{scale.y(p.value):.1f}" for p in points)


def _line(css: str, x1: float, y1: float, x2: float, y2: float) -> str:
    return f'<line class="{css}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'


def _axes(series: SpineSeries, scale: _Scale) -> list[str]:
    left, top, right, bottom = PLOT
    out = ['<g class="axes">']
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = scale.y(tick)
        out.append(
            f'<line class="grid" x1="{left:.1f}" y1="{y:.1f}" x2="{right:.1f}" y2="{y:.1f}"/>'
        )
        out.append(
            f'<text class="tick" x="{left - 6:.1f}" y="{y + 4:.1f}" text-anchor="end">'
            f"{tick:.2f}</text>"
        )
    out.append(
        f'<line class="axis" x1="{left:.1f}" y1="{top:.1f}" x2="{left:.1f}" y2="{bottom:.1f}"/>'
    )
    out.append(
        f'<line class="axis" x1="{left:.1f}" y1="{bottom:.1f}" x2="{right:.1f}" y2="{bottom:.1f}"/>'
    )
    short = scale.span < 2 * 86_400
    middle = series.start + (series.end - series.start) / 2
    ticks = ((series.start, "start"), (middle, "middle"), (series.end, "end"))
    for at, anchor in ticks if scale.span > 0 else ticks[:1]:
        x = scale.x(at)
        out.append(_line("axis", x, bottom, x, bottom + 4))
        out.append(
            f'<text class="tick" x="{x:.1f}" y="{bottom + 17:.1f}" text-anchor="{anchor}">'
            f"{xml_text(_stamp(at, with_time=short, seconds=scale.span < 300))}</text>"
        )
    out.append(
        f'<text class="tick" x="{right:.1f}" y="{HEIGHT - 4:.1f}" text-anchor="end">'
        "time (UTC) →</text>"
    )
    y = scale.y(series.stale_below)
    out.append(_line("threshold", left, y, right, y))
    out.append(
        f'<text class="tick threshold-label" x="{right - 2:.1f}" y="{y - 4:.1f}" '
        f'text-anchor="end">stale below {series.stale_below:.2f}</text>'
    )
    out.append("</g>")
    return out


def _legend() -> list[str]:
    out = ['<g class="legend">']
    x = PLOT[0]
    for _, css, label in _SERIES:
        out.append(_line(css, x, 14, x + 22, 14))
        out.append(f'<text class="legend-label" x="{x + 28:.1f}" y="18">{xml_text(label)}</text>')
        x += 40 + 7 * len(label)
    out.append("</g>")
    return out


def _mark_title(mark: SeriesMark) -> str:
    when = format_time(mark.at, micro=False)
    if mark.type == "recall":
        return f"{when} recall: strength {mark.value:.3f}"
    who = f" by {mark.actor}" if mark.actor else ""
    if mark.actor_kind:
        who += f" ({mark.actor_kind})"
    why = ""
    if mark.reason:
        reason = (
            mark.reason if len(mark.reason) <= _REASON_SHOWN else mark.reason[:_REASON_SHOWN] + "…"
        )
        why = f": {reason}"
    return f"{when} {type_label(mark.type)}{who}{why}; confidence {mark.value:.3f}"


def _marks(series: SpineSeries, scale: _Scale) -> list[str]:
    shown = series.marks[-MAX_MARKS:]
    out = ['<g class="marks">']
    for mark in shown:
        css = "mark-recall" if mark.type == "recall" else "mark-event"
        out.append(
            f'<circle class="{css}" cx="{scale.x(mark.at):.1f}" cy="{scale.y(mark.value):.1f}" '
            f'r="3.5"><title>{xml_text(_mark_title(mark))}</title></circle>'
        )
    out.append("</g>")
    return out


def _last(points: tuple[SeriesPoint, ...]) -> float:
    return points[-1].value if points else 0.0


def _description(series: SpineSeries) -> str:
    events = sum(1 for m in series.marks if m.type != "recall")
    first = series.confidence[0].value if series.confidence else 0.0
    return (
        f"From {_stamp(series.start, with_time=True)} to {_stamp(series.end, with_time=True)} "
        f"UTC: confidence {first:.3f} at creation, {_last(series.confidence):.3f} now after "
        f"{events} event{'s' if events != 1 else ''}; effective confidence now "
        f"{_last(series.effective):.3f} (stale below {series.stale_below:.2f}); strength now "
        f"{_last(series.strength):.3f} after {series.recalls} recall"
        f"{'s' if series.recalls != 1 else ''}. The table below lists the values."
    )


def chart_svg(series: SpineSeries, *, element_id: str = "spine-chart") -> str:
    """The chart as one ``<svg>`` element (well-formed XML, namespaced)."""
    scale = _Scale(series.start, series.end)
    ident = xml_text(element_id)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="{ident}" class="chart" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        f'aria-labelledby="{ident}-title {ident}-desc">',
        f'<title id="{ident}-title">'
        f"{xml_text(f'Confidence and strength of fact {series.fact_id} over time')}</title>",
        f'<desc id="{ident}-desc">{xml_text(_description(series))}</desc>',
        *_axes(series, scale),
        *_legend(),
    ]
    for name, css, _ in _SERIES:
        points: tuple[SeriesPoint, ...] = getattr(series, name)
        parts.append(f'<polyline class="{css}" points="{_points(points, scale)}"/>')
    parts.extend(_marks(series, scale))
    parts.append("</svg>")
    return "".join(parts)


def chart_table(series: SpineSeries) -> str:
    """The chart's values as an HTML table: creation, each event (the newest
    :data:`MAX_TABLE_ROWS`), now."""
    marks = series.marks[-MAX_TABLE_ROWS:]
    left_out = len(series.marks) - len(marks)
    first = (series.confidence[0].value, series.effective[0].value, series.strength[0].value)
    final = (series.confidence[-1].value, series.effective[-1].value, series.strength[-1].value)
    rows: list[tuple[datetime, str, tuple[float, float, float]]] = [
        (series.start, "created", first),
        *((m.at, type_label(m.type), (m.confidence, m.effective, m.strength)) for m in marks),
        (series.end, "now", final),
    ]
    body = []
    for at, what, cells in rows:
        stamp = format_time(at, micro=False)
        body.append(
            f'<tr><td><time datetime="{xml_text(stamp)}">{xml_text(stamp.replace("T", " "))}'
            f"</time></td><td><code>{xml_text(what)}</code></td>"
            + "".join(f'<td class="num">{v:.3f}</td>' for v in cells)
            + "</tr>"
        )
    note = (
        f'<p class="note">{left_out} earlier event{"s" if left_out != 1 else ""} not listed.</p>'
        if left_out
        else ""
    )
    return (
        f'{note}<table class="values"><thead><tr><th>time (UTC)</th><th>event</th>'
        "<th>confidence</th><th>c_eff</th><th>strength</th></tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )
