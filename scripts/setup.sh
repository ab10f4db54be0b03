#!/usr/bin/env bash
# Set up everything irlint needs on a fresh Debian machine with Python >= 3.10: Debian's graphviz
# (for `dot`) and chromium (for the Model Explorer browser test, driven by Playwright; no browser is
# downloaded) when root, and a virtual environment in .venv with irlint (editable) and its test
# extras. Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v dot >/dev/null 2>&1 || need_apt+=(graphviz)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Debian packages: ${need_apt[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "setup: warning: ${need_apt[*]} missing and not root; rendering to SVG/PNG (graphviz) or the browser test (chromium) will be unavailable or skipped" >&2
  fi
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PY" -m venv .venv
fi
stamp=.venv/.irlint-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ setup.py -nt "$stamp" ]; then
  echo "setup: installing irlint and its test dependencies into .venv"
  .venv/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v 'is ignored' || true
  .venv/bin/python -m pip install -q -e '.[test]' 2>&1 | grep -v 'is ignored' || true
  .venv/bin/python -c "import irlint, openvino, lxml, textual, graphviz" # fail loudly if the install did not work
  touch "$stamp"
fi
