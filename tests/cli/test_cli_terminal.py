"""What needs a terminal or a signal: the purge prompt, Ctrl-C, internal errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable

import pytest
from cli_helpers import EMBORNAL, Run

from embornal.interfaces.cli import derived
from embornal.interfaces.cli import main as cli_main

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


def _on_terminal(args: list[str], answer: bytes) -> tuple[int, str]:
    """Run with a pseudo-terminal as stdin, type ``answer``; return (code, stderr)."""
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen(
            [str(EMBORNAL), *args],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=os.environ.copy(),
            preexec_fn=_as_in_a_terminal,
        )
        os.close(slave)
        os.write(master, answer)
        _, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    return proc.returncode, err.decode()


@posix_only
def test_purge_asks_on_a_terminal(cli: Run, stored: Callable[..., str]) -> None:
    fid = stored("/secrets", "The door code is 1234.")
    code, err = _on_terminal(["memory", "purge", fid[:22], "--reason", "secret"], b"no\n")
    assert code == 2 and "Type the id" in err and "purge cancelled" in err
    assert "state:         active" in cli("memory", "show", fid).out

    code, err = _on_terminal(["memory", "purge", fid[:22], "--reason", "secret"], b"yes\n")
    assert code == 0, err
    assert "state:         purged" in cli("memory", "show", fid).out


@posix_only
def _as_in_a_terminal() -> None:
    """Ctrl-C as a shell leaves it: a run of the whole suite may leave SIGINT ignored or
    blocked in the test process (a child inherits both, and Python then never raises
    KeyboardInterrupt), which is not what a person's terminal gives the command."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_exits_130_without_a_traceback() -> None:
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen(
            [str(EMBORNAL), "memory", "store", "/notes"],  # waits for the fact on stdin
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=os.environ.copy(),
            preexec_fn=_as_in_a_terminal,
        )
        os.close(slave)
        assert proc.stderr is not None
        seen = b""
        deadline = time.monotonic() + 60
        while b"Ctrl-D" not in seen and time.monotonic() < deadline:
            chunk = os.read(proc.stderr.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
        proc.send_signal(signal.SIGINT)
        _, rest = proc.communicate(timeout=60)
    finally:
        os.close(master)
    err = (seen + rest).decode()
    assert proc.returncode == 130
    assert "embornal: interrupted" in err and "Traceback" not in err


def test_internal_error_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("kaput")

    monkeypatch.setattr(derived, "call", boom)  # the call of every catalogue command
    monkeypatch.delenv("EMBORNAL_DEBUG", raising=False)
    assert cli_main.main(["memory", "ls"]) == 1
    captured = capsys.readouterr()
    assert captured.err == (
        "embornal: internal error: RuntimeError: kaput (set EMBORNAL_DEBUG=1 for the traceback)\n"
    )

    monkeypatch.setenv("EMBORNAL_DEBUG", "1")
    assert cli_main.main(["memory", "ls", "--json"]) == 1
    captured = capsys.readouterr()
    assert "Traceback" in captured.err and "RuntimeError: kaput" in captured.err
    assert json.loads(captured.out)["error"] == "internal_error"
