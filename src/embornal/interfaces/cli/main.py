"""The ``embornal`` console script: parse, dispatch to one handler, report errors.

Exit codes: 0 ok, 1 internal, 2 invalid input or usage, 3 not found,
4 conflict, 5 access denied, 6 config, 7 storage, 8 verify failed,
130 interrupted. A broken pipe on stdout ends the run quietly.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from embornal.hints import TYPE_CHECKING
from embornal.interfaces.cli import handler_module

if TYPE_CHECKING:
    pass

__all__ = ["main"]

EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
DEBUG_ENV = "EMBORNAL_DEBUG"


def _debug() -> bool:
    return os.environ.get(DEBUG_ENV, "").strip() not in ("", "0")


def _handler(spec: str) -> Callable[..., int]:
    """Import ``"module:function"``, only for the command that runs: a module of this
    package (``memory_cmds``) or of a capability's folder (``claims.commands``)."""
    module_name, func = spec.split(":")
    module = importlib.import_module(handler_module(module_name))
    handler: Callable[..., int] = getattr(module, func)
    return handler


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _json_error(code: str, message: str, hint: str) -> None:
    import json

    data = {"error": code, "message": message, "hint": hint}
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _run(argv: Sequence[str], *, console: bool = False) -> int:
    from embornal.errors import EmbornalError
    from embornal.interfaces.cli.parser import UsageError
    from embornal.interfaces.cli.tree import build_parser

    wants_json = "--json" in argv
    root = build_parser()
    try:
        args = root.parse_args(argv)
    except EmbornalError as e:  # a flag's value out of its range: one line, exit 2
        from embornal.interfaces.cli.app import Context

        return Context(argparse.Namespace(json=wants_json)).fail(e)
    except UsageError as e:
        from embornal.interfaces.cli.render import escape_controls
        from embornal.interfaces.cli.suggest import explain

        better = explain(root, e.parser, e.message, argv)
        if better is not None:  # a mistyped command or option: one line, the closest names
            sys.stderr.write(escape_controls(better.line(), keep="") + "\n")
            if wants_json:
                _json_error("usage", better.message, better.hint)
            return EXIT_USAGE
        e.parser.print_usage(sys.stderr)
        sys.stderr.write(escape_controls(f"{e.parser.prog}: error: {e.message}", keep="") + "\n")
        if wants_json:
            _json_error("usage", e.message, f"See `{e.parser.prog} --help`.")
        return EXIT_USAGE
    if console and args.handler.startswith("derived:"):  # a short catalogue command only
        _defer_standard_modules()  # after parsing: --help and --version import none of them
    from embornal.interfaces.cli.app import Context  # after parsing: --help, --version skip it

    if not args.handler.startswith("derived:"):  # a server, a rebuild, a download: collect
        gc.enable()
    ctx = Context(args)
    try:
        code = _handler(args.handler)(ctx)
        sys.stdout.flush()
        return code
    except EmbornalError as e:
        return ctx.fail(e)


#: Standard modules that a short command's imports name but its run does not use
#: (decisions 0173, 0182): ``inspect`` (with ``ast``, ``dis`` and ``tokenize``), which
#: :mod:`dataclasses` calls only to write a docstring for a class that has none, and
#: ``copy``, which it calls only in ``asdict`` and ``astuple``; ``ipaddress``, which
#: :mod:`urllib.parse` (imported by :mod:`pathlib`) calls only for a bracketed host;
#: ``ntpath`` and ``fnmatch``, which :mod:`pathlib` calls only for a Windows path and
#: for a pattern (``match``, ``glob``).
DEFERRED = ("inspect", "copy", "ipaddress", "ntpath", "fnmatch")


def _defer_standard_modules() -> None:
    """In the console script's own process, run each of :data:`DEFERRED` on first use."""
    from embornal.lazy import defer

    defer(DEFERRED)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (the console script exits with it)."""
    args = list(sys.argv[1:] if argv is None else argv)
    # One catalogue command is a short run: the cyclic collector would only cost start-up
    # time (it walks every class and function the imports make). Commands that serve or
    # work long turn it back on (``_run``). The console script's process ends when ``main``
    # returns: what the run made is frozen, so neither the collector turned back on nor the
    # interpreter's exit walks it again; a call from Python gets the collector back as it was.
    collecting = gc.isenabled()
    gc.disable()
    try:
        code = _guarded(args, console=argv is None)
    finally:
        if argv is None:
            gc.freeze()
        if collecting:
            gc.enable()
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        _quiet_stdout()
    except OSError:
        pass
    return code


def _guarded(args: list[str], *, console: bool = False) -> int:
    """``_run`` with every way out turned into an exit code and at most one line."""
    try:
        return _run(args, console=console)
    except KeyboardInterrupt:
        sys.stderr.write("\nembornal: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except SystemExit:
        raise
    except Exception as e:  # broad: the boundary turns any failure into one line, exit 1
        if _debug():
            import traceback

            traceback.print_exc()
        message = f"{type(e).__name__}: {e}"
        hint = f"set {DEBUG_ENV}=1 for the traceback"
        from embornal.interfaces.cli.render import escape_controls

        sys.stderr.write(
            f"embornal: internal error: {escape_controls(message, keep='')} ({hint})\n"
        )
        if "--json" in args:
            with contextlib.suppress(OSError):
                _json_error("internal_error", message, hint)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
