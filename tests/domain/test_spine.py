"""The justification spine (docs/model.md, The spine): source, evidence, lifetime, visibility,
importance.

"EvidenceRef = (evidence_type: quote·uri·conversation·document·observation, value,
note?). Evidence is never edited or removed — corrections add new evidence."
"RetentionPolicy (the lifetime field): permanent · standard · until (explicit expiry date)
· ephemeral". "Visibility: shared (default …), private (…), restricted (allow-listed
actors …)". Issue 10: "unknown evidence type, an `until` in the past: one clear line
naming the allowed values".
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from embornal.domain.events import ActorKind
from embornal.domain.spine.justification import (
    DEFAULT_LIFETIME,
    DEFAULT_VISIBILITY,
    MAX_EVIDENCE_VALUE,
    EvidenceRef,
    EvidenceType,
    Importance,
    Lifetime,
    LifetimePolicy,
    Provenance,
    Visibility,
    VisibilityLevel,
    append_evidence,
    parse_lifetime,
    parse_visibility,
)
from embornal.errors import (
    InvalidEvidence,
    InvalidImportance,
    InvalidInput,
    InvalidLifetime,
    InvalidSubject,
    InvalidVisibility,
)

NOW = datetime(2026, 6, 15, 23, 30, tzinfo=UTC)


# -- source ----------------------------------------------------------------------------------


def test_actor_kind_gains_import_and_keeps_its_values() -> None:
    assert [a.value for a in ActorKind] == ["person", "assistant", "system", "import"]


def test_provenance_names_who_and_which_client_or_session() -> None:
    src = Provenance("alice", "assistant", label=" claude-desktop ")  # type: ignore[arg-type]
    assert src.actor_kind is ActorKind.ASSISTANT and src.label == "claude-desktop"
    assert src.to_payload() == {
        "subject": "alice",
        "actor_kind": "assistant",
        "label": "claude-desktop",
    }
    assert Provenance("bob", ActorKind.IMPORT).to_payload() == {
        "subject": "bob",
        "actor_kind": "import",
    }


def test_provenance_refuses_a_bad_subject_actor_or_label() -> None:
    with pytest.raises(InvalidSubject):
        Provenance("al ice", ActorKind.PERSON)
    with pytest.raises(InvalidInput, match="person, assistant, system, import"):
        Provenance("alice", "robot")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="control character"):
        Provenance("alice", ActorKind.PERSON, label="a\nb")
    with pytest.raises(InvalidInput, match="control character"):
        Provenance("alice", ActorKind.PERSON, label="a\x1bb")
    with pytest.raises(InvalidInput, match="over 128"):
        Provenance("alice", ActorKind.PERSON, label="c" * 129)


# -- evidence --------------------------------------------------------------------------------


def test_the_evidence_types_are_the_seeds() -> None:
    assert [t.value for t in EvidenceType] == [
        "quote",
        "uri",
        "conversation",
        "document",
        "observation",
    ]


def test_evidence_is_a_type_a_value_and_an_optional_note() -> None:
    ref = EvidenceRef("Quote", "  I moved to Lisbon  ", note="said on 3/12")  # type: ignore[arg-type]
    assert ref.type is EvidenceType.QUOTE and ref.value == "I moved to Lisbon"
    assert ref.to_payload() == {
        "type": "quote",
        "value": "I moved to Lisbon",
        "note": "said on 3/12",
    }
    assert EvidenceRef.from_payload(ref.to_payload()) == ref
    uri = EvidenceRef(EvidenceType.URI, "https://example.org/standup#3-12")
    assert uri.to_payload() == {"type": "uri", "value": "https://example.org/standup#3-12"}
    assert EvidenceRef(EvidenceType.URI, "mailto:alice@example.org").value.startswith("mailto:")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("rumour", "x"), "evidence type 'rumour' is not one of: quote, uri, conversation, "),
        (("quote", "   "), "the evidence value is empty"),
        (("quote", 3), "must be text"),
        (("quote", "x" * (MAX_EVIDENCE_VALUE + 1)), "over 8,192 characters"),
        (("quote", "a\x00b"), "NUL"),
        (("uri", "example.org/page"), "has no scheme"),
        (("uri", "https:///nohost"), "without a host"),
        (("uri", "https://exa mple.org"), "holds a space"),
        (("quote", "x", "  "), "the evidence note is empty"),
    ],
)
def test_bad_evidence_is_refused(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(InvalidEvidence) as e:
        EvidenceRef(*args)  # type: ignore[arg-type]
    assert message in e.value.message


def test_evidence_is_append_only() -> None:
    """ "Evidence is never edited or removed — corrections add new evidence." """
    first = EvidenceRef(EvidenceType.QUOTE, "Alice manages Bob")
    correction = EvidenceRef(EvidenceType.OBSERVATION, "Bob now reports to Carol")
    both = append_evidence((first,), correction)
    assert both == (first, correction)
    with pytest.raises(AttributeError):
        first.value = "edited"  # type: ignore[misc]


# -- lifetime --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("permanent", Lifetime(LifetimePolicy.PERMANENT)),
        (" Standard ", Lifetime(LifetimePolicy.STANDARD)),
        ("ephemeral", Lifetime(LifetimePolicy.EPHEMERAL)),
        ("until:2027-01-01", Lifetime(LifetimePolicy.UNTIL, date(2027, 1, 1))),
        ("UNTIL: 2026-06-15", Lifetime(LifetimePolicy.UNTIL, date(2026, 6, 15))),
    ],
)
def test_parse_lifetime(text: str, expected: Lifetime) -> None:
    assert parse_lifetime(text, now=NOW) == expected
    assert parse_lifetime(str(expected), now=NOW) == expected


def test_an_until_lifetime_lives_through_its_day() -> None:
    """ "until (explicit expiry date — e.g. "parking spot C4 until Friday")" """
    friday = parse_lifetime("until:2026-06-19", now=NOW)
    assert friday.expires_at == datetime(2026, 6, 20, tzinfo=UTC)
    assert Lifetime(LifetimePolicy.STANDARD) == DEFAULT_LIFETIME


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("until:2026-06-14", "is in the past (today is 2026-06-15)"),
        ("until:friday", "has no date"),
        ("until", "has no date"),
        ("forever", "is not one of: permanent, standard, ephemeral, until:YYYY-MM-DD"),
        ("standard:2027-01-01", "is not one of"),
        ("", "a lifetime is one of"),
    ],
)
def test_bad_lifetimes_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidLifetime) as e:
        parse_lifetime(text, now=NOW)
    assert message in e.value.message


def test_a_lifetime_value_keeps_its_shape() -> None:
    with pytest.raises(InvalidLifetime, match="needs a date"):
        Lifetime(LifetimePolicy.UNTIL)
    with pytest.raises(InvalidLifetime, match="has no date"):
        Lifetime(LifetimePolicy.STANDARD, date(2027, 1, 1))
    with pytest.raises(InvalidLifetime, match="is not one of"):
        Lifetime("forever")  # type: ignore[arg-type]
    # A past until can be read back from history; only new input is refused.
    assert Lifetime(LifetimePolicy.UNTIL, date(2020, 1, 1)).until == date(2020, 1, 1)


# -- visibility ------------------------------------------------------------------------------


def test_parse_visibility() -> None:
    assert parse_visibility("shared") == DEFAULT_VISIBILITY == Visibility(VisibilityLevel.SHARED)
    assert parse_visibility(" Private ") == Visibility(VisibilityLevel.PRIVATE)
    restricted = parse_visibility("restricted:bob, alice,bob")
    assert restricted.level is VisibilityLevel.RESTRICTED
    assert restricted.allow == ("alice", "bob")
    assert str(restricted) == "restricted:alice,bob"
    assert parse_visibility(str(restricted)) == restricted


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("public", "is not one of: shared, private, restricted:<subject>,<subject>"),
        ("restricted", "needs an allow-list"),
        ("restricted: , ", "needs an allow-list"),
        ("restricted:al=ice", "in the allow-list: subject 'al=ice' holds '='"),
        ("private:alice", "is not one of"),
        ("", "a visibility is one of"),
    ],
)
def test_bad_visibilities_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidVisibility) as e:
        parse_visibility(text)
    assert message in e.value.message


def test_only_restricted_has_an_allow_list() -> None:
    with pytest.raises(InvalidVisibility, match="shared visibility has no allow-list"):
        Visibility(VisibilityLevel.SHARED, ("alice",))
    with pytest.raises(InvalidVisibility, match="is not one of"):
        Visibility("hidden")  # type: ignore[arg-type]


# -- importance ------------------------------------------------------------------------------


def test_importance_is_a_pin_and_an_optional_user_weight() -> None:
    assert Importance() == Importance(pinned=False, user_weight=None)
    assert Importance(pinned=True, user_weight=1).user_weight == 1.0


@pytest.mark.parametrize(
    ("pinned", "weight", "message"),
    [
        (False, 1.5, "outside 0..1"),
        (False, -0.01, "outside 0..1"),
        (False, float("nan"), "outside 0..1"),
        (False, "high", "a number from 0 to 1"),
        (False, True, "a number from 0 to 1"),
        ("yes", None, "pinned must be true or false"),
    ],
)
def test_bad_importance_is_refused(pinned: object, weight: object, message: str) -> None:
    with pytest.raises(InvalidImportance, match=message):
        Importance(pinned=pinned, user_weight=weight)  # type: ignore[arg-type]
