"""``find`` on PostgreSQL: a kind's conditions as ``jsonb`` comparisons over the stored
attributes (canonical JSON, as the projector writes them), where SQLite reads one view per
kind (:mod:`embornal.storage.common.kind_views`). ``jsonb`` compares typed values: ``3`` equals
``3.0``, ``true`` a boolean, as SQLite's typed view columns compare."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from embornal.storage.common.kind_views import view_name

if TYPE_CHECKING:
    from embornal.domain.facts.attributes import Condition

__all__ = ["conditions_sql"]


def conditions_sql(
    kind: str, conditions: Sequence[Condition], live: str, attributes: str = "f.attributes"
) -> tuple[str, list[Any]]:
    """The WHERE terms (over ``f``) of live facts of ``kind`` meeting every condition
    (equality; a list field holds the item; None: no value) on the JSON ``attributes``
    (a past version's at a past time), and their parameters."""
    view_name(kind)  # checks the name, as SQLite's view does
    where = [live, "f.kind = ?"]
    params: list[Any] = [kind]
    for c in conditions:
        view_name(c.field)  # checks the name: it is inlined
        column = f"({attributes}::jsonb -> '{c.field}')"
        if kind == "fact" and c.field == "statement":
            column = f"coalesce({column}, to_jsonb(f.content))"
        if c.value is None:
            where.append(f"({column} IS NULL OR {column} = 'null'::jsonb)")
        elif c.member:
            where.append(f"{column} @> jsonb_build_array(?::jsonb)")
            params.append(json.dumps(c.value, ensure_ascii=False))
        else:
            where.append(f"{column} = ?::jsonb")
            params.append(json.dumps(c.value, ensure_ascii=False))
    return " AND ".join(where), params
