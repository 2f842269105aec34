"""What the browser tests share: where Chromium is, how it is launched, the screenshots."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOT = Path(os.environ.get("EMBORNAL_WIKI_SCREENSHOT", "/tmp/wiki.png"))
