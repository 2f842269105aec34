"""The rules extractor of ``embornal ingest`` (no model): what it drafts from a
conversation or a note, and what it leaves alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from embornal.domain.kinds.registry import KINDS
from embornal.domain.proposals.ingest import Draft, SourceText, extract_rules, split_turns
from embornal.domain.spine.justification import EvidenceType

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)  # a Tuesday

CHAT = """User: Hi there!
Assistant: Hello, how can I help? I like to help.
User: Remember that my sister Ana Lopez lives in Porto. I prefer green tea over coffee.
User: I had lunch with Marco Rossi yesterday. What time is it?
User: We are moving the launch to March 3, 2027. I don't like long meetings."""


def _drafts(text: str, name: str = "chat.txt") -> list[Draft]:
    return extract_rules(SourceText(text, name), NOW)


def test_a_conversation_gives_one_draft_per_rule_with_the_line_as_evidence() -> None:
    got = [(d.rule, d.kind, d.content) for d in _drafts(CHAT)]
    assert got == [
        ("explicit", "fact", "My sister Ana Lopez lives in Porto"),
        ("preference", "preference", "I prefer green tea over coffee"),
        ("date", "event", "I had lunch with Marco Rossi yesterday"),
        ("date", "event", "We are moving the launch to March 3, 2027"),
        ("preference", "preference", "I don't like long meetings"),
    ]
    first = _drafts(CHAT)[0]
    (proof,) = first.evidence
    assert proof.type is EvidenceType.CONVERSATION
    assert proof.value.startswith("User: Remember that my sister")
    assert proof.note == "line 3 of chat.txt"
    assert first.line == 3


def test_greetings_questions_and_the_assistant_are_not_drafted() -> None:
    contents = " ".join(d.content for d in _drafts(CHAT))
    assert "Hi there" not in contents and "What time" not in contents
    assert "I like to help" not in contents  # the assistant said it


def test_dates_resolve_against_now_past_occurred_future_starts() -> None:
    by_content = {d.content: d.attributes for d in _drafts(CHAT)}
    lunch = by_content["I had lunch with Marco Rossi yesterday"]
    assert lunch == {"occurred_at": datetime(2026, 11, 30, 12, tzinfo=UTC)}
    launch = by_content["We are moving the launch to March 3, 2027"]
    assert launch == {"start_at": datetime(2027, 3, 3, 12, tzinfo=UTC)}
    note = _drafts("The review was last Monday with the whole team.", "n.md")
    assert note[0].attributes == {"occurred_at": datetime(2026, 11, 30, 12, tzinfo=UTC)}
    iso = _drafts("Kickoff happened on 2026-02-30 and again on 2026-03-02.", "n.md")
    assert iso[0].kind == "fact"  # 30 February is no date: the sentence is a statement


def test_preferences_carry_their_polarity() -> None:
    pol = {d.content: d.attributes["polarity"] for d in _drafts(CHAT) if d.kind == "preference"}
    assert pol == {
        "I prefer green tea over coffee": "prefers",
        "I don't like long meetings": "dislikes",
    }


def test_names_are_mentioned_but_not_pronouns_or_calendar_words() -> None:
    mentions = {d.content: d.mentions for d in _drafts(CHAT)}
    assert mentions["My sister Ana Lopez lives in Porto"] == ("Ana Lopez", "Porto")
    assert mentions["I had lunch with Marco Rossi yesterday"] == ("Marco Rossi",)
    assert mentions["We are moving the launch to March 3, 2027"] == ()


def test_a_note_of_key_value_lines_gives_contacts_and_facts() -> None:
    note = "Name: Bob Stone\nEmail: bob@example.org\nPhone: +1 555 123 4567\nBob works at Initech."
    turns, talk = split_turns(note)
    assert not talk and [t.speaker for t in turns] == [None] * 4
    got = [(d.kind, d.content, d.attributes) for d in _drafts(note, "bob.md")]
    assert got == [
        ("fact", "Name: Bob Stone", {}),
        (
            "contact",
            "Email: bob@example.org",
            {"channel": "email", "value": "bob@example.org", "label": "email"},
        ),
        (
            "contact",
            "Phone: +1 555 123 4567",
            {"channel": "phone", "value": "+1 555 123 4567", "label": "phone"},
        ),
        ("fact", "Bob works at Initech", {}),
    ]
    assert all(d.evidence[0].type is EvidenceType.DOCUMENT for d in _drafts(note, "bob.md"))


def test_chinese_explicit_requests_and_preferences() -> None:
    got = [
        (d.rule, d.kind, d.content)
        for d in _drafts("用户: 请记住我的生日是5月3日。我喜欢爵士乐。\n助手: 好的。\n用户: 谢谢")
    ]
    assert got == [
        ("explicit", "fact", "我的生日是5月3日"),
        ("preference", "preference", "我喜欢爵士乐"),
    ]


def test_repeats_are_drafted_once() -> None:
    line = "remember that the wifi password is on the fridge"
    text = f"User: {line}\nUser: {line.capitalize()}"
    assert len(_drafts(text)) == 1


@pytest.mark.parametrize("text", [CHAT, "Name: Bob\nEmail: bob@example.org\nWe met on 2026-11-02."])
def test_every_draft_is_valid_for_its_kind(text: str) -> None:
    for d in _drafts(text):
        assert d.kind in KINDS
        if d.attributes:
            KINDS.validate(d.kind, d.attributes)  # raises if a draft breaks its schema
        assert d.content and d.evidence


def test_nothing_to_draft_gives_nothing() -> None:
    assert _drafts("") == []
    assert _drafts("User: hello?\nAssistant: Hi! What can I do?") == []
