#!/usr/bin/env bash
# The whole test suite (sets up .venv first). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m ruff check --quiet .
exec .venv/bin/python -m pytest -n 2 -q "$@"
