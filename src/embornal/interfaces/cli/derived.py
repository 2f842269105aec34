"""The catalogue's commands on the command line: each one's parser, call and rendering.

Every :class:`~embornal.interfaces.catalog.Operation` with ``cli`` set is a command made
from its record, with no code of its own: its inputs become positionals and flags
(:func:`add_input`: the type gives the converter, the choices, the bounds and whether it
repeats; ``flag``, ``metavar``, ``cli_help`` and ``nargs`` say the rest), and
:func:`run` calls the ``Memory`` (or, in client mode, ``RemoteMemory``) method with the
parsed inputs and prints the result: ``--json`` its one wire shape (or the operation's
``cli_json`` data), else the operation's ``cli_show`` renderer, the renderer of its output
type, or a generic one. An operation
whose command must do more (read standard input, ask for a confirmation, check before
the memory opens) names a ``cli_run`` function, which reuses :func:`inputs` and
:func:`call`.

Only the parser of the command that runs is made (``parser.Commands.later``), and this
module imports the service and the renderers only when the command runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from embornal.errors import InvalidAttribute, InvalidContent, InvalidInput
from embornal.hints import TYPE_CHECKING, Any
from embornal.interfaces.catalog import CORE_OPERATIONS, Input, Operation, by_name, whole
from embornal.interfaces.catalog_types import check_inputs, resolve_call
from embornal.interfaces.cli import handler_module
from embornal.interfaces.cli.parser import number, out_of_range

if TYPE_CHECKING:
    from embornal.interfaces.api import MemoryAPI
    from embornal.interfaces.cli.app import Context
    from embornal.interfaces.cli.parser import ArgParser, Commands

__all__ = [
    "CONVERTERS",
    "OUTPUT_RENDERERS",
    "add_input",
    "call",
    "commands_of_group",
    "fill",
    "flag_of",
    "inputs",
    "read_stdin",
    "run",
    "show",
]

HANDLER = "derived:run"

#: The text renderer of each output type (``"module:function"`` of this package, taking
#: the context and the result); an output type not here gets :func:`_generic`.
OUTPUT_RENDERERS: dict[str, str] = {
    "Fact": "memory_cmds:show_fact",
    "FactDetail": "memory_cmds:show_detail",
    "list[Event]": "memory_cmds:show_events",
    "list[Fact]": "memory_cmds:show_facts",
    "list[FactView]": "memory_cmds:show_cat",
    "list[PathEntry]": "memory_cmds:show_ls",
    "list[RecallHit]": "memory_cmds:show_recall",
    "TreeNode": "memory_cmds:show_tree",
}


def _function(spec: str) -> Callable[..., Any]:
    import importlib

    module, name = spec.split(":")
    found: Callable[..., Any] = getattr(importlib.import_module(handler_module(module)), name)
    return found


# --------------------------------------------------------------------------- the parser


def commands_of_group(
    group: str, operations: tuple[Operation, ...] | None = None
) -> tuple[Operation, ...]:
    """The catalogue's commands of ``group`` (``memory``), in catalogue order (of
    ``operations``, default the whole catalogue)."""
    ops = whole() if operations is None else operations
    return tuple(op for op in ops if op.cli is not None and op.cli.split()[0] == group)


def flag_of(item: Input) -> list[str]:
    """The option strings of ``item`` (``[]``: a positional)."""
    if item.flag is not None:
        return item.flag.split()
    if item.required:
        return []
    name = item.name.replace("_", "-")
    if item.type == "bool" and item.default is True:
        return [f"--no-{name}"]
    return [f"--{name}"]


def decimal(low: float | None, high: float | None, flag: str) -> Callable[[str], float]:
    """The converter of a number within ``low``..``high`` (either end open when None)."""

    def convert(text: str) -> float:
        try:
            value: float | None = float(text)
        except ValueError:
            value = None
        if (
            value is None
            or value != value  # NaN
            or (low is not None and value < low)
            or (high is not None and value > high)
        ):
            ends = ("" if low is None else f" from {low:g}") + (
                "" if high is None else f" to {high:g}"
            )
            raise out_of_range(f"{flag} must be a number{ends}, not {text[:40]!r}")
        return value

    return convert


def _weight(text: str) -> float | None:
    """A weight, 0 to 1; ``none`` (or ``-``) is None: no weight."""
    from embornal.domain.spine.justification import check_weight

    raw = text.strip()
    return None if raw.lower() in ("none", "-") else check_weight(raw)


def _lifetime(text: str) -> str:
    """A lifetime: ``permanent``, ``standard``, ``ephemeral`` or ``until:`` a day from today."""
    from datetime import UTC, datetime

    from embornal.domain.spine.justification import check_lifetime

    return str(check_lifetime(text, now=datetime.now(UTC)))


def _visibility(text: str) -> str:
    """A visibility: ``shared``, ``private`` or ``restricted:a,b``."""
    from embornal.domain.spine.justification import parse_visibility

    return str(parse_visibility(text))


def _event(text: str) -> int:
    """An event's id: its log position, a whole number from 1 (``#12`` works)."""
    from embornal.domain.undo import check_event_id

    return check_event_id(text)


def _item(text: str) -> dict[str, Any]:
    """A proposal's item: one JSON object (``{"type": "archive", "fact_id": "01K..."}``)."""
    import json

    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise InvalidInput(
            f"an item is a JSON object, not {text[:40]!r}",
            hint='Give it as \'{"type": "archive", "fact_id": "ID"}\'.',
        )
    return value


def _replacement(text: str) -> dict[str, dict[str, Any]]:
    """An item replaced in place: ``N=JSON``, its number and the item that takes its place."""
    number, sep, item = text.partition("=")
    if not sep or not number.strip():
        raise InvalidInput(
            f"a replacement is N=JSON, not {text[:40]!r}",
            hint='Give it as \'2={"type": "create", "path": "/notes", "content": "..."}\'.',
        )
    return {number.strip(): _item(item)}


#: The converters of the input types whose words the domain reads, each with the domain's
#: own one-line error (exit 2); the domain is imported only when such a value comes.
CONVERTERS: dict[str, Callable[[str], Any]] = {
    "weight": _weight,
    "lifetime": _lifetime,
    "visibility": _visibility,
    "event": _event,
    "items": _item,
    "replacements": _replacement,
}


def _replacements(given: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """The items of repeated ``--replace N=JSON`` by number (a number given twice: refused)."""
    out: dict[str, dict[str, Any]] = {}
    for one in given:
        for place, item in one.items():
            if place in out:
                raise InvalidInput(f"item {place[:20]} is replaced twice; give it once")
            out[place] = item
    return out


def days(high: float, flag: str) -> Callable[[str], float]:
    """The converter of a number of days above 0 and at most ``high`` (a lifetime)."""
    from embornal.domain.bounds import in_range

    def convert(text: str) -> float:
        try:
            value: float | None = float(text)
        except ValueError:
            value = None
        if value is None or not in_range(value, high):
            raise out_of_range(
                f"{flag} must be a number of days above 0 and at most {high:g} "
                f"({high / 365:g} years), not {text[:40]!r}"
            )
        return value

    return convert


#: The input types given once per word of a repeated flag (``--tag a=b --tag c=d``).
REPEATED = frozenset({"tags", "where", "attributes", "evidence_list"})


def _limited(item: Input, convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """``convert`` after the declared limits of ``item`` (a text over its ``max_length``
    is refused for its length, as on every transport, before it is read)."""
    if item.max_length is None:
        return convert

    def limited(text: str) -> Any:
        check_inputs((item,), {item.name: text})
        return convert(text)

    return limited


def add_input(parser: argparse.ArgumentParser, item: Input) -> None:
    """``item`` as an argument of ``parser``: its converter, choices and bounds by type."""
    flags = flag_of(item)
    kw: dict[str, Any] = {}
    if item.metavar is not None:
        kw["metavar"] = item.metavar
    help_text = item.description if item.cli_help is None else item.cli_help
    if help_text:
        kw["help"] = help_text
    named = flags[0] if flags else (item.metavar or item.name.upper())
    if item.type == "int":
        low = item.low if item.low is not None else -(2**63)
        high = item.high if item.high is not None else 2**63 - 1
        kw["type"] = number(low, high, named)
    elif item.type in ("float", "confidence"):
        kw["type"] = decimal(item.low, item.high, named)
    elif item.type in CONVERTERS:
        kw["type"] = _limited(item, CONVERTERS[item.type])
    elif item.type == "days" and item.high is not None:
        kw["type"] = days(item.high, named)
    elif item.type == "choice":
        kw["choices"] = item.choices
    if not flags:
        nargs = item.nargs
        if nargs is None and item.type in REPEATED:
            nargs = "+" if item.required else "*"
        elif nargs is None and not item.required:
            nargs = "?"
        if nargs is not None:
            kw["nargs"] = nargs
        if nargs in ("?", "*") and item.default is not None:
            kw["default"] = item.default
        parser.add_argument(item.name, **kw)
        return
    kw["dest"] = item.name
    if item.type == "bool":
        kw["action"] = "store_false" if item.default is True else "store_true"
        kw.pop("metavar", None)
    elif item.type in REPEATED or item.nargs in ("*", "+"):
        kw["action"] = "append"
    elif item.type == "choice":
        kw["default"] = item.default
    if item.required and item.type != "attributes":  # --attr: the run says what is missing
        kw["required"] = True
    parser.add_argument(*flags, **kw)


def fill(parser: ArgParser, op: Operation) -> None:
    """The arguments of ``op``'s command: its inputs, then the command line's own."""
    parser.set_defaults(handler=HANDLER, operation=op.name)
    for item in op.inputs:
        if item.cli:
            add_input(parser, item)
    for item in op.cli_args:
        add_input(parser, item)


def add_group_commands(group: Commands, name: str, late: ArgParser) -> None:
    """Every catalogue command of the group ``name``, each made when it is used: those of
    the catalogue's core now, the others' names when one of them (or the list) is first
    wanted, so that ``memory recall`` reads none of the catalogue's other parts."""
    from embornal.interfaces.cli.parser import FMT

    def register(ops: tuple[Operation, ...]) -> None:
        for op in ops:
            command = op.cli.split()[1] if op.cli else op.name
            if dict.__contains__(group.choices, command):  # or written by hand: it stays
                continue
            help_text = op.cli_help or op.title or op.name

            def build(parser: ArgParser, op: Operation = op) -> None:
                fill(parser, op)

            group.later(
                command,
                help_text,
                build,
                description=op.cli_doc or help_text,
                parents=[late],
                formatter_class=FMT,
            )

    def names() -> list[str]:
        return [str(op.cli).split()[1] for op in commands_of_group(name)]

    register(commands_of_group(name, CORE_OPERATIONS))
    group.rest(lambda: register(commands_of_group(name)), names)


# --------------------------------------------------------------------------- the call


def _words(value: Any) -> Any:
    """Words of a ``nargs="*"`` text (a query) joined; none is None."""
    if isinstance(value, list):
        return " ".join(value) or None
    return value


def _given(ctx: Context, op: Operation) -> dict[str, Any]:
    """The inputs given on the command line, by name (a required one always)."""
    given: dict[str, Any] = {}
    for item in op.inputs:
        if not item.cli:
            continue
        value = ctx.opt(item.name)
        if value is None and not item.required:
            continue
        if item.type == "replacements":
            value = _replacements(value)
        if item.type == "text" and item.nargs == "*":
            value = _words(value)
            if value is None and not item.required:
                continue  # (a required query left out: the call says what it needs)
        given[item.name] = value
    return given


def inputs(ctx: Context, op: Operation) -> dict[str, Any]:
    """The call's keyword arguments from the command line, checked before anything opens.

    A value left out is not passed (the method's default applies); a required one always
    is (a weight of ``none`` is None: no weight). A kind is checked; an
    attribute list is typed by the given kind when the call needs no fact for it (store),
    else in :func:`call`; evidence and reasons are checked as the service will; a content
    that is missing or ``-`` is read from standard input, last, so bad flags fail first.
    """
    given = _given(ctx, op)
    check_inputs(op.inputs, given)  # limits; a lone surrogate: argv not UTF-8
    names = {i.name: i for i in op.inputs}
    if "kind" in given:
        from embornal.domain.kinds.registry import KINDS

        given["kind"] = KINDS.check_kind(given["kind"])
    attrs = names.get("attributes")
    if attrs is not None and attrs.cli:
        words = given.get("attributes")
        if not words and attrs.required:
            raise InvalidAttribute(
                f"{op.cli} needs at least one --attr FIELD=VALUE",
                hint="`embornal memory kinds` lists each kind's fields.",
            )
        if words:
            from embornal.interfaces.cli.kinds_cmds import attributes_from, check_pairs

            check_pairs(words)  # a malformed word fails before the memory is opened
            if "fact_id" not in names:
                given["attributes"] = attributes_from(given.get("kind", "fact"), words)
    if "evidence" in given:
        from embornal.domain.spine.justification import parse_evidence

        evidence = given["evidence"]
        for one in evidence if isinstance(evidence, list) else [evidence]:
            parse_evidence(one, given.get("note"))
    if "reason" in given and "reason" in names:
        from embornal.domain.facts.fact import check_reason

        check_reason(given["reason"], required=names["reason"].required)
    target = names.get("target")
    if target is not None and target.type == "target" and str(given.get("target", ""))[:1] == "/":
        from embornal.domain.paths import normalize_path

        given["target"] = normalize_path(given["target"])  # path events are read by the text
    content = names.get("content")
    if content is not None and content.cli and given.get("content") in (None, "-"):
        given["content"] = read_stdin(ctx)
    return given


def read_stdin(ctx: Context) -> str:
    """The fact on standard input: strict UTF-8, trailing line breaks dropped."""
    stream = sys.stdin
    if stream is None:
        raise InvalidContent("there is no standard input to read the fact from")
    if stream.isatty():
        ctx.note("reading the fact from standard input; end it with Ctrl-D")
    data = stream.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidContent(
            f"standard input is not valid UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start})",
            hint="Convert the text to UTF-8 first, for example with `iconv -t UTF-8`.",
        ) from None
    return text.removeprefix("\ufeff").rstrip("\r\n")


def _typed_attributes(mem: MemoryAPI, op: Operation, given: dict[str, Any]) -> None:
    """``--attr`` words typed by the fact's kind: the given one, else the fact's own;
    ``FIELD=`` removes a field in an update (a required attributes input)."""
    words = given.get("attributes")
    if not isinstance(words, list):
        return
    from embornal.interfaces.cli.kinds_cmds import attributes_from

    kind = given.get("kind") or mem.show(given["fact_id"]).fact.kind
    given["attributes"] = attributes_from(kind, words, keep_empty=op.input("attributes").required)


def call(ctx: Context, op: Operation, given: dict[str, Any], *, semantic: bool = False) -> Any:
    """``op``'s method called with ``given`` on the memory of this run (the local one for a
    local-only operation; in client mode the server's)."""
    opened = (
        ctx.open_memory(semantic=semantic)
        if op.local_only
        else ctx.open_memory_api(semantic=semantic)
    )
    with opened as mem:
        _typed_attributes(mem, op, given)
        return resolve_call(mem, str(op.call))(**given)


def show(ctx: Context, op: Operation, result: Any) -> int:
    """Print ``result``: ``--json`` its wire shape (or the operation's ``cli_json`` data),
    else the operation's renderer, that of its output type, or the generic one."""
    if ctx.json:
        ctx.emit(result if op.cli_json is None else _function(op.cli_json)(ctx, result))
        return 0
    spec = op.cli_show or OUTPUT_RENDERERS.get(op.output)
    if spec is None:
        _generic(ctx, result)
    else:
        _function(spec)(ctx, result)
    return 0


def _generic(ctx: Context, result: Any) -> None:
    """A result of a type with no renderer: its wire shape, one ``key: value`` a line."""
    import json

    from embornal.interfaces.cli.render import to_jsonable

    data = to_jsonable(result)
    if result is None:
        ctx.say("ok")
    elif isinstance(data, dict):
        width = max((len(str(k)) for k in data), default=0) + 1
        for key, value in data.items():
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            ctx.say(f"{key + ':':<{width}} {text}")
    else:
        ctx.say(json.dumps(data, ensure_ascii=False, indent=2))


def run(ctx: Context) -> int:
    """The handler of every catalogue command: parse, call, print."""
    op = by_name(ctx.opt("operation"))
    if op.cli_run is not None:
        check_inputs(op.inputs, _given(ctx, op))  # each command, whatever runs it
        code: int = _function(op.cli_run)(ctx, op)
        return code
    given = inputs(ctx, op)
    semantic = any(i.name == "content" for i in op.inputs)  # it embeds what it writes
    return show(ctx, op, call(ctx, op, given, semantic=semantic))
