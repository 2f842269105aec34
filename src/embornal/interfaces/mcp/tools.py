"""The MCP tools: thin wrappers over :class:`embornal.Memory`, written for the model.

Argument names drift from model to model, so each argument accepts a few
aliases (pydantic ``validation_alias``): the input schema shows the canonical
name only, and an alias is taken when the canonical name is absent.

``from __future__ import annotations`` is safe here: the SDK reads signatures
with ``inspect.signature(eval_str=True)`` against this module's globals, so
every name used in a tool annotation is imported at module level (not under
``TYPE_CHECKING``).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import anyio.to_thread
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import AliasChoices, BaseModel, BeforeValidator, Field

from embornal.domain.bounds import MAX_LIMIT
from embornal.errors import EmbornalError, InvalidTag
from embornal.interfaces.mcp.hints import for_model
from embornal.interfaces.mcp.results import (
    CatOut,
    EventOut,
    FactOut,
    HistoryOut,
    HitOut,
    LsOut,
    RecallOut,
    ShowOut,
    StateOut,
    SupersedeOut,
    TreeOut,
    ViewOut,
    error_result,
    ok_result,
)
from embornal.service.memory import Memory

__all__ = [
    "CORE_TOOLS",
    "EXAMPLES",
    "FULL_TOOLS",
    "MemorySource",
    "Runner",
    "ToolSpec",
    "tags_arg",
    "tool_specs",
]

log = logging.getLogger("embornal.mcp")

CORE_TOOLS = ("store", "recall", "ls", "tree", "cat", "forget", "restore")
FULL_TOOLS = (*CORE_TOOLS, "show", "history", "supersede")

EXAMPLE_ID = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"

EXAMPLES = {
    "store": 'store(path="/projects/x", content="The build uses uv.")',
    "recall": 'recall(query="build tool", limit=5)',
    "ls": 'ls(path="/")',
    "tree": 'tree(path="/")',
    "cat": 'cat(path="/memory")',
    "forget": f'forget(id="{EXAMPLE_ID}", reason="outdated")',
    "restore": f'restore(id="{EXAMPLE_ID}", reason="forgotten by mistake")',
    "show": f'show(id="{EXAMPLE_ID}")',
    "history": 'history(id_or_path="/projects/x")',
    "supersede": f'supersede(id="{EXAMPLE_ID}", content="The build uses Poetry.")',
}
"""One example call per tool: the hint of an error that names no better call."""

# -- arguments (canonical name first; the rest are accepted aliases) ------------------------


def _arg(description: str, *names: str) -> Any:
    return Field(description=description, validation_alias=AliasChoices(*names))


def _not_bool(value: object) -> object:
    """JSON ``true`` is not the number 1 (pydantic's int would take it as one)."""
    if isinstance(value, bool):
        raise ValueError("must be a whole number, not true or false")
    return value


TopicPath = Annotated[
    str, _arg("A topic path such as /projects/embornal (lowercase).", "path", "topic")
]
Content = Annotated[
    str, _arg("One short statement to remember.", "content", "text", "fact", "memory")
]
TagInput = list[str] | dict[str, str | int | float | bool] | str | None
TagsArg = Annotated[
    TagInput,
    _arg(
        'Optional tags: ["k=v", ...] or {"k": "v"}. The owner tag is set by the memory.',
        "tags",
        "tag",
    ),
]
Query = Annotated[
    str | None,
    _arg(
        "Words or a question to look for. Leave out to get the strongest facts.",
        "query",
        "q",
        "search",
        "text",
    ),
]
Limit = Annotated[
    Annotated[int, Field(ge=1, le=MAX_LIMIT)] | None,
    BeforeValidator(_not_bool),
    _arg("How many hits at most (default 10).", "limit", "top_k", "max_results"),
]
Mode = Annotated[
    Literal["auto", "keyword", "vector", "hybrid"] | None,
    _arg(
        "auto (default: meaning and keywords when a model is set up, else keywords), "
        "keyword, vector (meaning only) or hybrid.",
        "mode",
        "search_mode",
    ),
]
Under = Annotated[
    str | None, _arg("Only search below this path, e.g. /projects.", "under", "path", "topic")
]
FactId = Annotated[
    str,
    _arg("The fact id from recall or cat (a unique prefix works).", "id", "fact_id", "memory_id"),
]
Reason = Annotated[str, _arg("Why; kept in the history.", "reason")]
OptionalReason = Annotated[str | None, _arg("Why; kept in the history.", "reason")]
Target = Annotated[
    str,
    _arg(
        "A fact id, or a path starting with / for every fact on that path.",
        "id_or_path",
        "id",
        "fact_id",
        "memory_id",
        "path",
        "topic",
    ),
]


def tags_arg(raw: TagInput) -> list[str] | dict[str, str] | None:
    """Normalize the accepted tag shapes to what ``Memory.store`` takes."""
    if raw is None:
        return None
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith(("[", "{")):  # a JSON-encoded list or object under an alias
            try:
                decoded = json.loads(text)
            except ValueError as e:
                raise InvalidTag(f"tags {raw!r} are not valid JSON") from e
            if isinstance(decoded, list) and all(isinstance(t, str) for t in decoded):
                return [str(t) for t in decoded]
            if isinstance(decoded, dict):
                return tags_arg({str(k): v for k, v in decoded.items()})
            raise InvalidTag(f"tags {raw!r} are neither a list of k=v nor an object")
        return [t.strip() for t in text.split(",") if t.strip()]
    if isinstance(raw, Mapping):
        return {k: _tag_value(v) for k, v in raw.items()}
    return list(raw)


def _tag_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    raise InvalidTag(f"tag value {value!r} is not text")


# -- running a call -------------------------------------------------------------------------


MemorySource = Memory | Callable[[], Memory]
"""A memory, or a provider that gives the memory of the current request (``serve``)."""


class Runner:
    """Runs service calls on a worker thread; turns errors into results.

    With a :class:`Memory`, calls run one at a time (one lock); the event loop stays
    free to read the transport (pings, cancellations) while a call runs. With a
    provider (``embornal serve``: the memory as the subject of the HTTP request that
    carried the call), the provider is asked on each call, in the caller's context,
    and calls run concurrently: the store is thread-safe.
    """

    def __init__(self, memory: MemorySource) -> None:
        if isinstance(memory, Memory):
            fixed = memory
            self._provider: Callable[[], Memory] = lambda: fixed
            self._lock: threading.Lock | None = threading.Lock()
        else:
            self._provider = memory
            self._lock = None

    def _locked(self, memory: Memory, op: Callable[[Memory], BaseModel]) -> BaseModel:
        if self._lock is None:
            return op(memory)
        with self._lock:
            return op(memory)

    async def __call__(self, tool: str, op: Callable[[Memory], BaseModel]) -> CallToolResult:
        try:
            out = await anyio.to_thread.run_sync(self._locked, self._provider(), op)
        except EmbornalError as e:
            hint = for_model(e.hint, code=e.code, message=e.message, example=EXAMPLES[tool])
            return error_result(e.code, e.message, hint)
        except Exception as e:
            log.exception("embornal MCP tool %s failed unexpectedly", tool)
            return error_result(
                "internal_error",
                f"{tool} failed unexpectedly ({type(e).__name__})",
                "This is a bug in embornal; the server log has the traceback. "
                "Retrying will not help.",
            )
        return ok_result(out)


# -- the tools ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    fn: Callable[..., Any]
    annotations: ToolAnnotations
    example: str


def _spec(
    fn: Callable[..., Any],
    title: str,
    *,
    read_only: bool = False,
    destructive: bool = False,
) -> ToolSpec:
    """Writers are not idempotent (a second forget is a conflict). ``idempotentHint``
    means nothing on a read-only tool (MCP spec), so readers leave it out; recall counts
    as read-only although each hit reinforces the fact's strength."""
    if read_only:
        hints = ToolAnnotations(title=title, read_only_hint=True, open_world_hint=False)
    else:
        hints = ToolAnnotations(
            title=title,
            read_only_hint=False,
            destructive_hint=destructive,
            idempotent_hint=False,
            open_world_hint=False,
        )
    return ToolSpec(fn.__name__, title, fn, hints, EXAMPLES[fn.__name__])


def tool_specs(run: Runner) -> dict[str, ToolSpec]:
    """Every tool, by name (the profile picks which are served)."""

    async def store(
        path: TopicPath, content: Content, tags: TagsArg = None
    ) -> Annotated[CallToolResult, FactOut]:
        """Save one small fact to long-term memory, on a topic path.

        Call it as soon as you learn something worth keeping: a decision, a preference,
        a name, a command. One statement per call; many small facts beat one long note.
        Check ls/tree first so related facts share a path.
        Returns the stored fact: id, path, content, created_at, tags.
        Example: store(path="/projects/embornal", content="The build uses uv.",
        tags=["status=decided"])
        """
        return await run("store", lambda m: FactOut.of(m.store(path, content, tags=tags_arg(tags))))

    async def recall(
        query: Query = None, limit: Limit = None, under: Under = None, mode: Mode = None
    ) -> Annotated[CallToolResult, RecallOut]:
        """Search long-term memory by keywords and by meaning; with no query, get the
        strongest facts.

        Call it before answering anything that may depend on earlier work, decisions or
        preferences; a plain question works as the query. Each hit counts as a recall and
        makes that fact stronger.
        Returns hits, best first: id, path, content, score, strength, created_at, tags.
        Example: recall(query="which build tool did we pick?", under="/projects", limit=5)
        """

        def op(m: Memory) -> RecallOut:
            hits = [
                HitOut.of_hit(h)
                for h in m.recall(query, limit=limit, under=under, mode=mode or "auto")
            ]
            hint = None
            if not hits:
                hint = "Nothing matched: try other or fewer words, a wider 'under', or no query."
            return RecallOut(hits=hits, hint=hint)

        return await run("recall", op)

    async def ls(path: TopicPath = "/") -> Annotated[CallToolResult, LsOut]:
        """List the topics one level below a path, with their fact and sub-topic counts.

        Call it to find where facts live before you cat or store.
        Returns entries: path, facts (on that path), children (topics below it).
        Example: ls(path="/projects")
        """
        return await run("ls", lambda m: LsOut.of(m.ls(path)))

    async def tree(path: TopicPath = "/") -> Annotated[CallToolResult, TreeOut]:
        """Show every topic below a path, depth-first, with each topic's own fact count.

        Call it once for an overview of what the memory holds.
        Returns nodes: path, facts.
        Example: tree(path="/")
        """
        return await run("tree", lambda m: TreeOut.of(m.tree(path)))

    async def cat(path: TopicPath) -> Annotated[CallToolResult, CatOut]:
        """Read every current fact of one topic path, oldest first.

        Reading with cat does not count as a recall. cat(path="/memory") explains the memory.
        Returns facts: id, path, content, strength, created_at, tags.
        Example: cat(path="/projects/embornal")
        """

        def op(m: Memory) -> CatOut:
            views = m.cat(path)
            return CatOut(facts=[ViewOut.of_view(v) for v in views])

        return await run("cat", op)

    async def forget(fact_id: FactId, reason: Reason) -> Annotated[CallToolResult, StateOut]:
        """Take a wrong or outdated fact out of recall; it stays in the history, restorable.

        Give the fact id (from recall or cat) and why.
        Returns the fact with state "forgotten".
        Example: forget(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="We moved to Poetry.")
        """
        return await run("forget", lambda m: StateOut.of(m.forget(fact_id, reason=reason)))

    async def restore(fact_id: FactId, reason: Reason) -> Annotated[CallToolResult, StateOut]:
        """Bring a forgotten fact back into recall. Give its id and why.

        Returns the fact with state "active".
        Example: restore(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="Forgotten by mistake.")
        """
        return await run("restore", lambda m: StateOut.of(m.restore(fact_id, reason=reason)))

    async def show(fact_id: FactId) -> Annotated[CallToolResult, ShowOut]:
        """Show one fact in full: state, owner, strength, recalls, links, tags, events.

        Call it to check where a fact came from or whether it was corrected.
        Example: show(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1")
        """
        return await run("show", lambda m: ShowOut.of_detail(m.show(fact_id)))

    async def history(id_or_path: Target) -> Annotated[CallToolResult, HistoryOut]:
        """List the events of a fact (with its corrections) or of every fact on a path.

        Oldest first; each event has its time, type, actor and reason.
        Example: history(id_or_path="/projects/embornal")
        """
        return await run(
            "history",
            lambda m: HistoryOut(
                target=id_or_path, events=[EventOut.of(e) for e in m.history(id_or_path)]
            ),
        )

    async def supersede(
        fact_id: FactId, content: Content, reason: OptionalReason = None
    ) -> Annotated[CallToolResult, SupersedeOut]:
        """Correct a fact: store new content that replaces it; the old one stays in history.

        Prefer this over forget + store when a fact changed. Tags carry over.
        Returns the new fact and supersedes_id (the old fact's id).
        Example: supersede(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", content="The build uses Poetry.",
        reason="Migrated in March.")
        """

        def op(m: Memory) -> SupersedeOut:
            new = m.supersede(fact_id, content, reason=reason)
            assert new.supersedes_id is not None
            return SupersedeOut(**FactOut.of(new).model_dump(), supersedes_id=new.supersedes_id)

        return await run("supersede", op)

    specs = [
        _spec(store, "Store a fact"),
        _spec(recall, "Recall facts", read_only=True),
        _spec(ls, "List topics", read_only=True),
        _spec(tree, "Topic tree", read_only=True),
        _spec(cat, "Read a topic", read_only=True),
        _spec(forget, "Forget a fact", destructive=True),
        _spec(restore, "Restore a fact"),
        _spec(show, "Show a fact", read_only=True),
        _spec(history, "Fact history", read_only=True),
        _spec(supersede, "Correct a fact", destructive=True),
    ]
    return {s.name: s for s in specs}
