"""The twelve kind schemas of v1, each field as docs/model.md and the kinds define it.

"Attribute fields below are the structured, validated, queryable fields. All are optional
unless marked ●." and "Vocabulary rule: every closed vocabulary above is a StrEnum in code."
Bad input (issue 10): "Unknown kind, missing required attribute, a value outside a
vocabulary …: one clear line naming the allowed values".
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from enum import StrEnum

import pytest

from embornal.domain.facts.fact import DEFAULT_KIND, MAX_CONTENT_BYTES
from embornal.domain.kinds import (
    KINDS,
    V1_SCHEMAS,
    AssetType,
    Channel,
    FieldType,
    GoalStatus,
    Horizon,
    Kind,
    LocationType,
    OrgType,
    PersonAttributes,
    Polarity,
    PreferenceAttributes,
    Proficiency,
    ProjectStatus,
)
from embornal.errors import InvalidAttribute, InvalidInput, InvalidKind

ALICE = "01HZY3K8Q5W6X7Y8Z9ABCDEFGH"
BOB = "01HZY3K8Q5W6X7Y8Z9ABCDEFGJ"

# The required fields of each kind (event: occurred_at, or start_at).
REQUIRED: dict[str, set[str]] = {
    "fact": {"statement"},
    "preference": {"polarity"},
    "person": {"full_name"},
    "organization": {"name"},
    "project": {"name", "status"},
    "skill": {"name"},
    "goal": {"statement", "status"},
    "contact": {"channel", "value"},
    "event": set(),
    "location": {"name"},
    "asset": {"asset_type"},
    "relationship": {"subject_id", "predicate", "object_id"},
}

# Every v1 attribute of each kind, in the schema's order.
FIELDS: dict[str, list[str]] = {
    "fact": ["statement"],
    "preference": ["polarity", "strength", "context"],
    "person": ["full_name", "aliases", "roles", "notes"],
    "organization": ["name", "aliases", "org_type", "url"],
    "project": ["name", "status", "summary", "target_date"],
    "skill": ["name", "proficiency", "last_used_at"],
    "goal": ["statement", "horizon", "status", "target_date"],
    "contact": ["channel", "value", "label", "preferred"],
    "event": ["occurred_at", "start_at", "end_at", "outcome"],
    "location": ["name", "address", "latitude", "longitude", "location_type"],
    "asset": ["asset_type", "uri", "identifier", "notes"],
    "relationship": ["subject_id", "predicate", "object_id", "since", "until"],
}

MINIMAL: dict[str, dict[str, object]] = {
    "fact": {"statement": "The sky is blue."},
    "preference": {"polarity": "likes"},
    "person": {"full_name": "Alice Martin"},
    "organization": {"name": "Acme"},
    "project": {"name": "embornal", "status": "active"},
    "skill": {"name": "Python"},
    "goal": {"statement": "Run a marathon", "status": "active"},
    "contact": {"channel": "email", "value": "alice@example.org"},
    "event": {"occurred_at": "2026-03-12T09:30:00Z"},
    "location": {"name": "Lisbon"},
    "asset": {"asset_type": "repository"},
    "relationship": {"subject_id": ALICE, "predicate": "manages", "object_id": BOB},
}

FULL: dict[str, dict[str, object]] = {
    "fact": {"statement": "The sky is blue."},
    "preference": {"polarity": "prefers", "strength": 0.8, "context": "code-style"},
    "person": {
        "full_name": "Alice Martin",
        "aliases": ["Al", "Ally"],
        "roles": ["manager"],
        "notes": "Met at PyCon.\nLikes tea.",
    },
    "organization": {
        "name": "Acme",
        "aliases": ["ACME Corp"],
        "org_type": "company",
        "url": "https://acme.example",
    },
    "project": {
        "name": "embornal",
        "status": "paused",
        "summary": "A memory for agents.",
        "target_date": "2027-01-31",
    },
    "skill": {"name": "Python", "proficiency": "expert", "last_used_at": "2026-02-01T10:00:00Z"},
    "goal": {
        "statement": "Run a marathon",
        "horizon": "long",
        "status": "achieved",
        "target_date": "2026-10-01",
    },
    "contact": {
        "channel": "phone",
        "value": "+351 555 0100",
        "label": "work",
        "preferred": True,
    },
    "event": {
        "start_at": "2026-03-12T09:00:00Z",
        "end_at": "2026-03-12T10:00:00+01:00",
        "outcome": "Shipped.",
    },
    "location": {
        "name": "Home",
        "address": "1 Rua Augusta, Lisbon",
        "latitude": 38.71,
        "longitude": -9.14,
        "location_type": "home",
    },
    "asset": {
        "asset_type": "domain",
        "uri": "https://embornal.example",
        "identifier": "embornal.example",
        "notes": "Renew in May.",
    },
    "relationship": {
        "subject_id": ALICE,
        "predicate": "manages",
        "object_id": BOB,
        "since": "2024-01-01",
        "until": "2026-12-31",
    },
}


def test_the_twelve_kinds_in_the_seed_order_each_at_version_1() -> None:
    assert list(KINDS.kinds()) == [k.value for k in Kind] == list(FIELDS)
    assert all(KINDS.version(k) == 1 for k in KINDS.kinds())
    assert [s.KIND for s in V1_SCHEMAS] == list(FIELDS)


def test_the_default_kind_stays_fact() -> None:
    assert DEFAULT_KIND == Kind.FACT == KINDS.kinds()[0]


@pytest.mark.parametrize("kind", list(FIELDS))
def test_each_kind_has_exactly_the_v1_attributes_and_its_required_fields(kind: str) -> None:
    entry = KINDS.entry(kind)
    assert list(entry.field_names) == FIELDS[kind]
    assert {f.name for f in entry.fields if f.required} == REQUIRED[kind]


@pytest.mark.parametrize("kind", list(FIELDS))
def test_each_kind_validates_its_required_fields_alone(kind: str) -> None:
    payload = KINDS.validate(kind, MINIMAL[kind])
    assert set(payload) == set(MINIMAL[kind])
    json.dumps(payload)


@pytest.mark.parametrize("kind", list(FIELDS))
def test_each_kind_validates_every_field_into_canonical_json(kind: str) -> None:
    payload = KINDS.validate(kind, FULL[kind])
    assert set(payload) == set(FULL[kind])
    assert json.loads(json.dumps(payload)) == payload
    # Canonical: validating the payload again gives it back unchanged.
    assert KINDS.validate(kind, payload) == payload


@pytest.mark.parametrize(
    ("kind", "missing"),
    [(k, name) for k, names in REQUIRED.items() for name in sorted(names)],
)
def test_a_missing_required_field_is_refused_naming_it(kind: str, missing: str) -> None:
    attrs = {k: v for k, v in FULL[kind].items() if k != missing}
    with pytest.raises(InvalidAttribute) as e:
        KINDS.validate(kind, attrs)
    assert f"{kind}.{missing} is required" in e.value.message
    assert isinstance(e.value, InvalidInput)


@pytest.mark.parametrize("kind", list(FIELDS))
def test_an_unknown_field_is_refused_naming_the_allowed_ones(kind: str) -> None:
    with pytest.raises(InvalidAttribute) as e:
        KINDS.validate(kind, {**MINIMAL[kind], "colour": "red"})
    assert "'colour'" in e.value.message
    assert ", ".join(FIELDS[kind]) in e.value.message


VOCABULARIES: list[tuple[str, str, type[StrEnum]]] = [
    ("preference", "polarity", Polarity),
    ("organization", "org_type", OrgType),
    ("project", "status", ProjectStatus),
    ("skill", "proficiency", Proficiency),
    ("goal", "horizon", Horizon),
    ("goal", "status", GoalStatus),
    ("contact", "channel", Channel),
    ("location", "location_type", LocationType),
    ("asset", "asset_type", AssetType),
]


@pytest.mark.parametrize(("kind", "name", "vocab"), VOCABULARIES)
def test_a_value_outside_a_vocabulary_is_refused_naming_the_allowed_values(
    kind: str, name: str, vocab: type[StrEnum]
) -> None:
    spec = KINDS.entry(kind).spec(name)
    assert spec.value_type is FieldType.VOCABULARY and spec.vocabulary is vocab
    with pytest.raises(InvalidAttribute) as e:
        KINDS.validate(kind, {**MINIMAL[kind], name: "bogus"})
    allowed = ", ".join(m.value for m in vocab)
    assert f"{kind}.{name} 'bogus' is not one of: {allowed}" == e.value.message
    assert allowed in e.value.hint


def test_the_vocabularies_are_the_seeds() -> None:
    assert [m.value for m in Polarity] == ["likes", "dislikes", "wants", "avoids", "prefers"]
    assert [m.value for m in OrgType] == ["company", "team", "community", "institution", "other"]
    assert [m.value for m in ProjectStatus] == ["idea", "active", "paused", "done", "abandoned"]
    assert [m.value for m in Proficiency] == ["novice", "competent", "proficient", "expert"]
    assert [m.value for m in Horizon] == ["short", "medium", "long"]
    assert [m.value for m in GoalStatus] == ["active", "achieved", "dropped"]
    assert [m.value for m in Channel] == ["email", "phone", "handle", "address", "other"]
    assert [m.value for m in LocationType] == ["home", "work", "city", "venue", "other"]
    assert [m.value for m in AssetType] == [
        "file",
        "document",
        "device",
        "account",
        "domain",
        "repository",
        "other",
    ]


def test_vocabulary_text_folds_and_enum_members_are_accepted() -> None:
    assert KINDS.validate("preference", {"polarity": " Likes "}) == {"polarity": "likes"}
    assert KINDS.validate("preference", {"polarity": Polarity.AVOIDS}) == {"polarity": "avoids"}


def test_an_unknown_kind_is_refused_naming_the_kinds() -> None:
    with pytest.raises(InvalidKind) as e:
        KINDS.validate("persn", {"full_name": "x"})
    assert e.value.message == (
        "unknown kind 'persn'; the kinds are: fact, preference, person, organization, project, "
        "skill, goal, contact, event, location, asset, relationship"
    )
    assert KINDS.check_kind(" Person ") == "person"


def test_the_schema_dataclasses_are_frozen_and_check_themselves() -> None:
    person = PersonAttributes(full_name="  Alice  ", aliases=("Al", "Al", "Ally"))
    assert person.full_name == "Alice" and person.aliases == ("Al", "Ally")
    with pytest.raises(AttributeError):
        person.full_name = "Bob"  # type: ignore[misc]
    with pytest.raises(InvalidAttribute, match=r"preference.strength is 1.5"):
        PreferenceAttributes(polarity=Polarity.LIKES, strength=1.5)


@pytest.mark.parametrize(
    ("kind", "attrs", "message"),
    [
        ("preference", {"polarity": "likes", "strength": 1.01}, "from 0 to 1"),
        ("preference", {"polarity": "likes", "strength": -0.1}, "from 0 to 1"),
        ("preference", {"polarity": "likes", "strength": "high"}, "must be a number"),
        ("preference", {"polarity": "likes", "strength": True}, "must be a number"),
        ("preference", {"polarity": "likes", "strength": float("nan")}, "from 0 to 1"),
        ("location", {"name": "x", "latitude": 90.5, "longitude": 0}, "from -90 to 90"),
        ("location", {"name": "x", "latitude": 0, "longitude": -180.5}, "from -180 to 180"),
        ("location", {"name": "x", "latitude": 10}, "latitude and longitude together"),
        ("contact", {"channel": "email", "value": "a@b", "preferred": "yes"}, "true or false"),
        ("person", {"full_name": "   "}, "person.full_name is empty"),
        ("person", {"full_name": 42}, "must be text, not int"),
        ("person", {"full_name": "Al\nice"}, "line break"),
        ("person", {"full_name": "A", "aliases": "Al"}, "must be a list of text"),
        ("person", {"full_name": "A", "aliases": ["Al", 3]}, "must be text"),
        ("person", {"full_name": "A", "notes": "x" * 4001}, "over 4,000 characters"),
        ("project", {"name": "p", "status": "active", "target_date": "soon"}, "is not a date"),
        (
            "project",
            {"name": "p", "status": "active", "target_date": "2027-01-01T10:00Z"},
            "is not a date",
        ),
        ("skill", {"name": "s", "last_used_at": "yesterday"}, "is not an ISO-8601 time"),
        ("organization", {"name": "o", "url": "acme.example"}, "has no scheme"),
        ("asset", {"asset_type": "file", "uri": "C:\\notes.txt"}, "has no scheme"),
        ("asset", {"asset_type": "file", "uri": "https://"}, "without a host"),
        ("relationship", {**MINIMAL["relationship"], "subject_id": "alice"}, "is not a fact id"),
        ("relationship", {**MINIMAL["relationship"], "object_id": ALICE}, "the same fact"),
        (
            "relationship",
            {**MINIMAL["relationship"], "since": "2025-01-01", "until": "2024-01-01"},
            "until is before since",
        ),
        ("relationship", {**MINIMAL["relationship"], "predicate": "m" * 129}, "over 128"),
        ("event", {"outcome": "ok"}, "give occurred_at, or start_at"),
        ("event", {"occurred_at": "2026-01-01", "end_at": "2026-01-02"}, "end_at needs a start_at"),
        ("event", {"start_at": "2026-01-02", "end_at": "2026-01-01"}, "end_at is before start_at"),
    ],
)
def test_bad_values_are_refused_in_one_clear_line(
    kind: str, attrs: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidAttribute) as e:
        KINDS.validate(kind, attrs)
    assert message in e.value.message
    assert "\n" not in e.value.message


def test_values_are_normalized_on_the_way_in() -> None:
    assert KINDS.validate("relationship", {**MINIMAL["relationship"], "subject_id": ALICE.lower()})[
        "subject_id"
    ] == (ALICE)
    assert KINDS.validate("event", {"occurred_at": "2026-03-12T10:30:00+01:00"}) == {
        "occurred_at": "2026-03-12T09:30:00.000000Z"
    }
    assert KINDS.validate("event", {"occurred_at": datetime(2026, 3, 12, tzinfo=UTC)}) == {
        "occurred_at": "2026-03-12T00:00:00.000000Z"
    }
    assert KINDS.validate(
        "project", {"name": "p", "status": "idea", "target_date": date(2027, 1, 31)}
    ) == {"name": "p", "status": "idea", "target_date": "2027-01-31"}
    # An optional value given as null is the same as leaving it out; so is an empty list.
    assert KINDS.validate("person", {"full_name": "A", "notes": None, "aliases": []}) == {
        "full_name": "A"
    }


def test_a_fact_statement_may_be_as_long_as_content() -> None:
    """An untyped fact's statement is its content, so the limits agree."""
    text = "a" * MAX_CONTENT_BYTES
    assert KINDS.validate("fact", {"statement": text}) == {"statement": text}


def test_attributes_must_be_an_object() -> None:
    with pytest.raises(InvalidAttribute, match="must be an object"):
        KINDS.validate("fact", ["statement"])  # type: ignore[arg-type]
