"""One ISO form for times everywhere: 4-digit zero-padded years (``0001``, ``0999``).

``strftime("%Y")`` writes year 999 as ``999`` on some platforms; ``--json``, the CLI's
tables, REST and MCP all go through ``format_time`` instead.
"""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from embornal import Memory
from embornal.domain.clock import format_time, parse_time
from embornal.interfaces.cli.main import main
from embornal.interfaces.http.app import create_app
from embornal.interfaces.mcp.results import iso

YEARS = [(1, "0001"), (999, "0999"), (1000, "1000"), (9999, "9999")]


@pytest.mark.parametrize(("year", "text"), YEARS)
def test_format_time_pads_the_year(year: int, text: str) -> None:
    moment = parse_time(f"{text}-06-15T12:30:45.123456Z")
    assert format_time(moment) == f"{text}-06-15T12:30:45.123456Z"
    assert format_time(moment, micro=False) == f"{text}-06-15T12:30:45Z"
    assert iso(moment) == f"{text}-06-15T12:30:45Z"
    assert parse_time(format_time(moment)) == moment


@pytest.mark.parametrize(("year", "text"), YEARS)
def test_cli_json_text_and_rest_write_the_same_padded_year(
    capsys: pytest.CaptureFixture[str], year: int, text: str
) -> None:
    with Memory.open() as mem:
        fact = mem.store("/old", f"from the year {year}", at=f"{text}-06-15T12:00:00Z")
        token = mem.token_add("default", rules=False).token

    assert main(["--json", "memory", "show", fact.id]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["fact"]["created_at"] == f"{text}-06-15T12:00:00.000000Z"

    assert main(["memory", "cat", "/old"]) == 0
    assert re.search(rf"\| {text}-06-15T12:00:00Z \|", capsys.readouterr().out)

    with Memory.open() as mem, TestClient(create_app(mem, mcp=False, wiki=False)) as client:
        r = client.get(f"/api/v1/facts/{fact.id}", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        assert r.json()["fact"]["created_at"] == shown["fact"]["created_at"]


def test_the_wiki_dates_a_fact_in_the_one_form() -> None:
    """The wiki's <time> element uses the same formatter: year 999 is 0999 there too."""
    from datetime import UTC, datetime

    from embornal.interfaces.http.wiki import _day

    html = _day(datetime(999, 3, 4, 5, 6, 7, tzinfo=UTC))
    assert html == '<time datetime="0999-03-04T05:06:07Z">0999-03-04</time>'
