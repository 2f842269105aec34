"""The kinds commands' renderers (``memory update``, ``memory find``), ``memory kinds``,
and the ``--attr`` words that ``memory store``, ``supersede`` and ``update`` share.

``--attr FIELD=VALUE`` values are text; :meth:`KindRegistry.coerce_from_text` gives them
the field's type (an empty value is None: left out, or removed in an update) before the
service validates them. Bad input is one line naming what is allowed, exit 2, and
nothing is written (the service validates before it appends).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from embornal.errors import InvalidAttribute
from embornal.interfaces.cli.render import cell, fmt_time, markdown_table

if TYPE_CHECKING:
    from embornal.domain.facts.fact import Fact
    from embornal.interfaces.catalog import Operation
    from embornal.interfaces.cli.app import Context

__all__ = ["attributes_from", "check_pairs", "kinds", "show_found", "show_updated"]


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


def check_pairs(given: Sequence[str]) -> None:
    """``--attr`` words checked for their shape (before the memory opens)."""
    _pairs(given, "--attr")


def show_updated(ctx: Context, fact: Fact) -> None:
    ctx.say(f"{fact.id} {fact.path} updated")


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


def show_found(ctx: Context, facts: Sequence[Fact]) -> None:
    """``memory find``'s table: id, path, the kind's required fields, creation time."""
    from embornal.domain.kinds.registry import KINDS

    name = KINDS.check_kind(ctx.opt("kind"))
    if not facts:
        ctx.say(f"(no live {name} facts match)")
        return
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


def kinds(ctx: Context, op: Operation) -> int:
    """Every kind's schema (``KIND``: one); this build's own, or the server's in client
    mode."""
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
