"""benchmarks/mah_conformance.py: how the peer's ``Store`` calls cross MCP and come back.

Nothing is downloaded: a fake connection stands for the server and a tiny class for the
peer's ``Store`` signatures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from benchmarks.mah_swap import swap_server

from benchmarks import mah_conformance as mah


class PeerStore:
    """The signatures the harness reads from the peer's ``Store``."""

    def remember(self, content: str, source: str | None = None) -> None: ...

    def get(self, memory_id: str) -> None: ...

    def pin(self, memory_id: str, reason: str) -> None: ...


def wire(answer: Any, *, error: bool = False) -> dict[str, Any]:
    text = json.dumps(answer)
    structured = answer if isinstance(answer, dict) and not error else None
    return {
        "content": [{"type": "text", "text": text}],
        "structuredContent": structured,
        "isError": error,
    }


class FakeConnection:
    """A server that knows ``remember``, ``show`` and ``pin`` and records each call."""

    def __init__(self, db: Path) -> None:
        self.db, self.closed = db, False
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def tools(self) -> set[str]:
        return {"remember", "show", "pin"}

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        self.calls.append((name, arguments))
        if name == "remember":
            answer = wire({"memory_id": "M1", "id": "M1", "content": arguments["content"]})
        elif name == "show":
            answer = wire({"id": arguments["id"], "content": "kept"})
        else:
            answer = wire({"error": "protocol_violation", "message": "no", "hint": "h"}, error=True)
        result = mah.answer_of(answer)
        refused = mah.refusal_of(answer, result)
        if refused is not None:
            raise refused
        return mah.as_peer_value(result)

    def close(self) -> None:
        self.closed = True


def test_a_fake_episode_maps_each_call_and_reads_answers_as_the_runner_does(
    tmp_path: Path,
) -> None:
    connections: list[FakeConnection] = []

    def connect(db: Path) -> FakeConnection:
        connections.append(FakeConnection(db))
        return connections[-1]

    store_cls = mah.store_class(connect, PeerStore)
    store = store_cls(tmp_path / "history.db")
    memory = store.remember("Cedar uses amber.", source="register")  # the noise step's form
    assert memory.id == "M1" and memory["content"] == "Cedar uses amber."
    assert not hasattr(memory, "to_dict") and not hasattr(memory, "tier")
    assert store.get(memory_id="M1") == {"id": "M1", "content": "kept"}
    with pytest.raises(PermissionError, match="protocol_violation"):
        store.pin("M1", "keep")
    store.close()
    conn = connections[0]
    assert conn.calls == [
        ("remember", {"content": "Cedar uses amber.", "source": "register"}),
        ("show", {"id": "M1"}),  # the peer's server has no ``get`` tool
        ("pin", {"memory_id": "M1", "reason": "keep"}),
    ]
    assert conn.db == tmp_path / "history.db" and conn.closed


def test_a_read_the_server_lists_no_tool_for_is_made_on_the_file(tmp_path: Path) -> None:
    """Under ``--compat`` the server offers the peer's tools: no ``get``, no ``show``; the
    harness reads the fact with embornal's own ``show`` on the file, as the control reads
    it with the peer's own ``Store.get``."""

    class PeerToolsOnly(FakeConnection):
        def tools(self) -> set[str]:
            return {"remember", "pin"}

    reads: list[tuple[Path, str, dict[str, Any]]] = []

    def read(db: Path, tool: str, arguments: dict[str, Any]) -> Any:
        reads.append((db, tool, arguments))
        return mah.as_peer_value({"id": arguments["id"], "content": "on file"})

    store = mah.store_class(PeerToolsOnly, PeerStore, read=read)(tmp_path / "h.db")
    assert store.get(memory_id="M1") == {"id": "M1", "content": "on file"}
    assert reads == [(tmp_path / "h.db", "show", {"id": "M1"})]


def test_own_read_calls_embornal_show_on_the_memory_file(tmp_path: Path) -> None:
    from embornal.service.memory import Memory

    db = tmp_path / "memory.db"
    with Memory.open(db) as memory:
        fact = memory.store("/notes/cedar", "Cedar uses amber.")
    answer = mah.own_read(db, "show", {"id": fact.id})
    assert answer["content"] == "Cedar uses amber." and answer.id == fact.id
    with pytest.raises(KeyError):
        mah.own_read(db, "show", {"id": "0" * 26})


def test_positional_arguments_take_the_peer_names() -> None:
    assert mah.call_arguments(["content", "source"], ["x"], {"frame": "f"}) == {
        "content": "x",
        "frame": "f",
    }
    with pytest.raises(TypeError):
        mah.call_arguments(["content"], ["x"], {"content": "y"})
    assert mah.fallback_call("get", {"memory_id": "A"}, {"get"}) == ("get", {"memory_id": "A"})
    assert mah.fallback_call("pin", {"memory_id": "A"}, set()) == ("pin", {"memory_id": "A"})


def test_answers_come_back_in_the_peer_shape() -> None:
    listed = {"content": [], "structuredContent": {"result": [{"action": "pin"}]}}
    assert mah.answer_of(listed) == [{"action": "pin"}]
    blocks = {"content": [{"type": "text", "text": '{"a": 1}'}, {"type": "text", "text": "2"}]}
    assert mah.answer_of(blocks) == [{"a": 1}, 2]
    assert mah.answer_of({"content": [{"type": "text", "text": "plain"}]}) == "plain"
    assert mah.answer_of({"content": [{"type": "text", "text": "null"}]}) is None


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("access_denied", PermissionError),
        ("protocol_violation", PermissionError),
        ("not_found", KeyError),
        ("invalid_input", ValueError),
        ("invalid_time", ValueError),
        ("unknown_tool", mah.ToolRefused),
        ("ValueError", ValueError),
    ],
)
def test_a_refusal_raises_the_peer_exception_for_its_code(code: str, expected: type) -> None:
    answer = {"error": code, "message": "m", "hint": "h"}
    assert isinstance(mah.refusal_of({"isError": True}, answer), expected)


def test_only_refusals_raise() -> None:
    assert mah.refusal_of({"isError": False}, {"id": "A"}) is None
    # The peer's server answers a refusal as a plain result named after its exception.
    peer = {"error": "PermissionError", "message": "m", "hint": "h"}
    assert isinstance(mah.refusal_of({"isError": False}, peer), PermissionError)
    assert mah.refusal_of({"isError": False}, {"error": "a field", "x": 1}) is None


CASE: dict[str, Any] = {
    "id": "tiny-0-en",
    "family": "tiny",
    "language": "en",
    "split": "dev",
    "steps": [
        {"op": "remember", "args": {"content": "x"}, "bind": "a"},
        {
            "op": "pin",
            "args": {"memory_id": "$a", "reason": "r"},
            "expect_error": "PermissionError",
        },
        {"op": "reopen"},
        {
            "op": "check",
            "read": "get",
            "args": {"memory_id": "$a"},
            "assertions": [
                {"path": "content", "op": "equal", "value": "x", "metric": "history"},
                {"path": "tier", "op": "equal", "value": "archive", "metric": "history"},
            ],
        },
    ],
}


def test_an_episode_that_cannot_start_fails_all_its_assertions() -> None:
    row = mah.blocked_result(CASE, RuntimeError("server did not start"))
    assert not row["passed"]
    assert [(c["step"], c["metric"], c["blocked"]) for c in row["checks"]] == [
        (1, "guard", True),
        (3, "history", True),
        (3, "history", True),
    ]
    assert row["errors"][0]["error"] == "RuntimeError"


def test_failures_are_grouped_by_cause() -> None:
    row = {
        "id": "tiny-0-en",
        "errors": [],
        "checks": [
            {"step": 1, "metric": "guard", "passed": True, "expected": "PermissionError"},
            {"step": 3, "path": "content", "metric": "history", "value": "x", "passed": True},
            {
                "step": 3,
                "path": "tier",
                "metric": "history",
                "value": "archive",
                "passed": False,
                "actual": {"missing": True},
            },
        ],
    }
    blocked = mah.blocked_result(CASE, KeyError("id"))
    causes = mah.failure_causes([CASE, CASE | {"id": "b"}], [row, blocked | {"id": "b"}])
    assert causes["failed_checks"] == [
        {
            "read": "get",
            "path": "tier",
            "kind": "missing",
            "count": 1,
            "expected": "archive",
            "actual": '{"missing": true}',
            "case": "tiny-0-en",
        }
    ]
    assert causes["stopped_by"] == [
        {"op": "open", "error": "KeyError", "message": "'id'", "episodes": 1, "blocked": 3}
    ]


def test_a_sample_takes_episodes_from_each_family_in_turn() -> None:
    cases = [{"id": f"{f}-{i}", "family": f} for f in "abc" for i in range(3)]
    assert [c["id"] for c in mah.select_cases(cases, 4)] == ["a-0", "a-1", "b-0", "c-0"]
    assert mah.select_cases(cases, None) == cases


def test_the_tests_that_use_the_peer_own_code_are_found() -> None:
    source = """
import subprocess
def _run_cli(args):
    return subprocess.run(args)
async def test_over_mcp(session):
    params = ["-m", "memory_as_history.server"]
def test_help():
    _run_cli(["--help"])
async def test_storage(session):
    from memory_as_history import storage
"""
    assert mah.peer_own_tests(source) == ["test_help", "test_storage"]


def test_the_peer_server_command_becomes_embornal_mcp(tmp_path: Path) -> None:
    from mcp import StdioServerParameters

    db = tmp_path / "mcp.db"
    peer = StdioServerParameters(
        command="python",
        args=["-m", "memory_as_history.server"],
        env={"MEMORY_AS_HISTORY_DB": str(db), "MEMORY_AS_HISTORY_TOOLS": "full"},
    )
    swapped = swap_server(peer, "/src")
    assert swapped.args == [
        "-m",
        "embornal.interfaces.cli.main",
        "mcp",
        "--compat",
        "memory-as-history",
        "--db",
        str(db),
    ]
    assert swapped.env == {
        "EMBORNAL_MCP_TOOLS": "full",
        "EMBORNAL_HOME": str(tmp_path / "embornal-home"),
        "PYTHONPATH": "/src",
    }
    other = StdioServerParameters(command="x", args=["y"])
    assert swap_server(other, "/src") is other


def test_a_failed_peer_test_is_put_under_its_cause() -> None:
    refused = "AssertionError: [{'type': 'text', 'text': '{\"error\":\"invalid_input\"…'}]"
    assert mah.test_failure_cause(refused).startswith("refusal answered with isError")
    assert mah.test_failure_cause("KeyError('id') [single exception in ExceptionGroup]") == (
        "answer lacks `id`"
    )
    assert mah.test_failure_cause("KeyError: 'retrieval'") == "answer lacks `retrieval`"
    assert mah.test_failure_cause("AssertionError: assert 77 == 46") == (
        "AssertionError: assert 77 == 46"
    )


def test_the_control_keeps_the_peer_server_and_gives_it_its_sources() -> None:
    from benchmarks.mah_swap import with_peer_path
    from mcp import StdioServerParameters

    peer = StdioServerParameters(
        command="python", args=["-m", "memory_as_history.server"], env={"X": "1"}
    )
    kept = with_peer_path(peer, "/peer/src")
    assert kept.args == peer.args and kept.env == {"X": "1", "PYTHONPATH": "/peer/src"}
