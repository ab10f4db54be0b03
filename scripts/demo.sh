#!/usr/bin/env bash
# The main job on the shipped examples: lint every example model (the broken one shows its defects),
# then run the LSTM example with the reference interpreter. Exit code is irlint's (1: the broken
# example has errors, as it should).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2 || exit 2
echo "== irlint examples/ (lint every example; the broken one has findings)"
.venv/bin/irlint examples/
status=$?
if .venv/bin/irlint --help 2>/dev/null | grep -q ' run '; then
  echo
  echo "== irlint run examples/lstm_ti.xml (reference interpreter)"
  .venv/bin/irlint run examples/lstm_ti.xml --inputs examples/inputs/lstm_ti.npz || status=2
fi
exit $status
