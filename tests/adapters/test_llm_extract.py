"""``--extractor llm`` against a local stub of an OpenAI-compatible chat server (never a
real network): the request it sends, the checks on the answer, the retry with feedback."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from embornal.adapters.config import IngestConfig
from embornal.adapters.llm_extract import chat_url, extract_llm
from embornal.domain.proposals.ingest import SourceText
from embornal.domain.spine.justification import EvidenceType
from embornal.errors import ExtractorError, ExtractorNotConfigured

NOW = datetime(2026, 12, 1, tzinfo=UTC)
TEXT = "User: Ana Lopez joined Initech as CTO last week.\nAssistant: Noted!"


class Stub:
    """A chat server that answers each request with the next of ``answers``."""

    def __init__(self, answers: list[Any], status: int = 200) -> None:
        self.answers = list(answers)
        self.status = status
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[ThreadingHTTPServer] = []

    def start(stub: Stub) -> str:
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers["Content-Length"])
                stub.requests.append(json.loads(self.rfile.read(size)))
                stub.headers.append(dict(self.headers))
                answer = stub.answers.pop(0) if stub.answers else "{}"
                content = answer if isinstance(answer, str) else json.dumps(answer)
                body = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
                self.send_response(stub.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/v1"

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()


def _config(url: str, **kw: Any) -> IngestConfig:
    return IngestConfig(base_url=url, model="stub-model", timeout_s=10, **kw)


GOOD = {
    "memories": [
        {
            "content": "Ana Lopez is the CTO of Initech.",
            "kind": "fact",
            "attributes": {},
            "mentions": ["Ana Lopez", "Initech"],
            "quote": "Ana Lopez joined Initech as CTO",
        },
        {
            "content": "Ana Lopez",
            "kind": "person",
            "attributes": {"full_name": "Ana Lopez", "roles": ["CTO"]},
            "mentions": [],
            "quote": "Ana Lopez",
        },
    ]
}


def test_a_valid_answer_gives_drafts_with_the_quote_as_evidence(serve: Any) -> None:
    stub = Stub([GOOD])
    got = extract_llm(SourceText(TEXT, "chat.txt"), NOW, _config(serve(stub)))
    assert got.attempts == 1 and got.problems == []
    assert [(d.kind, d.content) for d in got.drafts] == [
        ("fact", "Ana Lopez is the CTO of Initech."),
        ("person", "Ana Lopez"),
    ]
    first = got.drafts[0]
    assert first.mentions == ("Ana Lopez", "Initech")
    (proof,) = first.evidence
    assert proof.type is EvidenceType.CONVERSATION
    assert (proof.value, proof.note) == ("Ana Lopez joined Initech as CTO", "line 1 of chat.txt")
    (request,) = stub.requests
    assert request["model"] == "stub-model" and request["temperature"] == 0
    assert request["response_format"] == {"type": "json_object"}
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert request["messages"][1]["content"] == TEXT
    assert "person (full_name" in request["messages"][0]["content"]


def test_an_invalid_answer_is_sent_back_with_what_was_wrong(serve: Any) -> None:
    invented = {"memories": [{**GOOD["memories"][0], "quote": "Ana founded Initech"}]}
    stub = Stub(["this is not json", invented, GOOD])
    got = extract_llm(SourceText(TEXT), NOW, _config(serve(stub), attempts=3))
    assert got.attempts == 3 and len(got.drafts) == 2
    second, third = stub.requests[1], stub.requests[2]
    assert "it is not JSON" in second["messages"][-1]["content"]
    assert second["messages"][-2] == {"role": "assistant", "content": "this is not json"}
    assert "is not in the text" in third["messages"][-1]["content"]


def test_after_the_last_attempt_the_valid_memories_are_kept_and_the_rest_reported(
    serve: Any,
) -> None:
    bad_kind = {**GOOD["memories"][0], "kind": "rumour"}
    bad_attr = {**GOOD["memories"][1], "attributes": {"full_name": ""}}
    answer = {"memories": [GOOD["memories"][0], bad_kind, bad_attr]}
    got = extract_llm(SourceText(TEXT), NOW, _config(serve(Stub([answer, answer]))))
    assert got.attempts == 2 and [d.kind for d in got.drafts] == ["fact"]
    assert len(got.problems) == 2
    assert "'rumour' is not one of" in got.problems[0]
    assert got.problems[1].startswith("memory 3:")


def test_no_valid_answer_at_all_is_an_error_naming_the_fix(serve: Any) -> None:
    with pytest.raises(ExtractorError, match="no valid answer in 2 attempts") as info:
        extract_llm(SourceText(TEXT), NOW, _config(serve(Stub(["nope", {"x": 1}]))))
    assert "--extractor rules" in info.value.hint


def test_a_code_fence_around_the_json_is_accepted(serve: Any) -> None:
    fenced = "```json\n" + json.dumps(GOOD) + "\n```"
    assert len(extract_llm(SourceText(TEXT), NOW, _config(serve(Stub([fenced])))).drafts) == 2


def test_the_key_comes_from_the_named_variable(serve: Any, monkeypatch: Any) -> None:
    stub = Stub([GOOD])
    url = serve(stub)
    with pytest.raises(ExtractorError, match="INGEST_KEY"):
        extract_llm(SourceText(TEXT), NOW, _config(url, api_key_env="INGEST_KEY"))
    monkeypatch.setenv("INGEST_KEY", "s3cret")
    extract_llm(SourceText(TEXT), NOW, _config(url, api_key_env="INGEST_KEY"))
    assert stub.headers[-1]["Authorization"] == "Bearer s3cret"


def test_server_errors_and_missing_config_are_clear(serve: Any) -> None:
    with pytest.raises(ExtractorError, match="HTTP 500"):
        extract_llm(SourceText(TEXT), NOW, _config(serve(Stub([GOOD], status=500))))
    with pytest.raises(ExtractorError, match="cannot reach"):
        extract_llm(SourceText(TEXT), NOW, _config("http://127.0.0.1:9/v1"))
    with pytest.raises(ExtractorNotConfigured, match=r"needs ingest\.base_url"):
        extract_llm(SourceText(TEXT), NOW, IngestConfig())
    with pytest.raises(ExtractorError, match="at most 60,000"):
        extract_llm(SourceText("x" * 60_001), NOW, _config("http://127.0.0.1:9/v1"))


@pytest.mark.parametrize(
    ("base", "url"),
    [
        ("http://h:11434", "http://h:11434/v1/chat/completions"),
        ("http://h:11434/v1/", "http://h:11434/v1/chat/completions"),
        ("https://x.org/api/v2", "https://x.org/api/v2/chat/completions"),
        ("http://h/v1/chat/completions", "http://h/v1/chat/completions"),
    ],
)
def test_chat_url(base: str, url: str) -> None:
    assert chat_url(base) == url
    with pytest.raises(ExtractorError):
        chat_url("ftp://h")
