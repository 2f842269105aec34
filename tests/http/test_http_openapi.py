"""The OpenAPI document is valid OpenAPI 3.1, names every route, and what the server sends
matches what it describes (bodies, statuses, media types)."""

from __future__ import annotations

from typing import Any

import pytest
from http_helpers import API, bearer
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from starlette.routing import Route
from starlette.testclient import TestClient

from embornal.interfaces.http.api import OPERATIONS


@pytest.fixture
def document(client: TestClient) -> dict[str, Any]:
    r = client.get("/openapi.json")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    doc: dict[str, Any] = r.json()
    return doc


def test_it_is_a_valid_openapi_31_document(document: dict[str, Any]) -> None:
    pytest.importorskip("openapi_spec_validator")
    from openapi_spec_validator import validate

    assert document["openapi"].startswith("3.1")
    validate(document)


def test_its_schemas_are_named_by_their_class_not_their_module(
    document: dict[str, Any],
) -> None:
    """A schema's name in the document is its model's class name, so moving a module
    renames nothing a generated client sees (two models of one name would be qualified
    by their module's path instead)."""
    names = list(document["components"]["schemas"])
    assert names and [n for n in names if "__" in n] == []


def test_it_names_every_route_of_the_api(client: TestClient, document: dict[str, Any]) -> None:
    served = {
        (method, route.path)
        for route in client.app.routes  # type: ignore[attr-defined]
        if isinstance(route, Route) and route.path.startswith(API)
        for method in (route.methods or set()) - {"HEAD"}
    }
    documented = {
        (method.upper(), path) for path, item in document["paths"].items() for method in item
    }
    assert served == documented
    assert len(documented) == len(OPERATIONS) == 85


def test_every_operation_documents_its_errors(document: dict[str, Any]) -> None:
    for path, item in document["paths"].items():
        for method, op in item.items():
            responses = op["responses"]
            public = op.get("security") == []
            assert ("401" in responses) != public, (method, path)
            if "requestBody" in op:
                assert {"413", "422"} <= set(responses), (method, path)
                schema_ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                name = schema_ref.rsplit("/", 1)[1]
                assert document["components"]["schemas"][name]["additionalProperties"] is False
            if "parameters" in op:
                assert "422" in responses or all(p["in"] == "path" for p in op["parameters"])
            for status, response in responses.items():
                if status.startswith(("4", "5")):
                    assert response["$ref"].startswith("#/components/responses/Problem")
    problem = document["components"]["responses"]["Problem401"]
    assert "application/problem+json" in problem["content"]
    assert "WWW-Authenticate" in problem["headers"]
    assert document["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"


class Conformance:
    """Checks a live response against the schema the document gives for its status."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry = Registry().with_resource("urn:embornal:openapi", resource)

    def check(self, method: str, path: str, response: Any) -> None:
        op = self.document["paths"][path][method.lower()]
        spec = op["responses"][str(response.status_code)]
        if "$ref" in spec:
            spec = self.document["components"]["responses"][spec["$ref"].rsplit("/", 1)[1]]
        media_type = response.headers["content-type"]
        schema = spec["content"][media_type]["schema"]
        validator = Draft202012Validator(
            {"$ref": "urn:embornal:openapi" + schema["$ref"]}, registry=self.registry
        )
        errors = sorted(validator.iter_errors(response.json()), key=str)
        assert not errors, (method, path, response.status_code, [e.message for e in errors])


def test_live_answers_match_the_document(
    client: TestClient, document: dict[str, Any], tokens: dict[str, str]
) -> None:
    check = Conformance(document).check
    h = bearer(tokens["alice"])

    def call(method: str, template: str, **kwargs: Any) -> Any:
        fact_id = kwargs.pop("fact_id", "")
        r = client.request(method, API + template.replace("{id}", fact_id), **kwargs)
        check(method, API + template, r)
        return r

    call("GET", "/health")
    call("GET", "/whoami", headers=h)
    call("GET", "/whoami")
    made = call(
        "POST",
        "/facts",
        headers=h,
        json={"path": "/docs/api", "content": "See [[/docs]] for more.", "tags": {"k": "v"}},
    ).json()
    call("POST", "/facts", headers=h, json={"path": "/docs"})
    call("POST", "/facts", headers=h, json={"path": "/docs!", "content": "x"})
    fid = made["id"]
    client.post(
        f"{API}/facts",
        headers=h,
        json={"path": "/docs/api", "content": "Old.", "at": "2020-01-01T00:00:00Z"},
    )
    call("GET", "/ls", headers=h)
    call("GET", "/ls", headers=h, params={"path": "/nowhere"})
    call("GET", "/tree", headers=h, params={"dirs_only": "true"})
    call("GET", "/cat", headers=h, params={"path": "/docs/api", "order_by": "signal"})
    call("GET", "/cat", headers=h, params={"limit": "x"})
    call("GET", "/recall", headers=h, params={"q": "more", "under": "/docs"})
    call("GET", "/recall", headers=h)
    call("GET", "/tags", headers=h, params={"fact": fid})
    call("GET", "/facts/{id}", headers=h, fact_id=fid)
    call("GET", "/facts/{id}", headers=h, fact_id="0ILU")
    call("GET", "/facts/{id}/history", headers=h, fact_id=fid)
    call("POST", "/facts/{id}/forget", headers=h, fact_id=fid, json={"reason": "test"})
    call("POST", "/facts/{id}/forget", headers=h, fact_id=fid, json={"reason": "test"})
    call("POST", "/facts/{id}/restore", headers=h, fact_id=fid, json={"reason": "test"})
    call("POST", "/facts/{id}/restore", headers=h, fact_id=fid, json={})
    show = call("GET", "/facts/{id}", headers=h, fact_id=fid).json()
    assert [e["type"] for e in show["events"]] == ["FactStored", "FactForgotten", "FactRestored"]
    assert show["links"] == ["/docs"]
    assert {t["tag"]: t["source"] for t in show["effective_tags"]} == {
        "k=v": None,
        "owner=alice": None,
    }
