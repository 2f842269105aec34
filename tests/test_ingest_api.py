"""``Memory.ingest``: a conversation or note becomes one proposal; nothing is a fact until
it is approved, and then each memory carries the line it came from (decision 0068)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.adapters.config import IngestConfig
from embornal.errors import ExtractorNotConfigured, InvalidInput, NotFound

CHAT = """User: Remember that my sister Ana Lopez lives in Porto.
Assistant: Noted! I like helping.
User: I prefer green tea over coffee.
User: I had lunch with Marco Rossi yesterday."""


def test_rules_give_one_open_proposal_and_nothing_is_stored(memory: Memory) -> None:
    made = memory.ingest(CHAT, name="chat.txt")
    assert made.status == "open" and made.source == "ingest:rules"
    assert made.title == "ingest chat.txt (rules: 3 memories)"
    fields = [i.fields for i in made.items]
    assert [(f["kind"], f["path"]) for f in fields] == [
        ("fact", "/inbox/chat-txt"),
        ("preference", "/preferences"),
        ("event", "/events"),
    ]
    assert fields[0]["content"] == "My sister Ana Lopez lives in Porto"
    assert memory.recall("Porto", reinforce=False) == []


def test_approved_memories_keep_their_line_as_evidence(memory: Memory) -> None:
    made = memory.ingest(CHAT, name="chat.txt")
    done = memory.approve(made.id)
    assert done.status == "approved" and all(i.applied for i in done.items)
    (hit,) = memory.recall("Porto", reinforce=False)
    detail = memory.show(hit.fact.id)
    (proof,) = detail.evidence
    assert proof.type.value == "conversation" and proof.note == "line 1 of chat.txt"
    assert proof.value.startswith("User: Remember that my sister")
    assert detail.source.label == "ingest:rules" and detail.source.subject == "default"
    pref = memory.find("preference", {"polarity": "prefers"})
    assert [f.content for f in pref] == ["I prefer green tea over coffee"]
    (lunch,) = memory.find("event")
    assert lunch.attributes["occurred_at"].startswith("2025-12-31")  # the day before the clock


def test_a_path_puts_every_memory_there(memory: Memory) -> None:
    made = memory.ingest(CHAT, path="/chats/monday")
    assert {i.fields["path"] for i in made.items} == {"/chats/monday"}


def test_nothing_to_remember_and_bad_input_propose_nothing(memory: Memory) -> None:
    with pytest.raises(NotFound, match="found nothing to remember in greeting"):
        memory.ingest("User: hi!\nAssistant: Hello, what can I do?", name="greeting")
    with pytest.raises(InvalidInput, match="extractor must be one of rules, llm"):
        memory.ingest(CHAT, extractor="magic")
    with pytest.raises(InvalidInput, match="no text"):
        memory.ingest("   ")
    with pytest.raises(ExtractorNotConfigured, match=r"needs ingest\.base_url"):
        memory.ingest(CHAT, extractor="llm")
    assert memory.proposals() == []


@pytest.fixture
def chat_server() -> Iterator[tuple[str, list[dict[str, object]]]]:
    seen: list[dict[str, object]] = []
    answer = {
        "memories": [
            {
                "content": "Ana Lopez lives in Porto.",
                "kind": "fact",
                "mentions": ["Ana Lopez", "Porto"],
                "quote": "my sister Ana Lopez lives in Porto",
            },
            {"content": "Invented.", "kind": "fact", "quote": "not in the text at all"},
        ]
    }

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            seen.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            body = json.dumps({"choices": [{"message": {"content": json.dumps(answer)}}]})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", seen
    server.shutdown()
    server.server_close()


def test_the_llm_extractor_uses_the_configured_model(
    tmp_path: Path, chat_server: tuple[str, list[dict[str, object]]]
) -> None:
    url, seen = chat_server
    config = IngestConfig(base_url=url, model="stub", attempts=2, timeout_s=10)
    with Memory.open(tmp_path / "m.db", clock=FixedClock(), ingest=config) as mem:
        made = mem.ingest(CHAT, name="chat.txt", extractor="llm")
    assert len(seen) == 2  # the invented quote was sent back once
    assert [i.fields["content"] for i in made.items] == ["Ana Lopez lives in Porto."]
    assert made.title.startswith("ingest chat.txt (llm: 1 memories; 1 left out: memory 2:")
    assert made.source == "ingest:llm"
