"""What a fresh interpreter has imported after running a snippet (for the tests that keep
heavy or unneeded modules off a path)."""

from __future__ import annotations

import json
import subprocess
import sys

__all__ = ["modules_after"]


def modules_after(code: str) -> set[str]:
    """The names in ``sys.modules`` once ``code`` has run in a new interpreter."""
    probe = code + "\nimport json as _j, sys as _s\nprint(_j.dumps(sorted(_s.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))
