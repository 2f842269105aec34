"""The SQLite store's query parts and the projector's areas load when first wanted
(decision 0094); the static map that says where each part's method lives holds every method,
both ways, so a new part method cannot be forgotten; an area's module is named by its
events' module (decision 0181), so a new event of an area is found with no map.

The start-up test (``tests/cli/test_cli_startup.py``) checks that a recall imports none
of these modules; this file checks that each one is found when it is wanted.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from embornal import FixedClock
from embornal.domain.events import ALL_EVENT_CLASSES
from embornal.storage.common import projector as projector_sql
from embornal.storage.common.projector import CORE_EVENTS, area, areas
from embornal.storage.sqlite import projector
from embornal.storage.sqlite.part_map import PART_METHODS, LazyParts, part_function
from embornal.storage.sqlite.parts import QueryParts
from embornal.storage.sqlite.projector_areas import projection_tables
from embornal.storage.sqlite.store import SqliteStore


def _store_own() -> set[str]:
    """The names the store defines itself (its own methods win over a part's stub)."""
    return {name for cls in SqliteStore.__mro__ if cls is not object for name in vars(cls)}


def _part_methods() -> dict[str, object]:
    """Every function of the parts the store does not define itself, as the parts' class
    resolves it (the first base that defines the name)."""
    found: dict[str, object] = {}
    for cls in QueryParts.__mro__[1:]:
        if cls is object:
            continue
        for name, value in vars(cls).items():
            if name.startswith("__") and name.endswith("__"):
                continue
            assert inspect.isfunction(value), (
                f"{cls.__qualname__}.{name} is not a plain method: a part may hold only "
                "methods (the store binds them when first used)"
            )
            if name not in _store_own():
                found.setdefault(name, getattr(QueryParts, name))
    return found


def test_the_store_derives_from_the_parts_only_for_the_type_checker() -> None:
    assert SqliteStore.__mro__[1] is LazyParts
    assert not any(issubclass(SqliteStore, base) for base in QueryParts.__bases__)


def test_the_map_names_every_method_of_the_parts_and_nothing_else() -> None:
    methods = _part_methods()
    assert sorted(set(methods) - set(PART_METHODS)) == [], "add them to PART_METHODS"
    assert sorted(set(PART_METHODS) - set(methods)) == [], "no part has them"


@pytest.mark.parametrize("name", sorted(PART_METHODS))
def test_each_name_resolves_to_the_parts_own_function(name: str) -> None:
    module, _, cls = PART_METHODS[name].partition(":")
    assert name in vars(getattr(import_module(module), cls))  # the class that defines it
    assert part_function(name) is _part_methods()[name]


def test_a_part_method_is_bound_to_the_store_on_first_use_and_kept(tmp_path: Path) -> None:
    store = SqliteStore.open(tmp_path / "m.db", FixedClock())
    try:
        assert "event_count" not in vars(store)
        count = store.event_count
        assert count.__self__ is store and count.__func__ is part_function("event_count")
        assert vars(store)["event_count"] == count  # the next call is an attribute
        assert store.event_count() == store.last_position() > 0  # the guide's events
        assert store.canon_scopes  # a part's helper too: canon_scopes calls _label_counts
    finally:
        store.close()


def test_a_name_no_part_has_is_an_attribute_error(tmp_path: Path) -> None:
    store = SqliteStore.open(tmp_path / "m.db", FixedClock())
    try:
        with pytest.raises(AttributeError, match="'SqliteStore' object has no attribute 'nope'"):
            store.nope  # noqa: B018
        assert not hasattr(store, "proposal_rowz")
        assert getattr(store, "nope", None) is None
    finally:
        store.close()


def test_opening_a_store_imports_no_part(tmp_path: Path) -> None:
    """In a fresh interpreter, a store opened on an existing file and read imports no part
    and no area but the conflicts' (its entity keys follow every event)."""
    SqliteStore.open(tmp_path / "m.db", FixedClock()).close()  # migrated and seeded here
    parts = {where.partition(":")[0] for where in PART_METHODS} | set(_area_modules())
    parts.discard("embornal.storage.common.conflicts")
    code = (
        "import sys\n"
        "from embornal import FixedClock\n"
        "from embornal.storage.sqlite.store import SqliteStore\n"
        f"s = SqliteStore.open({str(tmp_path / 'm.db')!r}, FixedClock())\n"
        "s.facts_at('/')\n"
        "s.close()\n"
        f"print(sorted(m for m in {sorted(parts)!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"


# -- the projector's areas ------------------------------------------------------------


def _area_modules() -> list[str]:
    return [f"embornal.storage.common.{name}" for name in areas()]


def _declared_in(cls: type) -> str:
    return cls.__module__.rpartition(".")[2]


def test_every_event_type_has_a_projection_reachable_through_its_events_module() -> None:
    for cls in ALL_EVENT_CLASSES:
        if _declared_in(cls) not in CORE_EVENTS:
            module = import_module(f"embornal.storage.common.{area(cls.TYPE)}")
            assert area(cls.TYPE) == _declared_in(cls), cls.TYPE
            assert projector.handler(cls.TYPE) is module.HANDLERS[cls.TYPE], cls.TYPE
        else:  # the core's: the projector's own, or written once for both backends
            with pytest.raises(LookupError, match="the core's"):
                area(cls.TYPE)
            own = projector.handler(cls.TYPE)
            assert own.__module__ in (projector.__name__, projector_sql.__name__), cls.TYPE


def test_each_areas_handlers_are_the_events_its_events_module_declares() -> None:
    assert areas() == (
        "canon",
        "claims",
        "conflicts",
        "graph",
        "narratives",
        "proposals",
        "protocol",
    )
    for name in areas():
        handled = set(import_module(f"embornal.storage.common.{name}").HANDLERS)
        declared = {cls.TYPE for cls in ALL_EVENT_CLASSES if _declared_in(cls) == name}
        assert handled == declared, name


def test_postgresql_projects_every_event_type_through_the_same_areas() -> None:
    from embornal.storage.postgres import projector as pg_projector

    assert {cls.TYPE for cls in ALL_EVENT_CLASSES} == pg_projector.PORTED


def test_the_projection_tables_are_each_areas_and_the_cores() -> None:
    tables = projection_tables()
    assert tables == projector.PROJECTION_TABLES and len(set(tables)) == len(tables)
    owned = [t for module in _area_modules() for t in import_module(module).TABLES]
    assert list(tables[: len(owned)]) == owned  # the areas' first: they hold no foreign key
    with pytest.raises(AttributeError):
        projector.NOT_A_NAME  # noqa: B018


# -- the contract's parts ----------------------------------------------------------------


def test_the_contract_names_each_parts_name_from_its_module() -> None:
    from embornal.storage.contract import store as contract
    from embornal.storage.contract.parts import names

    for name, module in names().items():
        assert getattr(contract, name) is getattr(import_module(module), name), name
        assert name in contract.__all__
    with pytest.raises(AttributeError, match="has no attribute 'NotAPart'"):
        contract.NotAPart  # noqa: B018


def test_each_parts_module_is_in_the_names() -> None:
    from embornal.storage.contract.all_parts import AllParts
    from embornal.storage.contract.parts import names

    modules = {base.__module__ for base in AllParts.__bases__} - {"typing"}
    assert modules == set(names().values())
    for module in sorted(modules):
        exported = set(import_module(module).__all__)
        assert exported == {n for n, m in names().items() if m == module}, module
