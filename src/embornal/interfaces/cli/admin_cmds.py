"""``bootstrap``, ``config path|show``, ``admin migrate|rebuild|verify`` and ``mcp``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from embornal.errors import ConfigError
from embornal.interfaces.cli.app import Context, DetailedError

if TYPE_CHECKING:
    from embornal.interfaces.mcp.compat_mode import CompatMode

__all__ = [
    "bootstrap",
    "config_path",
    "config_show",
    "mcp",
    "migrate",
    "rebuild",
    "verify",
]


def bootstrap(ctx: Context) -> int:
    """Print the agent instructions (``--guide``: the MCP agent guide, AGENT_GUIDE.md);
    open, create and move nothing."""
    from embornal.interfaces.cli.bootstrap import AGENT_INSTRUCTIONS, agent_guide

    text = agent_guide() if ctx.opt("guide", False) else AGENT_INSTRUCTIONS
    if ctx.json:
        ctx.emit({"markdown": text})
    else:
        ctx.out.write(text)
    return 0


# --------------------------------------------------------------------------- config


def config_path(ctx: Context) -> int:
    ctx.prepare()
    d = ctx.dirs
    places: dict[str, Path | str] = {
        "config_dir": d.config_dir,
        "data_dir": d.data_dir,
        "cache_dir": d.cache_dir,
        "config_file": d.config_file,
        "db_file": ctx.db_path,
    }
    if ctx.json:
        ctx.emit(places)
    else:
        width = max(len(k) for k in places) + 2
        for key, value in places.items():
            ctx.say(f"{key.replace('_', ' '):<{width}}{value}")
    return 0


def config_show(ctx: Context) -> int:
    from embornal.adapters.config import config_to_dict

    data = config_to_dict(ctx.config)
    if ctx.json:
        ctx.emit(data)
        return 0
    import yaml

    source = ctx.dirs.config_file
    origin = str(source) if source.exists() else f"{source} (missing: defaults)"
    ctx.say(f"# configuration in effect, from {origin}")
    ctx.out.write(yaml.safe_dump(data, sort_keys=False, default_flow_style=False))
    return 0


# --------------------------------------------------------------------------- admin


def migrate(ctx: Context) -> int:
    """Open the memory, which applies every pending migration."""
    db = ctx.db_path
    created = isinstance(db, Path) and not db.exists()  # a database server's: not a file
    with ctx.open_memory() as mem:
        applied = mem.migrations_applied
    if ctx.json:
        ctx.emit({"db_file": db, "created": created, "applied": applied, "up_to_date": True})
    elif applied:
        verb = "created" if created else "migrated"
        ctx.say(f"{verb} {db}: applied {', '.join(applied)}")
    else:
        ctx.say(f"{db} is up to date: every migration is applied")
    return 0


def rebuild(ctx: Context) -> int:
    from embornal.interfaces.cli.progress import ProgressLine

    line = ProgressLine(ctx.err)
    current: list[str] = []

    def progress(step: str, done: int, total: int) -> None:
        if current and current[0] != step:
            line.finish()
        current[:] = [step]
        line.update(step, done, total)

    with ctx.open_memory(create=False) as mem, line:
        count = mem.rebuild(progress=progress)
    if ctx.json:
        ctx.emit({"events_replayed": count})
    else:
        ctx.say(f"replayed {count} events into fresh projections")
    return 0


def verify(ctx: Context) -> int:
    with ctx.open_memory(create=False) as mem:
        problems = mem.verify()
    if problems:
        if not ctx.json:
            for line in problems:
                ctx.say(line)
        raise DetailedError(f"{len(problems)} projection(s) differ from the event log", problems)
    if ctx.json:
        ctx.emit({"ok": True, "differences": []})
    else:
        ctx.say("projections match the event log")
    return 0


# --------------------------------------------------------------------------- mcp


def mcp(ctx: Context) -> int:
    """Serve the memory over MCP on stdin/stdout until the client closes it."""
    try:
        from embornal.interfaces.mcp.server import run_stdio
    except ModuleNotFoundError as e:
        raise ConfigError(
            f"the MCP server is not available: {e}",
            hint="Reinstall embornal with its default dependencies (the mcp package).",
        ) from e
    compat, profile = _mcp_compat(ctx)
    ctx.prepare()
    run_stdio(
        db_path=str(ctx.db_path),
        subject=ctx.subject,
        profile=profile or ctx.opt("profile", None) or ctx.config.mcp.tools,
        refusals=ctx.opt("refusals", "error"),
        compat=compat,
        **ctx.memory_settings(ctx.embedder(strict=False).provider),
    )
    return 0


def _mcp_compat(ctx: Context) -> tuple[CompatMode | None, str | None]:
    """The compatibility mode asked for (``--compat``, else ``EMBORNAL_MCP_COMPAT``) and
    the profile it serves (None: the configured one). Under a mode, a profile the mode
    lacks (``--profile``, ``EMBORNAL_MCP_TOOLS``) falls back to its default with a warning
    on stderr, as memory-as-history's server does, and the configuration is read
    without it (decision 0155)."""
    from embornal.adapters.config import MCP_COMPAT_ENV, MCP_TOOLS_ENV
    from embornal.interfaces.mcp.compat_mode import compat_mode

    name = ctx.opt("compat", None) or os.environ.get(MCP_COMPAT_ENV, "").strip()
    if not name:
        return None, None
    mode = compat_mode(name)
    asked = ctx.opt("profile", None) or os.environ.get(MCP_TOOLS_ENV, "").strip() or None
    if asked is None:
        return mode, None
    profile, warning = mode.profile(asked)
    if warning is not None:
        ctx.note(warning)
        ctx.config_env = {k: v for k, v in os.environ.items() if k != MCP_TOOLS_ENV}
    return mode, profile
