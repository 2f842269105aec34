"""A new capability needs no edit outside its folder (decision 0177).

The transports find the capability folders under ``embornal/interfaces/`` and read one
export per module kind: ``catalog.OPERATIONS`` (at ``catalog.PLACE``), ``wire.shapes``,
``mcp_out.BY_OUTPUT`` and ``RESULTS``, ``rest.BY_OUTPUT``, ``HTTP`` and ``REQUESTS``
(decision 0184). Here: every folder holding a kind is the set the
machinery uses, the machinery names none of them, and a folder added (in a temporary
directory on the package's path) is picked up by the catalogue and the tables.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

import embornal.interfaces
from embornal.interfaces import capabilities, catalog
from embornal.interfaces import wire as wire_module
from embornal.interfaces.catalog import CORE_OPERATIONS, LOCAL_PART, part_modules, parts, whole
from embornal.interfaces.http import api
from embornal.interfaces.mcp import tools
from embornal.interfaces.wire import WIRE_TYPES, WireCore

PACKAGE = Path(embornal.interfaces.__file__).parent

#: The generic machinery, the module kind each reads, and the capability modules of that
#: kind it may still import by name for something else than its table (the add_evidence
#: tool's combined answer schema is the claims ledger's, decision 0082).
MACHINERY = {
    "catalog.py": ("catalog", set()),
    "wire.py": ("wire", set()),
    "mcp/tools.py": ("mcp_out", {"claims"}),
    "http/api.py": ("rest", set()),
}


def test_the_folders_are_found_without_importing_them() -> None:
    folders = {p.parent.name for p in PACKAGE.glob("*/catalog.py")}
    assert set(capabilities.having("catalog")) == folders
    for kind in ("wire", "mcp_out", "rest"):
        on_disk = {p.parent.name for p in PACKAGE.glob(f"*/{kind}.py")} - capabilities.TRANSPORTS
        assert set(capabilities.having(kind)) == on_disk
        assert list(capabilities.having(kind)) == sorted(on_disk)


def test_the_catalogue_is_the_core_then_every_folders_operations_by_place() -> None:
    folders = capabilities.having("catalog")
    assert set(part_modules()) == {f"embornal.interfaces.{n}.catalog" for n in folders} | {
        LOCAL_PART
    }
    modules = [importlib.import_module(m) for m in part_modules()]
    places = [m.PLACE for m in modules]
    assert all(isinstance(p, int) for p in places)
    assert len(set(places)) == len(places)
    ordered = sorted(modules, key=lambda m: m.PLACE)
    assert parts() == tuple(m.OPERATIONS for m in ordered)
    assert whole() == CORE_OPERATIONS + tuple(op for m in ordered for op in m.OPERATIONS)


def test_every_folders_wire_shapes_are_the_wires() -> None:
    w = wire_module
    core = WireCore(w._by_fields, w._reading)
    seen: set[type] = set()
    for module in capabilities.modules("wire"):
        shapes, readers = module.shapes(core)
        assert set(shapes) <= set(WIRE_TYPES), module.__name__
        assert set(readers) <= set(wire_module._READERS), module.__name__
        assert not seen & set(shapes), module.__name__  # no type shaped twice
        seen |= set(shapes)


def test_every_folders_mcp_results_and_routes_are_the_transports() -> None:
    merged: dict[tuple[str, str], Mapping[str, object]] = {
        ("mcp_out", "RESULTS"): tools._RESULTS,
        ("mcp_out", "BY_OUTPUT"): tools._BY_OUTPUT,
        ("rest", "HTTP"): api._HTTP,
        ("rest", "BY_OUTPUT"): api._BY_OUTPUT,
        ("rest", "REQUESTS"): api._REQUESTS,
    }
    for (kind, name), into in merged.items():
        for module in capabilities.modules(kind):
            table = capabilities.table(module, name)
            assert table.items() <= into.items(), f"{module.__name__}.{name}"


def test_a_table_a_module_does_not_write_has_no_entries() -> None:
    """A capability writes only the tables it fills (the graph answers every route by
    its output: it has no ``HTTP``)."""
    rest = importlib.import_module("embornal.interfaces.graph.rest")
    assert not hasattr(rest, "HTTP")
    assert capabilities.table(rest, "HTTP") == {}
    assert capabilities.table(rest, "REQUESTS") is rest.REQUESTS


@pytest.mark.parametrize("source", sorted(MACHINERY))
def test_the_machinery_lists_no_capability(source: str) -> None:
    kind, allowed = MACHINERY[source]
    text = (PACKAGE / source).read_text(encoding="utf-8")
    named = set(re.findall(rf"embornal\.interfaces\.(\w+)\.{kind}\b", text))
    named |= set(re.findall(rf"from embornal\.interfaces\.(\w+) import {kind}\b", text))
    assert named <= allowed
    assert not re.search(
        r"\b[A-Z]+_(OPERATIONS|RESULTS|HTTP|REQUESTS)\b", text.replace("CORE_", "")
    )


# -- a folder added is picked up ---------------------------------------------------------

FAKE = "zz_probe"

_CATALOG = """
from embornal.interfaces.catalog_types import Operation

PLACE = 10_000
OPERATIONS = (Operation("zz_probe_op", "Health", call=None),)
"""
_TABLE = """
RESULTS = {"zz_probe_op": ("model", "project")}
HTTP = {"zz_probe_op": ("answer", None, "envelope")}
BY_OUTPUT = {"ZzProbe": ("model", "project")}
REQUESTS = {"zz_probe_other": None}
"""


@pytest.fixture
def fake_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A capability folder ``zz_probe`` with a catalogue record and its MCP and REST
    tables, in a directory added to the package's path; the catalogue read afresh."""
    folder = tmp_path / FAKE
    folder.mkdir()
    (folder / "__init__.py").write_text('"""A capability made by a test."""\n')
    (folder / "catalog.py").write_text(_CATALOG)
    (folder / "mcp_out.py").write_text(_TABLE)
    (folder / "rest.py").write_text(_TABLE)
    monkeypatch.setattr(
        embornal.interfaces, "__path__", [*embornal.interfaces.__path__, str(tmp_path)]
    )
    monkeypatch.setattr(catalog, "_ALL", [])
    monkeypatch.setattr(catalog, "_BY_NAME", {})
    importlib.invalidate_caches()
    yield FAKE
    for name in [n for n in sys.modules if n.startswith(f"embornal.interfaces.{FAKE}")]:
        del sys.modules[name]


def test_a_new_folder_is_in_the_catalogue_and_the_tables(fake_folder: str) -> None:
    for kind in ("catalog", "mcp_out", "rest"):
        assert fake_folder in capabilities.having(kind)
    assert fake_folder not in capabilities.having("wire")
    assert whole()[-1].name == "zz_probe_op"
    assert catalog.by_name("zz_probe_op").output == "Health"
    assert capabilities.merged("mcp_out", "RESULTS", {})["zz_probe_op"] == ("model", "project")
    assert capabilities.merged("rest", "HTTP", {})["zz_probe_op"] == ("answer", None, "envelope")
    assert capabilities.merged("rest", "REQUESTS", {})["zz_probe_other"] is None


def test_a_new_folders_answers_by_output_are_the_transports(fake_folder: str) -> None:
    """An output type a new folder answers for, beside the types the others answer for;
    one given twice (here, by the core) is refused."""
    for kind in ("mcp_out", "rest"):
        core: dict[str, object] = {"Fact": "the core's"}
        table = capabilities.merged(kind, "BY_OUTPUT", core)
        assert table["ZzProbe"] == ("model", "project")
        assert table["Fact"] == "the core's"
        assert "Proposal" in table  # the proposals folder's
        with pytest.raises(ValueError, match="ZzProbe"):
            capabilities.merged(kind, "BY_OUTPUT", {"ZzProbe": "the core's"})


def test_a_table_entry_given_twice_is_refused(fake_folder: str) -> None:
    with pytest.raises(ValueError, match="zz_probe_op"):
        capabilities.merged("rest", "HTTP", {"zz_probe_op": "the core's"})


def test_two_parts_at_one_place_are_refused(
    fake_folder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _CATALOG.replace("10_000", "10")  # the spine's place
    (tmp_path / fake_folder / "catalog.py").write_text(text)
    with pytest.raises(ValueError, match="PLACE"):
        parts()
