"""``embornal import chatgpt|claude FILE``: each conversation of an export becomes one
proposal through ingest; nothing is a fact before approval; a malformed file is one line,
exit 2, and nothing is written (not even the memory's file); client mode does the same."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import Result, Run, run_cli

from embornal import Memory
from embornal.interfaces.http.app import create_app
from live_server import live_server

FIXTURES = Path(__file__).parents[1] / "fixtures" / "conversations"
CHATGPT = FIXTURES / "chatgpt-conversations.json"
CLAUDE = FIXTURES / "claude-conversations.json"


def _contents(proposal_id: str, db: Path | None = None) -> list[str]:
    with Memory.open(db) if db else Memory.open() as memory:
        proposal = memory.proposal(proposal_id)
        assert proposal.status == "open"
        return [str(i.fields["content"]) for i in proposal.items if i.type == "create"]


def test_a_chatgpt_export_becomes_one_proposal_per_conversation(cli: Run) -> None:
    r = cli("--json", "import", "chatgpt", str(CHATGPT))
    assert r.code == 0, r.err
    data = r.json()
    assert data["conversations"] == 3
    assert [p["title"] for p in data["proposals"]] == [
        "Planning the Lisbon trip (2024-05-01)",
        "Receita de bacalhau à Brás (2024-06-01)",
    ]
    assert data["nothing_found"] == ["conversation 3 ('Quick question')"]
    first, second = (_contents(p["proposal_id"]) for p in data["proposals"])
    assert first == ["My passport expires on 2027-03-14", "I prefer window seats on long flights"]
    assert "我对花生过敏" in " ".join(second)  # a turn in Chinese, kept whole
    with Memory.open() as memory:  # proposed, not stored
        assert memory.recall("passport") == []
        proposal = memory.proposal(data["proposals"][0]["proposal_id"])
        assert proposal.source == "import:chatgpt"
    # the branch the app no longer shows (an edited question) and the assistant's turns
    # give no memory
    assert not any("aisle" in c or "Canberra" in c for c in first + second)


def test_a_claude_export_becomes_proposals_and_says_what_to_do(cli: Run) -> None:
    r = cli("import", "claude", str(CLAUDE))
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert (
        lines[0]
        == "read 3 conversations from claude: 2 proposals opened, 1 with nothing to remember"
    )
    assert "Grüße an Jürgen (2025-03-01)  [open]" in lines[2]
    assert lines[-1].startswith("review each: `embornal proposal show ID`")
    ids = [line.split()[0] for line in lines[1:3]]
    assert _contents(ids[0]) == [
        "The NAS is at 192.168.1.20 and runs Debian 12",
        "I prefer Docker Compose over Kubernetes at home",
    ]
    assert _contents(ids[1]) == ["I don't like long meetings"]


def _no_memory(home: Path) -> bool:
    return not any(home.rglob("memory.db")) if home.exists() else True


@pytest.mark.parametrize(
    ("fmt", "content", "said"),
    [
        (
            "chatgpt",
            '[{"title": "a", "mapping": {}}, 5]',
            "conversation 2: a conversation is an object with 'mapping'; nothing was imported",
        ),
        (
            "chatgpt",
            '[{"title": "a", "mapping": {"n": {"message": {"author": {}}}}}]',
            "conversation 1 ('a'), message 'n': a message needs 'author.role'",
        ),
        (
            "chatgpt",
            '[{"title": "a", "mapping": {}, "current_node": "gone"}]',
            "conversation 1 ('a'): 'mapping' has no node 'gone'",
        ),
        ("chatgpt", '{"title": "a"}', "a chatgpt export is a list of conversations, not an object"),
        (
            "claude",
            '[{"name": "b", "chat_messages": [{"sender": "robot", "text": "x"}]}]',
            "conversation 1 ('b'), message 1: 'sender' must be human or assistant, not 'robot'",
        ),
        (
            "claude",
            '[{"name": "b", "mapping": {}}]',
            "needs 'chat_messages', a list (this looks like ChatGPT's: `embornal import chatgpt`)",
        ),
        ("claude", '[{"name": "b", "chat_messages": []', "line 1: not valid JSON"),
        ("claude", '[{"name": "b\\u0000", "chat_messages": []}]', "a text holds a NUL character"),
    ],
)
def test_a_malformed_export_is_one_line_and_writes_nothing(
    cli: Run, tmp_path: Path, embornal_home: Path, fmt: str, content: str, said: str
) -> None:
    bad = tmp_path / "conversations.json"
    bad.write_text(content, encoding="utf-8")
    r = cli("import", fmt, str(bad))
    assert r.code == 2
    assert len(r.err.splitlines()) == 1 and said in r.err, r.err
    assert _no_memory(embornal_home)
    r = cli("--json", "import", fmt, str(bad))
    assert r.code == 2 and r.json()["error"] == "invalid_import"


def test_a_missing_file_names_what_to_give(cli: Run, tmp_path: Path) -> None:
    r = cli("import", "claude", str(tmp_path / "nope.json"))
    assert r.code == 2 and "no file at" in r.err and "conversations.json" in r.err


def test_path_and_extractor_go_to_ingest(cli: Run) -> None:
    r = cli("--json", "import", "claude", str(CLAUDE), "--path", "/chats/claude")
    assert r.code == 0, r.err
    with Memory.open() as memory:
        for p in r.json()["proposals"]:
            items = memory.proposal(p["proposal_id"]).items
            assert {i.fields["path"] for i in items if i.type == "create"} == {"/chats/claude"}
    r = cli("import", "claude", str(CLAUDE), "--extractor", "magic")
    assert r.code == 2


# -- client mode ------------------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    db = tmp_path / "server" / "memory.db"
    db.parent.mkdir()
    memory = Memory.open(db)
    token = memory.token_add("alice").token
    try:
        with live_server(create_app(memory, mcp=False, wiki=False)) as url:
            yield url, token, db
    finally:
        memory.close()


def test_in_client_mode_the_server_gets_the_proposals(
    served: tuple[str, str, Path], embornal_home: Path
) -> None:
    url, token, db = served
    env = {
        **os.environ,
        "EMBORNAL_EMBEDDING": "off",
        "EMBORNAL_SERVER_URL": url,
        "EMBORNAL_TOKEN": token,
    }
    r: Result = run_cli("--json", "import", "claude", str(CLAUDE), env=env)
    assert r.code == 0, r.err
    ids = [p["proposal_id"] for p in r.json()["proposals"]]
    assert len(ids) == 2
    with Memory.open(db) as memory:
        assert [memory.proposal(i).proposer for i in ids] == ["alice", "alice"]
    assert _no_memory(embornal_home)
