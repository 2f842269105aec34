"""The tables the SQLite projector rebuilds from the log, each area's and the core's.

Which module projects an area's events is read from the event classes
(:func:`embornal.storage.common.projector.area`, decision 0181); nothing here maps them. The
tables are read from the areas' own ``TABLES``, so a new area lists its tables in its own
module. The core's stay written here, in the order a replay clears them: children first,
since their foreign keys point at ``facts``, ``paths`` and each other (an area's tables
hold no foreign key, and are cleared first).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from embornal.storage.common.projector import areas

__all__ = ["area_tables", "projection_tables"]


def area_tables(name: str) -> tuple[str, ...]:
    """The tables the area ``name`` projects (its module's ``TABLES``)."""
    return tuple(import_module(f"embornal.storage.common.{name}").TABLES)


@cache
def projection_tables() -> tuple[str, ...]:
    """Tables rebuilt from the log, in the order a replay clears them (children first)."""
    from embornal.storage.common import history

    return (
        *(table for name in areas() for table in area_tables(name)),
        "fact_visibility_allow",
        *history.TABLES,
        "fact_evidence",
        "fact_tags",
        "path_tags",
        "facts",
        "path_closure",
        "paths",
        "casbin_rule",
        "tokens",
    )
