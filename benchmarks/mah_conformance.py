"""memory-as-history 1.3.1's own conformance suite, run against ``embornal mcp --compat
memory-as-history``.

    python benchmarks/mah_conformance.py [SDIST | --fetch] [--episodes N] [--jobs J]
                                         [--server embornal|peer] [--no-tests]
                                         [--out benchmarks/results/mah_conformance.json]

Nothing of the peer is kept in this repository: its sdist (the given path, or with
``--fetch`` ``pip download --no-deps --no-binary :all: memory-as-history==1.3.1`` into
``benchmarks/.cache/mah``) is unpacked into that cache and its code imported from there.

1. Its frozen protocol benchmark (120 episodes, 930 checks and 60 guards) is replayed by
   its own runner (``memory_as_history.benchmarks.protocol.run_case``) with only the
   transport changed: each ``Store(path)`` is a fresh ``embornal mcp --compat
   memory-as-history --profile full`` process (the peer's tools, refusals as plain
   results, its times: decision 0155) over stdio with its own ``EMBORNAL_HOME``, ``reopen``
   restarts it, and each ``store.<op>(*args, **kwargs)`` is a ``tools/call`` of that
   name with the same arguments (positional ones named after the peer's ``Store``
   signature). The answer is its structured content (else the text block parsed as JSON;
   a ``{"result": ...}`` wrapper of the SDK is taken off). A refusal (a plain result
   named after the peer's exception, or ``isError``) raises that exception, for
   embornal's error code: ``access_denied`` and ``protocol_violation`` →
   ``PermissionError``, ``not_found`` → ``KeyError``, other invalid input or conflicts →
   ``ValueError``. The peer's ``run_protocol`` then scores
   the answers as given. An episode that errors or times out counts its assertions as
   failed; the run goes on.
2. Its MCP-level tests (``tests/test_server.py``, ``test_sessions.py``,
   ``test_knowledge_protocol.py``) run under pytest with the server command swapped to
   ``embornal mcp --compat memory-as-history`` (``benchmarks/mah_swap.py``); the tests that call
   the peer's own CLI or storage module are listed and left out.

``--server peer`` runs both against the peer's own server instead: the harness's control.
``--episodes`` (default 36, three per family) takes episodes in turn from each family;
``--episodes 120`` is the whole corpus (about half an hour on two busy cores). Prints the
scores, saves JSON and rewrites its section of RESULTS.md.
"""

from __future__ import annotations

import ast
import asyncio
import concurrent.futures
import contextlib
import importlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import REPO_ROOT, machine_info, results_parser, save_results

HEADING = "memory-as-history conformance"
PEER = "memory-as-history==1.3.1"
CACHE = REPO_ROOT / "benchmarks/.cache/mah"
PEER_TEST_FILES = ("test_server.py", "test_sessions.py", "test_knowledge_protocol.py")
# A full run (120 episodes, about 650 server starts) takes about half an hour on two busy
# cores; three episodes per family keep a default run near ten minutes.
DEFAULT_EPISODES = 36
PEER_ERRORS = ("ValueError", "PermissionError", "KeyError")
# The one ``Store`` read the peer's own MCP server offers no tool for: ``get(memory_id)``.
# When the server lists no ``get`` tool it is replayed as embornal's read of one fact by
# id (``show``); when it lists no ``show`` either (``--compat``: the peer's tools), as
# embornal's own ``show`` on the file, as against the peer's server (the control) the
# peer's own ``Store.get`` reads it.
READ_FALLBACKS: dict[str, tuple[str, dict[str, str]]] = {"get": ("show", {"memory_id": "id"})}
COMPAT = "memory-as-history"
_EXCEPTIONS: dict[str, type[Exception]] = {
    "ValueError": ValueError,
    "PermissionError": PermissionError,
    "KeyError": KeyError,
}


# --- the pure parts: how a call and its answer cross the wire -------------------------


class ToolRefused(Exception):
    """A refusal whose error code has no counterpart among the peer's exceptions."""


def peer_exception_name(code: str) -> str | None:
    """The peer's exception for an error code of embornal (or of the peer), or None."""
    if code in PEER_ERRORS:
        return code
    from embornal.interfaces.mcp.compat import peer_error

    return peer_error(code)


def call_arguments(
    params: Sequence[str], args: Sequence[Any], kwargs: dict[str, Any]
) -> dict[str, Any]:
    """The ``tools/call`` arguments of ``store.op(*args, **kwargs)``: positional arguments
    named after the peer's signature ``params`` (without ``self``), then the keywords."""
    if len(args) > len(params):
        raise TypeError(f"{len(args)} positional arguments for parameters {list(params)}")
    named = dict(zip(params, args, strict=False))
    clash = set(named) & set(kwargs)
    if clash:
        raise TypeError(f"argument given twice: {sorted(clash)}")
    return {**named, **kwargs}


def fallback_call(
    op: str, arguments: dict[str, Any], tools: set[str]
) -> tuple[str, dict[str, Any]]:
    """The tool and arguments that replay ``store.op(**arguments)``: the same name and
    arguments, unless the server lacks the tool and :data:`READ_FALLBACKS` names another."""
    if op in tools or op not in READ_FALLBACKS:
        return op, arguments
    tool, renames = READ_FALLBACKS[op]
    return tool, {renames.get(k, k): v for k, v in arguments.items()}


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def answer_of(wire: dict[str, Any]) -> Any:
    """The answer of a ``CallToolResult`` (as its wire dict): its structured content, else
    the one text block parsed as JSON (several: the list of them, as FastMCP 1.x sends a
    list); an SDK wrapper ``{"result": ...}`` is taken off."""
    texts = [_parse(b["text"]) for b in wire.get("content") or [] if b.get("type") == "text"]
    if wire.get("structuredContent") is not None:
        value = wire["structuredContent"]
    elif len(texts) == 1:
        value = texts[0]
    else:
        value = texts or None
    if isinstance(value, dict) and list(value) == ["result"]:
        value = value["result"]
    return value


class Answer(dict[str, Any]):
    """An answer object as the peer's runner reads a ``Store`` result: its fields are also
    attributes (``store.remember(text).id``); a field it lacks is an ``AttributeError``."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "to_dict" or name not in self:
            raise AttributeError(name)
        return self[name]


def as_peer_value(answer: Any) -> Any:
    """An answer as the peer's ``Store`` hands it back: an object answer readable both as
    a dict and by attribute, anything else as it came."""
    return Answer(answer) if isinstance(answer, dict) else answer


def refusal_of(wire: dict[str, Any], answer: Any) -> Exception | None:
    """The exception the peer's ``Store`` would have raised for this answer, or None.

    An ``isError`` answer is a refusal (its ``error`` code mapped by
    :func:`peer_exception_name`); so is a plain answer named after one of the peer's
    exceptions (the peer's server answers ``{"error": "ValueError", ...}``)."""
    if isinstance(answer, dict) and isinstance(answer.get("error"), str):
        code, message = answer["error"], str(answer.get("message", ""))
    elif wire.get("isError"):
        code, message = "error", str(answer)
    else:
        return None
    if not wire.get("isError") and code not in PEER_ERRORS:
        return None
    name = peer_exception_name(code)
    text = f"{code}: {message}"
    return _EXCEPTIONS[name](text) if name else ToolRefused(text)


def blocked_result(case: dict[str, Any], exc: BaseException) -> dict[str, Any]:
    """The peer's episode result when the episode could not even start: every assertion
    and guard failed, marked blocked (the shape of ``run_case``)."""
    checks: list[dict[str, Any]] = []
    for index, step in enumerate(case["steps"]):
        pending = list(step.get("assertions", []))
        if step.get("expect_error"):
            pending.append({"metric": "guard", "expected": step["expect_error"]})
        checks.extend(
            {"step": index, **a, "passed": False, "blocked": True, "actual": {"blocked_by_step": 0}}
            for a in pending
        )
    error = {"step": 0, "op": "open", "error": type(exc).__name__, "message": str(exc)}
    return {k: case[k] for k in ("id", "family", "language", "split")} | {
        "passed": False,
        "connection_lifetimes": 0,
        "checks": checks,
        "errors": [error],
        "elapsed_ms": 0.0,
        "database_bytes": 0,
    }


def select_cases(cases: Sequence[dict[str, Any]], n: int | None) -> list[dict[str, Any]]:
    """``n`` episodes taken in turn from each family (all of them when ``n`` is None)."""
    if n is None or n >= len(cases):
        return list(cases)
    families: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        families.setdefault(case["family"], []).append(case)
    picked: list[dict[str, Any]] = []
    depth = max(len(v) for v in families.values())
    for i in range(depth):
        for members in families.values():
            if i < len(members) and len(picked) < n:
                picked.append(members[i])
    order = {c["id"]: i for i, c in enumerate(cases)}
    return sorted(picked, key=lambda c: order[c["id"]])


_ID = re.compile(r"\b(?:[0-9A-HJKMNP-TV-Z]{26}|[0-9a-f]{12,32})\b")


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = _ID.sub("<id>", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def failure_causes(
    cases: Sequence[dict[str, Any]], results: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The failures grouped for the engineer who fixes them: the error that stopped each
    episode (op, exception, message), the checks that failed on an answer (read, path,
    field missing or value differs) and the guards that did not hold."""
    steps = {c["id"]: c["steps"] for c in cases}
    stops: Counter[tuple[str, str, str]] = Counter()
    stopped_assertions: Counter[tuple[str, str, str]] = Counter()
    checks: Counter[tuple[str, str, str]] = Counter()
    examples: dict[tuple[str, str, str], dict[str, Any]] = {}
    guards: Counter[tuple[str, str, str]] = Counter()
    for row in results:
        for err in row["errors"]:
            key = (err["op"], err["error"], _short(err["message"]))
            stops[key] += 1
            stopped_assertions[key] += sum(bool(c.get("blocked")) for c in row["checks"])
        for check in row["checks"]:
            if check["passed"] or check.get("blocked"):
                continue
            step = steps[row["id"]][check["step"]]
            if check["metric"] == "guard":
                guards[(step["op"], check["expected"], str(check["actual"]))] += 1
                continue
            actual = check["actual"]
            kind = "missing" if actual == {"missing": True} else "differs"
            key = (step.get("read", step["op"]), check["path"], kind)
            checks[key] += 1
            examples.setdefault(
                key,
                {"expected": _short(check["value"]), "actual": _short(actual), "case": row["id"]},
            )
    return {
        "stopped_by": [
            {
                "op": k[0],
                "error": k[1],
                "message": k[2],
                "episodes": n,
                "blocked": stopped_assertions[k],
            }
            for k, n in stops.most_common()
        ],
        "failed_checks": [
            {"read": k[0], "path": k[1], "kind": k[2], "count": n, **examples[k]}
            for k, n in checks.most_common()
        ],
        "failed_guards": [
            {"op": k[0], "expected": k[1], "actual": k[2], "count": n}
            for k, n in guards.most_common()
        ],
    }


def test_failure_cause(message: str) -> str:
    """A failed peer test's first failure line, as a cause: a refusal sent with ``isError``
    (the peer's tests read refusals as plain results), a call accepted that the peer
    refuses, a missing answer field, or else the assertion itself."""
    if message.startswith("AssertionError") and '"error":' in message and "text" in message:
        return "refusal answered with isError (the peer answers a plain result)"
    field = re.search(r"KeyError\W+'([^']*)'", message)
    if field and field.group(1) == "error":
        return "accepted where the peer refuses (no `error` in the answer)"
    if field:
        return f"answer lacks `{field.group(1)}`"
    return message.split(" [single exception")[0][:120]


def peer_own_tests(source: str) -> list[str]:
    """The test functions of a peer test file that call the peer's own CLI (a helper that
    runs ``subprocess``) or import its package directly (its storage module)."""
    tree = ast.parse(source)
    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    helpers = {f.name for f in functions if "subprocess" in ast.unparse(f)}
    own = []
    for f in functions:
        if not f.name.startswith("test_"):
            continue
        text = ast.unparse(f)
        names = {n.id for n in ast.walk(f) if isinstance(n, ast.Name)}
        if names & helpers or re.search(r"(from|import) memory_as_history\b", text):
            own.append(f.name)
    return own


# --- the transport: a synchronous Store over one MCP stdio server process ---------------


class Loop:
    """One asyncio loop in a background thread, shared by every connection of a run."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, coro: Any, timeout: float) -> Any:
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"no answer within {timeout:.0f} s") from None

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)


def server_params(server: str, db: Path, peer_src: Path) -> Any:
    """How a ``Store(db)`` starts its process: ``embornal mcp --compat memory-as-history
    --profile full`` with a fresh ``EMBORNAL_HOME`` beside the file, or (``peer``) the
    peer's own server."""
    from mcp import StdioServerParameters

    if server == "peer":
        env = {
            "MEMORY_AS_HISTORY_DB": str(db),
            "MEMORY_AS_HISTORY_TOOLS": "full",
            "PYTHONPATH": str(peer_src),
        }
        return StdioServerParameters(
            command=sys.executable, args=["-m", "memory_as_history.server"], env=env
        )
    env = {"EMBORNAL_HOME": str(db.parent / "embornal-home"), "PYTHONPATH": str(REPO_ROOT / "src")}
    args = ["-m", "embornal.interfaces.cli.main", "mcp", "--compat", COMPAT, "--profile", "full"]
    args += ["--db", str(db)]
    return StdioServerParameters(command=sys.executable, args=args, env=env)


class Connection:
    """One server process and its client session, driven from a synchronous caller."""

    def __init__(self, loop: Loop, params: Any, errlog: Path, timeout: float) -> None:
        self._loop, self._timeout = loop, timeout
        self._errlog_path = errlog
        self._errlog = errlog.open("a", encoding="utf-8")
        self._session: Any = None
        self._ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._closing: asyncio.Event | None = None
        self._task = asyncio.run_coroutine_threadsafe(self._serve(params), loop.loop)
        try:
            self._ready.result(timeout)
        except BaseException as exc:
            self._task.cancel()
            self._errlog.close()
            tail = errlog.read_text(encoding="utf-8", errors="replace")[-400:]
            raise RuntimeError(f"server did not start: {exc!r} {tail}") from None

    async def _serve(self, params: Any) -> None:
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client

        self._closing = asyncio.Event()
        try:
            async with (
                stdio_client(params, errlog=self._errlog) as (reader, writer),
                ClientSession(reader, writer) as session,
            ):
                await session.initialize()
                self._session = session
                self._ready.set_result(None)
                await self._closing.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise

    def tools(self) -> set[str]:
        listed = self._loop.run(self._session.list_tools(), self._timeout)
        return {t.name for t in listed.tools}

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        result = self._loop.run(self._session.call_tool(name, arguments), self._timeout)
        wire = result.model_dump(mode="json", by_alias=True)
        answer = answer_of(wire)
        refused = refusal_of(wire, answer)
        if refused is not None:
            raise refused
        return as_peer_value(answer)

    def close(self) -> None:
        closing = self._closing
        if closing is not None:
            self._loop.loop.call_soon_threadsafe(closing.set)
        try:
            self._task.result(self._timeout)
        except BaseException:  # a server that will not stop is left to the SDK's kill
            self._task.cancel()
        finally:
            self._errlog.close()


def own_read(db: Path, tool: str, arguments: dict[str, Any]) -> Any:
    """embornal's tool ``tool`` called in this process on the memory file ``db`` (which
    its server may hold open too), its answer as :meth:`Connection.call` gives it."""
    from embornal.interfaces.mcp.server import build_server
    from embornal.service.memory import Memory

    with Memory.open(db) as memory:
        result = asyncio.run(build_server(memory, profile="full").call_tool(tool, arguments))
    wire = result.model_dump(mode="json", by_alias=True)
    answer = answer_of(wire)
    refused = refusal_of(wire, answer)
    if refused is not None:
        raise refused
    return as_peer_value(answer)


def store_class(
    connect: Callable[[Path], Any],
    peer_store: type,
    server: str = "embornal",
    read: Callable[[Path, str, dict[str, Any]], Any] = own_read,
) -> type:
    """A class with the peer's ``Store(path)`` interface whose every method is a tool call
    on ``connect(path)`` (a :class:`Connection`: ``call``, ``tools``, ``close``); a read
    the server lists no tool for is ``read(path, tool, arguments)`` (:func:`own_read`)."""
    params_of: dict[str, list[str]] = {}
    listed: list[set[str]] = []  # the server's tool names, asked once per run

    def params(op: str) -> list[str]:
        if op not in params_of:
            method = getattr(peer_store, op, None)
            names = list(inspect.signature(method).parameters)[1:] if method else []
            params_of[op] = names
        return params_of[op]

    class McpStore:
        def __init__(self, path: str | Path) -> None:
            db = Path(path)
            self._db = db
            self._conn = connect(db)

        def _peer_read(self, op: str, arguments: dict[str, Any]) -> Any:
            own = peer_store(self._db)
            try:
                value = getattr(own, op)(**arguments)
            finally:
                own.close()
            return as_peer_value(value.to_dict() if hasattr(value, "to_dict") else value)

        def close(self) -> None:
            self._conn.close()

        def __getattr__(self, op: str) -> Callable[..., Any]:
            if op.startswith("_"):
                raise AttributeError(op)

            def call(*args: Any, **kwargs: Any) -> Any:
                arguments = call_arguments(params(op), args, kwargs)
                if op in READ_FALLBACKS:
                    if not listed:
                        listed.append(self._conn.tools())
                    if op not in listed[0] and server == "peer":
                        return self._peer_read(op, arguments)
                    op_, arguments = fallback_call(op, arguments, listed[0])
                    if op_ not in listed[0]:
                        return read(self._db, op_, arguments)
                    return self._conn.call(op_, arguments)
                return self._conn.call(op, arguments)

            return call

    return McpStore


# --- the sdist, the runs and the report -------------------------------------------------


def fetch_sdist(cache: Path = CACHE) -> Path:
    """``pip download`` the peer's sdist into ``cache`` (kept there for the next run)."""
    cache.mkdir(parents=True, exist_ok=True)
    found = sorted(cache.glob("memory_as_history-1.3.1.tar.gz"))
    if not found:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                PEER,
                "-d",
                str(cache),
            ],
            check=True,
        )
        found = sorted(cache.glob("memory_as_history-1.3.1.tar.gz"))
    if not found:
        raise SystemExit(f"pip download left no sdist of {PEER} in {cache}")
    return found[0]


def unpack(sdist: Path, cache: Path = CACHE) -> Path:
    """The sdist unpacked into ``cache`` (once); its root folder."""
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        root = cache / top
        if not (root / "src").is_dir():
            cache.mkdir(parents=True, exist_ok=True)
            tar.extractall(cache, filter="data")
    return root


@contextmanager
def _patched(module: ModuleType, **values: Any) -> Iterator[None]:
    old = {k: getattr(module, k) for k in values}
    for k, v in values.items():
        setattr(module, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(module, k, v)


def run_episodes(
    root: Path, server: str, episodes: int | None, jobs: int, timeout: float
) -> dict[str, Any]:
    """Replay the peer's protocol episodes through its own runner and score them."""
    src = root / "src"
    if str(src) not in sys.path:
        sys.path.insert(0, str(src))
    storage = importlib.import_module("memory_as_history.storage")
    protocol = importlib.import_module("memory_as_history.benchmarks.protocol")

    cases = select_cases(protocol.load_corpus()["cases"], episodes)
    loop = Loop()
    work = CACHE / "runs" / f"episodes-{os.getpid()}"
    work.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()

    def connect(db: Path) -> Connection:
        return Connection(loop, server_params(server, db, src), db.parent / "server.log", timeout)

    store = store_class(connect, storage.Store, server)

    def one(case: dict[str, Any]) -> dict[str, Any]:
        directory = work / case["id"]
        directory.mkdir(parents=True, exist_ok=True)
        try:
            return dict(protocol.run_case(case, directory))
        except Exception as exc:  # the store could not open: all of it fails, the run goes on
            return blocked_result(case, exc)

    with _patched(protocol, Store=store), concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for done, row in enumerate(pool.map(one, cases), 1):
            results[row["id"]] = row
            mark = (
                "whole"
                if row["passed"]
                else f"{sum(not c['passed'] for c in row['checks'])} failed"
            )
            print(f"[mah] {done}/{len(cases)} {row['id']}: {mark}", file=sys.stderr, flush=True)
    loop.stop()
    shutil.rmtree(work, ignore_errors=True)  # the databases and server logs of the run
    elapsed = time.perf_counter() - started

    def environment() -> dict[str, Any]:
        return {"package": PEER, "server": server}

    def replayed(case: dict[str, Any], _directory: Any) -> dict[str, Any]:
        return results[case["id"]]

    with _patched(protocol, run_case=replayed, environment=environment):
        report: dict[str, Any] = protocol.run_protocol(cases)
    rows = report["results"]
    metrics = report["metrics"]
    guard = metrics.get("guard", {"passed": 0, "total": 0})
    return {
        "episodes": len(rows),
        "episodes_whole": sum(r["passed"] for r in rows),
        "assertions_passed": sum(m["passed"] for m in metrics.values()),
        "assertions": sum(m["total"] for m in metrics.values()),
        "guards_passed": guard["passed"],
        "guards": guard["total"],
        "blocked": sum(m["blocked"] for m in metrics.values()),
        "metrics": metrics,
        "groups": report["groups"],
        "causes": failure_causes(cases, rows),
        "elapsed_s": round(elapsed, 1),
        "jobs": jobs,
        "corpus_sha256": report["corpus_sha256"],
        "results": [
            {
                k: r[k]
                for k in ("id", "family", "language", "passed", "errors", "connection_lifetimes")
            }
            | {
                "failed": [
                    {k: v for k, v in c.items() if k != "actual"}
                    | {"actual": _short(c["actual"], 300)}
                    for c in r["checks"]
                    if not c["passed"]
                ],
                "elapsed_ms": round(r["elapsed_ms"]),
            }
            for r in rows
        ],
    }


def run_peer_tests(root: Path, server: str, timeout: float) -> dict[str, Any]:
    """Run the peer's MCP-level test files with the server swapped; count and group."""
    tests = root / "tests"
    own = {f: peer_own_tests((tests / f).read_text(encoding="utf-8")) for f in PEER_TEST_FILES}
    left_out = sorted(name for names in own.values() for name in names)
    work = CACHE / "runs" / f"tests-{os.getpid()}"
    work.mkdir(parents=True, exist_ok=True)
    (work / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    junit = work / "junit.xml"
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-c",
        str(work / "pytest.ini"),
        "--rootdir",
        str(tests),
        f"--junitxml={junit}",
        *PEER_TEST_FILES,
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), str(root / "src")])}
    cmd[4:4] = ["-p", "benchmarks.mah_swap"]
    if server == "peer":
        env["MAH_PEER_SRC"] = str(root / "src")
    else:
        env["MAH_SWAP_SRC"] = str(REPO_ROOT / "src")
        if left_out:
            cmd += ["-k", "not (" + " or ".join(left_out) + ")"]
    started = time.perf_counter()
    with contextlib.suppress(subprocess.TimeoutExpired):  # what junit holds is what ran
        subprocess.run(
            cmd, cwd=tests, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
    cases = ET.parse(junit).getroot().iter("testcase") if junit.exists() else iter(())
    passed, failed = [], []
    for case in cases:
        name = f"{Path(case.get('classname', '').replace('.', '/')).name}::{case.get('name')}"
        bad = case.find("failure") if case.find("failure") is not None else case.find("error")
        if case.find("skipped") is not None:
            continue
        if bad is None:
            passed.append(name)
        else:
            message = (bad.get("message") or bad.text or "").strip().splitlines()
            failed.append({"test": name, "message": _short(message[0] if message else "", 240)})
    shutil.rmtree(work, ignore_errors=True)
    causes = Counter(test_failure_cause(f["message"]) for f in failed)
    return {
        "passed": len(passed),
        "run": len(passed) + len(failed),
        "causes": [{"cause": c, "tests": n} for c, n in causes.most_common()],
        "left_out": left_out if server == "embornal" else [],
        "failed": failed,
        "elapsed_s": round(time.perf_counter() - started, 1),
    }


def markdown(report: dict[str, Any]) -> str:
    ep, tests, m = report.get("episodes"), report.get("mcp_tests"), report["machine"]
    target = (
        "its own server (the control)"
        if report["server"] == "peer"
        else f"`embornal mcp --compat {COMPAT}` (decision 0155)"
    )
    lines = [
        f"memory-as-history 1.3.1's own suite against {target}, only the transport "
        f"swapped (decision 0136). Measured {m['date']}, commit "
        f"`{m.get('git_commit') or '?'}`. Reproduce: "
        f"`python benchmarks/mah_conformance.py --fetch --episodes {ep['episodes'] if ep else 0}` "
        f"(by default {DEFAULT_EPISODES} episodes, taken in turn from each family: about ten "
        "minutes on two busy cores). "
        "Raw: `benchmarks/results/mah_conformance.json`.",
        "",
    ]
    if ep:
        lines += [
            "- Protocol episodes (the peer's `run_case`, scored by it): "
            f"**{ep['assertions_passed']} / {ep['assertions']} assertions**, "
            f"**{ep['episodes_whole']} / {ep['episodes']} episodes whole**; "
            f"guards {ep['guards_passed']} / {ep['guards']}; {ep['blocked']} assertions "
            f"blocked by an earlier error; {ep['elapsed_s']:.0f} s with {ep['jobs']} jobs.",
            "",
            "| family | episodes whole |",
            "|---|---:|",
        ]
        for family, g in ep["groups"]["family"].items():
            lines.append(f"| {family} | {g['passed']} / {g['episodes']} |")
        causes = ep["causes"]
        if causes["stopped_by"] or causes["failed_checks"]:
            lines += ["", "Top causes (episodes stopped, or assertions failed):", ""]
        for c in causes["stopped_by"][:4]:
            why = (
                "answered no `id` for the runner to bind"
                if (c["error"], c["message"]) in (("KeyError", "'id'"), ("AttributeError", "id"))
                else f"raised {c['error']} `{c['message']}`"
            )
            lines.append(
                f"- `{c['op']}` {why}: {c['episodes']} episodes stopped, "
                f"{c['blocked']} assertions blocked"
            )
        for c in causes["failed_checks"][:6]:
            what = "field missing" if c["kind"] == "missing" else "value differs"
            lines.append(
                f"- `{c['read']}` → `{c['path'] or '(whole answer)'}` {what}: {c['count']}"
            )
        lines.append("")
    if tests:
        lines.append(
            f"- MCP-level tests (`{'`, `'.join(PEER_TEST_FILES)}`), server command swapped: "
            f"**{tests['passed']} / {tests['run']} pass**"
            + (
                "; left out (they call the peer's own CLI or storage): "
                + ", ".join(tests["left_out"])
                if tests["left_out"]
                else ""
            )
            + "."
        )
        lines += [f"  - {c['cause']}: {c['tests']}" for c in tests.get("causes", [])[:6]]
    control = report.get("control")
    if control:  # the same harness against the peer's own server (``--server peer``)
        lines.append(f"- Control, the same harness against the peer's own server: {control}.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "mah_conformance.json")
    ap.add_argument("sdist", nargs="?", type=Path, help="memory_as_history-1.3.1.tar.gz")
    ap.add_argument("--fetch", action="store_true", help=f"pip download {PEER} into the cache")
    ap.add_argument(
        "--episodes",
        type=int,
        default=DEFAULT_EPISODES,
        help=f"replay N episodes, in turn from each family (default {DEFAULT_EPISODES}; 120: all)",
    )
    ap.add_argument("--jobs", type=int, default=3, help="episodes replayed at once")
    ap.add_argument("--server", choices=("embornal", "peer"), default="embornal")
    ap.add_argument("--timeout", type=float, default=90.0, help="seconds per start or call")
    ap.add_argument("--no-tests", action="store_true", help="skip the MCP-level tests")
    ap.add_argument("--no-episodes", action="store_true", help="skip the protocol episodes")
    args = ap.parse_args(argv)
    if args.sdist is None and not args.fetch:
        ap.error("give the sdist's path or --fetch")
    if args.episodes is not None and args.episodes < 1:
        ap.error("--episodes needs 1 or more")
    root = unpack(fetch_sdist() if args.sdist is None else args.sdist)
    report: dict[str, Any] = {"machine": machine_info(), "peer": PEER, "server": args.server}
    if not args.no_episodes:
        report["episodes"] = run_episodes(
            root, args.server, args.episodes, max(1, args.jobs), args.timeout
        )
    if not args.no_tests:
        report["mcp_tests"] = run_peer_tests(root, args.server, 20 * args.timeout)
    save_results(args, report, HEADING, markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
