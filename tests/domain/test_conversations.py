"""Conversations as ingest's transcripts: speakers, parts cut at turns, the source label."""

from __future__ import annotations

from embornal.domain.portability.conversations import ChatTurn, Conversation, label_of, transcripts


def _conversation(*turns: ChatTurn, title: str = "t", at: str | None = None) -> Conversation:
    return Conversation(title, at, turns, "conversation 1")


def test_each_line_of_a_turn_is_said_by_its_speaker() -> None:
    c = _conversation(
        ChatTurn("user", "I live in Porto.\n\n  My cat is Mia. "), ChatTurn("assistant", "Nice.")
    )
    assert transcripts(c) == ["User: I live in Porto.\nUser: My cat is Mia.\nAssistant: Nice."]


def test_a_long_conversation_is_cut_at_turns_and_no_part_is_too_long() -> None:
    turns = [ChatTurn("user", f"turn {n} " + "x" * 80) for n in range(10)]
    parts = transcripts(_conversation(*turns), part_chars=300)
    assert all(len(p) <= 300 for p in parts)
    assert [p.count("User: ") for p in parts] == [3, 3, 3, 1]
    assert "\n".join(parts).count("User: turn") == 10


def test_a_turn_longer_than_a_part_is_cut_at_its_lines() -> None:
    long = "\n".join("y" * 50 for _ in range(8))
    parts = transcripts(_conversation(ChatTurn("user", long)), part_chars=200)
    assert all(len(p) <= 200 for p in parts) and sum(p.count("User: ") for p in parts) == 8


def test_no_text_no_transcript() -> None:
    assert transcripts(_conversation()) == []


def test_the_label_is_the_title_and_the_day() -> None:
    assert label_of(_conversation(title="Trip  to\nLisbon", at="2024-05-01T08:00:00Z")) == (
        "Trip to Lisbon (2024-05-01)"
    )
    assert label_of(_conversation(title="")) == "untitled"
    assert len(label_of(_conversation(title="z" * 500, at="2024-05-01"))) <= 200
