"""Architecture: imports point down the layers, the public surface is declared, modules stay small.

The layers (docs/model.md, Where things live): interfaces → service → storage / adapters,
with domain pure (no I/O) and ``embornal.errors`` usable by everyone. The checks read the
source with ``ast``, so an import hidden inside a function or under ``TYPE_CHECKING`` counts
too.
"""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import embornal

SRC = Path(embornal.__file__).resolve().parent
#: Modules are sized by cohesion, not by a cap (decision 0163): this generous bound
#: only catches a module that has become two, and the formatter lays every line out.
MAX_LINES = 1000


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    tree: ast.Module


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> list[Module]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        out.append(Module(_module_name(path), path, tree))
    return out


MODULES = _modules()


def _package(mod: Module) -> str:
    return mod.name if mod.path.name == "__init__.py" else mod.name.rpartition(".")[0]


def _from_target(package: str, node: ast.ImportFrom) -> str:
    """The module a ``from … import`` reads, a relative one resolved from ``package``."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    prefix = ".".join(base[: len(base) - (node.level - 1)])
    return f"{prefix}.{node.module}" if node.module else prefix


def _imports(mod: Module) -> set[str]:
    """Every module name ``mod`` imports (absolute, relative resolved, import_module strings)."""
    found: set[str] = set()
    package = _package(mod)
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = _from_target(package, node)
            found.add(target)
            # ``from embornal import storage`` imports the module embornal.storage.
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("exports", "Later", "Part")
        ):  # embornal.lazy: the modules named in its call ("." + a submodule of this one,
            # "module:Class" for a Part)
            for arg in node.args:
                for const in ast.walk(arg):
                    if isinstance(const, ast.Constant) and isinstance(const.value, str):
                        if const.value.startswith("embornal."):
                            found.add(const.value.partition(":")[0])
                        elif const.value.startswith(".") and const.value[1:].isidentifier():
                            found.add(mod.name + const.value)
    return found


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


FORBIDDEN: dict[str, tuple[str, ...]] = {
    "embornal.domain": (
        "embornal.storage",
        "embornal.service",
        "embornal.adapters",
        "embornal.interfaces",
        "sqlean",
        "sqlite3",
        "os",
        "pathlib",
        "socket",
        "urllib",
        "http",
        "subprocess",
        "shutil",
        "tempfile",
    ),
    "embornal.storage": ("embornal.service", "embornal.interfaces"),
    "embornal.service": ("embornal.interfaces",),
    "embornal.adapters": ("embornal.service", "embornal.interfaces", "embornal.storage"),
    "embornal.lazy": (
        "embornal.domain",
        "embornal.storage",
        "embornal.service",
        "embornal.adapters",
        "embornal.interfaces",
        "embornal.errors",
    ),
    "embornal.errors": (
        "embornal.domain",
        "embornal.storage",
        "embornal.service",
        "embornal.adapters",
        "embornal.interfaces",
    ),
}


#: The one exception to the domain's rule against ``os``: an id's 80 random bits are the
#: system's entropy, read as ``random.SystemRandom`` reads them, by ``from os import urandom``
#: at the top of ``embornal.domain.ids`` and nothing else of ``os`` (importing ``random``
#: costs every short command its start; ``secrets`` loads OpenSSL).
ENTROPY = ("embornal.domain.ids", "from os import urandom")


def _layer_imports(mod: Module) -> set[str]:
    """What ``mod`` imports, but for the import :data:`ENTROPY` allows."""
    name, allowed = ENTROPY
    if mod.name != name:
        return _imports(mod)
    body = [node for node in mod.tree.body if ast.unparse(node) != allowed]
    return _imports(Module(mod.name, mod.path, ast.Module(body=body, type_ignores=[])))


def test_every_layer_exists() -> None:
    names = {m.name for m in MODULES}
    for layer in FORBIDDEN:
        assert layer in names, f"{layer} is missing: the layer rules would check nothing"


def test_the_entropy_exception_is_one_import() -> None:
    """:data:`ENTROPY` names a module that has the import, and allows no other of ``os``."""
    name, allowed = ENTROPY
    (mod,) = [m for m in MODULES if m.name == name]
    assert allowed in [ast.unparse(node) for node in mod.tree.body]
    assert "os" in _imports(mod) and not [i for i in _layer_imports(mod) if _within(i, "os")]


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_imports_point_down_the_layers(layer: str) -> None:
    violations = []
    for mod in MODULES:
        if not _within(mod.name, layer):
            continue
        for imported in sorted(_layer_imports(mod)):
            for banned in FORBIDDEN[layer]:
                if _within(imported, banned):
                    violations.append(f"{mod.name} imports {imported}")
    assert violations == []


# -- the storage contract --------------------------------------------------------------

# Above storage, code knows the contract (embornal.storage.contract.store) and the factory
# that opens a backend (embornal.storage.factory), never a backend or its driver.
ABOVE_STORAGE = ("embornal.service", "embornal.domain", "embornal.interfaces")
BACKEND_MODULES = (
    "embornal.storage.sqlite.store",
    "embornal.storage.sqlite.connect",
    "sqlean",
    "sqlite3",
    "sqlite_vec",
)
# What of embornal.storage the service may import: the contract, and the factory
# (the composition root: the one place that names a backend, and only lazily).
#: The contract (its Protocols, and the rows a read builds, apart so that a short command
#: does not make the Protocols) and the factory.
SERVICE_MAY_IMPORT = (
    "embornal.storage.contract.store",
    "embornal.storage.contract.rows",
    "embornal.storage.factory",
)
SQL_MARKERS = ("SELECT ", "INSERT ", ".execute(", ".executemany(")


def _above_storage() -> list[Module]:
    return [m for m in MODULES if any(_within(m.name, layer) for layer in ABOVE_STORAGE)]


def test_nothing_above_storage_imports_a_backend_or_a_driver() -> None:
    violations = [
        f"{mod.name} imports {imported}"
        for mod in _above_storage()
        for imported in sorted(_imports(mod))
        if any(_within(imported, banned) for banned in BACKEND_MODULES)
    ]
    assert violations == []


def test_the_service_imports_only_the_storage_contract_and_factory() -> None:
    violations = [
        f"{mod.name} imports {imported}"
        for mod in MODULES
        if _within(mod.name, "embornal.service")
        for imported in sorted(_imports(mod))
        if _within(imported, "embornal.storage")
        and imported != "embornal.storage"
        and not any(_within(imported, allowed) for allowed in SERVICE_MAY_IMPORT)
    ]
    assert violations == []


def test_the_factory_names_the_backend_only_lazily() -> None:
    """``open_store`` imports the SQLite store inside the function, not at import time."""
    (factory,) = [m for m in MODULES if m.name == "embornal.storage.factory"]
    top = {
        node.module
        for node in factory.tree.body
        if isinstance(node, ast.ImportFrom) and node.module is not None
    }
    assert "embornal.storage.sqlite.store" not in top
    assert "embornal.storage.sqlite.store" in _imports(factory)


def test_no_sql_above_storage() -> None:
    """No SQL statement or driver call is written in service, domain or interfaces."""
    found = []
    for mod in _above_storage():
        text = mod.path.read_text("utf-8")
        for marker in SQL_MARKERS:
            if marker in text:
                found.append(f"{mod.name}: {marker!r}")
    assert found == []


def _contract_part(name: str) -> bool:
    """The contract and the modules it is made of (``embornal.storage.contract``)."""
    return _within(name, "embornal.storage.contract")


@pytest.mark.parametrize(
    "contract", [m for m in MODULES if _contract_part(m.name)], ids=lambda m: m.name
)
def test_the_contract_names_no_driver_and_holds_no_sql(contract: Module) -> None:
    imported = _imports(contract)
    others = [i for i in imported if _within(i, "embornal.storage") and not _contract_part(i)]
    assert not others, imported
    assert not [i for i in imported if any(_within(i, b) for b in BACKEND_MODULES)]
    text = contract.path.read_text("utf-8")
    assert not [marker for marker in SQL_MARKERS if marker in text]
    assert "Connection" not in text


def test_the_import_reader_sees_hidden_imports() -> None:
    """The checker itself: lazy, relative and string imports are all found."""
    code = (
        "import os\n"
        "from . import sibling\n"
        "from ..storage.sqlite import store\n"
        "def f():\n"
        "    from embornal.service.memory import Memory\n"
        "    importlib.import_module('embornal.interfaces.cli')\n"
        "__getattr__, __dir__ = exports(__name__, {'A': '.types', 'B': 'embornal.adapters.x'})\n"
        "later = Later('embornal.service.y')\n"
        "class S:\n"
        "    part = Part('embornal.service.z:Z')\n"
    )
    mod = Module("embornal.domain.fake", SRC / "domain" / "fake.py", ast.parse(code))
    got = _imports(mod)
    assert {
        "os",
        "embornal.domain.sibling",
        "embornal.storage.sqlite.store",
        "embornal.service.memory",
        "embornal.interfaces.cli",
        "embornal.domain.fake.types",
        "embornal.adapters.x",
        "embornal.service.y",
        "embornal.service.z",
    } <= got


def _getattrs(node: ast.stmt) -> list[ast.expr]:
    """What a module-level statement (an ``if`` block's too) assigns to ``__getattr__``,
    other than a call of :func:`embornal.lazy.exports`."""
    if isinstance(node, ast.If):
        return [e for child in (*node.body, *node.orelse) for e in _getattrs(child)]
    if not isinstance(node, ast.Assign):
        return []
    names = [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    made = node.value
    by_exports = (
        isinstance(made, ast.Call)
        and isinstance(made.func, ast.Name)
        and made.func.id in ("exports", "_exports")
    )
    return [made] if "__getattr__" in names and not by_exports else []


#: Module-level ``__getattr__`` written by hand: a value computed on first read, no import
#: put off (the catalogue's ``CATALOG``, the whole catalogue once its parts are read).
COMPUTED_ON_READ = {"embornal.interfaces.catalog"}


def test_an_import_is_put_off_one_way() -> None:
    """Decision 0183: :mod:`embornal.lazy` is the one way to put an import off; no module
    writes its own ``__getattr__`` or module stand-in."""
    found = []
    for mod in MODULES:
        if mod.name == "embornal.lazy":
            continue
        for node in mod.tree.body:
            if (
                isinstance(node, ast.FunctionDef)
                and node.name == "__getattr__"
                and mod.name not in COMPUTED_ON_READ
            ):
                found.append(f"{mod.name}: def __getattr__")
            if isinstance(node, ast.ClassDef) and node.name == "Later":
                found.append(f"{mod.name}: class Later")
            found += [f"{mod.name}: __getattr__ = {ast.unparse(made)}" for made in _getattrs(node)]
    assert found == []


def _backend(name: str) -> str | None:
    """Which side of the storage layer a module is on: PostgreSQL's package, or the rest
    (SQLite's modules and the dialect-neutral ones written for both)."""
    if _within(name, "embornal.storage.postgres"):
        return "postgres"
    return "sqlite" if _within(name, "embornal.storage") else None


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _private_names_across(mod: Module) -> list[str]:
    """The private names (``_x``) of the other backend's modules that ``mod`` reads: by
    ``from m import _x``, or as ``m._x`` of a module it imported."""
    side = _backend(mod.name)
    if side is None:
        return []
    package = _package(mod)
    aliases: dict[str, str] = {}  # a name bound to a module -> that module
    found: list[str] = []
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            target = _from_target(package, node)
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{target}.{alias.name}"
                other = _backend(target) not in (None, side)
                if other and _private(alias.name):
                    found.append(f"{target}.{alias.name}")
    for node in ast.walk(mod.tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and _private(node.attr)
        ):
            target = aliases[node.value.id]
            if _backend(target) not in (None, side):
                found.append(f"{target}.{node.attr}")
    return sorted(set(found))


STORAGE = [m for m in MODULES if _backend(m.name) is not None]


@pytest.mark.parametrize("mod", STORAGE, ids=[m.name for m in STORAGE])
def test_no_backend_reads_the_other_backends_private_names(mod: Module) -> None:
    """What both backends use is public in a shared module (decisions 0149, 0171): neither
    backend reaches into the other's private helpers."""
    assert _private_names_across(mod) == []


def test_the_private_name_check_sees_both_spellings() -> None:
    code = (
        "from embornal.storage.sqlite.portability import _row, refusing\n"
        "from ..common import context\n"
        "from embornal.storage.postgres import db\n"
        "def f():\n"
        "    return context._sql(1, '1'), db._JSON_IDS\n"
    )
    path = SRC / "storage" / "postgres" / "fake.py"
    mod = Module("embornal.storage.postgres.fake", path, ast.parse(code))
    assert _private_names_across(mod) == [
        "embornal.storage.common.context._sql",
        "embornal.storage.sqlite.portability._row",
    ]
    mod = Module("embornal.storage.fake", SRC / "storage" / "fake.py", ast.parse(code))
    assert _private_names_across(mod) == ["embornal.storage.postgres.db._JSON_IDS"]


# -- the public surface ----------------------------------------------------------------

SURFACE = Path(__file__).parent / "helpers" / "surface.py"


@pytest.fixture(scope="module")
def surface() -> dict[str, Any]:
    """What a fresh interpreter sees of each module (see helpers/surface.py)."""
    result = subprocess.run(
        [sys.executable, str(SURFACE)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    return report


IMPORTABLE = [m for m in MODULES if not m.name.endswith(".__main__")]


@pytest.mark.parametrize("mod", IMPORTABLE, ids=[m.name for m in IMPORTABLE])
def test_every_module_declares_all(surface: dict[str, Any], mod: Module) -> None:
    """Every module with public names declares ``__all__``, and each name in it exists.

    A package marker that binds no public name has nothing to declare; a ``__main__``
    module is a script and is not imported.
    """
    info = surface["modules"][mod.name]
    if info["all"] is None:
        assert info["public"] == [], f"{mod.path} has public names but no __all__"
        return
    assert len(info["all"]) == len(set(info["all"])), "duplicates in __all__"
    assert info["missing"] == [], f"{mod.name}.__all__ names what the module lacks"


def test_every_module_was_inspected(surface: dict[str, Any]) -> None:
    assert sorted(surface["modules"]) == sorted(m.name for m in IMPORTABLE)


def test_every_name_in_all_is_importable_from_embornal(surface: dict[str, Any]) -> None:
    package = surface["package"]
    assert "Memory" in package["all"]
    assert package["missing"] == []


def test_star_import_binds_exactly_all(surface: dict[str, Any]) -> None:
    package = surface["package"]
    assert package["star"] == sorted(package["all"])


def test_the_package_binds_no_public_name_outside_all(surface: dict[str, Any]) -> None:
    package = surface["package"]
    assert set(package["public_fresh"]) <= set(package["all"])
    assert package["public_loaded"] == sorted(package["all"])


HEAVY = ("mcp", "onnxruntime", "torch", "sentence_transformers", "casbin", "numpy")


def test_importing_memory_loads_no_heavy_module() -> None:
    """``from embornal import Memory`` stays light: no MCP SDK, no model runtimes."""
    code = (
        "import sys\n"
        "from embornal import Memory\n"
        f"heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_using_a_memory_does_not_import_mcp(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from embornal import Memory\n"
        f"with Memory.open({str(tmp_path / 'm.db')!r}) as mem:\n"
        "    fact = mem.store('/a', 'hello world')\n"
        "    mem.recall('hello')\n"
        "    mem.show(fact.id)\n"
        "print('mcp' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


# -- size ------------------------------------------------------------------------------


OVERSIZE: dict[str, str] = {}


@pytest.mark.parametrize(
    "mod",
    [
        pytest.param(m, marks=pytest.mark.xfail(strict=True, reason=OVERSIZE[m.name]))
        if m.name in OVERSIZE
        else m
        for m in MODULES
    ],
    ids=[m.name for m in MODULES],
)
def test_no_module_exceeds_the_line_budget(mod: Module) -> None:
    lines = len(mod.path.read_text("utf-8").splitlines())
    assert lines <= MAX_LINES, f"{mod.path} has {lines} lines; is it two modules?"


TESTS = Path(__file__).resolve().parent
_LAYOUT_MARKER = re.compile(r"#\s*fmt:\s*(skip|off|on)\b")


def _literal(node: ast.expr) -> bool:
    """A value written out: a constant, a name (``None``, an exception class), or a
    display of such values."""
    if isinstance(node, ast.Constant | ast.Name):
        return True
    if isinstance(node, ast.Attribute):
        return _literal(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _literal(k) for k in node.keys) and all(
            _literal(v) for v in node.values
        )
    return False


def _table(node: ast.expr) -> bool:
    """A literal data table: a display of two rows or more, each row a tuple, list or
    dict display of literal values (for a dict, each value is a row)."""
    rows = node.values if isinstance(node, ast.Dict) else getattr(node, "elts", None)
    if not isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict) or len(rows) < 2:
        return False
    return all(isinstance(r, ast.Tuple | ast.List | ast.Dict) and _literal(r) for r in rows)


def _table_ends(tree: ast.Module) -> set[int]:
    """The last line of each assignment of a literal data table and of each
    ``pytest.mark.parametrize`` whose values are one: where a table's marker stands."""
    ends = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value and _table(node.value):
            ends.add(node.end_lineno or node.lineno)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for deco in node.decorator_list:
                if (
                    isinstance(deco, ast.Call)
                    and ast.unparse(deco.func) == "pytest.mark.parametrize"
                    and len(deco.args) >= 2
                    and _table(deco.args[1])
                ):
                    ends.add(deco.end_lineno or deco.lineno)
    return ends


def _stray_layout_markers(source: str) -> list[int]:
    """The lines whose comment keeps the formatter off (fmt: skip, off or on) anywhere but
    at the end of a literal data table (decision 0163): a table of rows keeps its columns;
    code, calls and argument lists are laid out by the formatter."""
    markers = [
        (token.start[0], found.group(1))
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT and (found := _LAYOUT_MARKER.search(token.string))
    ]
    tables = _table_ends(ast.parse(source))
    return [n for n, kind in markers if kind != "skip" or n not in tables]


@pytest.mark.parametrize("mod", MODULES, ids=[m.name for m in MODULES])
def test_the_formatter_lays_out_the_code(mod: Module) -> None:
    stray = _stray_layout_markers(mod.path.read_text("utf-8"))
    assert stray == [], f"{mod.path}: layout kept from the formatter at lines {stray}"


def test_the_formatter_lays_out_the_tests_and_benchmarks() -> None:
    stray = [
        f"{path.relative_to(TESTS.parent)}:{n}"
        for folder in (TESTS, TESTS.parent / "benchmarks")
        for path in sorted(folder.rglob("*.py"))
        for n in _stray_layout_markers(path.read_text("utf-8"))
    ]
    assert stray == [], f"layout kept from the formatter outside a literal data table: {stray}"


def test_the_layout_check_accepts_only_a_literal_table() -> None:
    skip = "  # fmt: " + "skip"  # in two, so a search for the marker finds only real ones
    table = f'ROWS = [\n    ("a", 1, None),\n    ("b", -2, InvalidInput),\n]{skip}\n'
    assert _stray_layout_markers(table) == []
    parametrized = (
        f'@pytest.mark.parametrize(("x", "y"), [(1, {{"k": "v"}}), (2, {{}})]){skip}\n'
        "def test_x(x, y): ...\n"
    )
    assert _stray_layout_markers(parametrized) == []
    assert _stray_layout_markers(f"x = 1{skip}\n") == [1]
    assert _stray_layout_markers(f"ROWS = [(1, 2), (3, f(4))]{skip}\n") == [1]
    assert _stray_layout_markers(f"ROWS = [1, 2, 3]{skip}\n") == [1]
    assert _stray_layout_markers(f"db.executemany('q', [(1, 2), (3, 4)]){skip}\n") == [1]
    assert _stray_layout_markers(f"assert f(1, 2) == [(1, 2), (3, 4)]{skip}\n") == [1]
    off = "# fmt: " + "off\nROWS = [(1, 2), (3, 4)]\n# fmt: " + "on\n"
    assert _stray_layout_markers(off) == [1, 3]


# -- the service: a facade over use cases, no mixins ------------------------------------

SERVICE = [m for m in MODULES if _within(m.name, "embornal.service")]
#: Memory's methods that do more than hand the context to a use case.
FACADE_OWN = ("open", "close", "as_subject")


def _mixed_in(cls: type) -> list[str]:
    """The classes of embornal.service that ``cls`` inherits from (Protocols and
    exceptions aside): a mixin chain, where the service wants a use case of a context."""
    return [
        f"{cls.__module__}.{cls.__qualname__} inherits {base.__module__}.{base.__qualname__}"
        for base in cls.__mro__[1:]
        if _within(base.__module__, "embornal.service")
        and not issubclass(base, BaseException)
        and not getattr(base, "_is_protocol", False)
    ]


def test_no_class_of_the_service_inherits_another() -> None:
    import importlib

    found = []
    for mod in SERVICE:
        module = importlib.import_module(mod.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == mod.name:
                found.extend(_mixed_in(value))
    assert found == []


def test_the_mixin_check_sees_a_mixin() -> None:
    from typing import Protocol

    class Part:
        pass

    class Whole(Part):
        pass

    class Shape(Protocol):
        def area(self) -> float: ...

    class Square(Shape):
        def area(self) -> float:
            return 1.0

    class Refused(Exception):
        pass

    class Worse(Refused):
        pass

    for cls in (Part, Whole, Shape, Square, Refused, Worse):
        cls.__module__ = "embornal.service.fake"
    assert _mixed_in(Whole) == [
        "embornal.service.fake.test_the_mixin_check_sees_a_mixin.<locals>.Whole inherits "
        "embornal.service.fake.test_the_mixin_check_sees_a_mixin.<locals>.Part"
    ]
    assert _mixed_in(Square) == _mixed_in(Worse) == []


def _memory_class(tree: ast.Module) -> ast.ClassDef:
    (memory,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Memory"]
    return memory


def _not_delegating(tree: ast.Module, use_cases: set[str]) -> list[str]:
    """Memory's public methods whose body (after its docstring) is not one statement that
    hands ``self._ctx`` to a use case (properties: that reads ``self._ctx``)."""
    bad = []
    for fn in _memory_class(tree).body:
        if not isinstance(fn, ast.FunctionDef) or fn.name.startswith("_"):
            continue
        if fn.name in FACADE_OWN:
            continue
        body = fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr):
            bad.append(f"{fn.name}: {len(body)} statements")
            continue
        value = body[0].value
        ctx = "self._ctx"
        if any(isinstance(d, ast.Name) and d.id == "property" for d in fn.decorator_list):
            if value is None or ctx not in ast.unparse(value):
                bad.append(f"{fn.name}: a property that does not read {ctx}")
            continue
        if not (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id in use_cases
            and value.args
            and ast.unparse(value.args[0]) == ctx
        ):
            bad.append(f"{fn.name}: not a call of a use case with {ctx}")
    return bad


def _bound_names(tree: ast.Module, modules: set[str]) -> set[str]:
    """The names a module binds to the given modules (``from p import m as alias``)."""
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
        if f"{node.module}.{alias.name}" in modules
    }


def test_memory_is_a_facade_whose_methods_delegate() -> None:
    """Each public method of Memory but open/close/as_subject is one call of a use-case
    module of embornal.service, given the context; the work is done there."""
    (memory,) = [m for m in SERVICE if m.name == "embornal.service.memory"]
    modules = {m.name for m in SERVICE} - {
        "embornal.service.memory",
        "embornal.service.results",
        "embornal.service.context",
    }
    use_cases = {m.rpartition(".")[2] for m in modules} | _bound_names(memory.tree, modules)
    assert _not_delegating(memory.tree, use_cases) == []
    body = _memory_class(memory.tree).body
    methods = [n.name for n in body if isinstance(n, ast.FunctionDef)]
    derived = _derived_methods(body)
    assert {"store", "recall", "token_add", "rebuild"} <= set(methods)
    assert {"forget", "tag_path", "confirm", "remember"} <= set(derived)
    later = _later_modules(memory.tree)  # ``recalling = Later("embornal.service.recall.…")``
    named = {later.get(module, f"embornal.service.{module}") for module, _ in derived.values()}
    assert named <= {m.name for m in SERVICE}


def _later_modules(tree: ast.Module) -> dict[str, str]:
    """``NAME = Later("module")`` anywhere in the module: the module each name stands for."""
    return {
        node.targets[0].id: node.value.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "Later"
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value.args[0], ast.Constant)
    }


def _derived_methods(body: list[ast.stmt]) -> dict[str, tuple[str, str]]:
    """``NAME = use_case(lambda: module.function[, RIGHTS])`` (decisions 0175, 0179): each
    method made from its use case, by name, with the module and function it calls."""
    found: dict[str, tuple[str, str]] = {}
    for node in body:
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        call = node.value
        if not (isinstance(call.func, ast.Name) and call.func.id == "use_case"):
            continue
        (target,), (lam, *_rights) = node.targets, call.args
        assert isinstance(target, ast.Name) and isinstance(lam, ast.Lambda), ast.dump(node)
        ref = lam.body
        assert isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name), ast.dump(ref)
        found[target.id] = (ref.value.id, ref.attr)
    return found


def test_the_delegation_check_sees_work_in_the_facade() -> None:
    code = (
        "class Memory:\n"
        "    def fine(self, x):\n"
        "        '''Doc.'''\n"
        "        return facts.fine(self._ctx, x)\n"
        "    def busy(self, x):\n"
        "        y = x + 1\n"
        "        return facts.busy(self._ctx, y)\n"
        "    def inline(self):\n"
        "        return self._ctx.store.rules()\n"
        "    @property\n"
        "    def name(self):\n"
        "        return self._ctx.subject\n"
    )
    assert _not_delegating(ast.parse(code), {"facts"}) == [
        "busy: 2 statements",
        "inline: not a call of a use case with self._ctx",
    ]


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_two_modules_import_each_other() -> None:
    """No import cycle, direct or through others, lazy imports included: a cycle means two
    modules are one responsibility split wrong."""
    assert _cycles(_import_graph()) == []


def _import_graph() -> dict[str, set[str]]:
    """Module → the modules it imports, a package's ``__init__`` included: a package that
    re-exports its modules is a cycle as soon as one of them imports the package back
    (``from embornal.domain.events import X`` inside the events package) instead of the
    module that defines the name."""
    names = {m.name for m in MODULES}
    return {m.name: {i for i in _imports(m) if i in names and i != m.name} for m in MODULES}


def test_the_cycle_check_sees_a_package_imported_back_by_its_module() -> None:
    graph = _import_graph()
    package, module = "embornal.domain.events", "embornal.domain.events.envelope"
    assert module in graph[package]
    graph[module] = graph[module] | {package}
    assert any(package in cycle and module in cycle for cycle in _cycles(graph))


def test_the_cycle_check_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
