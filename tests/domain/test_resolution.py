"""Entity resolution and the attribute checks (decision 0058): pure rules."""

from __future__ import annotations

import pytest

from embornal.domain.conflicts.resolution import (
    blocking_keys,
    compare,
    fold,
    keys_of,
    preference_clash,
    profile_of,
    soundex,
    text_signature,
    text_similarity,
)


def person(fid: str, name: str, *aliases: str, notes: str | None = None):  # type: ignore[no-untyped-def]
    attrs: dict[str, object] = {"full_name": name, "aliases": list(aliases)}
    if notes:
        attrs["notes"] = notes
    profile = profile_of(fid, "person", attrs)
    assert profile is not None
    return profile


def test_fold_drops_case_accents_and_punctuation() -> None:
    assert fold("  José  Ñúñez-García ") == "jose nunez garcia"
    assert fold("O'Brien, Mary") == "o brien mary"
    assert soundex("smith") == soundex("smyth") == "S530"


@pytest.mark.parametrize(
    ("a", "b", "finding"),
    [
        ("John Smith", "john SMITH", "names: same name"),
        ("José Núñez", "Jose Nunez", "names: same name"),
        ("Smith John", "John Smith", "names: same words in another order"),
        ("J. Smith", "John Smith", "names: initials agree"),
        ("J. R. Tolkien", "John Ronald Tolkien", "names: initials agree"),
        ("Jonathan Smith", "Jonathon Smith", "names: a typo apart"),
    ],
)
def test_names_that_agree_make_a_duplicate(a: str, b: str, finding: str) -> None:
    pa, pb = person("A", a), person("B", b)
    assert blocking_keys(pa) & blocking_keys(pb)  # one indexed lookup finds the other
    match = compare(pa, pb)
    assert match is not None and match.names_agree
    assert finding in match.findings and match.score >= 0.8


@pytest.mark.parametrize(
    ("a", "b"),
    [("John Smith", "Jane Smith"), ("John Smith", "John Smithers"), ("Ann Lee", "Bob Lee")],
)
def test_different_people_do_not_match(a: str, b: str) -> None:
    assert compare(person("A", a), person("B", b)) is None


def test_an_alias_matches_the_other_name() -> None:
    match = compare(person("A", "Robert Smith", "Bob Smith"), person("B", "Bob Smith"))
    assert match is not None and match.names_agree


def test_one_contact_with_two_names_is_a_contradiction() -> None:
    a = person("A", "Robert Jones", "rj@example.org")
    b = person("B", "Mary Major", notes="mail: RJ@example.org")
    assert "c:mail:rj@example.org" in {k.split("|", 1)[1] for k in blocking_keys(a)}
    match = compare(a, b)
    assert match is not None and not match.names_agree
    assert "a contact in common" in match.findings and match.score == 1.0


def test_phones_and_handles_are_contacts() -> None:
    a = person("A", "Ann Bell", "+1 (555) 010-9999", "@annb")
    b = person("B", "A. Bell", "555 010 9999")
    assert {"tel:5550109999", "handle:annb"} <= a.contacts
    match = compare(a, b)
    assert match is not None and match.score == 1.0


def test_an_organization_drops_its_legal_suffix() -> None:
    a = profile_of("A", "organization", {"name": "ACME Inc."})
    b = profile_of("B", "organization", {"name": "Acme"})
    assert a is not None and b is not None and compare(a, b) is not None
    other = profile_of("C", "person", {"full_name": "Acme"})
    assert other is not None and compare(a, other) is None  # kinds are never compared


def test_preferences_clash_only_on_one_context_and_opposed_polarity() -> None:
    likes = {"polarity": "likes", "context": "Code-style"}
    assert preference_clash(likes, {"polarity": "avoids", "context": "code style"})
    assert not preference_clash(likes, {"polarity": "prefers", "context": "code-style"})
    assert not preference_clash(likes, {"polarity": "dislikes", "context": "food"})
    assert not preference_clash({"polarity": "likes"}, {"polarity": "dislikes"})
    assert keys_of("P", "preference", likes) == {"preference|ctx:code style"}
    assert keys_of("P", "preference", {"polarity": "likes"}) == frozenset()
    assert keys_of("F", "fact", {"statement": "x"}) == frozenset()


def test_near_duplicate_texts_share_a_band() -> None:
    a = ["the", "build", "uses", "uv", "and", "ruff", "for", "the", "whole", "project"]
    b = ["the", "build", "uses", "uv", "and", "ruff", "for", "the", "whole", "project", "today"]
    assert text_similarity(a, b) >= 0.8
    assert set(text_signature(a)) & set(text_signature(b))
    assert text_signature(["one", "two"]) == ()
    assert text_similarity([], a) == 0.0
