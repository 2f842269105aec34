"""Every number that enters from outside is bounded where it enters, with a clear error.

CLI flags (exit 2), config.yaml keys (exit 6), REST query fields (422) and MCP
arguments (an error result): nan, inf, huge, negative, zero and bool never reach
``timedelta``, SQLite or a model as an internal error.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from embornal import Memory
from embornal.domain.bounds import (
    MAX_BATCH_SIZE,
    MAX_EXPIRY_DAYS,
    MAX_LIMIT,
    MAX_VECTOR_WIDTH,
    in_range,
    whole_in_range,
)
from embornal.errors import InvalidInput
from embornal.interfaces.cli.main import main
from embornal.interfaces.http.app import create_app

HUGE = "1" + "0" * 23
ABSURD = "9" * 5000  # more digits than int() takes from text

BAD_COUNTS = ["0", "-1", HUGE, ABSURD, "nan", "inf", "-inf", "1e9", "1.5", "true", "", "0x10"]
BAD_DAYS = ["0", "-1", "3000000", "1e9", HUGE, ABSURD, "nan", "inf", "-inf", "1e400", "true", ""]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_clear_line(err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("embornal: "), err
    assert "internal error" not in err, err
    for word in words:
        assert word in lines[0], lines[0]


# -- the CLI: exit 2 and the allowed range ------------------------------------------------


@pytest.mark.parametrize("days", BAD_DAYS)
def test_token_expires_in_out_of_range_is_exit_2_naming_the_range(
    capsys: pytest.CaptureFixture[str], days: str
) -> None:
    code, _, err = _run(capsys, "token", "add", "alice", f"--expires-in={days}")
    assert code == 2, err
    _one_clear_line(err, "--expires-in", str(MAX_EXPIRY_DAYS))


def test_token_expires_in_at_the_maximum_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(
        capsys, "--json", "token", "add", "alice", "--expires-in", str(MAX_EXPIRY_DAYS)
    )
    assert code == 0, err
    assert json.loads(out)["expires_at"] is not None


@settings(max_examples=30)
@given(days=st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(10**30), 10**30))
def test_token_expires_in_is_accepted_exactly_in_its_range(days: float) -> None:
    code = main(["token", "add", "alice", "--no-rules", "--expires-in", repr(days)])
    assert code == (0 if in_range(days, MAX_EXPIRY_DAYS) else 2)


@pytest.mark.parametrize(
    "argv",
    [
        ["memory", "recall", "x", "--limit"],
        ["memory", "cat", "/memory", "--limit"],
        ["memory", "reindex", "--limit"],
        ["memory", "wiki", "--port"],
        ["serve", "--port"],
    ],
    ids=["recall", "cat", "reindex", "wiki-port", "serve-port"],
)
@pytest.mark.parametrize("value", BAD_COUNTS)
def test_count_flags_out_of_range_are_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], value: str
) -> None:
    if value == "0" and argv[-1] == "--port":
        value = "65536"  # port 0 means "any free port": take the next one out of range
    code, out, err = _run(capsys, "--json", *argv[:-1], f"{argv[-1]}={value}")
    assert code == 2, err
    _one_clear_line(err, argv[-1], "from")
    assert json.loads(out)["error"] == "invalid_input"


def test_limit_flags_take_their_whole_range(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["memory", "recall", "--no-reinforce"], ["memory", "cat", "/memory"]):
        for value in ("1", str(MAX_LIMIT)):
            code, _, err = _run(capsys, *argv, "--limit", value)
            assert code == 0, err
        code, _, err = _run(capsys, *argv, "--limit", str(MAX_LIMIT + 1))
        assert code == 2, err
        _one_clear_line(err, f"1 to {MAX_LIMIT}")


# -- config.yaml: exit 6 --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "high"),
    [
        ("recall.limit", MAX_LIMIT),
        ("embedding.dims", MAX_VECTOR_WIDTH),
        ("embedding.batch_size", MAX_BATCH_SIZE),
    ],
)
@pytest.mark.parametrize(
    "value", ["0", "-1", "{high_plus}", HUGE, ".nan", ".inf", "-.inf", "1.5", "true", "1e3"]
)
def test_config_numbers_out_of_range_are_exit_6(
    capsys: pytest.CaptureFixture[str], embornal_home: Path, key: str, high: int, value: str
) -> None:
    section, name = key.split(".")
    text = value.replace("{high_plus}", str(high + 1))
    embornal_home.mkdir(parents=True, exist_ok=True)
    (embornal_home / "config.yaml").write_text(f"{section}:\n  {name}: {text}\n", "utf-8")
    code, _, err = _run(capsys, "memory", "recall", "--no-reinforce")
    assert code == 6, err
    _one_clear_line(err, key)


def test_config_limit_at_the_maximum_is_accepted(
    capsys: pytest.CaptureFixture[str], embornal_home: Path
) -> None:
    embornal_home.mkdir(parents=True, exist_ok=True)
    (embornal_home / "config.yaml").write_text(f"recall:\n  limit: {MAX_LIMIT}\n", "utf-8")
    code, _, err = _run(capsys, "memory", "recall", "--no-reinforce")
    assert code == 0, err


# -- the service: the last line of defence ------------------------------------------------


@pytest.mark.parametrize(
    "days", [0, -1, 3_000_000, 1e9, 10**23, math.nan, math.inf, -math.inf, True, "5"]
)
def test_token_add_refuses_days_out_of_range(memory: Memory, days: Any) -> None:
    with pytest.raises(InvalidInput, match=str(MAX_EXPIRY_DAYS)):
        memory.token_add("alice", expires_in_days=days)


@pytest.mark.parametrize("limit", [0, -1, MAX_LIMIT + 1, 10**23, True, 1.0, math.nan])
def test_recall_and_cat_refuse_limits_out_of_range(memory: Memory, limit: Any) -> None:
    with pytest.raises(InvalidInput, match=f"1 to {MAX_LIMIT}"):
        memory.recall(None, limit=limit, reinforce=False)
    with pytest.raises(InvalidInput, match=f"1 to {MAX_LIMIT}"):
        memory.cat("/memory", limit=limit)


@given(value=st.integers() | st.floats() | st.booleans() | st.none() | st.text(max_size=3))
def test_range_checks_agree_with_their_definition(value: object) -> None:
    is_int = isinstance(value, int) and not isinstance(value, bool)
    assert whole_in_range(value, 1, 10) == (is_int and 1 <= value <= 10)  # type: ignore[operator]
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    expected = is_number and math.isfinite(value) and 0 < value <= 10  # type: ignore[arg-type]
    assert in_range(value, 10) == expected


# -- REST: 422 naming the field -------------------------------------------------------------


@pytest.fixture
def api(memory: Memory) -> Iterator[tuple[TestClient, dict[str, str]]]:
    token = memory.token_add("alice").token
    with TestClient(create_app(memory, mcp=False, wiki=False)) as c:
        yield c, {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("route", ["/api/v1/recall", "/api/v1/cat?path=/memory"])
@pytest.mark.parametrize("value", [*BAD_COUNTS, str(MAX_LIMIT + 1)])
def test_rest_limit_out_of_range_is_422(
    api: tuple[TestClient, dict[str, str]], route: str, value: str
) -> None:
    client, headers = api
    sep = "&" if "?" in route else "?"
    r = client.get(f"{route}{sep}limit={value}", headers=headers)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert [e["location"] for e in r.json()["errors"]] == ["query.limit"]


# -- MCP: an error result, never an internal error --------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("limit", [0, -1, MAX_LIMIT + 1, 10**23, 1e30, True, "nan", 1.5, -1e308])
async def test_mcp_limit_out_of_range_is_an_invalid_input_result(
    memory: Memory, limit: object
) -> None:
    from mcp.client import Client

    from embornal.interfaces.mcp.server import build_server

    async with Client(build_server(memory, profile="full"), mode="auto") as client:
        result = await client.call_tool("recall", {"limit": limit})
    assert result.is_error, result
    block = result.content[0]
    assert block.type == "text"
    data = json.loads(block.text)
    assert data["error"] == "invalid_input", data
    assert "limit" in data["message"] and "Traceback" not in data["message"]
