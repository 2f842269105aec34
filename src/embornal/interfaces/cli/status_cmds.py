"""``embornal status`` (the memory at a glance) and ``embornal doctor`` (each part checked
end to end, with what to do about a failure); decision 0146.

``status`` reads only and loads no model; ``doctor`` loads the configured model and asks
it for one vector, verifies the log against the projections and asks the keyword index
for a word of a live fact (no recall is recorded). Neither creates a memory that is not
there. In client mode both ask the server (``/health``, then the reads the token allows)
and say what only the machine that holds the memory can tell.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from embornal.errors import EmbornalError, VerificationFailed
from embornal.interfaces.cli.app import Context, tilde

if TYPE_CHECKING:
    from embornal.interfaces.cli.remote import RemoteMemory
    from embornal.service.memory import Memory

__all__ = ["doctor", "status"]

#: The most open proposals or conflicts counted one by one (a list read's limit).
COUNTED = 1000
#: What a client cannot tell about the server's memory.
SERVER_SIDE = ("memory", "facts", "events", "embedding", "pending_embeddings")


def _location(db: Path | str) -> str:
    """The memory's file, or its database URL without the password."""
    if isinstance(db, Path):
        return str(db)
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(db)
    if parts.password is None:
        return db
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _size(db: Path) -> int:
    """The bytes of the database and its write-ahead log on disk."""
    total = 0
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        with contextlib.suppress(OSError):
            total += path.stat().st_size
    return total


def _exists(db: Path | str) -> bool:
    return not isinstance(db, Path) or (db.is_file() and db.stat().st_size > 0)


def _embedding(ctx: Context) -> dict[str, Any]:
    """The configured model and whether it can load, told without loading it."""
    cfg = ctx.config.embedding
    kind = cfg.provider.strip().lower().replace("_", "-")
    out: dict[str, Any] = {"provider": kind, "model": cfg.model, "dims": cfg.dims}
    if kind == "off":
        return {**out, "state": "off", "hint": "keyword recall only"}
    if kind in ("openai", "sentence-transformers") and not cfg.model_path:
        where = cfg.base_url or "the library's cache"
        return {**out, "state": "configured", "hint": f"loaded on use from {where}"}
    if cfg.model_path:
        there = Path(cfg.model_path).expanduser().is_dir()
        state = "on disk" if there else "missing"
        hint = f"embedding.model_path {cfg.model_path}" + ("" if there else " is not a directory")
        return {**out, "state": state, "hint": hint}
    from embornal.adapters.embeddings.download import model_dir
    from embornal.adapters.embeddings.factory import DEFAULT_MODEL_NAME

    name = cfg.model or DEFAULT_MODEL_NAME
    out["model"] = name
    try:
        cached = model_dir(ctx.dirs.cache_dir, name).is_dir()
    except EmbornalError:
        cached = False
    if cached:
        return {**out, "state": "on disk", "hint": "`embornal doctor` loads it"}
    if kind == "auto":
        return {
            **out,
            "state": "none on disk",
            "hint": "keyword recall only; `embornal model pull` for recall by meaning",
        }
    return {**out, "state": "not downloaded", "hint": "`embornal model pull` (or on first use)"}


def _open_counts(mem: Memory | RemoteMemory) -> dict[str, Any]:
    """How many open proposals and conflicts the subject may see (``None``: refused)."""
    out: dict[str, Any] = {}
    for key, read in (
        ("open_proposals", lambda: mem.proposals(status="open", limit=COUNTED)),
        ("open_conflicts", lambda: mem.conflicts(status="open", limit=COUNTED)),
    ):
        try:
            out[key] = len(read())
        except EmbornalError as e:
            out[key] = None
            out.setdefault("refused", {})[key] = e.message
    return out


def _n(count: int | None) -> str:
    if count is None:
        return "not readable"
    return f"{count}+" if count >= COUNTED else str(count)


def _counts(counts: dict[str, int], *, named_first: bool = False) -> str:
    shown = (f"{key} {n}" if named_first else f"{n} {key}" for key, n in counts.items())
    return ", ".join(shown) or "none"


def _server(ctx: Context) -> dict[str, Any]:
    cfg = ctx.config
    return {
        "url": ctx.server_url,
        "token_set": bool(cfg.server.token or cfg.server.token_file),
        "mcp_tools": cfg.mcp.tools,
    }


def status(ctx: Context) -> int:
    ctx.prepare()
    if ctx.server_url is not None:
        return _remote_status(ctx)
    db = ctx.db_path
    config_file = ctx.dirs.config_file
    data: dict[str, Any] = {
        "mode": "local",
        "memory": {
            "location": _location(db),
            "backend": "sqlite" if isinstance(db, Path) else "postgresql",
            "exists": _exists(db),
            "size_bytes": _size(db) if isinstance(db, Path) else None,
        },
        "config": {"file": str(config_file), "exists": config_file.is_file()},
        "embedding": _embedding(ctx),
        "server": _server(ctx),
    }
    if data["memory"]["exists"]:
        with ctx.open_memory(create=False) as mem:
            seen = mem.overview()
            data["facts"] = {
                "total": seen.facts,
                "by_state": seen.by_state,
                "by_kind": seen.by_kind,
                "by_stage": seen.by_stage,
            }
            data["events"] = seen.events
            data["pending_embeddings"] = seen.pending_embeddings
            data.update(_open_counts(mem))
    if ctx.json:
        ctx.emit(data)
        return 0
    _show_status(ctx, data)
    return 0


def _show_status(ctx: Context, data: dict[str, Any]) -> None:
    from embornal.interfaces.cli.progress import fmt_bytes

    m = data["memory"]
    rows: list[tuple[str, str]] = []
    where = m["location"] if m["backend"] == "postgresql" else tilde(Path(m["location"]))
    if not m["exists"]:
        rows.append(("memory", f"{where} (no memory yet: the first write creates it)"))
    else:
        size = f", {fmt_bytes(m['size_bytes'])} on disk" if m["size_bytes"] is not None else ""
        rows.append(("memory", f"{where} ({m['backend']}{size})"))
        facts = data["facts"]
        rows.append(("facts", f"{facts['total']}: {_counts(facts['by_state'])}"))
        rows.append(("  live by kind", _counts(facts["by_kind"], named_first=True)))
        rows.append(("  live by stage", _counts(facts["by_stage"], named_first=True)))
        rows.append(("events", str(data["events"])))
    e = data["embedding"]
    model = f" {e['model']}" if e["model"] else ""
    if e["state"] == "off":
        rows.append(("embedding", f"off: {e['hint']}"))
    else:
        model += f" ({e['dims']}-d)"
        rows.append(("embedding", f"{e['provider']}{model}: {e['state']}; {e['hint']}"))
    if m["exists"]:
        pending = data["pending_embeddings"]
        fix = " (`embornal memory reindex`)" if pending and e["state"] != "off" else ""
        rows.append(("pending", f"{pending} facts wait for a vector{fix}"))
        rows.append(("proposals", f"{_n(data['open_proposals'])} open"))
        rows.append(("conflicts", f"{_n(data['open_conflicts'])} open"))
    c = data["config"]
    rows.append(
        ("config", tilde(Path(c["file"])) + ("" if c["exists"] else " (missing: defaults)"))
    )
    s = data["server"]
    rows.append(("server", f"client mode to {s['url']}" if s["url"] else "none (local mode)"))
    rows.append(("mcp tools", str(s["mcp_tools"] or "core")))
    width = max(len(k) for k, _ in rows) + 2
    for key, value in rows:
        ctx.say(f"{key:<{width}}{value}")


def _remote(ctx: Context) -> RemoteMemory:
    memory = ctx.open_memory_api()
    from embornal.interfaces.cli.remote import RemoteMemory

    assert isinstance(memory, RemoteMemory)
    return memory


def _remote_status(ctx: Context) -> int:
    with _remote(ctx) as mem:
        health = mem.health()
        data: dict[str, Any] = {
            "mode": "client",
            "server": {
                "url": mem.url,
                "status": health.get("status"),
                "version": health.get("version"),
            },
            **_open_counts(mem),
            "not_reported": list(SERVER_SIDE),
        }
    if ctx.json:
        ctx.emit(data)
        return 0
    s = data["server"]
    ctx.say(f"server     {s['url']}: {s['status']} (embornal {s['version']})")
    ctx.say(f"proposals  {_n(data['open_proposals'])} open (that this token may read)")
    ctx.say(f"conflicts  {_n(data['open_conflicts'])} open (that this token may read)")
    ctx.say(
        "the server does not report its memory's path, size, counts or model: run "
        "`embornal status` on the machine that holds it"
    )
    return 0


# --------------------------------------------------------------------------- doctor


class _Checks:
    """The checks of one run, in order: name, ``ok``, ``fail`` or ``skip``, what was seen,
    and what to do."""

    def __init__(self) -> None:
        self.rows: list[dict[str, str]] = []

    def add(self, name: str, state: str, detail: str, hint: str = "") -> None:
        self.rows.append({"check": name, "status": state, "detail": detail, "hint": hint})

    def failed(self, name: str, e: EmbornalError, hint: str = "") -> None:
        self.add(name, "fail", e.message, e.hint or hint)

    @property
    def ok(self) -> bool:
        return all(r["status"] != "fail" for r in self.rows)


def doctor(ctx: Context) -> int:
    checks = _Checks()
    try:
        ctx.prepare()
        config = ctx.config
    except EmbornalError as e:
        checks.failed("config", e, f"Fix {tilde(ctx.dirs.config_file)}.")
        for name in ("memory", "log", "keyword index", "embedding"):
            checks.add(name, "skip", "the configuration does not parse")
        return _report(ctx, checks)
    source = ctx.dirs.config_file
    shown = f"{tilde(source)} parses" if source.is_file() else f"no {tilde(source)}: the defaults"
    checks.add("config", "ok", shown)
    if ctx.server_url is not None:
        _doctor_remote(ctx, checks)
    else:
        _doctor_memory(ctx, checks)
        _doctor_embedding(ctx, checks, config.embedding.dims)
    return _report(ctx, checks)


def _short(text: str, most: int = 160) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _doctor_memory(ctx: Context, checks: _Checks) -> None:
    db = ctx.db_path
    name = "memory" if isinstance(db, Path) else "postgresql"
    if not _exists(db):
        assert isinstance(db, Path)
        if ctx.opt("db"):
            checks.add(
                name,
                "fail",
                f"no memory at {tilde(db)}",
                "Check --db; a command that writes creates a memory there.",
            )
        else:
            checks.add(name, "ok", f"no memory yet at {tilde(db)}: the first write creates it")
        checks.add("log", "skip", "no memory")
        checks.add("keyword index", "skip", "no memory")
        return
    try:
        mem = ctx.open_memory(create=False)
    except EmbornalError as e:
        fix = "Check storage.url and that PostgreSQL is up." if name == "postgresql" else ""
        checks.failed(
            name, e, fix or "Check the file; `embornal admin restore` puts a backup back."
        )
        checks.add("log", "skip", "the memory does not open")
        checks.add("keyword index", "skip", "the memory does not open")
        return
    with mem:
        applied = mem.migrations_applied
        note = f" (applied {', '.join(applied)})" if applied else ""
        checks.add(name, "ok", f"{_location(db)} opens{note}")
        try:
            differences = mem.verify()
        except EmbornalError as e:
            checks.failed("log", e, "Run `embornal admin rebuild`.")
        else:
            if differences:
                more = len(differences) - 1
                checks.add(
                    "log",
                    "fail",
                    f"the projections differ from the log: {_short(differences[0])}"
                    + (f" (and {more} more)" if more else ""),
                    "Run `embornal admin rebuild` (it replays the log), then "
                    "`embornal admin verify`.",
                )
            else:
                checks.add("log", "ok", "the projections match a replay of the event log")
        try:
            probe = mem.keyword_probe()
        except EmbornalError as e:
            checks.failed("keyword index", e, "Run `embornal admin rebuild`.")
        else:
            if probe is None:
                checks.add("keyword index", "skip", "no live fact to look for")
            elif probe[1]:
                checks.add("keyword index", "ok", f"finds a live fact by {probe[0]!r}")
            else:
                checks.add(
                    "keyword index",
                    "fail",
                    f"does not find a live fact by its word {probe[0]!r}",
                    "Run `embornal admin rebuild` (it rebuilds the index).",
                )


def _doctor_embedding(ctx: Context, checks: _Checks, dims: int) -> None:
    state = _embedding(ctx)
    if state["state"] == "off":
        checks.add("embedding", "skip", "embedding.provider is off: keyword recall only")
        return
    if state["state"] == "none on disk":
        checks.add(
            "embedding",
            "skip",
            "no model on disk: keyword recall only",
            "Optional: `embornal model pull` for recall by meaning.",
        )
        return
    if ctx.opt("no_embed", False):
        checks.add("embedding", "skip", "--no-embed")
        return
    try:
        provider = ctx.embedder(strict=True, quiet=True).provider
        if provider is None:
            checks.add("embedding", "skip", "no model to load: keyword recall only")
            return
        vector = provider.embed_query("embornal doctor")
    except EmbornalError as e:
        checks.failed("embedding", e, "See `embornal model ls`, or set embedding.provider: off.")
        return
    except Exception as e:  # broad: doctor reports what a broken model or library raises
        checks.add(
            "embedding",
            "fail",
            f"{type(e).__name__}: {e}",
            "Pull the model again (`embornal model rm NAME`, `embornal model pull`).",
        )
        return
    if len(vector) != dims:
        checks.add(
            "embedding",
            "fail",
            f"{provider.identity} gave {len(vector)} numbers, not embedding.dims {dims}",
            "Set embedding.dims to the model's width.",
        )
        return
    checks.add("embedding", "ok", f"{provider.identity} loads and embeds")


def _doctor_remote(ctx: Context, checks: _Checks) -> None:
    try:
        mem = _remote(ctx)
    except EmbornalError as e:
        checks.failed("server", e)
        return
    with mem:
        try:
            health = mem.health()
        except EmbornalError as e:
            checks.failed("server", e, "Start `embornal serve` there, or fix server.url.")
            return
        checks.add(
            "server",
            "ok",
            f"{mem.url} answers: {health.get('status')} (embornal {health.get('version')})",
        )
        try:
            mem.proposals(limit=1)
        except EmbornalError as e:
            checks.failed("token", e, "Issue a token there with `embornal token add`.")
            return
        checks.add("token", "ok", "the server accepts the token")
    checks.add("memory", "skip", "client mode: run `embornal doctor` where the memory is")


def _report(ctx: Context, checks: _Checks) -> int:
    if ctx.json:
        ctx.emit({"ok": checks.ok, "checks": checks.rows})
    else:
        width = max(len(r["check"]) for r in checks.rows) + 2
        for r in checks.rows:
            line = f"{r['status'].upper() if r['status'] == 'fail' else r['status']:<5} "
            line += f"{r['check']:<{width}}{r['detail']}"
            if r["status"] == "fail" and r["hint"]:
                line += f"\n      {'':<{width}}do: {r['hint']}"
            ctx.say(line)
    if checks.ok:
        return 0
    failed = sum(1 for r in checks.rows if r["status"] == "fail")
    if not ctx.json:
        ctx.note(f"{failed} check{'s' if failed > 1 else ''} failed")
    return VerificationFailed.exit_code
