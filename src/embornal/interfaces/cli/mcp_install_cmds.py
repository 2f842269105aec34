"""``embornal mcp install CLIENT``: write ``embornal mcp`` into an MCP client's
configuration, after showing the change (decision 0144)."""

from __future__ import annotations

import difflib
import os
import shutil
import sys
import tempfile
from pathlib import Path

from embornal.adapters.config import MCP_TOOLS_ENV
from embornal.adapters.mcp_clients import SERVER_NAME, ServerEntry, default_path, merged
from embornal.errors import ConfigError, InvalidInput
from embornal.interfaces.cli.app import Context

__all__ = ["install", "server_entry"]

HOME_ENV = "EMBORNAL_HOME"


def _executable() -> tuple[str, list[str]]:
    """The absolute command that runs this embornal: the console script that was started
    (or the one on ``PATH``), else this Python with ``-m``."""
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name.startswith("embornal") and started.is_file():
        return str(started.resolve()), []
    found = shutil.which("embornal")
    if found:
        return str(Path(found).resolve()), []
    return str(Path(sys.executable).absolute()), ["-m", "embornal.interfaces.cli.main"]


def server_entry(
    profile: str | None, db: str | None, env: dict[str, str] | os._Environ[str]
) -> ServerEntry:
    """The entry that starts ``embornal mcp`` as this shell would: the absolute command,
    ``--db`` and ``--profile`` when given, ``EMBORNAL_HOME`` and the profile variable
    from the environment (a client passes none of the user's shell)."""
    command, prefix = _executable()
    args = [*prefix]
    if db:
        args += ["--db", db if "://" in db else str(Path(db).resolve())]
    args.append("mcp")
    if profile:
        args += ["--profile", profile]
    block: dict[str, str] = {}
    if env.get(HOME_ENV):
        block[HOME_ENV] = env[HOME_ENV]
    if not profile and env.get(MCP_TOOLS_ENV):
        block[MCP_TOOLS_ENV] = env[MCP_TOOLS_ENV]
    return ServerEntry(command, tuple(args), block)


def _confirm(ctx: Context, path: Path) -> bool:
    if not sys.stdin or not sys.stdin.isatty():
        raise InvalidInput(
            f"writing {path} needs a confirmation and there is no terminal to ask on",
            hint="Pass --yes to write without a prompt, or --dry-run to only see the change.",
        )
    ctx.err.write(f"Write this to {path}? [y/N] ")
    ctx.err.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def _write(path: Path, text: str) -> None:
    """``text`` into ``path`` in one step (a temporary file beside it, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o600
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def install(ctx: Context) -> int:
    """Write the ``embornal`` server into CLIENT's configuration file."""
    client: str = ctx.opt("client")
    given = ctx.opt("config")
    path = Path(given).expanduser() if given else default_path(client)
    try:
        old = path.read_text(encoding="utf-8") if path.exists() else None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(
            f"cannot read {path}: {e}", hint="Check the file, or name another with --config PATH."
        ) from None
    entry = server_entry(ctx.opt("profile"), ctx.opt("db"), os.environ)
    new = merged(client, path, old, entry)
    diff = "".join(
        difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=str(path) if old is not None else "/dev/null",
            tofile=str(path),
        )
    )
    changed = new != old
    dry = bool(ctx.opt("dry_run"))
    yes = bool(ctx.opt("yes"))
    if changed and not dry and not yes:
        if ctx.json:
            raise InvalidInput(
                "--json writes no configuration without --yes (there is no diff to confirm)",
                hint="Pass --yes to write, or --dry-run to see the change as JSON.",
            )
        ctx.say(diff.rstrip("\n"), exact=True)
        if not _confirm(ctx, path):
            ctx.say(f"nothing written to {path}")
            return 0
    written = changed and not dry
    if written:
        _write(path, new)
    if ctx.json:
        ctx.emit(
            {
                "client": client,
                "config": str(path),
                "server": SERVER_NAME,
                "entry": entry.as_json(client),
                "changed": changed,
                "written": written,
                "diff": diff,
            }
        )
    elif not changed:
        ctx.say(f"{path} already starts {SERVER_NAME} so; nothing to write")
    elif dry:
        ctx.say(diff.rstrip("\n"), exact=True)
        ctx.say(f"(dry run: {path} not written)")
    else:
        if yes:
            ctx.say(diff.rstrip("\n"), exact=True)
        ctx.say(f"wrote {path}; restart {client} to start {SERVER_NAME}")
    return 0
