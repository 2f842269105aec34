#!/usr/bin/env bash
# Install what the browser tests (`pytest -m browser`, tests/wiki) need, on a Debian
# machine, as root. Idempotent: run it as often as you like.
#
#   bash .ci/browser.sh .venv
#
# * Debian's `chromium` at /usr/bin/chromium (apt), only when it is missing. The tests
#   drive it through Playwright with executable_path; `playwright install` (a browser
#   download of its own) is never run.
# * `playwright` into the given virtualenv; `httpx` too, but only when Starlette's
#   TestClient has no HTTP client to use (it prefers `httpx2`, which `mcp` brings).
set -euo pipefail

VENV=${1:?usage: bash .ci/browser.sh VENV_DIR}
PY="$VENV/bin/python"
[ -x "$PY" ] || { echo "browser.sh: no python at $PY" >&2; exit 2; }

if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "browser.sh: /usr/bin/chromium is missing and installing it needs root" >&2
        exit 2
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends chromium
fi

pip_install() {
    "$PY" -m pip install --quiet --disable-pip-version-check "$@"
}

"$PY" -c 'import playwright.sync_api' 2>/dev/null || pip_install playwright
"$PY" -c 'import starlette.testclient' 2>/dev/null || pip_install httpx

/usr/bin/chromium --version 2>/dev/null || true
"$PY" -c 'import importlib.metadata as m; print("playwright", m.version("playwright"))'
