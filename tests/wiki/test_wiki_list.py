"""``/list`` and ``/graph`` (decision 0159): the list filters, sorts and pages in the store,
every filter a query parameter; the graph draws the most linked facts and counts what it
does not draw; both read through the one access filter (a subject sees its facts and
counts only them) and leave the guide under ``/memory`` out unless ``all=1``."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from starlette.testclient import TestClient
from wiki_helpers import make_app

from embornal import FixedClock, Memory
from embornal.interfaces.http.app import create_app


def _ids(html: str) -> list[str]:
    return re.findall(r'<li id="fact-([0-9A-Z]+)"', html)


def _fill(memory: Memory, clock: FixedClock) -> list[str]:
    """Nine facts an hour apart: /team/a, /team/b, /own (alice's, tagged topic=red every
    third), kinds fact; the fourth recalled."""
    ids = []
    for n in range(9):
        clock.advance(seconds=3600)
        tags = ["topic=red"] if n % 3 == 0 else ["topic=blue"]
        text = f"item {n} zeta" + (" quartz" if n == 4 else "")
        f = memory.store(
            ["/team/a", "/team/b", "/own"][n % 3], text, tags=tags, confidence=0.1 * (n + 1)
        )
        ids.append(f.id)
    clock.advance(days=2)
    memory.recall("quartz")
    return ids


def _client(memory: Memory) -> TestClient:
    return TestClient(make_app(lambda request: memory))


def test_the_list_filters_by_each_query_parameter(memory: Memory, clock: FixedClock) -> None:
    ids = _fill(memory, clock)
    with _client(memory) as client:
        newest = _ids(client.get("/list").text)
        assert newest == ids[::-1]
        assert (
            _ids(client.get("/list", params={"under": "/team/a", "sort": "oldest"}).text)
            == ids[0::3]
        )
        assert (
            _ids(client.get("/list", params={"tag": "topic=red", "sort": "oldest"}).text)
            == ids[0::3]
        )
        got = client.get("/list", params={"cmin": "0.35", "cmax": "0.65", "sort": "oldest"})
        assert _ids(got.text) == ids[3:6]
        assert _ids(client.get("/list", params={"kind": "person"}).text) == []
        assert _ids(client.get("/list", params={"owner": "default"}).text) == ids[::-1]
        assert _ids(client.get("/list", params={"stage": "working"}).text) == []
        strongest = _ids(client.get("/list", params={"sort": "strongest"}).text)
        assert strongest[0] == ids[4]  # the one recalled
        weak = client.get("/list", params={"smax": "0.5", "sort": "path"})
        assert ids[4] not in _ids(weak.text) and len(_ids(weak.text)) == 8
        by_path = _ids(client.get("/list", params={"sort": "path"}).text)
        assert by_path == [*ids[2::3], *ids[0::3], *ids[1::3]]
        page = client.get("/list", params={"under": "/team", "tag": "topic=red"}).text
    # the form keeps the filters, so the URL of the page is shareable and the form says so
    assert 'name="under" value="/team"' in page and 'name="tag" value="topic=red"' in page
    assert re.search(r"<label>Path <input", page) and 'action="/list"' in page


def test_the_list_pages_in_a_stable_order(memory: Memory, clock: FixedClock) -> None:
    ids = _fill(memory, clock)
    with _client(memory) as client:
        first = client.get("/list", params={"size": "20", "sort": "oldest"}).text
        assert "9 facts match" in first and "Next" not in first
        for n in range(30):
            memory.store("/bulk", f"bulk {n}")
        pages = [
            client.get("/list", params={"size": "20", "sort": "oldest", "page": str(p)}).text
            for p in (1, 2, 3)
        ]
    seen = [i for p in pages for i in _ids(p)]
    assert seen[:9] == ids and len(seen) == len(set(seen)) == 39
    assert "39 facts match" in pages[0] and "page 1 of 2" in pages[0]
    assert 'rel="next" href="/list?sort=oldest&amp;size=20&amp;page=2"' in pages[0]
    assert "page 2 of 2" in pages[1] and 'rel="prev"' in pages[1]
    assert "39 facts match" in pages[2] and not _ids(pages[2])


def test_the_list_refuses_bad_filters(memory: Memory, clock: FixedClock) -> None:
    _fill(memory, clock)
    with _client(memory) as client:
        bad = (
            {"sort": "random"},
            {"cmin": "x"},
            {"smin": "2"},
            {"tag": "red"},
            {"size": "999"},
            {"page": "0"},
            {"stage": "done"},
            {"under": "/bad path!"},
        )
        for params in bad:
            got = client.get("/list", params=params)
            assert got.status_code in (400, 404), params
            assert "<script" not in got.text


def test_the_guide_shows_only_when_asked(memory: Memory, clock: FixedClock) -> None:
    ids = _fill(memory, clock)
    with _client(memory) as client:
        plain = client.get("/list", params={"size": "200"}).text
        everything = client.get("/list", params={"size": "200", "all": "1"}).text
        under = client.get("/list", params={"under": "/memory"}).text
    assert _ids(plain) == ids[::-1] and "/memory" not in "".join(
        re.findall(r'href="(/wiki[^"]*)"', plain)
    )
    assert len(_ids(everything)) > len(ids) and 'href="/wiki/memory' in everything
    assert _ids(under) and 'name="all" value="1" checked' not in under


def test_a_subject_lists_and_counts_only_what_it_may_read(
    memory: Memory, clock: FixedClock
) -> None:
    ids = _fill(memory, clock)
    a, b = memory.store("/team/a", "linked one"), memory.store("/own", "linked two")
    c = memory.store("/team/b", "linked three")
    memory.link(a.id, "relates_to", b.id)
    memory.link(a.id, "relates_to", c.id)
    token = memory.token_add("bob").token
    memory.policy_add("p", ["bob", "path:/team/*", "read", "allow"])
    with TestClient(create_app(memory, mcp=False, wiki=True)) as client:
        client.cookies.set("embornal_token", token)
        listed = client.get("/list", params={"size": "200"})
        graph = client.get("/graph")
    assert listed.status_code == 200, listed.text
    team = [i for n, i in enumerate(ids) if n % 3 < 2]
    assert sorted(_ids(listed.text)) == sorted([*team, a.id, c.id])
    assert f"{len(team) + 2} facts match" in listed.text
    assert graph.status_code == 200
    assert b.id not in graph.text and "linked two" not in graph.text
    assert "The 2 most linked facts of 2 and 1 of 1 links" in graph.text


def test_the_graph_draws_the_most_linked_and_counts_the_rest(
    memory: Memory, clock: FixedClock
) -> None:
    hub = memory.store("/hub", "the hub <b>fact</b>")
    spokes = [memory.store(f"/spoke/{n % 5}", f"spoke {n}") for n in range(30)]
    for s in spokes:
        memory.link(hub.id, "relates_to", s.id)
    memory.link(spokes[0].id, "about", spokes[1].id)
    with _client(memory) as client:
        got = client.get("/graph", params={"n": "20"})
        about = client.get("/graph", params={"relation": "about"})
        under = client.get("/graph", params={"under": "/spoke/3"})
        bad = client.get("/graph", params={"n": "7"})
        empty = client.get("/graph", params={"under": "/nowhere"})
    assert got.status_code == 200
    svg = re.search(r"<svg.*?</svg>", got.text, re.S)
    assert svg is not None
    ElementTree.fromstring(svg.group(0))  # well-formed XML whatever a fact holds
    assert got.text.count('class="node') == 20
    assert f'href="/fact/{hub.id}"' in svg.group(0)
    assert "Not drawn: 11 facts and 11 links." in got.text  # of 31 and 31; spokes 0, 1 drawn
    assert "<b>fact</b>" not in got.text
    assert about.text.count('class="node') == 2
    assert under.text.count('class="node') == 7  # the hub and the six spokes under /spoke/3
    assert bad.status_code == 400
    assert "No typed link" in empty.text


def test_every_page_has_the_search_box_and_the_new_pages(memory: Memory, clock: FixedClock) -> None:
    _fill(memory, clock)
    with _client(memory) as client:
        for url in ("/", "/list", "/graph", "/search"):
            text = client.get(url).text
            assert 'action="/search" role="search"' in text, url
            assert 'href="/list"' in text and 'href="/graph"' in text, url
