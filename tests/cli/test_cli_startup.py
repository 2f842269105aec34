"""Start-up stays lazy: what a command imports, and that the lazy parser still shows all.

No test here is timed (``benchmarks/startup.py`` measures the time): the console
script runs with ``-X importtime``, and the test reads which modules the run imported.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import EMBORNAL, Run

from embornal.interfaces.catalog import part_modules
from embornal.interfaces.cli.tree import build_parser
from embornal.lazy import Part
from embornal.storage.common.projector import areas
from embornal.storage.contract.parts import names
from embornal.storage.sqlite.store import SqliteStore
from import_probe import modules_after

#: Libraries (and our modules over them) that a memory command on a local memory with
#: no config and no model never needs: servers, access engine, model runtimes, YAML,
#: the HTTP client, and OpenSSL (hashlib, hmac, secrets).
HEAVY = (
    "mcp",
    "starlette",
    "uvicorn",
    "anyio",
    "httpx",
    "pydantic",
    "casbin",
    "numpy",
    "onnxruntime",
    "tokenizers",
    "sentence_transformers",
    "torch",
    "sqlite_vec",
    "yaml",
    "urllib.request",
    "http.client",
    "ssl",
    "logging",
    "hashlib",
    "hmac",
    "secrets",
    "tempfile",
    "embornal.interfaces.mcp",
    "embornal.interfaces.http",
    "embornal.interfaces.cli.remote",
    "embornal.adapters.embeddings.base",
    "embornal.adapters.embeddings.factory",
)


#: What ``memory recall`` (which writes one FactsRecalled) leaves unimported besides (decision
#: 0050): the other event classes, the kinds' registry and schemas (no fact here has
#: attributes), the fact aggregate and the confidence maths (writes only), and the stock
#: ``sqlite3`` (the driver is sqlean).
OFF_THE_RECALL_PATH = (
    "embornal.domain.events.types",
    "embornal.domain.kinds",
    "embornal.domain.facts.attributes",
    "embornal.domain.spine.confidence",
    "embornal.domain.facts.aggregate",
    "embornal.domain.history.protocol",
    "embornal.domain.history.state",
    "embornal.domain.events.protocol",
    "embornal.service.history.protocol",
    "sqlite3",
    # the catalogue's other parts (decision 0092): recall is one of its core operations
    *part_modules(),
    "embornal.service.sharing.tokens",
    "embornal.service.reindex_result",
    # the storage contract's Protocols: the recall's path names them in annotations only, and
    # builds the contract's rows (storage/contract/rows.py)
    "embornal.storage.contract.store",
    "embornal.storage.contract.copy",
    # standard modules: the store's locks come from _thread, a vector is packed on first use
    "threading",
    "array",
    # the store's query parts, the projector's areas and the contract's parts (decisions
    # 0094, 0186), but the conflicts' projection, whose entity keys follow every event
    *sorted(
        {p.module for c in SqliteStore.__mro__ for p in vars(c).values() if isinstance(p, Part)}
        | {f"embornal.storage.common.{name}" for name in areas() if name != "conflicts"}
        | set(names().values())
        | {"embornal.storage.contract.all_parts"}
    ),
)


def _imported(*args: str, env: dict[str, str] | None = None) -> set[str]:
    """The modules ``embornal ARGS`` imports (read from ``-X importtime``)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", str(EMBORNAL), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env if env is not None else os.environ.copy(),
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and not line.rstrip().endswith("| imported package"):
            names.add(line.rsplit("|", 1)[1].strip())
    assert "embornal.interfaces.cli.main" in names  # the reader saw the run
    return names


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a new interpreter (the console script's own process); it exits 0."""
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def _heavy(names: set[str]) -> list[str]:
    return sorted(n for n in names for h in HEAVY if n == h or n.startswith(h + "."))


#: The short commands: what agents run from hooks.
SHORT_COMMANDS = [
    ("memory", "recall", "sqlite"),
    ("memory", "recall"),
    ("--json", "memory", "recall", "sqlite", "--meta", "--explain"),
    ("memory", "store", "/projects/embornal", "The CLI starts fast."),
    ("memory", "cat", "/projects/embornal"),
    ("--json", "memory", "cat", "/projects/embornal"),
]


@pytest.mark.parametrize("args", SHORT_COMMANDS, ids=lambda a: " ".join(a))
def test_memory_commands_import_no_heavy_module(embornal_home: Path, args: tuple[str, ...]) -> None:
    from embornal import Memory

    with Memory.open() as mem:
        mem.store("/projects/embornal", "The memory lives in SQLite.")
    assert _heavy(_imported(*args)) == []


#: Standard modules a short command on a local memory never needs: the paths of its files
#: are worked out as text (``pathlib``, and ``urllib.parse`` under it), and an id's random
#: bits are read from ``os.urandom`` (``random``).
NOT_ON_THE_SHORT_PATH = ("pathlib", "urllib", "random")


@pytest.mark.parametrize("where", ["EMBORNAL_HOME", "XDG default", "--db"])
@pytest.mark.parametrize("args", SHORT_COMMANDS, ids=lambda a: " ".join(a))
def test_memory_commands_import_no_pathlib_or_random(
    embornal_home: Path, monkeypatch: pytest.MonkeyPatch, where: str, args: tuple[str, ...]
) -> None:
    """Wherever the memory is: ``EMBORNAL_HOME``, the data dir of the XDG default (no
    variable set, as from a hook), or ``--db``."""
    from embornal import Memory

    db = embornal_home.parent / "given" / "m.db"
    if where == "XDG default":
        monkeypatch.delenv("EMBORNAL_HOME")
    folder = {"EMBORNAL_HOME": embornal_home, "XDG default": embornal_home.parent / "home"}
    with Memory.open(db if where == "--db" else None) as mem:
        mem.store("/projects/embornal", "The memory lives in SQLite.")
        assert mem.db_path.startswith(f"{folder.get(where, db.parent)}/")
    names = _imported(*(("--db", str(db), *args) if where == "--db" else args))
    assert sorted(n for n in names for m in NOT_ON_THE_SHORT_PATH if n.partition(".")[0] == m) == []


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "recall", "sqlite"),
        ("memory", "recall"),
        ("--json", "memory", "recall", "sqlite", "--meta", "--explain"),
    ],
    ids=lambda a: " ".join(a),
)
def test_recall_imports_only_its_own_event(embornal_home: Path, args: tuple[str, ...]) -> None:
    from embornal import Memory

    with Memory.open() as mem:
        mem.store("/projects/embornal", "The memory lives in SQLite.")
    names = _imported(*args)
    assert "embornal.domain.events.recalled" in names  # the one event class it writes
    off = [n for n in names for o in OFF_THE_RECALL_PATH if n == o or n.startswith(o + ".")]
    assert sorted(off) == []
    # the results a recall never returns stay unloaded, but for the wire of --json
    assert ("embornal.service.facts.details" in names) is ("--json" in args)
    assert ("embornal.service.facts.view" in names) is ("--json" in args)


#: Standard modules the console script runs only on first use (decisions 0173, 0182), and
#: what ``inspect`` would import: a recall uses none of them.
DEFERRED_BY_THE_SCRIPT = (
    "inspect",
    "ast",
    "dis",
    "tokenize",
    "copy",
    "ipaddress",
    "ntpath",
    "fnmatch",
)


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "recall", "sqlite"),
        ("--json", "memory", "recall", "sqlite", "--meta", "--explain"),
    ],
    ids=lambda a: " ".join(a),
)
def test_recall_runs_no_deferred_standard_module(
    embornal_home: Path, args: tuple[str, ...]
) -> None:
    """A dataclass with no docstring, an ``asdict`` or a URL's bracketed host on the
    recall's path would run one of them: each would cost start-up again."""
    from embornal import Memory

    with Memory.open() as mem:
        mem.store("/projects/embornal", "The memory lives in SQLite.")
    names = _imported(*args)
    assert sorted(n for n in DEFERRED_BY_THE_SCRIPT if n in names) == []
    code = (
        "import sys\n"
        "from embornal.interfaces.cli.main import DEFERRED, main\n"
        f"sys.argv = ['embornal', *{args!r}]\n"
        "code = main()\n"
        "ran = [n for n in DEFERRED if type(sys.modules[n]).__name__ != 'OnFirstUse']\n"
        "sys.stderr.write(f'ran={ran} code={code}')\n"
    )
    proc = _python(code)
    assert proc.stderr.endswith("ran=[] code=0")


@pytest.mark.parametrize(
    "args",
    [("memory", "recall", "sqlite"), ("memory", "recall", "sqlite", "--no-reinforce")],
    ids=lambda a: " ".join(a),
)
def test_recall_compiles_no_source(embornal_home: Path, args: tuple[str, ...]) -> None:
    """The first ``compile()`` of a process makes the interpreter's syntax-tree classes
    (some 9 M instructions): a type written as text for ``typing`` to resolve (a
    ``NamedTuple`` field, a ``Union`` of names, ``get_type_hints``) pays it, so a recall's
    path resolves none. (A module's source, compiled when its byte code is missing, is
    bytes: not counted.)"""
    from embornal import Memory

    with Memory.open() as mem:
        mem.store("/projects/embornal", "The memory lives in SQLite.")
    code = (
        "import builtins, sys\n"
        "seen = []\n"
        "compile_ = builtins.compile\n"
        "def spy(source, *a, **k):\n"
        "    if isinstance(source, str):\n"
        "        seen.append(source[:60])\n"
        "    return compile_(source, *a, **k)\n"
        "builtins.compile = spy\n"
        "from embornal.interfaces.cli.main import main\n"
        f"sys.argv = ['embornal', *{args!r}]\n"
        "code = main()\n"
        "sys.stderr.write(f'compiled={seen} code={code}')\n"
    )
    proc = _python(code)
    assert proc.stderr.endswith("compiled=[] code=0"), proc.stderr[-2000:]


@pytest.mark.parametrize("args", SHORT_COMMANDS, ids=lambda a: " ".join(a))
def test_a_short_command_imports_no_typing(embornal_home: Path, args: tuple[str, ...]) -> None:
    """The modules on the short commands' path take typing's names from
    :mod:`embornal.hints`, stand-ins at run time (decision 0191): ``typing`` (some 5 ms)
    stays unimported, as does the storage contract's Protocols, which need it."""
    from embornal import Memory

    with Memory.open() as mem:
        mem.store("/projects/embornal", "The memory lives in SQLite.")
    names = _imported(*args)
    assert sorted(n for n in ("typing", "embornal.storage.contract.store") if n in names) == []


def _fields_of(cls: type) -> list[str] | None:
    """The fields of a value, record or named tuple class (None: it is none of them)."""
    if "__dataclass_fields__" in vars(cls):
        return [f.name for f in dataclasses.fields(cls)]
    for key in ("__record_names__", "__record_fields__", "_fields"):
        if key in vars(cls):
            return list(vars(cls)[key])
    return None


def test_without_typing_each_class_has_the_fields_it_has_with_it(embornal_home: Path) -> None:
    """``dataclasses`` knows a ``ClassVar`` written as text only once typing is imported:
    the value classes leave theirs out of their fields themselves (decision 0191). Each
    class that the short commands load, in a process that never imports typing, has the
    fields it has here, where typing is imported."""
    from embornal import Memory

    with Memory.open() as mem:
        mem.store("/projects/embornal", "The memory lives in SQLite.")
    code = (
        "import dataclasses, json, sys\n"
        "from embornal.interfaces.cli.main import main\n"
        "for args in (['memory', 'store', '/projects/embornal', 'The CLI starts fast.'],\n"
        "             ['--json', 'memory', 'recall', 'sqlite', '--meta', '--explain'],\n"
        "             ['memory', 'cat', '/projects/embornal']):\n"
        "    sys.argv = ['embornal', *args]\n"
        "    assert main() == 0\n"
        f"{inspect.getsource(_fields_of)}\n"
        "seen = {f'{c.__module__}:{c.__qualname__}': _fields_of(c)\n"
        "        for name, module in list(sys.modules.items()) if name.startswith('embornal')\n"
        "        for c in vars(module).values()\n"
        "        if isinstance(c, type) and c.__module__ == name and _fields_of(c) is not None}\n"
        "sys.stderr.write(json.dumps({'typing': 'typing' in sys.modules, 'seen': seen}))\n"
    )
    proc = _python(code)
    found = json.loads(proc.stderr)
    assert found["typing"] is False
    seen: dict[str, list[str]] = found["seen"]
    assert {"embornal.domain.events.recalled:FactsRecalled", "embornal.domain.facts.fact:Fact"} < (
        seen.keys()
    )
    here = {}
    for where in seen:
        module, _, name = where.partition(":")
        here[where] = _fields_of(getattr(importlib.import_module(module), name))
    assert seen == here


def test_the_keyword_index_leaves_shutil_to_a_rebuild() -> None:
    """A keyword search of a large memory loads the keyword index (decision 0165); only a
    rebuild or a drop removes its folder, so ``shutil`` (with ``bz2`` and ``lzma``) is not
    loaded with it."""
    loaded = modules_after("import embornal.storage.sqlite.keyword_index")
    assert "embornal.storage.sqlite.keyword_index" in loaded
    assert sorted({"shutil", "bz2", "lzma"} & loaded) == []


def test_a_deferred_module_is_the_module_on_first_use() -> None:
    """``import`` binds the stand-in; the first read runs the module into that same object,
    so a dataclass without a docstring, ``asdict``, ``from copy import deepcopy``, a
    bracketed host, a Windows path and a glob pattern all work as with the module imported
    at once."""
    code = """
import sys
from embornal.interfaces.cli.main import _defer_standard_modules
_defer_standard_modules()
import dataclasses, inspect, pathlib, urllib.parse
assert type(inspect).__name__ == "OnFirstUse" and sys.modules["inspect"] is inspect
assert type(sys.modules["ntpath"]).__name__ == "OnFirstUse"
assert type(sys.modules["fnmatch"]).__name__ == "OnFirstUse"
assert str(pathlib.PureWindowsPath("C:/a", "b")) == "C:\\\\a\\\\b"
assert pathlib.PurePosixPath("/a/b.py").match("*.py")
assert not pathlib.PurePosixPath("/a/b.txt").match("*.py")
import fnmatch, ntpath
assert ntpath.join("C:/a", "b") == "C:/a\\\\b" and fnmatch.fnmatch("b.py", "*.py")
assert type(ntpath) is type(sys) and type(fnmatch) is type(sys)

@dataclasses.dataclass
class Pair:
    x: int
    y: list

assert Pair.__doc__ == "Pair(x: int, y: list)", Pair.__doc__
assert type(inspect) is type(sys) and sys.modules["inspect"] is inspect
assert inspect.__file__.endswith("inspect.py") and inspect.signature(Pair).parameters
assert dataclasses.asdict(Pair(1, [2])) == {"x": 1, "y": [2]}
from copy import deepcopy
assert deepcopy([[1]]) == [[1]] and type(sys.modules["copy"]) is type(sys)
assert urllib.parse.urlsplit("http://[::1]:8000/").hostname == "::1"
try:
    urllib.parse.urlsplit("http://[nope]/")
except ValueError:
    pass
else:
    raise AssertionError("a bad bracketed host is refused")
try:
    inspect.no_such_name
except AttributeError:
    print("ok")
"""
    proc = _python(code)
    assert proc.stdout == "ok\n"


def test_threads_reading_a_deferred_module_at_once_all_find_it() -> None:
    """One thread runs the module; the others wait for it instead of reading it half run."""
    code = """
import sys, threading
from embornal.interfaces.cli.main import _defer_standard_modules
_defer_standard_modules()
import inspect
start = threading.Barrier(8)
found = []

def read():
    start.wait()
    found.append(inspect.signature(len) is not None and callable(inspect.getsource))

threads = [threading.Thread(target=read) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(found.count(True))
"""
    proc = _python(code)
    assert proc.stdout == "8\n"


def test_version_and_help_import_no_service(embornal_home: Path) -> None:
    for args in (("--version",), ("--help",), ("memory", "--help"), ("memory", "recall", "-h")):
        names = _imported(*args)
        assert _heavy(names) == []
        assert not any(n.startswith(("embornal.service", "embornal.storage")) for n in names)


def test_the_reader_sees_a_heavy_module(embornal_home: Path) -> None:
    """The check itself: a command that needs the YAML parser is seen to import it."""
    embornal_home.mkdir(parents=True)
    (embornal_home / "config.yaml").write_text("recall:\n  limit: 5\n", encoding="utf-8")
    assert "yaml" in _heavy(_imported("memory", "recall", "sqlite"))


# -- the lazy parser shows everything ---------------------------------------------------


def _tree() -> dict[str, list[str]]:
    """Every group and its commands (``[]``: the group is a command), from the parser."""
    root = build_parser()
    (groups,) = [a for a in root._actions if a.dest == "group"]
    assert isinstance(groups.choices, dict)
    out: dict[str, list[str]] = {}
    for name, parser in groups.choices.items():
        subs = [a for a in parser._actions if a.dest == "command"]
        assert len(subs) <= 1
        out[name] = list(subs[0].choices) if subs and isinstance(subs[0].choices, dict) else []
    return out


def test_the_parser_tree_is_whole() -> None:
    tree = _tree()
    assert list(tree) == [
        "memory",
        "bootstrap",
        "conflict",
        "canon",
        "narrative",
        "claim",
        "config",
        "admin",
        "export",
        "import",
        "mcp",
        "proposal",
        "prune",
        "ingest",
        "model",
        "token",
        "policy",
        "serve",
        "status",
        "doctor",
        "completion",
    ]
    assert len(tree["memory"]) == 57 and "recall" in tree["memory"]
    assert tree["export"] == ["markdown", "events"]
    assert tree["import"] == [
        "events",
        "markdown",
        "memory-as-history",
        "basic-memory",
        "mem0",
        "mcp-memory",
        "chatgpt",
        "claude",
    ]
    assert tree["conflict"] == ["list", "show", "resolve", "scan", "mark"]
    assert tree["canon"] == ["add", "remove", "end", "list", "scopes"]
    assert tree["narrative"] == ["add", "current", "review", "history", "list"]
    assert tree["claim"] == [
        "create",
        "evidence",
        "adopt",
        "revise",
        "withdraw",
        "retract",
        "list",
        "show",
    ]
    assert sum(len(v) or 1 for v in tree.values()) == 122


def test_every_command_is_in_the_help_and_in_docs(cli: Run) -> None:
    docs = (Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    headings = [line[3:] for line in docs.splitlines() if line.startswith("## ")]
    top = cli("--help")
    assert top.code == 0
    for group, commands in _tree().items():
        assert re.search(rf"\n    {group}\s", top.out), group
        shown = cli(group, "--help")
        assert shown.code == 0 and shown.out.startswith(f"usage: embornal {group} ")
        if not commands:
            assert any(h == group or h.startswith(f"{group} ") for h in headings), group
        for command in commands:
            assert re.search(rf"\n    {command}\s", shown.out), (group, command)
            r = cli(group, command, "--help")
            assert r.code == 0 and r.out.startswith(f"usage: embornal {group} {command}")
            documented = [h for h in headings if h.startswith(f"{group} ")]
            words = {w.strip(",") for h in documented for w in h.split()[1:]}
            assert command in words, f"docs/cli.md has no section for {group} {command}"


def test_unknown_commands_name_the_closest_choice(cli: Run) -> None:
    """Every command is known to the lazy parser: a mistyped one finds its nearest."""
    r = cli("memory", "wik")
    assert r.code == 2
    assert "unknown command 'wik'; did you mean 'wiki'?" in r.err  # the last registered
    r = cli("memroy", "recall", "--json")
    assert r.code == 2 and r.json()["error"] == "usage"
    assert "did you mean 'memory'?" in r.err and "'serve'" not in r.err
    r = cli("memory", "zzzz")
    assert r.code == 2 and "57 commands" in r.err
    r = cli("memory")
    assert r.code == 2 and "the following arguments are required: COMMAND" in r.err
