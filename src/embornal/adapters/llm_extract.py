"""Drafts of memories from an OpenAI-compatible chat endpoint (Ollama, llama.cpp, vLLM…).

``embornal ingest --extractor llm`` sends the text to ``ingest.base_url``'s
``/v1/chat/completions`` with ``ingest.model`` and a system prompt that asks for one JSON
object::

    {"memories": [{"content": "…", "kind": "fact", "attributes": {…},
                   "mentions": ["Ana Lopez"], "quote": "the exact words of the text"}]}

Every answer is checked before anything is drafted: the JSON shape, each kind against the
registry, each kind's attributes against its schema, and the quote against the text (a
memory must quote words that are really there: what a model invents has no evidence). A
check that fails is sent back to the model with what was wrong, up to ``ingest.attempts``
calls in all; after the last, the memories that passed are kept and the others reported.
Only the drafts reach the caller: the service puts them in a proposal, nothing is stored.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from embornal.adapters.config import IngestConfig
from embornal.adapters.openai_server import Server
from embornal.domain.proposals.ingest import MAX_DRAFT_CHARS, Draft, SourceText, split_turns
from embornal.domain.spine.justification import EvidenceRef, EvidenceType
from embornal.errors import EmbornalError, ExtractorError, ExtractorNotConfigured

__all__ = ["Extraction", "chat_url", "extract_llm"]

#: The chat server, as its messages and settings name it.
_SERVER = Server("the model server", "ingest", ExtractorError)
#: The most of the text one call sends (longer text is refused, not cut silently).
MAX_SOURCE_CHARS = 60_000
#: The most memories one answer may hold.
MAX_MEMORIES = 200


@dataclass(frozen=True)
class Extraction:
    """The drafts, the problems of the answer that was used (memories left out, and why),
    and how many calls it took."""

    drafts: list[Draft]
    problems: list[str]
    attempts: int


def chat_url(base_url: str) -> str:
    """The chat endpoint of a base URL: ``http://h:11434`` and ``http://h:11434/v1`` both
    give ``http://h:11434/v1/chat/completions``; a full endpoint URL is kept."""
    hint = "Set ingest.base_url in config.yaml, e.g. http://127.0.0.1:11434/v1."
    return _SERVER.endpoint(base_url, "/chat/completions", hint)


def _system_prompt(kinds: dict[str, list[str]], now: datetime) -> str:
    listed = "; ".join(f"{k} ({', '.join(v) or 'no attributes'})" for k, v in kinds.items())
    return (
        "You read a conversation or a note and list the durable facts worth remembering "
        "about the user's world: people, projects, preferences, events, decisions, contacts. "
        "Skip greetings, questions and what the assistant says. Answer with ONE JSON object "
        'and nothing else: {"memories": [{"content": string, "kind": string, '
        '"attributes": object, "mentions": [string], "quote": string}]}. '
        "content: one short self-contained sentence. kind: one of " + listed + ". "
        "attributes: only that kind's attributes, dates as ISO 8601. mentions: names of "
        "people, organizations and places it mentions. quote: the exact words of the text "
        f"the memory comes from, copied character for character. Today is {now.date()}."
    )


def extract_llm(source: SourceText, now: datetime, config: IngestConfig) -> Extraction:
    """Drafts from the model at ``config.base_url`` (see the module)."""
    if not config.base_url or not config.model:
        raise ExtractorNotConfigured(
            "the llm extractor needs ingest.base_url and ingest.model in config.yaml",
            hint="Set them (e.g. base_url: http://127.0.0.1:11434/v1, model: llama3.1), "
            "or use --extractor rules.",
        )
    if len(source.text) > MAX_SOURCE_CHARS:
        raise ExtractorError(
            f"{source.name} has {len(source.text):,} characters; the llm extractor takes at "
            f"most {MAX_SOURCE_CHARS:,} at once",
            hint="Split the text into parts and ingest each, or use --extractor rules.",
        )
    from embornal.domain.kinds.registry import KINDS

    kinds = {k: list(KINDS.entry(k).field_names) for k in KINDS.kinds()}
    _, talk = split_turns(source.text)
    messages: list[dict[str, str]] = [
        {"role": "system", "content": _system_prompt(kinds, now)},
        {"role": "user", "content": source.text},
    ]
    url = chat_url(config.base_url)
    problems: list[str] = []
    drafts: list[Draft] = []
    for attempt in range(1, config.attempts + 1):
        answer = _ask(url, config, messages)
        drafts, problems = _check(answer, source, talk)
        if not problems:
            return Extraction(drafts, [], attempt)
        messages += [
            {"role": "assistant", "content": answer},
            {
                "role": "user",
                "content": "Your answer was not valid: "
                + "; ".join(problems[:10])
                + ". Answer again with the whole corrected JSON object only.",
            },
        ]
    if not drafts:
        raise ExtractorError(
            f"the model at {url} gave no valid answer in {config.attempts} attempts: "
            + "; ".join(problems[:3]),
            hint="Try a stronger model (ingest.model), more attempts (ingest.attempts), "
            "or --extractor rules.",
        )
    return Extraction(drafts, problems, config.attempts)


def _refused(error: object) -> tuple[str, str]:
    """Nothing after an HTTP error's status, and the hint."""
    return "", "Check ingest.base_url, ingest.model and the key in ingest.api_key_env."


def _ask(url: str, config: IngestConfig, messages: list[dict[str, str]]) -> str:
    body = {
        "model": config.model,
        "messages": messages,
        "temperature": 0,
        "response_format": {"type": "json_object"},
    }
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if config.api_key_env:
        hint = f"Export {config.api_key_env}, or remove ingest.api_key_env."
        key = _SERVER.api_key(config.api_key_env, hint)
        headers["Authorization"] = f"Bearer {key}"
    raw = _SERVER.post_json(url, body, headers, config.timeout_s, _refused, limit=4 * 2**20 + 1)
    if len(raw) > 4 * 2**20:
        raise ExtractorError(f"the model server {url} sent more than 4 MB", hint="Check it.")
    try:
        content = json.loads(raw)["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as e:
        raise ExtractorError(
            f"the model server {url} sent an answer that is not a chat completion",
            hint="Check that ingest.base_url is an OpenAI-compatible API.",
        ) from e
    if not isinstance(content, str):
        raise ExtractorError(f"the model server {url} sent no text", hint="Check the model.")
    return content


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)


def _check(answer: str, source: SourceText, talk: bool) -> tuple[list[Draft], list[str]]:
    """The drafts of a model's answer and what was wrong with it (nothing: it is valid)."""
    from embornal.domain.kinds.registry import KINDS

    fenced = _FENCE.match(answer)
    try:
        payload = json.loads(fenced.group(1) if fenced else answer)
    except json.JSONDecodeError as e:
        return [], [f"it is not JSON ({e.msg} at character {e.pos})"]
    items = payload.get("memories") if isinstance(payload, dict) else None
    if not isinstance(items, list):
        return [], ['it has no list "memories"']
    if len(items) > MAX_MEMORIES:
        return [], [f"it has {len(items)} memories; at most {MAX_MEMORIES}"]
    flat = " ".join(source.text.split())
    kind_of = EvidenceType.CONVERSATION if talk else EvidenceType.DOCUMENT
    drafts: list[Draft] = []
    problems: list[str] = []
    for n, item in enumerate(items, start=1):
        try:
            drafts.append(_item(item, n, flat, source, kind_of, KINDS))
        except _Bad as e:
            problems.append(f"memory {n}: {e}")
        except EmbornalError as e:
            problems.append(f"memory {n}: {e.message}")
    return drafts, problems


class _Bad(Exception):
    pass


def _item(
    item: object, n: int, flat: str, source: SourceText, kind_of: EvidenceType, kinds: Any
) -> Draft:
    if not isinstance(item, dict):
        raise _Bad("is not an object")
    content, kind = item.get("content"), item.get("kind", "fact")
    if not isinstance(content, str) or not content.strip():
        raise _Bad('"content" must be a non-empty string')
    if not isinstance(kind, str) or kind not in kinds.kinds():
        raise _Bad(f'"kind" {kind!r} is not one of {", ".join(kinds.kinds())}')
    attributes = item.get("attributes") or {}
    if not isinstance(attributes, dict):
        raise _Bad('"attributes" must be an object')
    if kind == "fact":
        attributes = {}  # its statement is its content
    elif attributes:
        kinds.validate(kind, attributes)  # raises InvalidAttribute, naming the field
    quote = item.get("quote")
    if not isinstance(quote, str) or not quote.strip():
        raise _Bad('"quote" must be the exact words of the text it comes from')
    quote = " ".join(quote.split())
    if quote not in flat:
        raise _Bad(f'"quote" {quote[:60]!r} is not in the text')
    mentions = item.get("mentions") or []
    if not isinstance(mentions, list) or not all(isinstance(m, str) for m in mentions):
        raise _Bad('"mentions" must be a list of names')
    line = _line_of(source.text, quote)
    proof = EvidenceRef(kind_of, quote[:MAX_DRAFT_CHARS], f"line {line} of {source.name}")
    names = tuple(dict.fromkeys(m.strip() for m in mentions if m.strip()))[:20]
    return Draft(content.strip()[:MAX_DRAFT_CHARS], kind, attributes, (proof,), names, line, "llm")


def _line_of(text: str, quote: str) -> int:
    first = quote.split()[0] if quote.split() else quote
    at = text.find(first)
    return text.count("\n", 0, at) + 1 if at >= 0 else 0
