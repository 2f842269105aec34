"""The conversation exports of ChatGPT and Claude (decision 0145).

ChatGPT's ``conversations.json`` (Settings, Data controls, Export): a list of
conversations, each with ``title``, ``create_time`` (seconds since 1970) and ``mapping``,
the tree of its messages by node id (``message`` (or null), ``parent``, ``children``);
each message has ``author.role`` (``user``, ``assistant``, ``system``, ``tool``),
``content`` (``parts``: texts and attachments; or ``text``) and ``create_time``. The
conversation is read along the branch the app shows (from ``current_node`` up to the
root; without it, every message by time).

Claude's ``conversations.json`` (Settings, Privacy, Export data): a list of conversations,
each with ``uuid``, ``name``, ``created_at`` and ``chat_messages``, each message with
``sender`` (``human`` or ``assistant``), ``text`` and/or ``content`` (blocks; those of
``type`` ``text`` hold the text) and ``created_at``.

Only the user's and the assistant's text is kept (system and tool messages, hidden
messages, attachments and images are left out). The file is read and checked whole
first: a file of another shape stops with the conversation (and message) it names, and
nothing is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from embornal.adapters.importers.common import read_json, text_of
from embornal.domain.clock import format_time
from embornal.domain.portability.conversations import ChatTurn, Conversation
from embornal.domain.portability.import_mapping import refuse, whole_text

__all__ = ["FORMATS", "MAX_BYTES", "read_conversations"]

FORMATS = ("chatgpt", "claude")
MAX_BYTES = 512 * 1024 * 1024
Progress = Callable[[int, int], None]


def _load(source: str, fmt: str) -> list[Any]:
    what = f"the conversations.json of a {fmt} export"
    path, data = read_json(source, what=what, max_bytes=MAX_BYTES)
    if isinstance(data, dict) and isinstance(data.get("conversations"), list):
        data = data["conversations"]
    if not isinstance(data, list):
        raise refuse(str(path), f"a {fmt} export is a list of conversations, not {_type(data)}")
    return data


def _type(value: object) -> str:
    if isinstance(value, dict):
        return "an object"
    return "a text" if isinstance(value, str) else text_of(value, 40)


def _text(obj: dict[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise refuse(where, f"{key!r} must be text, not {text_of(value, 60)}")
    return value


def _epoch(value: object, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise refuse(where, f"a create_time is seconds since 1970, not {text_of(value, 40)}")
    try:
        return format_time(datetime.fromtimestamp(value, UTC), micro=False)
    except (OverflowError, OSError, ValueError):
        raise refuse(where, f"the create_time {value!r} is out of range") from None


# -- ChatGPT --------------------------------------------------------------------------------


def _chatgpt_text(content: object, where: str) -> str:
    if content is None:
        return ""
    if not isinstance(content, dict):
        raise refuse(where, "a message's 'content' must be an object")
    parts = content.get("parts")
    if parts is None:
        return _text(content, "text", where) or ""
    if not isinstance(parts, list):
        raise refuse(where, "a message's 'content.parts' must be a list")
    return "\n".join(p for p in parts if isinstance(p, str))  # attachments are objects


def _chatgpt_turn(node: object, where: str) -> tuple[float, ChatTurn] | None:
    if not isinstance(node, dict):
        raise refuse(where, "a node of 'mapping' must be an object")
    message = node.get("message")
    if message is None:
        return None
    if not isinstance(message, dict):
        raise refuse(where, "a node's 'message' must be an object or null")
    author = message.get("author")
    if not isinstance(author, dict) or not isinstance(author.get("role"), str):
        raise refuse(where, "a message needs 'author.role'")
    role = author["role"]
    metadata = message.get("metadata")
    hidden = isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation")
    text = _chatgpt_text(message.get("content"), where).strip()
    when = message.get("create_time")
    at = _epoch(when, where)
    if role not in ("user", "assistant") or hidden or not text:
        return None
    return (float(when) if at is not None else 0.0), ChatTurn(role, text, at)  # type: ignore[arg-type]


def _branch(mapping: dict[str, Any], current: object, where: str) -> list[str]:
    """The node ids from the root down to ``current`` (the branch the app shows)."""
    ids: list[str] = []
    seen: set[str] = set()
    node_id = current
    while isinstance(node_id, str):
        if node_id in seen:
            raise refuse(where, "the 'parent' links of 'mapping' make a loop")
        if node_id not in mapping:
            raise refuse(where, f"'mapping' has no node {text_of(node_id, 60)}")
        seen.add(node_id)
        ids.append(node_id)
        node = mapping[node_id]
        node_id = node.get("parent") if isinstance(node, dict) else None
    return ids[::-1]


def _chatgpt(obj: object, where: str) -> Conversation:
    if not isinstance(obj, dict):
        raise refuse(where, "a conversation is an object with 'mapping'")
    title = _text(obj, "title", where) or ""
    named = f"{where} ({text_of(title, 60)})" if title else where
    mapping = obj.get("mapping")
    if not isinstance(mapping, dict):
        other = " (this looks like Claude's: `embornal import claude`)" * ("chat_messages" in obj)
        raise refuse(named, f"a ChatGPT conversation needs 'mapping', an object{other}")
    current = obj.get("current_node")
    order = _branch(mapping, current, named) if current is not None else list(mapping)
    found = []
    for node_id in order:
        turn = _chatgpt_turn(mapping[node_id], f"{named}, message {text_of(node_id, 60)}")
        if turn is not None:
            found.append(turn)
    if current is None:
        found.sort(key=lambda t: t[0])
    return Conversation(
        title, _epoch(obj.get("create_time"), named), tuple(t for _, t in found), named
    )


# -- Claude ---------------------------------------------------------------------------------


def _claude_text(message: dict[str, Any], where: str) -> str:
    content = message.get("content")
    if content is not None:
        if not isinstance(content, list):
            raise refuse(where, "a message's 'content' must be a list of blocks")
        texts = [
            b["text"]
            for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        ]
        if texts:
            return "\n".join(texts)
    return _text(message, "text", where) or ""


def _claude(obj: object, where: str) -> Conversation:
    if not isinstance(obj, dict):
        raise refuse(where, "a conversation is an object with 'chat_messages'")
    title = _text(obj, "name", where) or ""
    named = f"{where} ({text_of(title, 60)})" if title else where
    messages = obj.get("chat_messages")
    if not isinstance(messages, list):
        other = " (this looks like ChatGPT's: `embornal import chatgpt`)" * ("mapping" in obj)
        raise refuse(named, f"a Claude conversation needs 'chat_messages', a list{other}")
    turns = []
    for n, message in enumerate(messages, 1):
        at = f"{named}, message {n}"
        if not isinstance(message, dict):
            raise refuse(at, "a message is an object with 'sender' and 'text'")
        sender = message.get("sender")
        if sender not in ("human", "assistant"):
            raise refuse(at, f"'sender' must be human or assistant, not {text_of(sender, 40)}")
        text = _claude_text(message, at).strip()
        if text:
            role = "user" if sender == "human" else "assistant"
            turns.append(ChatTurn(role, text, _text(message, "created_at", at)))
    return Conversation(title, _text(obj, "created_at", named), tuple(turns), named)


def read_conversations(
    fmt: str, source: str, progress: Progress | None = None
) -> tuple[Conversation, ...]:
    """Every conversation of the export ``source`` in ``fmt`` (chatgpt or claude), checked."""
    if fmt not in FORMATS:
        raise refuse("the format", f"the formats are {', '.join(FORMATS)}, not {fmt!r}")
    data = _load(source, fmt)
    read = _chatgpt if fmt == "chatgpt" else _claude
    out = []
    for n, obj in enumerate(data, 1):
        where = f"conversation {n}"
        whole_text(obj, where)
        out.append(read(obj, where))
        if progress is not None:
            progress(n, len(data))
    return tuple(out)
