"""Errors are problem+json with the service's status and code; client input never gets a 5xx;
bodies over the limit get 413; the Host and Origin guards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient

from embornal import Memory
from embornal.interfaces.http.app import create_app


@pytest.fixture
def alice(tokens: dict[str, str]) -> dict[str, str]:
    return bearer(tokens["alice"])


def _fact(client: TestClient, headers: dict[str, str]) -> str:
    r = client.post(f"{API}/facts", headers=headers, json={"path": "/n", "content": "a note"})
    assert r.status_code == 201
    return str(r.json()["id"])


@pytest.mark.parametrize(
    ("route", "params", "code"),
    [
        ("ls", {"path": "/Bad Path!"}, "invalid_path"),
        ("tree", {"path": "/a//b"}, "invalid_path"),
        ("cat", {"path": "/x/-bad"}, "invalid_path"),
        ("recall", {"under": "/no such"}, "invalid_path"),
    ],
)
def test_invalid_input_is_400(
    client: TestClient, alice: dict[str, str], route: str, params: dict[str, str], code: str
) -> None:
    assert_problem(client.get(f"{API}/{route}", params=params, headers=alice), 400, code)


def test_an_id_that_cannot_be_one_is_400(client: TestClient, alice: dict[str, str]) -> None:
    assert_problem(client.get(f"{API}/facts/0ILU", headers=alice), 400, "invalid_input")
    assert_problem(client.get(f"{API}/facts/{'0' * 27}", headers=alice), 400, "invalid_input")


@pytest.mark.parametrize(
    ("route", "params", "where"),
    [
        ("cat", {}, "query.path"),
        ("cat", {"path": "/n", "limit": "0"}, "query.limit"),
        ("cat", {"path": "/n", "limit": "1001"}, "query.limit"),
        ("cat", {"path": "/n", "limit": "ten"}, "query.limit"),
        ("cat", {"path": "/n", "order_by": "size"}, "query.order_by"),
        ("tree", {"dirs_only": "maybe"}, "query.dirs_only"),
        ("recall", {"query": "typo for q"}, "query.query"),
        ("tags", {}, "query.fact"),
        ("tags", {"fact": "0I"}, "query.fact"),
        ("ls", {"path": "relative"}, "query.path"),
    ],
)
def test_a_malformed_query_is_422_naming_the_parameter(
    client: TestClient, alice: dict[str, str], route: str, params: dict[str, str], where: str
) -> None:
    body = assert_problem(
        client.get(f"{API}/{route}", params=params, headers=alice), 422, "validation_error"
    )
    assert where in [e["location"] for e in body["errors"]]


def test_a_repeated_query_parameter_is_422(client: TestClient, alice: dict[str, str]) -> None:
    r = client.get(f"{API}/ls?path=/a&path=/b", headers=alice)
    assert "more than once" in assert_problem(r, 422)["detail"]


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"content": "no path"}, "body.path"),
        ({"path": "/x"}, "body.content"),
        ({"path": "/x", "content": 5}, "body.content"),
        ({"path": "/x", "content": ""}, "body.content"),
        ({"path": "/x", "content": "c", "tags": "a=b"}, "body.tags"),
        ({"path": "/x", "content": "c", "tags": ["no-equals"]}, "body.tags.0"),
        ({"path": "/x", "content": "c", "at": 20240101}, "body.at"),
        ({"path": "/x", "content": "c", "confidence": True}, "body.confidence"),
        ({"path": "/x", "content": "c", "confidence": "0.5"}, "body.confidence"),
        ({"path": "/x", "content": "c", "owner": "alice"}, "body.owner"),
        ([1, 2], "body"),
    ],
)
def test_a_malformed_body_is_422_naming_the_field(
    client: TestClient, alice: dict[str, str], body: object, where: str
) -> None:
    problem = assert_problem(client.post(f"{API}/facts", headers=alice, json=body), 422)
    locations = [e["location"] for e in problem["errors"]]
    assert any(loc == where or loc.startswith(where) for loc in locations), locations
    # The rejected values are not echoed back.
    assert "yesterday" not in str(problem["errors"])


def test_a_store_time_the_service_cannot_read_is_400_invalid_time(
    client: TestClient, alice: dict[str, str]
) -> None:
    """``at`` is the text every transport takes (decision 0200): a date is taken, a word
    is refused by the service, as on the command line."""
    body = {"path": "/x", "content": "c", "at": "yesterday"}
    problem = assert_problem(client.post(f"{API}/facts", headers=alice, json=body), 400)
    assert problem["code"] == "invalid_time"
    dated = {"path": "/x", "content": "dated", "at": "2024-01-01"}
    made = client.post(f"{API}/facts", headers=alice, json=dated)
    assert made.status_code == 201, made.text
    assert made.json()["created_at"].startswith("2024-01-01T00:00:00")


@pytest.mark.parametrize(
    "raw",
    [b"{", b"not json", b"\xff\xfe", b'{"path": "/x", "content": "\\ud800"}', b"[" * 100_000],
    ids=["truncated", "text", "not-utf8", "lone-surrogate", "deep-nesting"],
)
def test_a_body_that_is_not_json_text_is_400(
    client: TestClient, alice: dict[str, str], raw: bytes
) -> None:
    headers = {**alice, "Content-Type": "application/json"}
    r = client.post(f"{API}/facts", headers=headers, content=raw)
    assert_problem(r, 400, "invalid_json")


WIDE = ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"]


@pytest.mark.parametrize("encoding", WIDE)
def test_a_body_in_utf16_or_utf32_is_refused_naming_utf8(
    client: TestClient, alice: dict[str, str], encoding: str
) -> None:
    """With a byte order mark (utf-16, utf-32) or without (-le, -be): UTF-8 only."""
    raw = '{"path": "/enc", "content": "wide text"}'.encode(encoding)
    headers = {**alice, "Content-Type": "application/json"}
    body = assert_problem(client.post(f"{API}/facts", headers=headers, content=raw), 400)
    assert body["code"] == "invalid_json"
    assert "UTF-8" in body["detail"] and encoding[:6].upper() in body["detail"]
    assert client.get(f"{API}/cat?path=/enc", headers=alice).status_code == 404


def test_a_utf8_body_with_or_without_a_byte_order_mark_is_accepted(
    client: TestClient, alice: dict[str, str]
) -> None:
    headers = {**alice, "Content-Type": "application/json"}
    for raw in (
        '{"path": "/enc", "content": "é"}'.encode(),
        b'\xef\xbb\xbf{"path": "/enc", "content": "b"}',
    ):
        assert client.post(f"{API}/facts", headers=headers, content=raw).status_code == 201


def test_no_body_is_422(client: TestClient, alice: dict[str, str]) -> None:
    assert_problem(client.post(f"{API}/facts", headers=alice), 422, "validation_error")


def test_service_errors_keep_their_status_and_code(
    client: TestClient, alice: dict[str, str]
) -> None:
    fact_id = _fact(client, alice)
    forget = f"{API}/facts/{fact_id}/forget"
    restore = f"{API}/facts/{fact_id}/restore"
    assert_problem(client.post(restore, headers=alice, json={"reason": "r"}), 409, "conflict")
    assert client.post(forget, headers=alice, json={"reason": "r"}).status_code == 200
    body = assert_problem(client.post(forget, headers=alice, json={"reason": "r"}), 409)
    assert "already forgotten" in body["detail"]
    assert_problem(client.post(restore, headers=alice, json={"reason": " "}), 400)
    r = client.post(f"{API}/facts", headers=alice, json={"path": "/", "content": "on the root"})
    assert_problem(r, 400, "invalid_input")
    r = client.post(
        f"{API}/facts", headers=alice, json={"path": "/x", "content": "c", "tags": ["Bad Key=v"]}
    )
    assert_problem(r, 400, "invalid_tag")
    r = client.post(
        f"{API}/facts",
        headers=alice,
        json={"path": "/x", "content": "c", "at": "2026-13-40T00:00:00Z"},
    )
    assert_problem(r, 400, "invalid_time")
    big = "é" * 40_000  # 80,000 bytes of UTF-8, under the body limit, over the fact limit
    r = client.post(f"{API}/facts", headers=alice, json={"path": "/x", "content": big})
    assert_problem(r, 400, "invalid_content")


def test_unknown_routes_and_methods_are_problems(client: TestClient, alice: dict[str, str]) -> None:
    assert_problem(client.get(f"{API}/nothing", headers=alice), 404, "not_found")
    r = client.delete(f"{API}/facts/01KCZ8Q3W5R7T9V1X3Z5B7D9F1", headers=alice)
    assert_problem(r, 405, "method_not_allowed")
    assert "GET" in r.headers["allow"]


def test_a_body_over_the_limit_is_413(memory: Memory, tokens: dict[str, str]) -> None:
    alice = bearer(tokens["alice"])
    with TestClient(create_app(memory, mcp=False, wiki=False, max_body_bytes=1000)) as client:
        fits = {"path": "/x", "content": "y" * 900}
        assert client.post(f"{API}/facts", headers=alice, json=fits).status_code == 201
        over = {"path": "/x", "content": "y" * 1000}
        r = client.post(f"{API}/facts", headers=alice, json=over)
        assert_problem(r, 413, "body_too_large")

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it is read
            yield b'{"path": "/x", "content": "'
            for _ in range(20):
                yield b"y" * 100
            yield b'"}'

        r = client.post(
            f"{API}/facts",
            headers={**alice, "Content-Type": "application/json"},
            content=chunks(),
        )
        assert "content-length" not in r.request.headers
        assert_problem(r, 413, "body_too_large")
        reason = {"reason": "z" * 2000}
        r = client.post(
            f"{API}/facts/01KCZ8Q3W5R7T9V1X3Z5B7D9F1/forget", headers=alice, json=reason
        )
        assert_problem(r, 413)
        # Too large before the token is even looked at: nothing was read.
        r = client.post(f"{API}/facts", json=over)
        assert_problem(r, 413)


def test_a_bad_content_length_is_400(client: TestClient, alice: dict[str, str]) -> None:
    r = client.post(f"{API}/facts", headers={**alice, "Content-Length": "lots"}, content=b"{}")
    assert r.status_code == 400


def test_the_host_guard_refuses_other_host_names(memory: Memory, tokens: dict[str, str]) -> None:
    app = create_app(memory, mcp=False, wiki=False, allowed_hosts=["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://127.0.0.1:1338") as client:
        ok = client.get(f"{API}/whoami", headers=bearer(tokens["alice"]))
        assert ok.status_code == 200
        r = client.get(f"{API}/whoami", headers={**bearer(tokens["alice"]), "Host": "evil.test"})
        assert_problem(r, 400, "host_not_allowed")


def test_a_cross_site_write_is_403(client: TestClient, alice: dict[str, str]) -> None:
    body = {"path": "/x", "content": "from a form on another site"}
    r = client.post(f"{API}/facts", headers={**alice, "Origin": "https://evil.test"}, json=body)
    assert_problem(r, 403, "cross_origin")
    same = {**alice, "Origin": "http://testserver"}
    assert client.post(f"{API}/facts", headers=same, json=body).status_code == 201
    # A read from another origin is not refused (CORS keeps its answer from the page).
    assert client.get(f"{API}/ls", headers={**alice, "Origin": "https://evil.test"}).is_success


def test_a_nul_in_any_text_is_400_and_writes_nothing(
    client: TestClient, memory: Memory, alice: dict[str, str]
) -> None:
    """The labels that once reached the database with a NUL (PostgreSQL answered 503;
    SQLite kept it, and a copy to PostgreSQL then failed)."""
    fact = _fact(client, alice)
    before = memory._store.portability.event_count()
    calls = [
        ("POST", "/memories", {"content": "c", "session": "s\x00"}),
        ("POST", f"/facts/{fact}/corroborate", {"source": "a\x00b"}),
        ("POST", f"/facts/{fact}/corroborate", {"source": "ok", "common_origin": "\x00"}),
        ("POST", f"/history/context/{fact}", {"session": "s\x00", "reason": "r"}),
        ("GET", "/history/timeline", {"session": "s\x00"}),
        ("GET", "/history/search", {"query": "note", "session": "s\x00"}),
    ]
    for method, route, data in calls:
        if method == "GET":
            r = client.get(f"{API}{route}", headers=alice, params=data)
        else:
            r = client.post(f"{API}{route}", headers=alice, json=data)
        body = assert_problem(r, 400, "invalid_input")
        assert " holds " in body["detail"], (route, body)
    assert memory._store.portability.event_count() == before
