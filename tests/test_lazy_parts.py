"""A store's query parts and the projector's areas load when first wanted (decisions 0094,
0186): each part is an attribute built on first read (:class:`embornal.lazy.Part`) and kept
on the store; an area's module is named by its events' module (decision 0181), so a new
event of an area is found with no map.

The start-up test (``tests/cli/test_cli_startup.py``) checks that a recall imports none
of these modules; this file checks that each one is found when it is wanted.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from embornal import FixedClock
from embornal.domain.events import ALL_EVENT_CLASSES
from embornal.lazy import Part
from embornal.storage.common import projector as projector_sql
from embornal.storage.common.part import StorePart
from embornal.storage.common.projector import CORE_EVENTS, area, areas
from embornal.storage.contract.all_parts import AllParts
from embornal.storage.contract.store import Store
from embornal.storage.postgres.store import PostgresStore
from embornal.storage.sqlite import projector
from embornal.storage.sqlite.projector_areas import projection_tables
from embornal.storage.sqlite.store import SqliteStore


def _parts(store: type) -> dict[str, Part[object]]:
    """Each part a store class declares (its own and those it derives), by name."""
    found: dict[str, Part[object]] = {}
    for cls in reversed(store.__mro__):
        found.update({k: v for k, v in vars(cls).items() if isinstance(v, Part)})
    return found


def part_modules() -> set[str]:
    """The modules of every part of both stores."""
    return {p.module for store in (SqliteStore, PostgresStore) for p in _parts(store).values()}


@pytest.mark.parametrize("store", [SqliteStore, PostgresStore], ids=["sqlite", "postgresql"])
def test_each_store_has_each_part_of_the_contract(store: type) -> None:
    contract = {
        k for c in (AllParts, Store) for k, v in vars(c).items() if isinstance(v, property)
    } - {"path", "migrations_applied"}
    assert set(_parts(store)) == contract


@pytest.mark.parametrize("name", sorted(_parts(SqliteStore)))
def test_each_part_is_built_on_first_read_and_kept(tmp_path: Path, name: str) -> None:
    store = SqliteStore.open(tmp_path / "m.db", FixedClock())
    try:
        assert name not in vars(store)
        part = getattr(store, name)
        module, _, cls = _parts(SqliteStore)[name].where.partition(":")
        assert type(part) is getattr(import_module(module), cls)
        assert isinstance(part, StorePart) and part._store is store
        assert vars(store)[name] is part  # the next read is a plain attribute
        assert getattr(store, name) is part
    finally:
        store.close()


def test_a_parts_methods_and_helpers_read_through_the_store(tmp_path: Path) -> None:
    store = SqliteStore.open(tmp_path / "m.db", FixedClock())
    try:
        assert store.portability.event_count() == store.portability.last_position() > 0
        assert store.canon.canon_scopes  # canon_scopes calls the part's own _label_counts
        assert isinstance(SqliteStore.claims, Part)  # on the class: the descriptor
    finally:
        store.close()


def test_a_name_no_part_has_is_an_attribute_error(tmp_path: Path) -> None:
    store = SqliteStore.open(tmp_path / "m.db", FixedClock())
    try:
        with pytest.raises(AttributeError, match="'SqliteStore' object has no attribute 'nope'"):
            store.nope  # type: ignore[attr-defined]  # noqa: B018
        assert not hasattr(store, "proposal_rows")  # a part's method is the part's own
        assert getattr(store, "nope", None) is None
    finally:
        store.close()


def test_opening_a_store_imports_no_part(tmp_path: Path) -> None:
    """In a fresh interpreter, a store opened on an existing file and read imports no part
    and no area but the conflicts' (its entity keys follow every event)."""
    SqliteStore.open(tmp_path / "m.db", FixedClock()).close()  # migrated and seeded here
    parts = part_modules() | set(_area_modules())
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
    from typing import get_type_hints

    from embornal.storage.contract.parts import names

    modules = {
        get_type_hints(p.fget)["return"].__module__
        for p in vars(AllParts).values()
        if isinstance(p, property) and p.fget is not None
    }
    assert modules == set(names().values())
    for module in sorted(modules):
        exported = set(import_module(module).__all__)
        assert exported == {n for n, m in names().items() if m == module}, module
