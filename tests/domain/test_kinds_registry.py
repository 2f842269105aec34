"""The kind registry: versions and upcasters, sparse updates, text coercion, description.

Decision 0030: "Kind schemas are registered in a KindRegistry (mirror of the event
registry): (kind, schema_version, attributes dataclass, upcasters). Old attribute payloads
upcast on read, exactly like events." "kind is immutable after creation."
"MemoryAttributesUpdated — sparse change to kind-schema fields (validated)".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

import pytest

from embornal.domain.kinds import KINDS, Kind, KindRegistry, KindSchema, default_registry
from embornal.domain.kinds.fields import meta
from embornal.errors import InvalidAttribute, InvalidKind


class Size(StrEnum):
    SMALL = "small"
    LARGE = "large"


@dataclass(frozen=True, kw_only=True)
class WidgetV3(KindSchema):
    """A test-only kind at version 3: v1 had ``title``, v2 renamed it ``name``, v3 added
    the required ``size`` (old widgets were small)."""

    KIND: ClassVar[str] = "widget"
    name: str = field(metadata=meta())
    size: Size = field(metadata=meta())
    tags: tuple[str, ...] = field(default=(), metadata=meta())


def _v1_to_v2(payload: dict[str, object]) -> dict[str, object]:
    out = {k: v for k, v in payload.items() if k != "title"}
    out["name"] = payload["title"]
    return out


def _v2_to_v3(payload: dict[str, object]) -> dict[str, object]:
    return {**payload, "size": "small"}


@pytest.fixture
def registry() -> KindRegistry:
    reg = default_registry()
    reg.register("widget", 3, WidgetV3, {1: _v1_to_v2, 2: _v2_to_v3})
    return reg


def test_an_old_payload_is_upcast_through_the_chain_on_read(registry: KindRegistry) -> None:
    stored = {"title": "gear", "tags": ["x"]}
    assert registry.upcast("widget", 1, stored) == (
        3,
        {"name": "gear", "tags": ["x"], "size": "small"},
    )
    assert registry.upcast("widget", 2, {"name": "gear"}) == (3, {"name": "gear", "size": "small"})
    assert registry.upcast("widget", 3, {"name": "g", "size": "large"}) == (
        3,
        {"name": "g", "size": "large"},
    )
    assert stored == {"title": "gear", "tags": ["x"]}, "the log is never rewritten"
    loaded = registry.load("widget", 1, stored)
    assert isinstance(loaded, WidgetV3) and loaded.size is Size.SMALL


def test_a_payload_from_a_newer_or_impossible_version_is_refused(registry: KindRegistry) -> None:
    with pytest.raises(InvalidAttribute, match="newer than this embornal knows"):
        registry.upcast("widget", 4, {})
    with pytest.raises(InvalidAttribute, match="is not 1 or more"):
        registry.upcast("widget", 0, {})


def test_v1_kinds_upcast_to_themselves() -> None:
    assert KINDS.upcast("fact", 1, {"statement": "x"}) == (1, {"statement": "x"})


def test_registration_wants_a_whole_chain_and_one_entry_per_kind() -> None:
    reg = KindRegistry()
    with pytest.raises(ValueError, match=r"needs upcasters for 1\.\.2"):
        reg.register("widget", 3, WidgetV3, {1: _v1_to_v2})
    with pytest.raises(ValueError, match="is for kind 'widget'"):
        reg.register("gadget", 1, WidgetV3)
    with pytest.raises(ValueError, match="lowercase identifier"):
        reg.register("Widget", 1, WidgetV3)
    reg.register("widget", 3, WidgetV3, {1: _v1_to_v2, 2: _v2_to_v3})
    with pytest.raises(ValueError, match="already registered"):
        reg.register("widget", 3, WidgetV3, {1: _v1_to_v2, 2: _v2_to_v3})
    assert reg.kinds() == ("widget",)


def test_kind_is_immutable() -> None:
    assert KINDS.check_same_kind("person", "Person") == "person"
    with pytest.raises(InvalidKind, match="never changes") as e:
        KINDS.check_same_kind("person", "location")
    assert "supersedes" in e.value.hint


# -- sparse updates ------------------------------------------------------------------------

PROJECT = {"name": "embornal", "status": "idea", "summary": "memory"}


def test_an_update_changes_only_what_it_names_and_validates_the_whole() -> None:
    assert KINDS.update("project", PROJECT, {"status": "active"}) == {**PROJECT, "status": "active"}
    assert KINDS.update("project", PROJECT, {"summary": None}) == {
        "name": "embornal",
        "status": "idea",
    }
    assert KINDS.update("project", PROJECT, {"target_date": "2027-01-01"})["target_date"] == (
        "2027-01-01"
    )
    # The merged whole is validated: a cross-field rule sees the old and the new values.
    event = KINDS.validate("event", {"start_at": "2026-01-02T00:00:00Z"})
    with pytest.raises(InvalidAttribute, match="end_at is before start_at"):
        KINDS.update("event", event, {"end_at": "2026-01-01T00:00:00Z"})
    with pytest.raises(InvalidAttribute, match="give occurred_at, or start_at"):
        KINDS.update("event", event, {"start_at": None})


def test_a_required_field_cannot_be_removed() -> None:
    with pytest.raises(InvalidAttribute, match=r"project.status is required and cannot be removed"):
        KINDS.update("project", PROJECT, {"status": None})


def test_an_update_is_refused_for_an_unknown_field_a_bad_value_or_nothing() -> None:
    with pytest.raises(InvalidAttribute, match="project has no attribute 'owner'"):
        KINDS.update("project", PROJECT, {"owner": "me"})
    with pytest.raises(InvalidAttribute, match="is not one of: idea, active, paused, done"):
        KINDS.update("project", PROJECT, {"status": "finished"})
    with pytest.raises(InvalidAttribute, match="at least one attribute"):
        KINDS.update("project", PROJECT, {})


# -- text from the command line -------------------------------------------------------------


def test_coerce_from_text_gives_the_field_types() -> None:
    assert KINDS.coerce_from_text(
        "contact", {"channel": "email", "value": "a@b.org", "preferred": "TRUE"}
    ) == {"channel": "email", "value": "a@b.org", "preferred": True}
    assert KINDS.coerce_from_text("contact", {"preferred": "no"}) == {"preferred": False}
    assert KINDS.coerce_from_text("preference", {"strength": "0.7"}) == {"strength": 0.7}
    assert KINDS.coerce_from_text("person", {"aliases": " Al, Ally ,, "}) == {
        "aliases": ("Al", "Ally")
    }
    assert KINDS.coerce_from_text("person", {"notes": "  "}) == {"notes": None}


def test_coerced_text_validates_and_updates() -> None:
    attrs = KINDS.coerce_from_text(
        "location", {"name": "Lisbon", "latitude": "38.7", "longitude": "-9.1"}
    )
    assert KINDS.validate("location", attrs) == {
        "name": "Lisbon",
        "latitude": 38.7,
        "longitude": -9.1,
    }
    changes = KINDS.coerce_from_text("project", {"summary": ""})
    assert KINDS.update("project", PROJECT, changes) == {"name": "embornal", "status": "idea"}


@pytest.mark.parametrize(
    ("kind", "values", "message"),
    [
        ("contact", {"preferred": "maybe"}, "contact.preferred must be true or false"),
        ("preference", {"strength": "lots"}, "preference.strength 'lots' is not a number"),
        ("person", {"age": "40"}, "person has no attribute 'age'"),
        ("persn", {"x": "1"}, "unknown kind 'persn'"),
    ],
)
def test_coerce_from_text_refuses_what_it_cannot_read(
    kind: str, values: dict[str, str], message: str
) -> None:
    with pytest.raises((InvalidAttribute, InvalidKind)) as e:
        KINDS.coerce_from_text(kind, values)
    assert message in e.value.message


def test_a_number_out_of_range_is_caught_by_validate_after_coercion() -> None:
    attrs = KINDS.coerce_from_text("preference", {"polarity": "likes", "strength": "nan"})
    with pytest.raises(InvalidAttribute, match="from 0 to 1"):
        KINDS.validate("preference", attrs)


# -- description -----------------------------------------------------------------------------


def test_describe_gives_every_schema_as_json_data(registry: KindRegistry) -> None:
    described = registry.describe()
    text = json.dumps(described)
    assert json.loads(text) == described
    by_kind = {d["kind"]: d for d in described}
    assert list(by_kind) == [*(k.value for k in Kind), "widget"]
    project = by_kind["project"]
    assert project["version"] == 1
    assert project["required"] == ["name", "status"]
    status = next(f for f in project["fields"] if f["name"] == "status")  # type: ignore[union-attr]
    assert status == {
        "name": "status",
        "type": "vocabulary",
        "required": True,
        "values": ["idea", "active", "paused", "done", "abandoned"],
    }
    assert by_kind["widget"]["version"] == 3
    assert by_kind["event"]["rules"] == [
        "occurred_at or start_at is required",
        "end_at needs start_at and is not before it",
    ]
    assert by_kind["person"]["summary"].startswith("A human the user knows")  # type: ignore[union-attr]
