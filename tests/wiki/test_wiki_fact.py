"""The fact page: kind and attributes, the spine, evidence, history, and the inline SVG
of confidence and strength over time; hidden facts are missing; everything escaped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from starlette.testclient import TestClient
from wiki_helpers import XSS_SCRIPT, Seeded, make_app

from embornal import FixedClock, Memory
from embornal.domain.facts.fact import Fact
from embornal.interfaces.http.wiki import CONTENT_SECURITY_POLICY
from embornal.interfaces.http.wiki.chart import PLOT

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = f"{XSS_SCRIPT} \"quoted\" 'single' \x01\x07\x1b[31m & done"


def _project(memory: Memory, clock: FixedClock) -> Fact:
    fact = memory.store(
        "/projects/kite",
        "Kite: a small [[/projects/embornal]] spin-off.",
        kind="project",
        attributes={"name": "Kite", "status": "active", "target_date": "2027-03-01"},
        reason="started",
    )
    clock.advance(days=2)
    memory.confirm(fact.id, evidence="uri:https://example.org/kite?a=1&b=2", reason="seen")
    clock.advance(days=3)
    memory.recall("Kite")
    clock.advance(days=4)
    memory.contradict(fact.id, reason=HOSTILE)
    memory.add_evidence(fact.id, "uri:javascript:alert(1)", note=f"note {XSS_SCRIPT}")
    memory.add_evidence(fact.id, f"quote:{XSS_SCRIPT}")
    clock.advance(days=6)
    memory.recall("Kite")
    clock.advance(days=30)
    return fact


def _svg(html: str) -> ET.Element:
    found = re.findall(r"<svg\b.*?</svg>", html, re.S)
    assert len(found) == 1
    return ET.fromstring(found[0])  # well-formed XML, or this raises


def _points(poly: ET.Element) -> list[tuple[float, float]]:
    return [tuple(float(v) for v in p.split(",")) for p in poly.attrib["points"].split()]  # type: ignore[misc]


def test_the_fact_page_shows_kind_attributes_spine_and_evidence(
    client: TestClient, memory: Memory, clock: FixedClock, seeded: Seeded
) -> None:
    fact = _project(memory, clock)
    before = memory.show(fact.id).fact.recall_count
    r = client.get(f"/fact/{fact.id}")
    assert r.status_code == 200
    assert memory.show(fact.id).fact.recall_count == before  # reading is not recalling
    text = r.text
    assert '<span class="kind" title="kind">project</span>' in text
    for field in ("name", "status", "summary", "target_date"):
        assert f"<code>{field}</code>" in text
    assert "one of idea, active, paused, done, abandoned, required" in text
    assert "2027-03-01" in text
    detail = memory.show(fact.id)
    assert f"{detail.confidence:.3f}" in text and f"{detail.c_eff:.3f}" in text
    assert '<span class="badge fresh">fresh</span>' in text  # an active project: no clock
    # evidence: an http(s) URI is a link that gives nothing away; any other, text
    assert (
        '<a class="external" href="https://example.org/kite?a=1&amp;b=2" '
        'rel="noopener noreferrer">' in text
    )
    assert 'href="javascript:' not in text
    assert '<span class="uri">javascript:alert(1)</span>' in text
    assert "<script>" not in text.split("</style>", 1)[1]
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in text
    # the content's link goes to the path's page; the path and the fact link back
    assert 'href="/wiki/projects/embornal"' in text
    assert 'href="/wiki/projects/kite"' in text


def test_the_history_lists_every_event_with_actor_kind_and_reason(
    client: TestClient, memory: Memory, clock: FixedClock, seeded: Seeded
) -> None:
    fact = _project(memory, clock)
    text = client.get(f"/fact/{fact.id}").text
    history = text[text.index('<table class="history">') :]
    history = history[: history.index("</table>")]
    rows = re.findall(r"<tr><td>.*?</tr>", history)
    assert len(rows) == len(memory.show(fact.id).events) == 5
    for label in ("stored", "confirmed", "contradicted", "evidence added"):
        assert f"<td>{label}</td>" in history  # what it did, in words, not the log's type
    assert "FactStored" not in history
    assert "<td>default</td><td>person</td>" in rows[0]
    assert "started" in rows[0] and "seen" in rows[1]
    hostile = rows[2]
    assert "&lt;script&gt;" in hostile and "&quot;quoted&quot;" in hostile
    assert "&#x27;single&#x27;" in hostile
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", text)  # controls shown as U+FFFD


def test_the_chart_is_an_inline_svg_of_valid_xml_inside_its_box(
    client: TestClient, memory: Memory, clock: FixedClock, seeded: Seeded
) -> None:
    fact = _project(memory, clock)
    text = client.get(f"/fact/{fact.id}").text
    svg = _svg(text)
    assert svg.attrib["role"] == "img"
    assert svg.find(f"{SVG}title") is not None and svg.find(f"{SVG}desc") is not None
    assert svg.attrib["aria-labelledby"] == "spine-chart-title spine-chart-desc"
    lines = {p.attrib["class"]: _points(p) for p in svg.iter(f"{SVG}polyline")}
    assert set(lines) == {"line-confidence", "line-effective", "line-strength"}
    left, top, right, bottom = PLOT
    for points in lines.values():
        xs = [x for x, _ in points]
        assert xs == sorted(xs)  # time runs forward
        assert xs[0] == left and xs[-1] == right
        assert all(left <= x <= right and top <= y <= bottom for x, y in points)
    # confidence fell at the contradiction, so its line goes down somewhere
    ys = [y for _, y in lines["line-confidence"]]
    assert max(ys) > min(ys)
    # every text of the SVG is inert: no element but the chart's own, the reason as text
    assert {el.tag.removeprefix(SVG) for el in svg.iter()} <= {
        "svg",
        "title",
        "desc",
        "g",
        "line",
        "text",
        "polyline",
        "circle",
    }
    titles = [t.text or "" for t in svg.iter(f"{SVG}title")]
    assert any(XSS_SCRIPT in t and '"quoted"' in t for t in titles)
    assert not any("on" + "error" in k for el in svg.iter() for k in el.attrib)
    # the fallback: the same values as a table
    assert "The values as a table" in text and '<table class="values">' in text
    assert (
        r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        if (r := client.get(f"/fact/{fact.id}"))
        else False
    )
    assert "style=" not in text


def test_a_hidden_fact_is_missing_as_a_missing_one(memory: Memory, seeded: Seeded) -> None:
    secret = memory.store("/secret/plans", "The launch is on Friday.")
    memory.token_add("alice")
    alice = memory.as_subject("alice")
    own = alice.store("/alice/notes", "Mine.")
    with TestClient(make_app(lambda request: alice)) as c:
        assert c.get(f"/fact/{own.id}").status_code == 200
        hidden = c.get(f"/fact/{secret.id}")
        missing = c.get("/fact/01KC" + "0" * 22)
        malformed = c.get("/fact/not-an-id!")
    assert hidden.status_code == missing.status_code == malformed.status_code == 404
    assert "Friday" not in hidden.text
    assert hidden.text.replace(secret.id, "X") == missing.text.replace("01KC" + "0" * 22, "X")


def test_a_prefix_or_lower_case_id_redirects_to_the_one_address(
    client: TestClient, seeded: Seeded
) -> None:
    fid = seeded.wal.id
    for asked in (fid.lower(), fid[:-1]):
        r = client.get(f"/fact/{asked}", follow_redirects=False)
        assert r.status_code == 308
        assert r.headers["location"] == f"/fact/{fid}"


def test_path_pages_label_each_fact_with_its_kind_and_link_its_page(
    client: TestClient, memory: Memory, clock: FixedClock, seeded: Seeded
) -> None:
    fact = _project(memory, clock)
    text = client.get("/wiki/projects/kite").text
    assert '<span class="kind" title="kind">project</span>' in text
    assert f'href="/fact/{fact.id}"' in text
    plain = client.get("/wiki/projects/embornal").text
    assert '<span class="kind" title="kind">fact</span>' in plain
    assert f'href="/fact/{seeded.sqlite.id}"' in plain


def test_a_plain_fact_and_a_forgotten_one(
    client: TestClient, memory: Memory, seeded: Seeded
) -> None:
    text = client.get(f"/fact/{seeded.sqlite.id}").text
    assert "<code>statement</code>" in text and "its content" in text
    assert "No evidence yet." in text
    _svg(text)
    memory.forget(seeded.wal.id, reason="old")
    gone = client.get(f"/fact/{seeded.wal.id}")
    assert gone.status_code == 200
    assert "<dd>forgotten</dd>" in gone.text and "<td>forgotten</td>" in gone.text


def test_control_characters_in_content_come_out_inert(
    client: TestClient, memory: Memory, seeded: Seeded
) -> None:
    fact = memory.store("/notes/controls", f"bell\x07 escape\x1b[31m {XSS_SCRIPT}\nnext\tline")
    for url in (f"/fact/{fact.id}", "/wiki/notes/controls"):
        text = client.get(url).text
        assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text), url
        assert "bell\ufffd escape\ufffd[31m &lt;script&gt;" in text
        assert "\nnext\tline" in text


def test_many_recalls_and_a_purge(client: TestClient, memory: Memory, clock: FixedClock) -> None:
    fact = memory.store("/notes/often", "secret words", reason="why")
    memory.confirm(fact.id, evidence="quote:hidden quote", reason="vouched")
    for _ in range(320):
        clock.advance(seconds=3600)
        memory.recall("secret")
    text = client.get(f"/fact/{fact.id}").text
    svg = _svg(text)
    assert len(list(svg.iter(f"{SVG}circle"))) == 300  # the newest dots only
    strength = next(p for p in svg.iter(f"{SVG}polyline") if "strength" in p.attrib["class"])
    assert len(_points(strength)) > 2 * 320  # the line keeps every recall
    assert "earlier events not listed" in text
    memory.purge(fact.id, reason="gone")
    gone = client.get(f"/fact/{fact.id}")
    assert gone.status_code == 200
    assert "secret words" not in gone.text and "hidden quote" not in gone.text
    assert "vouched" not in gone.text  # the reasons are redacted too
    assert '<span class="badge">redacted</span>' in gone.text
    _svg(gone.text)


def test_the_page_shows_pin_weight_lifetime_visibility_and_source(memory: Memory) -> None:
    from embornal.interfaces.http.wiki.fact_page import fact_body

    fact = memory.store(
        "/spine/page", "Kept for a while.", source="<cli>", visibility="restricted:bob,alice"
    )
    memory.pin(fact.id, reason="matters")
    memory.set_weight(fact.id, 0.25)
    memory.set_lifetime(fact.id, "until:2099-01-01")
    html = fact_body(memory.show(fact.id), memory.spine_series(fact.id))
    assert "<dt>pinned</dt><dd>yes</dd>" in html
    assert "<dt>user weight</dt><dd>0.250</dd>" in html
    assert "<dt>lifetime</dt><dd>until:2099-01-01</dd>" in html
    assert "<dt>visibility</dt><dd>restricted:alice,bob</dd>" in html
    assert "<dt>source</dt><dd>default (person) via &lt;cli&gt;</dd>" in html
    assert html.count("<dt>pinned</dt>") == 1
