"""Kinds on facts: the attributes a new fact stores, what a read shows, what ``find`` asks.

Three rules hold here, so that the service, the projection and the reads agree:

* **A fact's statement is derived from its content.** For kind ``fact`` with no
  ``statement`` (or one equal to the content), nothing is stored: ``Fact.attributes`` is
  empty and ``view_fact.statement`` (so ``find("fact", {"statement": …})``) is the
  content; a statement that differs from the content is stored and shown. Every fact
  stored before kinds reads the same way, and the text is never kept twice.
* **Kinds this build does not register read as no attributes.** A fact of an older,
  free-form kind (``note``…) keeps its kind and content, shows ``{}``, and can be
  superseded by a fact of a registered kind; its attributes cannot be updated.
* **Only schema-valid payloads are stored**, canonical (:meth:`KindRegistry.validate`),
  with the kind's schema version; a read upcasts an older payload.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress

from embornal.domain.facts.fact import DEFAULT_KIND
from embornal.domain.values import value
from embornal.errors import InvalidAttribute, InvalidKind
from embornal.hints import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from embornal.domain.kinds.registry import KindRegistry

__all__ = [
    "Condition",
    "NewAttributes",
    "check_registered",
    "new_attributes",
    "parse_where",
    "read_attributes",
    "without_derived",
]

_FACT = DEFAULT_KIND
_STATEMENT = "statement"


_KINDS: KindRegistry | None = None


def _kinds(registry: KindRegistry | None) -> KindRegistry:
    """The registry (the kinds are imported on first use: a plain fact and a recall of
    facts without attributes never need them)."""
    global _KINDS
    if registry is not None:
        return registry
    if _KINDS is None:
        from embornal.domain.kinds.registry import KINDS

        _KINDS = KINDS
    return _KINDS


@value
class NewAttributes:
    """What a new fact stores: its kind, its canonical attributes (empty: none stored) and
    their schema version (None exactly when none are stored)."""

    kind: str
    attributes: dict[str, Any]
    kind_version: int | None


def without_derived(kind: str, attributes: Mapping[str, Any], content: str) -> dict[str, Any]:
    """``attributes`` less what a read derives (a fact's statement equal to its content)."""
    out = dict(attributes)
    if kind == _FACT and out.get(_STATEMENT) == content:
        del out[_STATEMENT]
    return out


def new_attributes(
    kind: object,
    attributes: Mapping[str, object] | None,
    content: str,
    *,
    registry: KindRegistry | None = None,
) -> NewAttributes:
    """The attributes of a new fact of ``kind``, validated whole (``InvalidKind`` or
    ``InvalidAttribute`` otherwise; nothing is written)."""
    if kind == _FACT and not attributes:
        return NewAttributes(_FACT, {}, None)
    registry = _kinds(registry)
    name = registry.check_kind(kind)
    if attributes is not None and not isinstance(attributes, Mapping):
        raise InvalidAttribute(f"the attributes of a {name} must be a mapping of name: value")
    given = {k: v for k, v in (attributes or {}).items() if v is not None}
    if name == _FACT and _STATEMENT not in given:
        for key in given:  # an unknown field is named before anything else
            registry.entry(name).spec(key)
        return NewAttributes(name, {}, None)
    payload = without_derived(name, registry.validate(name, given), content)
    return NewAttributes(name, payload, registry.version(name) if payload else None)


def read_attributes(
    kind: str,
    kind_version: int | None,
    stored: Mapping[str, Any] | None,
    *,
    registry: KindRegistry | None = None,
) -> dict[str, Any]:
    """The attributes a read shows: the stored payload brought to the latest version
    (a fact's derived statement is not among them; nothing for a kind this build does not
    register)."""
    out: dict[str, Any] = dict(stored or {})
    if out:
        latest = _kinds(registry).latest(kind)
        if latest is None:
            return {}
        if kind_version == latest:
            return out
        with suppress(InvalidAttribute):  # a newer build's payload: shown as it is
            _, out = _kinds(registry).upcast(kind, kind_version or 1, out)
    return out


@value
class Condition:
    """One equality of ``find``: ``field`` holds ``value`` (canonical JSON); for a list
    field, ``value`` is one of its items; ``value`` None: the field has no value."""

    field: str
    value: object | None
    member: bool = False


def _pairs(where: Mapping[str, str] | Sequence[str]) -> list[tuple[str, str]]:
    if isinstance(where, Mapping):
        return [(str(k), v) for k, v in where.items()]
    if isinstance(where, str):
        where = [where]
    out = []
    for item in where:
        if not isinstance(item, str) or "=" not in item:
            raise InvalidAttribute(
                f"a condition is FIELD=VALUE, not {str(item)[:40]!r}",
                hint="For example status=active.",
            )
        key, _, value = item.partition("=")
        out.append((key.strip(), value))
    return out


def parse_where(
    kind: object,
    where: Mapping[str, str] | Sequence[str],
    *,
    registry: KindRegistry | None = None,
) -> tuple[Condition, ...]:
    """The conditions of ``find``: ``{field: text}`` or ``["field=text", …]``, each value
    turned into the field's type (as ``--attr`` is) and its canonical form; an unknown
    field is an ``InvalidAttribute`` naming the kind's fields. A list field matches when
    it holds every item given; an empty value matches a field that has none."""
    from embornal.domain.kinds.fields import FieldType, convert, to_json

    registry = _kinds(registry)
    entry = registry.entry(kind)
    pairs = _pairs(where)
    for key, _ in pairs:
        entry.spec(key)
    out: list[Condition] = []
    for key, text in pairs:
        spec = entry.spec(key)
        value = registry.coerce_from_text(entry.kind, {key: text})[spec.name]
        if value is None:
            out.append(Condition(spec.name, None))
        elif spec.value_type is FieldType.TEXT_LIST:
            assert isinstance(value, tuple)
            items = convert(spec, list(value))
            assert isinstance(items, tuple)
            out.extend(Condition(spec.name, item, member=True) for item in items)
        else:
            out.append(Condition(spec.name, to_json(convert(spec, value))))
    return tuple(out)


def check_registered(kind: str, fact_id: str, *, registry: KindRegistry | None = None) -> str:
    """The kind of a fact whose attributes are to change; a kind this build does not
    register has none (``InvalidKind``)."""
    if kind not in _kinds(registry):
        raise InvalidKind(
            f"fact {fact_id} is of kind {kind[:40]!r}, which has no attributes",
            hint="Supersede it with a fact of a registered kind (see `embornal memory kinds`).",
        )
    return kind
