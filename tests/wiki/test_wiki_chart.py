"""The SVG renderer alone: well-formed XML, points in time order inside the plot, every
text escaped and stripped of what XML cannot hold, and a text fallback."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

import pytest

from embornal.domain.spine.series import SeriesMark, SeriesPoint, SpineSeries
from embornal.interfaces.http.wiki.chart import PLOT, chart_svg, chart_table, xml_text

SVG = "{http://www.w3.org/2000/svg}"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
NASTY = "<script>alert(1)</script> \"q\" 'a' &amp \x00\x01\x0b\x1f\ud800\ufffe end"


def _series(days: float = 10.0, reason: str | None = NASTY, actor: str = "a<b>") -> SpineSeries:
    end = T0 + timedelta(days=days)
    mid = T0 + timedelta(days=days / 2)
    return SpineSeries(
        fact_id="01KC" + "0" * 22,
        kind="fact",
        start=T0,
        end=end,
        confidence=(
            SeriesPoint(T0, 0.95),
            SeriesPoint(mid, 0.95),
            SeriesPoint(mid, 0.4),
            SeriesPoint(end, 0.4),
        ),
        effective=(SeriesPoint(T0, 0.95), SeriesPoint(mid, 0.9), SeriesPoint(end, 0.3)),
        strength=(
            SeriesPoint(T0, 1.0),
            SeriesPoint(mid, 0.2),
            SeriesPoint(mid, 1.0),
            SeriesPoint(end, 0.1),
        ),
        marks=(
            SeriesMark(mid, "FactContradicted", actor, "assistant", reason, 0.4, 0.4, 0.2),
            SeriesMark(mid, "recall", None, None, None, 0.4, 0.4, 1.0),
        ),
        stale_below=0.35,
        recalls=1,
    )


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


@pytest.mark.parametrize("days", [10.0, 0.0, 0.01, 4000.0])
def test_the_svg_is_xml_with_its_points_inside_the_plot(days: float) -> None:
    root = _parse(chart_svg(_series(days)))
    assert root.tag == f"{SVG}svg"
    left, top, right, bottom = PLOT
    polylines = list(root.iter(f"{SVG}polyline"))
    assert len(polylines) == 3
    for poly in polylines:
        pts = [tuple(map(float, p.split(","))) for p in poly.attrib["points"].split()]
        xs = [x for x, _ in pts]
        assert xs == sorted(xs)
        assert all(left <= x <= right and top <= y <= bottom for x, y in pts)
    for circle in root.iter(f"{SVG}circle"):
        assert left <= float(circle.attrib["cx"]) <= right
        assert top <= float(circle.attrib["cy"]) <= bottom


def test_values_outside_0_and_1_stay_in_the_box() -> None:
    s = _series()
    wild_points = (SeriesPoint(T0, 7.0), SeriesPoint(s.end, -3.0))
    wild = SpineSeries(**{**s.__dict__, "strength": wild_points})
    root = _parse(chart_svg(wild))
    _, top, _, bottom = PLOT
    poly = next(p for p in root.iter(f"{SVG}polyline") if p.attrib["class"] == "line-strength")
    ys = [float(p.split(",")[1]) for p in poly.attrib["points"].split()]
    assert ys == [top, bottom]


def test_every_text_is_inert() -> None:
    svg = chart_svg(_series())
    root = _parse(svg)
    assert "<script" not in svg
    assert {el.tag.removeprefix(SVG) for el in root.iter()} <= {
        "svg",
        "title",
        "desc",
        "g",
        "line",
        "text",
        "polyline",
        "circle",
    }
    tips = [t.text or "" for c in root.iter(f"{SVG}circle") for t in c]
    tip = next(t for t in tips if "contradicted" in t)
    assert tip is not None
    assert "<script>alert(1)</script>" in tip and "by a<b> (assistant)" in tip
    assert "\x00" not in tip and "\x01" not in tip and "\ufffe" not in tip
    assert all(not k.lower().startswith("on") for el in root.iter() for k in el.attrib)


def test_xml_text_escapes_and_replaces() -> None:
    assert xml_text('<a href="x">&\'') == "&lt;a href=&quot;x&quot;&gt;&amp;&#x27;"
    assert xml_text("a\x00b\x1bc\td\ne") == "a\ufffdb\ufffdc\td\ne"


def test_a_long_reason_is_cut_in_the_tooltip() -> None:
    root = _parse(chart_svg(_series(reason="x" * 5000)))
    tips = [t.text or "" for t in root.iter(f"{SVG}title")]
    assert max(len(t) for t in tips) < 400


def test_the_table_holds_the_same_values() -> None:
    table = chart_table(_series())
    assert table.count("<tr>") == 1 + 4  # head; created, two events, now
    assert "<td>" in table and "0.950" in table and "0.400" in table
    assert "created" in table and "now" in table
