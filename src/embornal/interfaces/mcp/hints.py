"""Error hints worded for a model that talks to embornal through MCP tools.

The service writes hints for people at a terminal (``embornal memory cat PATH``,
``--reason 'outdated'``). Through MCP, every hint ends up naming the tool call that
fixes the error:

* a command that a tool does becomes that tool's call;
* a CLI flag becomes the tool argument it stands for (``--mode keyword`` ->
  ``mode="keyword"``);
* a sentence that needs a command only a person can run (tokens, policies, models,
  installs) becomes one request to ask the user, without the command;
* a hint that still names no call (or none at all) gets one: what the error code
  calls for, else an example call of the tool that failed;
* given the tools of the profile in use, a sentence that names a tool it lacks is left
  out, and what the error code calls for is said with the profile's tools.
"""

from __future__ import annotations

import re
from collections.abc import Collection

__all__ = ["TOOL_CALL", "for_model"]

TOOL_CALL = re.compile(r"\b[a-z_]+\(")
"""What a hint must hold: a tool call such as ``recall(query="...")``."""

# CLI commands that an MCP tool does, in the words of that tool.
_AS_TOOLS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        # canon's hints name the tool call and, in brackets, the command (decision 0079)
        (r"(?<=\)) \(`embornal (?:memory restore|canon [a-z]+)[^`]*`\)", ""),
        (r"`embornal memory recall[^`]*`", 'recall(query="...")'),
        (r"`embornal memory cat( PATH)?`", 'cat(path="...")'),
        (r"`embornal memory tree /`", 'tree(path="/")'),
        (r"`embornal memory ls[^`]*`", 'ls(path="...")'),
        (r"`embornal memory show[^`]*`", 'show(id="...")'),
        (r"`embornal memory history[^`]*`", 'history(id_or_path="...")'),
        (r"`embornal memory restore[^`]*`", 'restore(id="...", reason="...")'),
        (r"`embornal memory kinds[^`]*`", "kinds()"),
        (r"`embornal memory find[^`]*`", 'find(kind="...")'),
        (r"`embornal memory update[^`]*`", 'update(id="...", attributes={...})'),
        (r"`embornal memory confirm[^`]*`", 'confirm(id="...")'),
        (r"`embornal memory contradict[^`]*`", 'contradict(id="...", reason="...")'),
        (r"`embornal memory evidence[^`]*`", 'add_evidence(id="...", evidence="quote:...")'),
        (r"`embornal memory undo[^`]*`", 'undo(event_id=..., reason="...")'),
        (r"`embornal memory lifetime[^`]*`", 'set_lifetime(id="...", lifetime="standard")'),
        (r"`embornal memory due[^`]*`", "due()"),
        (r"`embornal conflict list[^`]*`", "conflicts()"),
        (r"`embornal conflict show[^`]*`", 'conflict(conflict_id="...")'),
        (r"`embornal memory links[^`]*`", 'links(id="...")'),
        (r"`embornal memory link [^`]*`", 'link(source="...", relation="about", target="...")'),
        (r"`embornal memory unlink[^`]*`", 'unlink(source="...", relation="...", target="...")'),
        (r"`embornal proposal show[^`]*`", 'proposal(id="...")'),
        (r"`embornal proposal list[^`]*`", "proposals()"),
        # the history protocol's hints name the tool call and, in brackets, the command
        (r" \(`embornal memory (?:promote|unpin|corroborate|due-for-review)[^`]*`\)", ""),
        (r" \(`embornal claim [^`]*`\)", ""),  # the claims ledger's likewise (decision 0081)
    )
)
# A hint that exists for the model in its own words (the service's is for a terminal).
_BY_MESSAGE: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"^recall by meaning needs an embedding model"),
        'No embedding model is set up (only the user can add one): call recall(query="...", '
        'mode="keyword").',
    ),
    (
        re.compile(r"^recall with rerank needs"),
        "No reranker model is set up (only the user can add one: `embornal model pull "
        '--reranker`): call recall(query="...") without rerank.',
    ),
    (
        re.compile(r"^an assistant may not \w+ a proposal"),
        'Only the user decides here: show them the proposal (proposal(id="...")) and ask '
        "them to approve or reject it (`embornal proposal approve ID` on their machine).",
    ),
    (
        re.compile(r"^now must be an ISO-8601 time"),
        'now is when the question is asked, as ISO-8601: recall(query="...", '
        'now="2025-03-01T09:00:00Z"); leave it out for the present.',
    ),
    (
        re.compile(r"^fact \S+ is not forgotten"),
        'It is in recall already: nothing to restore. cat(path="...") shows it.',
    ),
)
_PERSON = re.compile(r"`?(?:embornal [a-z]|pip install)")
_FLAG = re.compile(r"--([a-z][a-z-]*)(?:[ =]'([^']*)'|[ =]([A-Za-z0-9_/.:-]+))?")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_ASK = "No tool does that: ask the user."

# What fixes an error of this code, whatever the tool (with fewer tools, the second).
_BY_CODE_CORE = {
    "access_denied": 'recall(query="...") shows what this subject may read.',
    "not_found": 'recall(query="...") shows what there is.',
    "ambiguous_id": 'recall(query="...") shows whole ids.',
    "unknown_tool": 'Call one of them, e.g. recall(query="...").',
}
_BY_CODE = {
    "access_denied": 'ls(path="/") shows where this subject may read and write.',
    "not_found": 'recall(query="...") or tree(path="/") shows what there is.',
    "not_undoable": 'history(id_or_path="...") shows the events and what undid them.',
    "ambiguous_id": 'recall(query="...") or cat(path="...") shows whole ids.',
    "unknown_tool": 'Call one of them, e.g. tree(path="/").',
    "invalid_kind": "kinds() lists the kinds with their attributes and allowed values.",
    "invalid_attribute": "kinds() lists the kinds with their attributes and allowed values.",
    "invalid_evidence": "Give evidence as TYPE:VALUE, TYPE one of quote, uri, conversation, "
    'document, observation: add_evidence(id="...", evidence="quote:...").',
    "invalid_importance": 'Give a weight from 0 to 1: set_weight(id="...", weight=0.8).',
    "invalid_lifetime": "Give permanent, standard, ephemeral or until:YYYY-MM-DD from today "
    'on: set_lifetime(id="...", lifetime="until:2027-01-31").',
    "invalid_link": "Link in the canonical direction with a relation the source's kind may "
    'emit, e.g. link(source="...", relation="about", target="..."); links(id="...") shows '
    "the links there are.",
    "invalid_merge": 'Merge two active facts of one kind: merge(survivor="...", source="...", '
    'reason="...").',
    "invalid_time": "Give an ISO-8601 time up to now or a relative one, e.g. "
    'recall(query="...", at="2026-11-30T14:00:00Z") or cat(path="...", at="3 days ago").',
}


def _flag(match: re.Match[str]) -> str:
    name = match.group(1).replace("-", "_")
    value = match.group(2) if match.group(2) is not None else match.group(3)
    return f'{name}="{value}"' if value is not None else name


def _offered(text: str, tools: Collection[str] | None) -> bool:
    """Whether every tool ``text`` calls is one of ``tools`` (None: any tool)."""
    return tools is None or all(c[:-1] in tools for c in TOOL_CALL.findall(text))


def for_model(
    hint: str,
    *,
    code: str = "",
    message: str = "",
    example: str = "",
    tools: Collection[str] | None = None,
) -> str:
    """``hint`` for a model: tool calls instead of CLI commands, and always one call.

    ``code`` and ``message`` are the error's; ``example`` is an example call of the
    tool that failed, the last resort; ``tools`` the tools of the profile in use (None:
    every tool), the only ones the hint names.
    """
    for pattern, replacement in _BY_MESSAGE:
        if pattern.search(message) and _offered(replacement, tools):
            return replacement
    for pattern, replacement in _AS_TOOLS:
        hint = pattern.sub(replacement, hint)
    kept: list[str] = []
    for sentence in _SENTENCE.split(hint.strip()) if hint.strip() else []:
        if _PERSON.search(sentence):
            if _ASK not in kept:
                kept.append(_ASK)
            continue
        sentence = _FLAG.sub(_flag, sentence)
        if _offered(sentence, tools):
            kept.append(sentence)
    text = " ".join(kept)
    if not TOOL_CALL.search(text):
        fixes = (_BY_CODE.get(code), _BY_CODE_CORE.get(code))
        fix = next((f for f in fixes if f and _offered(f, tools)), None)
        if fix is None:
            fix = f"Call it like {example}." if example else ""
        text = f"{text} {fix}".strip()
    return text
