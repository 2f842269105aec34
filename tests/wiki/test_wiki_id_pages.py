"""The pages of an id in the URL (a fact, its access log, a proposal, one of its items, a
conflict) answer alike: the full id is the page, a lower-case id or a unique prefix is a
308 to it, and an id that is not letters and digits, one never used or a prefix that fits
more than one is the same 404 page."""

from __future__ import annotations

import pytest
from review_helpers import ada_twice, local, propose_two

from embornal import Memory

# The URL of each kind of page, with its id left out.
_PAGES = {
    "fact": "/fact/{}",
    "access": "/fact/{}/access",
    "proposal": "/proposal/{}",
    "item": "/proposal/{}/item/1",
    "conflict": "/conflict/{}",
}


def _ids(memory: Memory) -> dict[str, str]:
    old = memory.store("/notes/animals", "Narwhals are a myth.")
    conflict, _, _ = ada_twice(memory)
    pid = propose_two(memory, old.id)
    return {"fact": old.id, "access": old.id, "proposal": pid, "item": pid, "conflict": conflict}


@pytest.mark.parametrize("kind", sorted(_PAGES))
def test_a_lower_case_id_or_a_prefix_redirects_to_the_full_id(memory: Memory, kind: str) -> None:
    full = _ids(memory)[kind]
    url = _PAGES[kind]
    with local(memory) as c:
        assert c.get(url.format(full)).status_code == 200
        for given in (full.lower(), full[:-1]):
            r = c.get(url.format(given), follow_redirects=False)
            assert r.status_code == 308, given
            assert r.headers["location"] == url.format(full)


@pytest.mark.parametrize("kind", sorted(_PAGES))
def test_no_such_id_is_the_404_page(memory: Memory, kind: str) -> None:
    _ids(memory)
    url = _PAGES[kind]
    never = "K" + "F" * 15 if kind == "conflict" else "0" * 26  # well formed, never used
    with local(memory) as c:
        for given in ("not-an-id!", never, "7" * 27):
            r = c.get(url.format(given), follow_redirects=False)
            assert r.status_code == 404, given
            assert "Nothing to show at <b>" in r.text


def test_a_prefix_of_two_facts_is_the_404_page(memory: Memory) -> None:
    a = memory.store("/notes/a", "One fact.")
    b = memory.store("/notes/b", "Another fact.")
    common = next(i for i in range(26) if a.id[i] != b.id[i])
    assert common > 0  # the same moment: the ids share their time
    with local(memory) as c:
        for url in ("/fact/{}", "/fact/{}/access"):
            r = c.get(url.format(a.id[:common]), follow_redirects=False)
            assert r.status_code == 404
            assert f"Nothing to show at <b>{a.id[:common]}</b>" in r.text
