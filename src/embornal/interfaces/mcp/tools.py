"""The MCP tools: the profiled operations of the catalogue
(:mod:`embornal.interfaces.catalog`) over :class:`embornal.Memory`, written for the model.

Each tool is made from its catalogue record: name, title, description, annotations,
example, and an argument per MCP input (its type, description and aliases).

Argument names drift from model to model, so each argument accepts a few
aliases (pydantic ``validation_alias``): the input schema shows the canonical
name only, and an alias is taken when the canonical name is absent.

Each tool function carries its signature as ``__signature__`` (annotations are
objects, not strings): the SDK's ``inspect.signature`` reads it as written.
"""

from __future__ import annotations

import inspect
import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import anyio.to_thread
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import AliasChoices, BaseModel, BeforeValidator, Field, RootModel, create_model

from embornal.domain.events import ActorKind
from embornal.errors import EmbornalError, InvalidAttribute, InvalidInput, InvalidTag
from embornal.interfaces import capabilities
from embornal.interfaces.catalog import Input, Operation, by_name, mcp_tools, whole
from embornal.interfaces.catalog_types import check_inputs, replace, resolve_call
from embornal.interfaces.claims.mcp_out import EvidenceOut
from embornal.interfaces.mcp.compat import anchor_standing
from embornal.interfaces.mcp.hints import for_model
from embornal.interfaces.mcp.results import (
    CatOut,
    EventOut,
    FactOut,
    FindOut,
    HistoryOut,
    HitOut,
    KindsOut,
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
    "as_assistant",
    "attributes_arg",
    "items_arg",
    "replacements_arg",
    "tags_arg",
    "tool_specs",
    "where_arg",
]

log = logging.getLogger("embornal.mcp")

CORE_TOOLS = tuple(op.name for op in mcp_tools("core"))
FULL_TOOLS = tuple(op.name for op in mcp_tools("full"))

EXAMPLES = {op.name: op.example for op in mcp_tools("full")}
"""One example call per tool: the hint of an error that names no better call."""

# -- arguments (canonical name first; the rest are accepted aliases) ------------------------


def _arg(description: str, *names: str) -> Any:
    return Field(description=description, validation_alias=AliasChoices(*names))


def _not_bool(value: object) -> object:
    """JSON ``true`` is not the number 1 (pydantic's int would take it as one)."""
    if isinstance(value, bool):
        raise ValueError("must be a whole number, not true or false")
    return value


TagInput = list[str] | dict[str, str | int | float | bool] | str | None
AttributesInput = dict[str, Any] | str | None
WhereInput = list[str] | dict[str, str | int | float | bool] | str | None


def attributes_arg(raw: AttributesInput) -> dict[str, Any] | None:
    """An attributes object, or one encoded as a JSON string (some models send that)."""
    if raw is None or isinstance(raw, dict):
        return raw
    try:
        decoded = json.loads(raw)
    except ValueError as e:
        raise InvalidAttribute(
            f"attributes {raw[:60]!r} are not a JSON object",
            hint='Give an object such as {"status": "active"}; kinds() lists the fields.',
        ) from e
    if not isinstance(decoded, dict):
        raise InvalidAttribute(
            "attributes must be an object of name: value",
            hint='Give an object such as {"status": "active"}; kinds() lists the fields.',
        )
    return decoded


ItemsInput = list[dict[str, Any]] | str


def items_arg(raw: ItemsInput) -> list[dict[str, Any]]:
    """A proposal's items: a list of objects, or one encoded as a JSON string."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError as e:
            raise InvalidInput(
                "items are not valid JSON",
                hint='Give a list such as [{"type": "create", "path": "/n", "content": "..."}].',
            ) from e
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list):
        raise InvalidInput("items must be a list of objects, each with a 'type'")
    return raw


ReplaceInput = dict[str, Any] | list[dict[str, Any]] | str | None


def replacements_arg(raw: ReplaceInput) -> dict[str, Any]:
    """Items replaced in place by number: ``{"2": item}``, one encoded as a JSON string,
    or a list of items each with its ``number``."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError as e:
            raise InvalidInput("replace is not valid JSON", hint=_REPLACE_HINT) from e
    if isinstance(raw, list):
        if not all(isinstance(i, Mapping) and "number" in i for i in raw):
            raise InvalidInput("each item of a replace list needs its number", hint=_REPLACE_HINT)
        raw = {str(i["number"]): {k: v for k, v in i.items() if k != "number"} for i in raw}
    if not isinstance(raw, Mapping):
        raise InvalidInput("replace is an object of item number: item", hint=_REPLACE_HINT)
    return dict(raw)


_REPLACE_HINT = 'Give an object such as {"2": {"type": "create", "path": "/n", "content": "..."}}.'


def where_arg(raw: WhereInput) -> list[str] | dict[str, str]:
    """``find``'s conditions: a list of ``k=v``, an object, or ``"k=v, k2=v2"``."""
    if raw is None:
        return []
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith(("[", "{")):
            try:
                decoded = json.loads(text)
            except ValueError as e:
                raise InvalidAttribute(f"where {raw[:60]!r} is not valid JSON") from e
            if isinstance(decoded, list | dict):
                return where_arg(decoded)
        return [t.strip() for t in text.split(",") if t.strip()]
    if isinstance(raw, Mapping):
        return {str(k): _tag_value(v) for k, v in raw.items()}
    return [str(t) for t in raw]


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


def as_assistant(memory: Memory) -> Memory:
    """The memory as its subject sees it when acting as an assistant: every MCP caller is
    one, so a private fact never reaches a tool (decision 0038)."""
    if memory.actor_kind is ActorKind.ASSISTANT:
        return memory
    return memory.as_subject(memory.subject, ActorKind.ASSISTANT)


class Runner:
    """Runs service calls on a worker thread; turns errors into results. The memory is
    always read and written as an assistant (:func:`as_assistant`).

    With a :class:`Memory`, calls run one at a time (one lock); the event loop stays
    free to read the transport (pings, cancellations) while a call runs. With a
    provider (``embornal serve``: the memory as the subject of the HTTP request that
    carried the call), the provider is asked on each call, in the caller's context,
    and calls run concurrently: the store is thread-safe.
    """

    def __init__(self, memory: MemorySource) -> None:
        self.tools: tuple[str, ...] = FULL_TOOLS  # the profile's (tool_specs sets them)
        # the code a refusal is answered with (a compatibility mode may answer another)
        self.code_of: Callable[[EmbornalError], str] = lambda e: e.code
        if isinstance(memory, Memory):
            fixed = as_assistant(memory)
            self._provider: Callable[[], Memory] = lambda: fixed
            self._lock: threading.Lock | None = threading.Lock()
        else:
            source = memory
            self._provider = lambda: as_assistant(source())
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
            hint = for_model(
                e.hint, code=e.code, message=e.message, example=EXAMPLES[tool], tools=self.tools
            )
            return error_result(self.code_of(e), e.message, hint)
        except Exception as e:  # broad: the boundary answers any bug as internal_error
            log.exception("embornal MCP tool %s failed unexpectedly", tool)
            return error_result(
                "internal_error",
                f"{tool} failed unexpectedly ({type(e).__name__})",
                "This is a bug in embornal; the server log has the traceback. "
                "Retrying will not help.",
            )
        return ok_result(out)


# -- the tools: the catalogue's profiled operations --------------------------------------


@dataclass(frozen=True)
class ToolSpec:
    """A tool: its function, and the argument names it takes (``params``: the schema's,
    in order; ``accepts``: those and their aliases; ``text``: those whose value is text,
    kept as given however JSON-like)."""

    name: str
    title: str
    fn: Callable[..., Any]
    annotations: ToolAnnotations
    example: str
    params: tuple[str, ...] = ()
    accepts: frozenset[str] = frozenset()
    text: frozenset[str] = frozenset()


_NOT_TEXT = frozenset(
    {
        "tags",
        "attributes",
        "where",
        "weight",
        "int",
        "event",
        "confidence",
        "bool",
        "evidence_list",
        "list",
        "items",
        "replacements",
    }
)


def _names(inputs: Sequence[Input], ignored: Sequence[Input] = ()) -> dict[str, Any]:
    """``ToolSpec``'s argument names of ``inputs``; ``ignored``: the full profile's inputs
    that a core tool takes and leaves out (``rerank``: decision 0115)."""
    return {
        "params": tuple(i.tool_param for i in inputs),
        "accepts": frozenset(n for i in (*inputs, *ignored) for n in (i.tool_param, *i.aliases)),
        "text": frozenset(
            n for i in inputs if i.type not in _NOT_TEXT for n in (i.tool_param, *i.aliases)
        ),
    }


def _hints(op: Operation) -> ToolAnnotations:
    """``idempotentHint`` means nothing on a read-only tool (MCP spec), so readers leave it
    out; recall counts as read-only although each hit reinforces the fact's strength. The
    title is the tool's own, not repeated here (decision 0138)."""
    if op.read_only:
        return ToolAnnotations(read_only_hint=True, open_world_hint=False)
    return ToolAnnotations(
        read_only_hint=False,
        destructive_hint=op.destructive,
        idempotent_hint=op.idempotent,
        open_world_hint=False,
    )


def _shown(base: Any, item: Input) -> Any:
    """``base`` with the declared limits of ``item`` in its schema (``maxLength``,
    ``minLength``, ``pattern``, ``minimum``, ``maximum``); :func:`check_inputs` enforces them in the
    call, so that each transport refuses with the same message."""
    limits: dict[str, Any] = {}
    if item.max_length is not None:
        limits["maxLength"] = item.max_length
    if item.not_empty:
        limits["minLength"] = 1
    if item.text_pattern is not None:
        limits["pattern"] = item.text_pattern
    if item.low is not None:
        limits["minimum"] = item.low
    if item.high is not None:
        limits["maximum"] = item.high
    return Annotated[base, Field(json_schema_extra=limits)] if limits else base


def _bounds(item: Input, most: str, least: str) -> dict[str, Any]:
    """How many items (entries) a list (an object) of ``item`` holds, as its schema says."""
    out: dict[str, Any] = {}
    if item.max_items is not None:
        out[most] = item.max_items
    if item.not_empty:
        out[least] = 1
    return out


def _arg_type(item: Input) -> Any:
    """The annotation of one tool argument: its type, description, aliases and limits."""
    about = _arg(item.description, *(item.aliases or (item.tool_param,)))
    base: Any
    if item.type == "tags":
        return Annotated[TagInput, about]
    if item.type == "attributes":
        return Annotated[AttributesInput if not item.required else dict[str, Any] | str, about]
    if item.type == "where":
        return Annotated[WhereInput, about]
    if item.type == "weight":
        return Annotated[_shown(float, item) | None, BeforeValidator(_not_bool), about]
    if item.type in ("int", "event"):  # an event's id: its log position
        bounded = Annotated[int, Field(ge=item.low, le=item.high)]
        return Annotated[bounded | None, BeforeValidator(_not_bool), about]
    if item.type == "confidence":
        return Annotated[_shown(float, item) | None, BeforeValidator(_not_bool), about]
    if item.type == "bool":
        return Annotated[bool | None, about]
    if item.type in ("evidence_list", "list"):
        text = _shown(str, item)
        texts: Any = list[text]  # type: ignore[valid-type]
        bounds = _bounds(item, "maxItems", "minItems")
        if bounds:
            texts = Annotated[texts, Field(json_schema_extra=bounds)]
        return Annotated[texts | text | None, about]
    if item.type == "items":
        bounds = _bounds(item, "maxItems", "minItems")
        drafts: Any = ItemsInput
        if bounds:
            drafts = Annotated[list[dict[str, Any]], Field(json_schema_extra=bounds)] | str
        return Annotated[drafts if item.required else drafts | None, about]
    if item.type == "replacements":
        bounds = _bounds(item, "maxProperties", "minProperties")
        if bounds:
            by_number = Annotated[dict[str, Any], Field(json_schema_extra=bounds)]
            return Annotated[by_number | list[dict[str, Any]] | str | None, about]
        return Annotated[ReplaceInput, about]
    base = Literal[item.choices] if item.choices else _shown(str, item)
    return Annotated[base if item.required else base | None, about]


def _default(item: Input) -> Any:
    if item.required:
        return inspect.Parameter.empty
    return item.default if item.type == "path" else None


def _arguments(raw: Mapping[str, Any], inputs: Sequence[Input]) -> dict[str, Any]:
    """The ``Memory`` keyword arguments from the tool's: an absent one keeps its default.
    Run inside the tool's call (:class:`Runner`), so that an argument of the wrong shape
    answers ``invalid_input`` as the service's errors do."""
    out: dict[str, Any] = {}
    for item in inputs:
        value = raw.get(item.tool_param)
        if value is None and not item.required:
            continue  # (a required weight may be null: it takes the weight off)
        if item.type == "tags":
            value = tags_arg(value)
        elif item.type == "attributes":
            value = attributes_arg(value)
        elif item.type == "where":
            value = where_arg(value)
        elif item.type in ("evidence_list", "list") and isinstance(value, str):
            value = [value]
        elif item.type == "items" and value is not None:
            value = items_arg(value)
        elif item.type == "replacements":
            value = replacements_arg(value)
        out[item.name] = value
    check_inputs(inputs, out)
    return out


Project = Callable[[Any, Mapping[str, Any]], BaseModel]


def _supersede_out(new: Any, raw: Mapping[str, Any]) -> SupersedeOut:
    assert new.supersedes_id is not None
    return SupersedeOut(**FactOut.of(new).model_dump(), supersedes_id=new.supersedes_id)


_RESULTS: dict[str, tuple[type[BaseModel], Project]] = capabilities.merged(
    "mcp_out",
    "RESULTS",  # each capability folder's (decision 0177), after the core's
    {
        "forget": (StateOut, lambda r, a: StateOut.of(r)),
        "restore": (StateOut, lambda r, a: StateOut.of(r)),
        "history": (
            HistoryOut,
            lambda r, a: HistoryOut(target=a["id_or_path"], events=[EventOut.of(e) for e in r]),
        ),
        "supersede": (SupersedeOut, _supersede_out),
        "find": (FindOut, lambda r, a: FindOut.of(r)),
        "kinds": (KindsOut, lambda r, a: KindsOut.of(r)),
    },
)
"""What the model gets back from each tool: a compact view of the result's wire shape."""

_BY_OUTPUT: dict[str, tuple[type[BaseModel], Project]] = capabilities.merged(
    "mcp_out",
    "BY_OUTPUT",  # each capability folder's (decision 0184), after the core's
    {
        "Fact": (FactOut, lambda r, a: FactOut.of(r)),
        "list[RecallHit]": (
            RecallOut,
            lambda r, a: RecallOut(hits=[HitOut.of_hit(h) for h in r]),
        ),
        "list[PathEntry]": (LsOut, lambda r, a: LsOut.of(r)),
        "TreeNode": (TreeOut, lambda r, a: TreeOut.of(r)),
        "list[FactView]": (CatOut, lambda r, a: CatOut(facts=[ViewOut.of_view(v) for v in r])),
        "FactDetail": (ShowOut, lambda r, a: ShowOut.of_detail(r)),
    },
)
"""What a tool of no entry in ``_RESULTS`` answers, by its operation's output: a new
operation whose result is of one of these types needs no line in any table."""


def _answer(op: Operation) -> tuple[type[BaseModel], Project]:
    """The tool's output model and projection: its entry, or its output's."""
    return _RESULTS.get(op.name) or _BY_OUTPUT[op.output]


def _invoke(memory: Memory, op: Operation, kwargs: Mapping[str, Any]) -> Any:
    """The tool's call: the operation's ``mcp_call`` when it has one (``recall`` answers
    the recall cascade, decision 0096), its own call when it looks back (``at``), which
    takes no input of the ``mcp_call`` only (``frame``, ``scope``)."""
    assert op.call is not None
    mcp_call = op.extra.get("mcp_call")
    if mcp_call is None:
        return resolve_call(memory, op.call)(**kwargs)
    if "as_of" not in kwargs:
        return resolve_call(memory, mcp_call)(**kwargs)
    only = [i.tool_param for i in op.inputs if not i.rest and i.mcp and i.name in kwargs]
    if only:
        raise InvalidInput(
            f"at looks back at the ranked memories alone: {', '.join(only)} is for the present",
            hint=f"Leave out {only[0]}, or leave out at.",
        )
    return resolve_call(memory, op.call)(**kwargs)


def _declared(out: type[BaseModel]) -> type[BaseModel]:
    """The model an output schema declares: an answer that is not an object (a
    :class:`~pydantic.RootModel`) as ``ok_result`` sends it, wrapped as ``{"result": ...}``."""
    if not issubclass(out, RootModel):
        return out
    root: Any = out.model_fields["root"].annotation
    wrapped: type[BaseModel] = create_model(out.__name__, result=(root, ...))
    return wrapped


def _tool(op: Operation, run: Runner, profile: str, schemas: bool) -> ToolSpec:
    out, project = _answer(op)
    inputs = [i for i in op.inputs if i.mcp and (profile == "full" or not i.full_only)]
    call = op.call
    assert call is not None

    async def tool(**raw: Any) -> CallToolResult:
        def answer(m: Memory) -> BaseModel:
            return anchor_standing(m, project(_invoke(m, op, _arguments(raw, inputs)), raw))

        return await run(op.name, answer)

    params = [
        inspect.Parameter(
            i.tool_param,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=_default(i),
            annotation=_arg_type(i),
        )
        for i in inputs
    ]
    # The core profile's tools are described briefly (0093); no tool declares an output
    # schema unless asked (its answer is the same JSON, its guide says what it returns):
    # the tool list is what every session pays for (0138).
    core = profile == "core"
    tool.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        params,
        return_annotation=Annotated[CallToolResult, _declared(out)] if schemas else CallToolResult,
    )
    tool.__name__ = tool.__qualname__ = op.name
    tool.__doc__ = op.brief if core and op.brief else op.guide
    full = [i for i in op.inputs if i.mcp and i not in inputs]
    return ToolSpec(op.name, op.title, tool, _hints(op), op.example, **_names(inputs, full))


Mode = _arg_type(by_name("recall").input("mode"))
"""The recall tool's ``mode`` argument (its enum is the service's list of modes)."""


def _routed(op: Operation, other: Operation, run: Runner, profile: str, schemas: bool) -> ToolSpec:
    """One tool for two operations (decision 0082): ``op``'s, or ``other``'s when the
    argument ``other.extra["mcp_route"]`` is given (``add_evidence`` with ``claim_id``
    cites evidence for a claim; without it, for a fact). Its schema takes both sets of
    arguments, none required; the model gets either result."""
    key = other.extra["mcp_route"]
    mine = [i for i in op.inputs if i.mcp and (profile == "full" or not i.full_only)]
    theirs = [i for i in other.inputs if i.mcp]
    taken = {i.tool_param for i in theirs}
    shown = [*theirs, *(i for i in mine if i.tool_param not in taken)]

    async def tool(**raw: Any) -> CallToolResult:
        chosen, inputs = (other, theirs) if raw.get(key) is not None else (op, mine)
        missing = [i.tool_param for i in inputs if i.required and raw.get(i.tool_param) is None]
        if missing:
            return error_result(
                "invalid_input",
                f"{op.name} needs {', '.join(missing)} (a fact's evidence) or {key} (a claim's)",
                f"{op.example} for a fact; {other.example} for a claim",
            )
        call, project = chosen.call, _answer(chosen)[1]
        assert call is not None
        return await run(
            op.name, lambda m: project(resolve_call(m, call)(**_arguments(raw, inputs)), raw)
        )

    params = [
        inspect.Parameter(
            i.tool_param,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=None,
            annotation=_arg_type(replace(i, required=False)),
        )
        for i in shown
    ]
    tool.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        params,
        return_annotation=Annotated[CallToolResult, EvidenceOut] if schemas else CallToolResult,
    )
    tool.__name__ = tool.__qualname__ = op.name
    tool.__doc__ = op.guide  # which says what claim_id does
    return ToolSpec(op.name, op.title, tool, _hints(op), op.example, **_names(shown))


def tool_specs(
    run: Runner, profile: str = "full", *, output_schemas: bool = False
) -> dict[str, ToolSpec]:
    """Every tool of ``profile``, by name; the ``full`` profile's tools also take the
    arguments marked ``full_only`` (``kind`` and ``attributes`` of ``store``). A tool that
    another operation routes into (``extra["mcp_tool"]``) takes both (:func:`_routed`).
    ``output_schemas``: each tool declares the schema of its answer (decision 0138)."""
    routes = {o.extra["mcp_tool"]: o for o in whole() if "mcp_tool" in o.extra}
    run.tools = tuple(op.name for op in mcp_tools(profile))
    return {
        op.name: _routed(op, routes[op.name], run, profile, output_schemas)
        if op.name in routes and profile == "full"
        else _tool(op, run, profile, output_schemas)
        for op in mcp_tools(profile)
    }
