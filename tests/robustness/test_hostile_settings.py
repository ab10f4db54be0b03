"""Configuration files, baselines and trace files are input too: a hostile one is a usage error (exit 2)
that names the file and the key, in bounded time, never an internal error or a RecursionError.

Every command runs in a subprocess under a time limit and an address-space cap (`limits.cli`); the
time limit is what "bounded" means here (a pathological glob used to run for hours), never a timed
assertion.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from irlint.settings.perfile import Glob, GlobError
from tests.robustness.limits import EXAMPLES, cli, copy_example, no_traceback

DEEP = 3000
NESTED_TOML = "x = " + "[" * DEEP + "]" * DEEP
# `**/` thirty times: as a backtracking regex, matching one path of 20 folders takes hours
STARS = "/".join(["**"] * 30) + "/x.xml"


def _broken(folder: Path) -> Path:
    """A copy of the broken example (it has findings, so per-file ignores are consulted) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    xml = folder / "m.xml"
    shutil.copy(EXAMPLES / "broken" / "lstm_ti_broken.xml", xml)
    shutil.copy(EXAMPLES / "broken" / "lstm_ti_broken.bin", folder / "m.bin")
    return xml


CONFIGS = {
    "select-ints": ("[tool.irlint]\nselect = [1, 2]\n", "select"),
    "ignore-mixed": ('[tool.irlint]\nignore = ["G", 3]\n', "ignore"),
    "bad-range": ('[tool.irlint.per-file-ignores]\n"[z-a].xml" = ["G"]\n', "[z-a].xml"),
    "nested-other-tool": (f"[tool.other]\n{NESTED_TOML}\n[tool.irlint]\nselect = ['G']\n", "x"),
    "nested-irlint": (f"[tool.irlint]\nselect = ['G']\n{NESTED_TOML}\n", "x"),
    # an unterminated string of a million escaped quotes: a scan that retried each quote was quadratic
    "escaped-quotes": ('[tool.irlint]\nx = "' + '\\"' * 1_000_000 + "\n" + NESTED_TOML.replace("x", "y") + "\n", "y"),
    "stars": (f'[tool.irlint.per-file-ignores]\n"{STARS}" = ["G"]\n', STARS),
    "irlint-a-string": ('[tool]\nirlint = "x"\n', "tool.irlint"),
    "irlint-an-array": ("tool = {irlint = [1]}\n", "tool.irlint"),
    # a run's limits are the run's options: a key `check` would accept and never read is refused
    "run-limit": ("[tool.irlint]\nmax-iterations = 5\n", "max-iterations"),
}


@pytest.mark.parametrize("case", sorted(CONFIGS))
def test_a_hostile_config_beside_a_model_is_a_usage_error(tmp_path: Path, case: str) -> None:
    text, key = CONFIGS[case]
    (tmp_path / "pyproject.toml").write_text(text)
    xml = _broken(tmp_path.joinpath(*["a"] * 20))
    for explicit in ([], ["--config", str(tmp_path / "pyproject.toml")]):
        res = cli("check", str(xml), *explicit, cwd=tmp_path, timeout=120)
        out = no_traceback(res)
        if case == "stars":  # a valid glob: it matches nothing here, the findings are reported
            assert res.returncode == 1, out[-2000:]
            continue
        assert res.returncode == 2, out[-2000:]
        assert "pyproject.toml" in res.stderr and key in res.stderr, res.stderr
        assert "Recursion" not in res.stderr


@pytest.mark.parametrize("tool", ["5", "[1]", '"x"'])
def test_a_tool_that_is_not_a_table(tmp_path: Path, tool: str) -> None:
    """`tool = 5`: beside a model it holds no [tool.irlint] (not irlint's file: the model is checked); given with
    --config it is refused, naming the key."""
    (tmp_path / "pyproject.toml").write_text(f"tool = {tool}\n")
    xml = _broken(tmp_path / "m")
    res = cli("check", str(xml), cwd=tmp_path, timeout=120)
    no_traceback(res)
    assert res.returncode == 1
    res = cli("check", str(xml), "--config", str(tmp_path / "pyproject.toml"), cwd=tmp_path, timeout=120)
    no_traceback(res)
    assert res.returncode == 2 and "pyproject.toml: tool must be a table" in res.stderr, res.stderr


def test_a_bare_config_names_its_keys_as_written(tmp_path: Path) -> None:
    """A bare irlint.toml given with --config: its keys are named as they are written in it (no [tool.irlint])."""
    (tmp_path / "irlint.toml").write_text("select = [1, 2]\n")
    xml = _broken(tmp_path / "m")
    res = cli("check", str(xml), "--config", str(tmp_path / "irlint.toml"), cwd=tmp_path, timeout=120)
    no_traceback(res)
    assert res.returncode == 2 and "irlint.toml: select must be a list of strings (1 is not one)" in res.stderr


def test_a_pathological_glob_still_matches(tmp_path: Path) -> None:
    """`**/**/.../m.xml` is `**/m.xml`: it matches a file 20 folders deep, whose findings it ignores."""
    pattern = "/".join(["**"] * 30) + "/m.xml"
    (tmp_path / "pyproject.toml").write_text(f'[tool.irlint.per-file-ignores]\n"{pattern}" = ["ALL"]\n')
    xml = _broken(tmp_path.joinpath(*["a"] * 20))
    res = cli("check", str(xml), cwd=tmp_path, timeout=120)
    assert res.returncode == 0, no_traceback(res)[-2000:]


BASELINES = {
    "findings-int": ('{"irlint-baseline": 2, "findings": 5}', "findings"),
    "findings-object": ('{"irlint-baseline": 2, "findings": {"a": 1}}', "findings"),
    "nested": ('{"irlint-baseline": 2, "findings": ' + "[" * DEEP + "]" * DEEP + "}", "nested"),
    "count-huge": (
        '{"irlint-baseline": 2, "findings": [{"path": "m.xml", "code": "G103", "message": "m", "count": 1e400}]}',
        "count",
    ),
    "count-float": (
        '{"irlint-baseline": 2, "findings": [{"path": "m.xml", "code": "G103", "message": "m", "count": 1.5}]}',
        "count",
    ),
    "count-digits": (
        '{"irlint-baseline": 2, "findings": [{"path": "m.xml", "code": "G103", "message": "m", '
        '"count": 1' + "0" * 5000 + "}]}",
        "baseline.json",
    ),
    "row-int": ('{"irlint-baseline": 2, "findings": [7]}', "findings"),
}


@pytest.mark.parametrize("case", sorted(BASELINES))
def test_a_hostile_baseline_is_a_usage_error(tmp_path: Path, case: str) -> None:
    text, key = BASELINES[case]
    xml = _broken(tmp_path / "m")
    baseline = tmp_path / "baseline.json"
    baseline.write_text(text)
    res = cli("check", str(xml), "--baseline", str(baseline), cwd=tmp_path)
    assert res.returncode == 2, no_traceback(res)[-2000:]
    assert "baseline.json" in res.stderr and key in res.stderr, res.stderr
    assert "Recursion" not in res.stderr
    assert baseline.read_text() == text


def _trace(path: Path, index: object | str, arrays: dict[str, np.ndarray] | None = None) -> None:
    text = index if isinstance(index, str) else json.dumps(index)
    np.savez(path, __stats__=np.array(text), **(arrays or {}))


def _trace_cases(tmp: Path) -> dict[str, Path]:
    nested = '{"format": 2, "series": [], "keys": [[0, "k", {"min": ' + "[" * DEEP + "]" * DEEP + "}]]}"
    cases = {
        "nested-stats": nested,
        "nested-index": "[" * DEEP + "]" * DEEP,
        "infinite-offset": '{"format": 2, "series": [], "keys": [[Infinity, "k", {}]]}',
        "huge-offset": '{"format": 2, "series": [], "keys": [[1e400, "k", {}]]}',
        "nan-offset": '{"format": 2, "series": [], "keys": [[NaN, "k", {}]]}',
        "stats-not-object": '{"format": 2, "series": [], "keys": [[0, "k", 5]]}',
        "format-1-nested": '{"k": ' + "[" * DEEP + "]" * DEEP + "}",
    }
    out = {}
    for name, text in cases.items():
        out[name] = tmp / f"{name}.npz"
        _trace(out[name], text, {"k": np.zeros(2, np.float32)})
    return out


def test_a_hostile_trace_is_a_usage_error(tmp_path: Path) -> None:
    xml, _inputs = copy_example(tmp_path)
    for name, trace in _trace_cases(tmp_path).items():
        res = cli("render", str(xml), "-o", str(tmp_path / "o.dot"), "--trace", str(trace), "--iteration", "0")
        out = no_traceback(res)
        assert res.returncode == 2, (name, out[-2000:])
        assert "Recursion" not in out, name
        assert f"{name}.npz" in res.stderr, (name, res.stderr)


@pytest.mark.parametrize("iteration", ["9" * 5000, "\u0663", "2\u00b2", "0." + "9" * 20])
def test_a_hostile_iteration_is_a_usage_error(tmp_path: Path, iteration: str) -> None:
    """`render --iteration`: digits beyond any iteration count (int() refuses 4,300 of them) and digits that
    are not ASCII are refused as what they are, not an internal error or another iteration."""
    xml, inputs = copy_example(tmp_path)
    trace = tmp_path / "t.npz"
    assert cli("run", str(xml), "--inputs", str(inputs), "--trace", str(trace)).returncode == 0
    res = cli("render", str(xml), "-o", str(tmp_path / "o.dot"), "--trace", str(trace), "--iteration", iteration)
    no_traceback(res)
    assert res.returncode == 2 and "expected K or K.M" in res.stderr, res.stderr[-2000:]


def _glob_as_regex(pattern: str) -> re.Pattern[str]:
    """The reference: the glob as a (backtracking) regex, fine for small patterns."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 2 :]:
            j = pattern.index("]", i + 2)
            body = pattern[i + 1 : j].replace("\\", "\\\\")
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body.lstrip("^")) + "]")
            i = j + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def test_the_glob_automaton_agrees_with_a_regex() -> None:
    rng = random.Random(7)
    atoms = ["**/", "**", "*", "?", "a", "b", "/", ".", "[ab]", "[!a]", "x", "\\"]
    for _ in range(20_000):
        pattern = "".join(rng.choice(atoms) for _ in range(rng.randint(0, 7)))
        path = "".join(rng.choice("ab/.x\\") for _ in range(rng.randint(0, 9)))
        assert Glob(pattern).match(path) is bool(_glob_as_regex(pattern).match(path)), (pattern, path)


def test_a_bad_glob_is_refused_when_compiled() -> None:
    with pytest.raises(GlobError, match="z-a"):
        Glob("m[z-a].xml")
    with pytest.raises(GlobError, match="longer"):
        Glob("a" * 5000)
