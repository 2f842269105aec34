"""The embornal MCP server: ``build_server`` around a Memory, ``run_stdio`` for clients.

Importing this module imports the MCP SDK (about a second); the CLI imports it
only inside ``embornal mcp``.
"""

from __future__ import annotations

import inspect
import os
from typing import TYPE_CHECKING, Any, Unpack

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp_types import CallToolResult, InputRequiredResult
from mcp_types import Tool as ListedTool
from pydantic import ValidationError

import embornal
from embornal.adapters.config import MCP_OUTPUT_SCHEMAS_ENV
from embornal.errors import SERVER_BUG_HINT, EmbornalError, InvalidInput
from embornal.interfaces.mcp.compat import REFUSALS, instead, peer_arguments, refusal_as_result
from embornal.interfaces.mcp.compat_mode import CompatMode
from embornal.interfaces.mcp.hints import for_model
from embornal.interfaces.mcp.profiles import PROFILES
from embornal.interfaces.mcp.results import error_result
from embornal.interfaces.mcp.schemas import lean_input, portable_output
from embornal.interfaces.mcp.tools import (
    CORE_TOOLS,
    FULL_TOOLS,
    MemorySource,
    Runner,
    ToolSpec,
    tool_specs,
)
from embornal.service.memory import Memory

if TYPE_CHECKING:
    from embornal.interfaces.api import MemorySettings

__all__ = ["EmbornalServer", "build_server", "run_stdio"]

INSTRUCTIONS = (
    "embornal is your long-term memory: small facts on topic paths such as /projects/x "
    "or /people/y. Recall before you answer anything that may depend on earlier work, "
    "decisions or preferences. When you learn something worth keeping, store it as one "
    "short fact per call. Forget facts that turned out wrong."
)
_MORE = ' cat(path="/memory") explains more.'
"""What the instructions add when the server offers the tool they name."""

_PROFILE_TOOLS = {"core": CORE_TOOLS, "full": FULL_TOOLS}
_ON = ("1", "true", "yes", "on")
_NOT_OFFERED = (
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
)
assert tuple(_PROFILE_TOOLS) == PROFILES


class _TextKept(FuncMetadata):
    """The SDK's argument handling, except that a text argument is the text given: the SDK
    decodes a string that looks like JSON (``"null"``, ``"[]"``, ``"{...}"``) for any
    argument not declared plain ``str``, an optional text too. Structured arguments (tags,
    attributes, lists) still take a JSON-encoded string."""

    text: frozenset[str] = frozenset()

    def pre_parse_json(self, data: dict[str, Any]) -> dict[str, Any]:
        kept = {k: v for k, v in data.items() if k in self.text and isinstance(v, str)}
        parsed = super().pre_parse_json({k: v for k, v in data.items() if k not in kept})
        return {k: kept[k] if k in kept else parsed[k] for k in data}


class EmbornalServer(MCPServer):
    """An MCPServer whose every tool failure has the ``{error, message, hint}`` shape.

    The tools turn service errors into results themselves; this catches what the SDK
    raises before a tool runs (arguments that fail validation, an unknown tool name).

    It offers tools only: no prompts, no resources (the SDK would advertise both with
    nothing behind them; ``cat(path="/memory")`` is the guide, and every read goes
    through a tool, filtered by the caller's access). A client asking for them gets
    JSON-RPC -32601, method not found.

    Its tool list is lean and portable (:mod:`.schemas`, decision 0138).

    ``refusals="result"`` answers a refusal of the memory (an error the service or a tool
    raises, an argument the tool does not take, a value outside an argument's choices) as
    memory-as-history does, a plain result named after its exception (decision 0143); a
    call the SDK cannot even make (a wrong argument type, an unknown tool) and an internal
    error stay ``isError``.

    ``compat`` (``--compat memory-as-history``, decision 0155) reads each call's arguments
    and writes each answer as that mode declares.
    """

    def __init__(
        self,
        specs: dict[str, ToolSpec],
        *,
        refusals: str = "error",
        compat: CompatMode | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.specs = specs
        self.refusals = refusals
        self.compat = compat
        self._listed: list[ListedTool] | None = None
        for spec in specs.values():
            self.add_tool(
                spec.fn,
                name=spec.name,
                title=spec.title,
                description=inspect.cleandoc(spec.fn.__doc__ or ""),
                annotations=spec.annotations,
                structured_output=True,
            )
            tool = self._tool_manager.get_tool(spec.name)
            assert tool is not None
            meta = tool.fn_metadata
            fields = {n: getattr(meta, n) for n in type(meta).model_fields}
            tool.fn_metadata = _TextKept(**fields, text=spec.text)
        # The SDK registers these whatever the server offers; what is registered is
        # what the initialize answer advertises.
        handlers = self._lowlevel_server._request_handlers
        for method in _NOT_OFFERED:
            handlers.pop(method, None)

    async def list_tools(self) -> list[ListedTool]:
        """The SDK's list, its schemas without titles, null defaults and null types."""
        if self._listed is None:
            self._listed = [
                tool.model_copy(
                    update={
                        "input_schema": lean_input(tool.input_schema),
                        "output_schema": tool.output_schema and portable_output(tool.output_schema),
                    }
                )
                for tool in await super().list_tools()
            ]
        return self._listed

    async def run_stdio_async(self) -> None:
        """Over stdio, every request read is answered before the server exits at EOF."""
        from embornal.interfaces.mcp.stdio import serve_stdio

        await serve_stdio(self._lowlevel_server)

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        context: Context[Any, Any] | None = None,
    ) -> CallToolResult | InputRequiredResult:
        spec = self.specs.get(name)
        if spec is None:
            return error_result(
                "unknown_tool",
                f"there is no tool named {name!r}",
                for_model(
                    "The tools are: " + ", ".join(self.specs) + ".",
                    code="unknown_tool",
                    tools=tuple(self.specs),
                ),
            )
        refused = refusal_as_result if self.refusals == "result" else _as_is
        try:
            arguments = peer_arguments(name, arguments or {})
            if self.compat is not None:
                arguments = self.compat.arguments(name, arguments)
        except EmbornalError as e:
            hint = for_model(e.hint, tools=tuple(self.specs))
            return refused(error_result(e.code, e.message, hint))
        unknown = sorted(set(arguments) - spec.accepts)
        if unknown:
            known = ", ".join(spec.params) or "no arguments"
            return refused(
                error_result(
                    InvalidInput.code,
                    f"{name} takes no argument {', '.join(map(repr, unknown))}",
                    f"Its arguments are: {known}. Call it like {spec.example}."
                    + instead(name, unknown),
                )
            )
        try:
            result = await super().call_tool(name, arguments, context)
            if not isinstance(result, CallToolResult):
                return result
            if self.compat is not None:
                result = self.compat.answer(name, result)
            return refused(result)
        except UnexpectedToolError:
            # The tools catch their own failures; this is the SDK failing around one.
            return error_result(
                "internal_error",
                f"{name} failed unexpectedly",
                SERVER_BUG_HINT,
            )
        except ToolError as e:
            if isinstance(e.__cause__, ValidationError):
                invalid = error_result(
                    InvalidInput.code,
                    f"{name}: {describe_validation(e.__cause__)}",
                    f"Call it like {spec.example}.",
                )
                # a value outside the tool's choices is refused as the memory refuses one
                return refused(invalid) if _values_only(e.__cause__) else invalid
            return error_result(InvalidInput.code, f"{name}: {e}", f"Call it like {spec.example}.")


def _as_is(result: CallToolResult) -> CallToolResult:
    return result


_VALUE_ERRORS = frozenset({"literal_error", "enum"})


def _values_only(error: ValidationError) -> bool:
    """Whether every argument was of its type but not one of its allowed values."""
    return all(item["type"] in _VALUE_ERRORS for item in error.errors(include_url=False))


def describe_validation(error: ValidationError) -> str:
    """One line per wrong argument, without echoing the values."""
    by_arg: dict[str, list[str]] = {}
    for item in error.errors(include_url=False, include_input=False):
        loc = item["loc"]
        arg = str(loc[0]) if loc else "arguments"
        by_arg.setdefault(arg, []).append("missing" if item["type"] == "missing" else item["msg"])
    parts = []
    for arg, problems in by_arg.items():
        if problems == ["missing"]:
            parts.append(f"missing required argument {arg!r}")
        elif len(problems) == 1:
            parts.append(f"argument {arg!r}: {problems[0]}")
        else:
            parts.append(f"argument {arg!r} has the wrong type")
    return "; ".join(parts)


def _refusals(refusals: str) -> str:
    if refusals not in REFUSALS:
        raise InvalidInput(
            f"unknown way to answer refusals {refusals!r}",
            hint=f"Use one of: {', '.join(REFUSALS)}.",
        )
    return refusals


def _profile_tools(profile: str) -> tuple[str, ...]:
    names = _PROFILE_TOOLS.get(profile)
    if names is None:
        raise InvalidInput(
            f"unknown MCP profile {profile!r}", hint=f"Use one of: {', '.join(PROFILES)}."
        )
    return names


def build_server(
    memory: MemorySource,
    *,
    profile: str = "core",
    output_schemas: bool | None = None,
    refusals: str = "error",
    compat: CompatMode | None = None,
) -> MCPServer:
    """An MCP server whose tools call ``memory``; ``profile`` is ``core`` or ``full``.

    ``memory`` may be a provider (a callable giving a :class:`Memory`), asked on each
    tool call: ``embornal serve`` passes one that gives the memory as the subject of
    the HTTP request that carried the call. ``output_schemas``: every tool declares
    the schema of its answer (None: when ``EMBORNAL_MCP_OUTPUT_SCHEMAS`` is ``1``; off
    by default, decision 0138). ``refusals``: ``error`` (``isError`` with ``{error, message,
    hint}``) or ``result`` (memory-as-history's plain result, decision 0143).
    ``compat``: serve as another memory's clients expect it (decision 0155): its tools
    for ``profile`` (each with every argument it takes in the full profile), refusals as
    results, its answers' forms.
    """
    _refusals(refusals)
    if output_schemas is None:
        output_schemas = os.environ.get(MCP_OUTPUT_SCHEMAS_ENV, "").strip().lower() in _ON
    run = Runner(memory)
    if compat is None:
        names = _profile_tools(profile)
        every = tool_specs(run, profile, output_schemas=output_schemas)
    else:
        names, refusals = compat.tools(profile), compat.refusals
        every = tool_specs(run, "full", output_schemas=output_schemas)
        run.tools, run.code_of = names, compat.error_code
    return EmbornalServer(
        {name: every[name] for name in names},
        refusals=refusals,
        compat=compat,
        name="embornal",
        title="embornal memory",
        instructions=INSTRUCTIONS + (_MORE if "cat" in names else ""),
        version=embornal.__version__,
        log_level="WARNING",
    )


def run_stdio(
    *,
    db_path: str | None = None,
    subject: str = "default",
    profile: str = "core",
    refusals: str = "error",
    compat: CompatMode | None = None,
    **settings: Unpack[MemorySettings],
) -> None:
    """Serve the memory at ``db_path`` (None: the default data dir) over stdio until EOF.

    ``settings``: what the memory is opened with; its ``embedder`` (the configured model)
    turns on recall by meaning for the agent, its ``reranker`` (loaded on first use)
    recall with ``rerank``; ``compat`` (its ``profile`` already resolved): see
    :func:`build_server`.
    """
    if compat is None:
        _profile_tools(profile)  # fail before the database is opened or created
    _refusals(refusals)
    with Memory.open(
        db_path,  # as given: a postgresql:// URL made a Path loses a slash and names a file
        subject=subject,
        actor_kind="assistant",
        **settings,
    ) as memory:
        build_server(memory, profile=profile, refusals=refusals, compat=compat).run("stdio")
