"""The kinds commands: ``memory update``, ``memory find``, ``memory kinds``, and the
``--kind``/``--attr`` options that ``memory store`` and ``memory supersede`` share.

``--attr FIELD=VALUE`` values are text; :meth:`KindRegistry.coerce_from_text` gives them
the field's type (an empty value is None: left out, or removed in an update) before the
service validates them. Bad input is one line naming what is allowed, exit 2, and
nothing is written (the service validates before it appends).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from embornal.domain.facts import Fact
from embornal.errors import InvalidAttribute
from embornal.interfaces.api import MemoryAPI
from embornal.interfaces.cli.app import Context
from embornal.interfaces.cli.render import cell, fmt_time, markdown_table

__all__ = ["attributes_from", "find", "kinds", "update"]


def _pairs(given: Sequence[str] | None, flag: str) -> dict[str, str]:
    """``FIELD=VALUE`` words as a mapping; a word with no ``=`` or a field given twice is
    an :class:`InvalidAttribute`."""
    out: dict[str, str] = {}
    for word in given or ():
        name, sep, value = word.partition("=")
        name = name.strip()
        if not sep or not name:
            raise InvalidAttribute(
                f"{flag} {word[:60]!r} is not FIELD=VALUE",
                hint=f"Write {flag} status=active (an empty value: {flag} status=).",
            )
        if name in out:
            raise InvalidAttribute(f"{flag} {name} is given more than once", hint="Give it once.")
        out[name] = value
    return out


def attributes_from(
    kind: str, given: Sequence[str] | None, *, keep_empty: bool = False
) -> dict[str, object]:
    """The ``--attr`` words typed for ``kind``; ``keep_empty``: an empty value stays None
    (an update removes the field), else it is left out."""
    from embornal.domain.kinds.registry import KINDS

    typed = KINDS.coerce_from_text(kind, _pairs(given, "--attr"))
    return {k: v for k, v in typed.items() if keep_empty or v is not None}


def store_kind(ctx: Context) -> tuple[str, dict[str, object] | None]:
    """``memory store``'s kind and attributes (``fact`` and none by default)."""
    kind: str = ctx.opt("kind") or "fact"
    attrs: list[str] | None = ctx.opt("attrs")
    if ctx.opt("kind") is None and not attrs:
        return kind, None
    from embornal.domain.kinds.registry import KINDS

    kind = KINDS.check_kind(kind)
    return kind, attributes_from(kind, attrs) if attrs else None


def supersede_kind(ctx: Context, mem: MemoryAPI) -> tuple[str | None, dict[str, object] | None]:
    """``memory supersede``'s kind and attributes (None: the old fact's)."""
    kind: str | None = ctx.opt("kind")
    attrs: list[str] | None = ctx.opt("attrs")
    if kind is None and not attrs:
        return None, None
    from embornal.domain.kinds.registry import KINDS

    named = None if kind is None else KINDS.check_kind(kind)
    typed_as = named or mem.show(ctx.opt("id")).fact.kind
    return named, (attributes_from(typed_as, attrs) if attrs else None)


# --------------------------------------------------------------------------- update


def update(ctx: Context) -> int:
    attrs: list[str] | None = ctx.opt("attrs")
    if not attrs:
        raise InvalidAttribute(
            "memory update needs at least one --attr FIELD=VALUE",
            hint="`embornal memory kinds` lists each kind's fields.",
        )
    _pairs(attrs, "--attr")  # a malformed word fails before the memory is opened
    with ctx.open_memory_api() as mem:
        kind = mem.show(ctx.opt("id")).fact.kind
        changes = attributes_from(kind, attrs, keep_empty=True)
        fact = mem.update(ctx.opt("id"), changes, reason=ctx.opt("reason"))
    if ctx.json:
        ctx.emit(fact)
    else:
        ctx.say(f"{fact.id} {fact.path} updated")
    return 0


# --------------------------------------------------------------------------- find


def _value(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _columns(kind: Mapping[str, Any]) -> list[str]:
    """The fields ``find`` shows: the required ones (the first two when none is)."""
    required = [str(f) for f in kind["required"]]
    return required or [str(f["name"]) for f in kind["fields"]][:2]


def find(ctx: Context) -> int:
    from embornal.domain.kinds.registry import KINDS

    name = KINDS.check_kind(ctx.opt("kind"))
    with ctx.open_memory_api() as mem:
        facts: list[Fact] = mem.find(
            name,
            ctx.opt("where") or [],
            under=ctx.opt("under"),
            limit=ctx.opt("limit"),
            as_of=ctx.opt("at"),
        )
    if ctx.json:
        ctx.emit(facts)
        return 0
    if not facts:
        ctx.say(f"(no live {name} facts match)")
        return 0
    (schema,) = [k for k in KINDS.describe() if k["kind"] == name]
    columns = _columns(schema)
    rows = [
        [
            f.id,
            cell(f.path),
            *(cell(_value(f.attributes.get(c))) for c in columns),
            fmt_time(f.created_at),
        ]
        for f in facts
    ]
    ctx.say(markdown_table(["ID", "Path", *columns, "Created"], rows))
    return 0


# --------------------------------------------------------------------------- kinds


def _field_line(f: Mapping[str, Any], width: int) -> str:
    extra: list[str] = []
    if "values" in f:
        extra.append(", ".join(str(v) for v in f["values"]))
    if f.get("minimum") is not None or f.get("maximum") is not None:
        low, high = f.get("minimum"), f.get("maximum")
        extra.append(
            f"{'' if low is None else _value(low)}..{'' if high is None else _value(high)}"
        )
    if f.get("format") not in (None, "plain"):
        extra.append(f"format {f['format']}")
    required = "required" if f["required"] else ""
    line = f"  {f['name']:<{width}}  {f['type']:<10}  {required:<8}  {'  '.join(extra)}"
    return line.rstrip()


def _kind_block(k: Mapping[str, Any]) -> str:
    lines = [f"{k['kind']} (v{k['version']}): {k['summary']}"]
    width = max((len(str(f["name"])) for f in k["fields"]), default=4)
    lines += [_field_line(f, width) for f in k["fields"]]
    lines += [f"  rule: {r}" for r in k["rules"]]
    return "\n".join(lines)


def kinds(ctx: Context) -> int:
    wanted: str | None = ctx.opt("kind")
    if ctx.server_url is None:  # the schemas are this build's: no memory file to open
        from embornal.domain.kinds.registry import KINDS

        schemas: list[dict[str, Any]] = KINDS.describe()
    else:
        with ctx.open_memory_api() as mem:
            schemas = mem.kinds()
    if wanted is not None:
        from embornal.domain.kinds.registry import KINDS

        name = wanted.strip().lower()
        schemas = [k for k in schemas if k["kind"] == name]
        if not schemas:
            KINDS.check_kind(wanted)  # names the kinds (exit 2)
    if ctx.json:
        ctx.emit(schemas)
    else:
        ctx.say("\n\n".join(_kind_block(k) for k in schemas))
    return 0
