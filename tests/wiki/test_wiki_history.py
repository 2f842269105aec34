"""The history protocol on the wiki: a fact's stage, tier, gate, canon, claims and
narratives on its page; ``/narratives``, ``/timeline`` and ``/audit``; each read as the
page's subject, under ``memory wiki`` and under ``serve``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from starlette.testclient import TestClient
from wiki_helpers import XSS_SCRIPT, Seeded, make_app

from embornal import FixedClock, Memory
from embornal.interfaces.http.app import LOOPBACK_HOSTS, create_app, create_local_wiki_app

SECRET = "zebraquartz"


@dataclass(frozen=True)
class Story:
    kite: str  # remembered, promoted, pinned, corroborated, in a canon, cited, narrated
    doubt: str  # an interpretation a narrative rests on, then forgotten
    claim: str
    hidden: str  # a fact only the default subject reads


def tell(memory: Memory, clock: FixedClock) -> Story:
    pub = ["visibility=public"]
    memory.tag_path("/team", {"visibility": "public"})
    kite = memory.remember(
        "The kite flew on Tuesday.",
        source="alice",
        path="/team/kite",
        session="s-1",
        event_at="2025-12-30T10:00:00Z",
        session_position=1,
    ).fact.id
    clock.advance(seconds=1)
    memory.promote(kite, reason="checked with the team")
    memory.pin(kite, reason="the flight matters")
    memory.corroborate(kite, "bob's diary", reason=f"he saw it {XSS_SCRIPT}")
    memory.chronicle.canonize(kite, "kite-project", reason="the project's focus")
    doubt = memory.store("/team/kite", "The kite might fly again.", tags=pub).id
    hidden = memory.store("/vault/kite", f"The {SECRET} kite is secret.").id
    memory.chronicle.set_history_context(
        hidden, session="s-1", event_at="2025-12-30T11:00:00Z", reason=f"{SECRET} time"
    )
    memory.link(kite, "relates_to", hidden, reason="related")
    claim = memory.chronicle.create_claim("The kite flies.", "observation", reason="said")
    memory.chronicle.add_claim_evidence(claim.id, memory_id=kite, note="the flight")
    memory.chronicle.adopt_claim(claim.id, reason="the flight is recorded")
    secret_claim = memory.chronicle.create_claim(f"The {SECRET} kite.", "plan", reason="x")
    memory.chronicle.add_claim_evidence(secret_claim.id, memory_id=hidden)
    memory.chronicle.add_claim_evidence(secret_claim.id, memory_id=kite)
    memory.chronicle.narrate(
        "The kite story, told whole.", reason="a summary", memory_ids=[kite], scope="kite"
    )
    memory.chronicle.narrate("A hopeful account.", reason="hope", memory_ids=[doubt], scope="hopes")
    memory.chronicle.narrate(
        f"The {SECRET} account.", reason="secret", memory_ids=[kite, hidden], scope="kite"
    )
    memory.chronicle.narrate(
        "The kite story, told again.", reason="a new telling", memory_ids=[kite], scope="kite"
    )
    clock.advance(seconds=1)
    memory.forget(doubt, reason="it did not fly again")
    return Story(kite, doubt, claim.id, hidden)


@pytest.fixture
def story(memory: Memory, clock: FixedClock, seeded: Seeded) -> Story:
    return tell(memory, clock)


@pytest.fixture
def bob(memory: Memory, story: Story) -> Iterator[TestClient]:
    """The wiki as bob, who reads only what is public."""
    memory.token_add("bob")  # bob joins everyone
    with TestClient(make_app(lambda request: memory.as_subject("bob"))) as test_client:
        yield test_client


def _main(html: str) -> str:
    return html[html.index("<main") : html.rindex("</main>")]


def test_a_fact_page_shows_its_place_in_the_protocol(client: TestClient, story: Story) -> None:
    answer = client.get(f"/fact/{story.kite}")
    assert answer.status_code == 200
    text = answer.text
    part = text[text.index("<h2>History protocol</h2>") : text.index("<h2>Evidence</h2>")]
    assert "<dt>stage</dt><dd>consolidated</dd>" in part
    assert re.search(r"<dt>tier</dt><dd>(archive|testimony)</dd>", part)
    assert "<dt>anchor</dt><dd>pinned</dd>" in part
    assert "<dt>canon</dt><dd>kite-project</dd>" in part
    assert 'href="/timeline?session=s-1"' in part
    assert "bob&#x27;s diary" in part  # the corroborating source
    assert "gate met" in part or "gate not met" in part
    assert "The kite flies." in part and "adopted" in part  # the claim that cites it
    assert 'href="/narratives?scope=kite"' in part  # the narrative resting on it
    history = text[text.index('<table class="history">') :]
    history = history[: history.index("</table>")]
    assert "<td>pinned (an anchor)</td>" in history
    assert "<td>promoted (consolidated)</td>" in history
    assert "<td>corroborated</td>" in history
    assert "FactImportanceAdjusted" not in text
    assert XSS_SCRIPT not in text and "&lt;script&gt;" in history


def test_a_fact_page_reads_the_narratives_on_a_link_of_the_fact(
    client: TestClient, memory: Memory, seeded: Seeded
) -> None:
    """The narratives resting on a fact are read by fact (``narratives_on``): one that
    names only a link of the fact rests on it too, and shows on its page."""
    a = memory.store("/releases", "Release 2 shipped.").id
    b = memory.store("/releases", "Release 2 fixed login.").id
    memory.link(b, "derived_from", a)
    memory.chronicle.narrate(
        "How release 2 came about.",
        reason="r",
        link_ids=[f"{b}:derived_from:{a}"],
        scope="release-2",
    )
    for fid in (a, b):
        text = client.get(f"/fact/{fid}").text
        part = text[text.index("<h2>History protocol</h2>") : text.index("<h2>Evidence</h2>")]
        assert 'href="/narratives?scope=release-2"' in part
    assert memory.chronicle.fact_protocol(a).narratives[0].scope == "release-2"


def test_an_ordinary_fact_says_it_has_no_claim_or_narrative(
    client: TestClient, seeded: Seeded
) -> None:
    text = client.get(f"/fact/{seeded.sqlite.id}").text
    assert "<dt>stage</dt><dd>consolidated</dd>" in text
    assert "<dt>anchor</dt><dd>no</dd>" in text
    assert "No claim this subject may see cites it." in text
    assert "No narrative this subject may see rests on it." in text


def test_the_narratives_page_shows_each_account_and_why_one_is_withheld(
    client: TestClient, story: Story
) -> None:
    answer = client.get("/narratives")
    assert answer.status_code == 200
    main = _main(answer.text)
    assert "The kite story, told again." in main
    assert "A hopeful account." not in main  # withheld: what it rests on was forgotten
    assert "Text withheld" in main and "Why it is withheld" in main
    assert "a memory it rests on was forgotten" in main
    assert 'class="badge stale">stale<' in main and 'class="badge fresh">current<' in main


def test_a_scope_page_shows_every_version_and_the_withheld_notice(
    client: TestClient, story: Story
) -> None:
    main = _main(client.get("/narratives?scope=kite").text)
    assert main.index("The kite story, told again.") < main.index("The kite story, told whole.")
    assert "superseded" in main and "The current version is usable." in main
    hopes = _main(client.get("/narratives?scope=hopes").text)
    assert "is withheld" in hopes and "A hopeful account." in hopes  # deliberate inspection
    assert client.get("/narratives?scope=nowhere").status_code == 404


def test_the_timeline_groups_by_session_in_time_order(client: TestClient, story: Story) -> None:
    main = _main(client.get("/timeline").text)
    assert "Session <a" in main and 'href="/timeline?session=s-1"' in main
    assert main.index("The kite flew on Tuesday.") < main.index(f"The {SECRET} kite")
    one = client.get("/timeline?session=s-1")
    assert one.status_code == 200 and "The kite flew on Tuesday." in one.text
    window = client.get("/timeline?start=2025-12-30T10:30:00Z")
    assert "The kite flew on Tuesday." not in _main(window.text)
    assert client.get("/timeline?session=no-such-session").status_code == 404
    assert client.get("/timeline?start=not-a-time").status_code == 400


def test_the_audit_page_lists_decisions_with_reasons_and_filters(
    client: TestClient, story: Story
) -> None:
    main = _main(client.get("/audit").text)
    assert "pinned (an anchor)" in main and "the flight matters" in main
    assert "claim adopted" in main and "the flight is recorded" in main
    assert "forgotten" in main and "it did not fly again" in main
    pins = _main(client.get("/audit?action=pin").text)
    assert "the flight matters" in pins and "it did not fly again" not in pins
    assert '<option value="pin" selected>' in pins
    nobody = _main(client.get("/audit?actor=nobody").text)
    assert "No decision this subject may see matches." in nobody
    assert client.get("/audit?actor=" + "x" * 300).status_code == 400


def test_the_pages_show_bob_nothing_he_may_not_read(
    bob: TestClient, story: Story, memory: Memory
) -> None:
    """Bob reads the public facts only: a hidden fact linked to a visible one, the claim
    citing both, the narrative version resting on both, its decisions and its place on
    the timeline never show."""
    pages = [
        f"/fact/{story.kite}",
        "/narratives",
        "/narratives?scope=kite",
        "/timeline",
        "/timeline?session=s-1",
        "/audit",
        "/audit?actor=default",
    ]
    for url in pages:
        answer = bob.get(url)
        assert answer.status_code == 200, url
        assert SECRET not in answer.text, url
        assert story.hidden not in answer.text, url
        assert "/vault" not in answer.text, url
    assert "The kite flew on Tuesday." in bob.get("/timeline").text
    assert bob.get(f"/fact/{story.hidden}").status_code == 404


def test_the_header_links_the_pages_only_when_read_as_a_subject(
    memory: Memory, story: Story
) -> None:
    app = create_app(memory, allowed_hosts=LOOPBACK_HOSTS)
    issued = memory.token_add("carol")
    with TestClient(app, base_url="http://127.0.0.1") as web:
        login = web.get("/login")
        assert 'href="/audit"' not in login.text and 'href="/narratives"' not in login.text
        assert web.get("/audit", follow_redirects=False).status_code == 303
        web.cookies.set("embornal_token", issued.token)
        for url in ("/narratives", "/timeline", "/audit"):
            answer = web.get(url)
            assert answer.status_code == 200, url
            assert 'href="/narratives"' in answer.text and 'href="/audit"' in answer.text
            assert "reading as <b>carol</b>" in answer.text


def test_the_pages_work_on_the_local_wiki_with_its_key(memory: Memory, story: Story) -> None:
    """``embornal memory wiki``: with the printed key, as ``default``; without it, 401."""
    key = "k" * 43
    with TestClient(create_local_wiki_app(memory, key=key), base_url="http://127.0.0.1") as web:
        for url in ("/narratives", "/timeline", "/audit", f"/fact/{story.kite}"):
            assert web.get(url).status_code == 401, url
        assert web.get(f"/?key={key}", follow_redirects=False).status_code == 303
        for url in ("/narratives", "/timeline", "/audit", f"/fact/{story.kite}"):
            answer = web.get(url)
            assert answer.status_code == 200, url
            assert 'href="/timeline"' in answer.text and "reading as <b>default</b>" in answer.text
        assert SECRET in web.get("/timeline").text  # default reads the hidden fact
