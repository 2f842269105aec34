"""Run the real ``embornal`` console script in a subprocess, on real temp files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _script() -> Path:
    beside = Path(sys.executable).parent / "embornal"
    if beside.exists():
        return beside
    found = shutil.which("embornal")
    if found is None:  # pragma: no cover - the package is installed editable
        raise RuntimeError("the embornal console script is not installed")
    return Path(found)


EMBORNAL = _script()


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


Run = Callable[..., Result]


def run_cli(
    *args: str,
    stdin: str | bytes | None = None,
    env: Mapping[str, str] | None = None,
) -> Result:
    """Run ``embornal ARGS``; stdin is closed unless given. No traceback may ever show."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    proc = subprocess.run(
        [str(EMBORNAL), *args],
        input=data,
        stdin=subprocess.DEVNULL if data is None else None,
        capture_output=True,
        env=dict(env) if env is not None else os.environ.copy(),
        timeout=60,
    )
    result = Result(
        proc.returncode,
        proc.stdout.decode("utf-8"),
        proc.stderr.decode("utf-8"),
    )
    assert "Traceback" not in result.err, result.err
    return result
