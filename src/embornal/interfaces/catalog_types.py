"""The records of the catalogue (:mod:`embornal.interfaces.catalog`): an operation, its
inputs and its place in the REST API, with what the command line adds to them.

Stdlib-only, plain data, and cheap to import: the records are frozen classes made by
:func:`embornal.domain.records.record` (typed as dataclasses are, without the methods
:mod:`dataclasses` generates, which cost the command line's start-up; decision 0047).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from embornal.domain.records import record
from embornal.hints import Any, ClassVar, Literal, TypeVar

__all__ = [
    "FACT_ID_PATTERN",
    "KIND_PATTERNS",
    "LIST_ERRORS",
    "READ_ERRORS",
    "WRITE_ERRORS",
    "Http",
    "Input",
    "InputType",
    "LengthUnit",
    "Operation",
    "Profile",
    "Where",
    "check_inputs",
    "part",
    "record",
    "replace",
    "resolve_call",
]

_T = TypeVar("_T")


def resolve_call(api: Any, call: str) -> Callable[..., Any]:
    """The method an operation's ``call`` names on ``api`` (a ``Memory`` or the remote
    client): ``"store"`` is ``api.store``, ``"chronicle.audit_log"`` is
    ``api.chronicle.audit_log`` (the history protocol's facade, decision 0084)."""
    target = api
    for name in call.split("."):
        target = getattr(target, name)
    method: Callable[..., Any] = target
    return method


def replace(obj: _T, **changes: Any) -> _T:
    """A copy of the record ``obj`` with ``changes`` (as :func:`dataclasses.replace`)."""
    fields = type(obj).__record_names__  # type: ignore[attr-defined]
    unknown = sorted(set(changes) - set(fields))
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {unknown[0]!r}")
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


#: A fact id or a unique prefix of one: Crockford base32, either case (an input's
#: ``pattern``; the REST path's ``{id}`` shows it too).
FACT_ID_PATTERN = "^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{1,26}$"
#: The pattern an input's text matches when it declares none, by its kind: a path starts
#: with "/" (the service refuses any other; each transport now refuses it first).
KIND_PATTERNS: Mapping[str, str] = MappingProxyType({"path": "^/"})

Profile = Literal["core", "full", "none"]
InputType = Literal[
    "path",
    "text",
    "tags",
    "time",
    "reason",
    "id",
    "target",
    "int",
    "bool",
    "choice",
    "kind",
    "attributes",
    "where",
    "evidence",
    "float",
    "evidence_list",
    "confidence",
    "visibility",
    "source",
    "weight",
    "lifetime",
    "as_of",
    "event",
    "days",
    "items",
    "replacements",
    "list",
]
Where = Literal["query", "body", "path"]
LengthUnit = Literal["characters", "bytes"]


@record
class Input:
    """One input of an operation: the keyword argument ``name`` of the ``Memory`` method.

    ``aliases`` are the names a model may use over MCP (the first is the one its schema
    shows); ``http`` is the REST name when it differs (``q``); ``mcp``/``rest`` say
    which interfaces take it at all. ``probe``: a later addition to the REST API, which
    the remote client checks the server's document for before it sends a non-default.

    The limits (``max_length`` in ``length_unit``, ``max_items``, ``not_empty``,
    ``pattern``, ``low``..``high``, ``choices``) are checked on every transport before the call
    (:func:`check_inputs`) and shown in the MCP input schema; the REST models declare the
    same (a test compares them).
    """

    name: str
    type: InputType
    description: str
    required: bool = False
    default: object = None
    aliases: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    max_length: int | None = None
    choices: tuple[str, ...] = ()
    http: str | None = None
    mcp: bool = True
    rest: bool = True
    mcp_name: str | None = None
    mcp_default: object = None
    probe: bool = False
    full_only: bool = False
    """An MCP argument of the ``full`` profile only (the core tool list stays small)."""
    # -- the command line (cli/derived.py builds each command from these) --------------
    flag: str | None = None
    """The CLI's words for it: ``"--tag"`` (names split by spaces: ``"--yes -y"``), ``""``
    a positional; None: a positional when required, else ``--name-with-dashes``."""
    metavar: str | None = None
    """The CLI's placeholder (``ID``, ``KEY=VALUE``); None: argparse's own."""
    cli_help: str | None = None
    """The CLI's help line; None: ``description``; ``""``: none."""
    nargs: str | None = None
    """A positional's argparse ``nargs`` when the default does not fit (``"*"``, ``"+"``,
    ``"?"`` for a required content that may come on standard input); on a flag, ``"*"``
    or ``"+"`` makes it repeatable (the call gets the list)."""
    cli: bool = True
    """Whether the command line takes it."""
    length_unit: LengthUnit = "characters"
    """What ``max_length`` counts: ``"characters"`` (code points, as JSON Schema's
    ``maxLength`` does), or ``"bytes"`` of UTF-8 (a fact's content, as the service counts
    it; a schema then shows the same number as ``maxLength``, which no longer text of
    that many bytes can be under)."""
    not_empty: bool = False
    """A text that, when given, holds something: an empty one is refused (a required text
    always is); shown as ``minLength`` 1. A list declared so holds one item at least
    (``minItems`` 1)."""
    max_items: int | None = None
    """How many texts a list holds at most, or entries an object; shown as ``maxItems``
    (``maxProperties``)."""
    pattern: str | None = None
    """A regular expression its text matches (a fact id's alphabet and length; None: its
    kind's, :data:`KIND_PATTERNS`); shown as ``pattern``. A text that does not is refused as
    the service would refuse it (an ``id``: ``MalformedId``; a path: ``InvalidPath``)."""

    @property
    def text_pattern(self) -> str | None:
        """The pattern its text matches: its own, else its kind's (a path's ``^/``)."""
        return self.pattern if self.pattern is not None else KIND_PATTERNS.get(self.type)

    @property
    def wire_name(self) -> str:
        return self.http or self.name

    @property
    def tool_param(self) -> str:
        return self.mcp_name or self.name


#: The REST errors of a write, of a read of one thing (which may be missing), and of a listing
#: or a search (which finds nothing rather than fail).
WRITE_ERRORS = (400, 401, 403, 404, 409, 413, 422, 503)
READ_ERRORS = (400, 401, 404, 422, 503)
LIST_ERRORS = (400, 401, 422, 503)


@record
class Http:
    """Where an operation lives in the REST API (under ``/api/v1``).

    What a record leaves empty :func:`part` gives it: ``summary``, the operation's title;
    ``errors``, those of its kind (none without a token, :data:`WRITE_ERRORS` for a
    ``POST``, :data:`LIST_ERRORS` for a ``GET`` of ``items``, else :data:`READ_ERRORS`);
    ``tag``, its part's; ``probe``, its part's when its routes are later ones.
    """

    method: Literal["GET", "POST"]
    path: str
    operation_id: str
    description: str
    summary: str = ""
    status: int = 200
    errors: tuple[int, ...] = ()
    auth: bool = True
    tag: str = ""
    probe: bool = False  # a later route: the client checks the server offers it
    items: str | None = None
    """For a list result: the key of the answer's object that holds the list."""

    @property
    def path_params(self) -> tuple[str, ...]:
        return tuple(p[1:-1] for p in self.path.split("/") if p.startswith("{"))

    def where(self, item: Input) -> Where:
        if item.wire_name in self.path_params:
            return "path"
        return "query" if self.method == "GET" else "body"


@record
class Operation:
    """One use case: its call, inputs, output, and each interface's view of it."""

    name: str
    output: str
    """The result type, as the ``Memory`` method's annotation names it."""
    inputs: tuple[Input, ...] = ()
    call: str | None = ""
    """The ``Memory`` method it calls (None: the server itself, e.g. health); ``""``: the
    one of its name (:func:`part` decides)."""
    profile: Profile | None = None
    """Its MCP profile; None: its part's (:func:`part` decides; ``"none"`` unless the part
    says otherwise)."""
    title: str = ""
    guide: str = ""
    """The MCP tool description, written for the model."""
    brief: str = ""
    """The description in the ``core`` profile, whose tool list every session pays for: when
    to call it and one example, in a sentence or two (decision 0093; default: ``guide``)."""
    read_only: bool | None = None
    """Whether it changes nothing (the MCP read-only hint); None: whether its REST route
    is a ``GET`` (:func:`part` decides)."""
    destructive: bool = False
    idempotent: bool = False
    http: Http | None = None
    local_only: bool | None = None
    """Whether only the machine that holds the memory runs it; None: whether it has neither
    a REST route nor an MCP tool (:func:`part` decides)."""
    example: str = ""
    cli: str | None = None
    """The CLI command (``memory store``), or None."""
    tool_order: int | None = None
    """Where the tool comes in the MCP tool list; None: the next number of its part, which
    numbers its records in order from its ``tools_from`` (else 0; :func:`part` decides)."""
    extra: Mapping[str, str] = MappingProxyType({})
    """Notes for the interfaces (not compared)."""
    __record_uncompared__: ClassVar[tuple[str, ...]] = ("extra",)
    # -- the command line (cli/derived.py builds each command from these) --------------
    cli_help: str = ""
    """The one-line help in the group's list of commands (default: ``title``)."""
    cli_doc: str = ""
    """The command's description in its ``--help`` (default: ``cli_help``)."""
    cli_args: tuple[Input, ...] = ()
    """Inputs of the command line only (the renderer's ``--plain``, ``--meta``...): parsed,
    never passed to the call."""
    cli_run: str | None = None
    """``"module:function"`` of the CLI package that runs the command instead of the generic
    call (stdin, prompts, checks before the memory opens); None: the generic call."""
    cli_show: str | None = None
    """``"module:function"`` of the CLI package that prints the result as text; None: its
    part's renderer of the output type (``shows``, :func:`part` decides), else the CLI's
    (``cli/derived.py``), else a generic one."""
    cli_json: str | None = None
    """``"module:function"`` of the CLI package that gives the ``--json`` data of the result
    (a command whose JSON is not the result's wire shape: a rule with its text, a token with
    its state, the path a tag is on); None: the wire shape."""

    def input(self, name: str) -> Input:
        (found,) = [i for i in self.inputs if i.name == name]
        return found


def _errors(http: Http) -> tuple[int, ...]:
    """The REST errors of a route of ``http``'s kind (:class:`Http`)."""
    if not http.auth:
        return ()
    if http.method == "POST":
        return WRITE_ERRORS
    return READ_ERRORS if http.items is None else LIST_ERRORS


def part(
    tag: str,
    *operations: Operation,
    facade: str = "",
    profile: Profile = "none",
    tools_from: int | None = None,
    shows: Mapping[str, str] = MappingProxyType({}),
    probe: bool = False,
) -> tuple[Operation, ...]:
    """A part of the catalogue: ``operations``, each given what its record leaves empty:

    - its ``call``, the method of its name (on ``facade``, e.g. ``"chronicle"``, when the
      part is on one);
    - its ``profile``, the part's;
    - its ``tool_order``, the next number from ``tools_from`` (each record that writes no
      number takes one, in order; without ``tools_from``, 0);
    - ``local_only``, whether it has neither a REST route nor an MCP tool;
    - ``read_only``, whether its REST route is a ``GET``;
    - ``cli_show``, for a command, the renderer ``shows`` names for its output type;
    - and its route (:class:`Http`) the operation's title as its summary, the errors of its
      kind, ``tag``, and ``probe`` when the part's routes are later ones the client checks
      the server offers.
    """
    made: list[Operation] = []
    number = tools_from
    for op in operations:
        http = op.http
        given: dict[str, Any] = {}
        if op.call == "":
            given["call"] = f"{facade}.{op.name}" if facade else op.name
        if op.profile is None:
            given["profile"] = profile
        if op.tool_order is None:
            given["tool_order"] = number or 0
            number = None if number is None else number + 1
        if op.local_only is None:
            given["local_only"] = http is None and given.get("profile", op.profile) == "none"
        if op.read_only is None:
            given["read_only"] = http is not None and http.method == "GET"
        if op.cli_show is None and op.cli is not None and op.output in shows:
            given["cli_show"] = shows[op.output]
        if http is not None and not (
            http.summary and http.errors and http.tag and http.probe >= probe
        ):
            given["http"] = replace(
                http,
                summary=http.summary or op.title,
                errors=http.errors or _errors(http),
                tag=http.tag or tag,
                probe=http.probe or probe,
            )
        made.append(replace(op, **given) if given else op)
    return tuple(made)


def _unstorable(value: object, depth: int = 0) -> str | None:
    """What in ``value`` (text, or lists and objects of it) no text may hold: a NUL or a
    lone surrogate (None: nothing)."""
    if isinstance(value, str):
        if "\x00" in value:
            return "a NUL character"
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return "a lone surrogate (not a character)"
        return None
    if depth > 64:
        return None  # the service refuses what nests this deep
    if isinstance(value, list | tuple):
        return next((w for v in value if (w := _unstorable(v, depth + 1))), None)
    if isinstance(value, Mapping):
        pairs = (
            w
            for k, v in value.items()
            for w in (_unstorable(k, depth + 1), _unstorable(v, depth + 1))
            if w
        )
        return next(pairs, None)
    return None


def _length(text: str, unit: LengthUnit) -> int:
    return len(text.encode("utf-8")) if unit == "bytes" else len(text)


def _check_limits(item: Input, value: object) -> None:
    """Refuse ``value`` of ``item`` over its declared limits (None: nothing to check).
    A value past a limit is the error the service would give (a path's, a content's, a
    weight's, a confidence's; an empty kind, visibility or lifetime; a malformed fact id;
    else ``InvalidInput``): the same code whichever checks it first."""
    from embornal.errors import InvalidContent, InvalidInput, InvalidPath

    name = item.name
    if item.max_length is not None:
        texts = value if isinstance(value, list | tuple) else (value,)
        for text in texts:
            size = _length(text, item.length_unit) if isinstance(text, str) else 0
            if size > item.max_length:
                of = f"an item of {name}" if texts is value else name
                error = InvalidContent if item.length_unit == "bytes" else InvalidInput
                raise (InvalidPath if item.type == "path" else error)(
                    f"{of} is {size:,} {item.length_unit} long; at most "
                    f"{item.max_length:,} are allowed",
                    hint=f"Send a shorter {name}.",
                )
    count = len(value) if isinstance(value, list | tuple | Mapping) else None
    most = item.max_items
    if most is not None and count is not None and count > most:
        raise InvalidInput(
            f"{name} holds {count:,} items; at most {most:,} are allowed",
            hint=f"Send {name} with fewer items.",
        )
    if item.not_empty and count == 0:
        raise InvalidInput(
            f"{name} is empty; give one item at least",
            hint=f"Send {name} with what it holds.",
        )
    if item.not_empty and value == "":
        from embornal import errors

        kinds = {
            "kind": errors.InvalidKind,
            "visibility": errors.InvalidVisibility,
            "lifetime": errors.InvalidLifetime,
        }
        raise kinds.get(item.type, InvalidInput)(
            f"{name} is empty; give one, or leave it out",
            hint=f"Send {name} with a value, or without it.",
        )
    if item.text_pattern is not None and isinstance(value, str):
        _check_pattern(item, item.text_pattern, value)
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and (
        (item.low is not None and value < item.low)  # type: ignore[operator]
        or (item.high is not None and value > item.high)  # type: ignore[operator]
    ):
        low = "" if item.low is None else f" from {item.low}"
        high = "" if item.high is None else f" to {item.high}"
        shown = str(value) if len(str(value)) <= 40 else f"{str(value)[:40]}…"
        from embornal import errors

        kind = {"weight": errors.InvalidImportance, "confidence": errors.InvalidConfidence}
        raise kind.get(item.type, InvalidInput)(
            f"{name} must be{low}{high}, not {shown}", hint=f"Send {name} again."
        )
    if item.choices and isinstance(value, str) and value not in item.choices:
        raise InvalidInput(
            f"{name} must be one of {', '.join(item.choices)}; not {value[:40]!r}",
            hint=f"Send {name} again with one of them.",
        )


def _check_pattern(item: Input, pattern: str, value: str) -> None:
    import re

    if re.search(pattern, value) is None:
        from embornal.errors import InvalidInput, InvalidPath, MalformedId

        shown = value if len(value) <= 40 else f"{value[:40]}…"
        if pattern == FACT_ID_PATTERN:
            raise MalformedId(
                f"{item.name} is not a fact id: {shown!r}",
                hint="Fact ids are 26 characters of 0-9 and A-Z (no I, L, O, U); a prefix works.",
            )
        if item.type == "path" and pattern == KIND_PATTERNS["path"]:
            raise InvalidPath(
                f"{item.name} {shown!r} must start with '/'",
                hint="Paths look like /projects/embornal.",
            )
        raise InvalidInput(
            f"{item.name} does not match {pattern}: {shown!r}", hint=f"Send {item.name} again."
        )


def check_inputs(inputs: Iterable[Input], given: Mapping[str, Any]) -> None:
    """Refuse, before the call, one of an operation's ``inputs`` (``given``: the call's
    keyword arguments by input name) that breaks what its record declares or no text may
    hold (``InvalidInput``: 400, exit 2, MCP ``invalid_input``). Every transport checks
    every input here, so a new input or a new limit cannot miss one:

    - its text holds a NUL or a lone surrogate, whatever its type: no database keeps them
      (PostgreSQL refuses both; SQLite would keep what a copy to it then refuses);
    - it is longer than ``max_length`` (in its ``length_unit``; each text of a list);
    - it is a list (or an object) of more than ``max_items``, or an empty one and
      ``not_empty``;
    - it is an empty text and ``not_empty``;
    - it is a text that does not match its ``pattern``;
    - it is a number under ``low`` or over ``high``;
    - it is a text that is not one of its ``choices``.
    """
    for item in inputs:
        value = given.get(item.name)
        what = _unstorable(value)
        if what is not None:
            from embornal.errors import InvalidInput

            raise InvalidInput(
                f"{item.name} holds {what}, which no text may hold",
                hint=f"Send {item.name} again without it.",
            )
        if value is not None:
            _check_limits(item, value)
