"""The parts of mle_gym.wrappers.macro without a sandbox: the move library, the solution
program (run directly on the host on a small table), the tool calls and result parsing, the
fit cache, the data check through the sandbox file layer, and the old import paths.

The wrapper over real sandboxed episodes is tested in tests/test_sb3.py.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import mle_gym.wrappers.macro as macro
from mle_gym.sandbox.base import DATA_DIR, WORKSPACE, Mount
from mle_gym.tools.fs import SandboxFS
from mle_gym.wrappers.macro.cache import CACHE_VERSION, FitCache
from mle_gym.wrappers.macro.files import load_task_data, read_text
from mle_gym.wrappers.macro.moves import MODEL_FAMILIES, build_moves
from mle_gym.wrappers.macro.program import (
    SCRIPT_PATH,
    SCRIPT_VERSION,
    SOLUTION_SCRIPT,
    fit_action,
    fit_spec,
    result_line,
)

REPO = Path(__file__).resolve().parents[1]
PROGRAM_FILE = REPO / "mle_gym" / "wrappers" / "macro" / "solution_program.py"


# -- moves and old names ---------------------------------------------------------------------


def test_move_library_and_its_validation() -> None:
    moves = build_moves(("num",), ("rf", "hgb"), ("small",))
    assert [m.name for m in moves] == ["fit-num-rf-small", "fit-num-hgb-small", "submit-best"]
    assert [m.index for m in moves] == [0, 1, 2] and moves[-1].kind == "submit"
    assert "random forest" in moves[0].description
    with pytest.raises(ValueError, match="model family"):
        build_moves(("num",), ("svm",), ("small",))
    with pytest.raises(ValueError, match="feature set"):
        build_moves((), ("rf",), ("small",))
    with pytest.raises(ValueError, match="setting"):
        build_moves(("num",), ("rf",), ("small", "small"))


def test_old_names_still_import_with_a_warning_where_renamed() -> None:
    with pytest.warns(DeprecationWarning, match="MODEL_FAMILIES"):
        old = macro.FAMILIES
    assert old is MODEL_FAMILIES
    with pytest.warns(DeprecationWarning, match="model_families"):
        moves = build_moves(families=("linear",))
    assert {m.family for m in moves if m.kind == "fit"} == {"linear"}
    with pytest.raises(AttributeError):
        _ = macro.NO_SUCH_NAME
    for name in macro.__all__:
        assert hasattr(macro, name), name
    # every public name of the old single module is still importable from the package
    old_public = [
        *("FEATURE_SETS", "SETTINGS", "SUBMIT_NAME", "SCRIPT_PATH", "PREDS_DIR", "RESULT_KEY"),
        *("CACHE_VERSION", "NOT_TRIED", "REQUIRED_FILES", "EXTRA_ENV_STEPS", "Move"),
        *("build_moves", "describe_moves", "validation_metric", "skill", "SOLUTION_SCRIPT"),
        *("SCRIPT_VERSION", "MacroActionWrapper"),
    ]
    assert [n for n in old_public if not hasattr(macro, n)] == []


@pytest.mark.slow
def test_wrapper_keyword_families_is_a_deprecated_alias() -> None:
    import gymnasium as gym

    import mle_gym  # noqa: F401  (registers the env ids)
    from mle_gym.wrappers.macro import MacroActionWrapper

    env = gym.make("MLEBench/spaceship-titanic-v0", data="replica", sandbox="local")
    try:  # no episode starts: the constructor only reads the task and its limits
        with pytest.warns(DeprecationWarning, match="model_families"):
            wrapper = MacroActionWrapper(env, families=("rf",))
        assert {m.family for m in wrapper.fit_moves} == {"rf"}
        wrapper = MacroActionWrapper(env, model_families=("hgb", "linear"))
        assert [m.family for m in wrapper.fit_moves[:2]] == ["hgb", "hgb"]
        assert wrapper.action_space.n == 3 * 2 * 2 + 1
    finally:
        env.close()


# -- the solution program --------------------------------------------------------------------


def test_program_text_is_the_packaged_file() -> None:
    assert PROGRAM_FILE.read_text(encoding="utf-8") == SOLUTION_SCRIPT
    assert len(SCRIPT_VERSION) == 16
    compile(SOLUTION_SCRIPT, SCRIPT_PATH, "exec")  # valid Python as written to the sandbox


def test_tool_calls_that_run_a_fit() -> None:
    move = build_moves(("cat",), ("hgb",), ("large",))[0]
    spec = fit_spec(move, "auc", 0.25, 3)
    assert spec["out"] == "macro/preds/fit-cat-hgb-large.csv"
    assert (spec["features"], spec["family"], spec["setting"]) == ("cat", "hgb", "large")
    call = fit_action("python", spec, 60.0)
    assert call["tool"] == "python" and call["args"]["timeout"] == 60.0
    assert "macro_solution.main(" in call["args"]["code"]
    call = fit_action("execute", spec, None)
    assert call["tool"] == "execute" and "timeout" not in call["args"]
    assert call["args"]["command"].startswith(f"python {SCRIPT_PATH} '")
    line = json.dumps({"macro_result": {"score": 0.5}})
    assert result_line(f"[ok · 1.00 s]\nnoise\n{line}\n") == {"score": 0.5}
    assert result_line('{"macro_result": 3}\n{broken') is None
    assert result_line("no result") is None


def _load_program(tmp_path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"macro_prog_{tmp_path.name}", PROGRAM_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write_table(folder: Path, *, regression: bool) -> None:
    """A small tabular task: numeric, categorical and id-like text columns; one target."""
    rng = np.random.default_rng(0)
    n_train, n_test = 160, 40
    n = n_train + n_test
    x = rng.normal(size=n)
    amount = np.where(rng.random(n) < 0.4, 0.0, rng.exponential(100.0, n)).round(1)
    colour = rng.choice(["red", "green", "blue"], n)
    decks = rng.choice(list("ABC"), n)
    cabin = [f"{decks[i]}/{i}/{'PS'[i % 2]}" for i in range(n)]
    signal = x + (colour == "red") + rng.normal(scale=0.3, size=n)
    target = signal.round(3) if regression else signal > 0.5
    ids = [f"{i:04d}_01" for i in range(n)]
    rows = ["Id,x,amount,colour,cabin,target"]
    rows += [
        f"{ids[i]},{x[i]:.4f},{amount[i]},{colour[i]},{cabin[i]},{target[i]}"
        for i in range(n_train)
    ]
    (folder / "train.csv").write_text("\n".join(rows) + "\n")
    test = ["Id,x,amount,colour,cabin"]
    test += [f"{ids[i]},{x[i]:.4f},{amount[i]},{colour[i]},{cabin[i]}" for i in range(n_train, n)]
    (folder / "test.csv").write_text("\n".join(test) + "\n")
    sample = ["Id,target"] + [f"{ids[i]},{0.0 if regression else False}" for i in range(n_train, n)]
    (folder / "sample_submission.csv").write_text("\n".join(sample) + "\n")


def _run_program(module: ModuleType, params: dict[str, Any]) -> tuple[dict[str, Any], str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = module.main(json.dumps(params))
    return result, out.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("regression", "metric", "features", "family"),
    [
        (False, "accuracy", "eng", "linear"),
        (False, "auc", "cat", "hgb"),
        (True, "rmse", "num", "rf"),
        (True, "rmsle", "eng", "hgb"),
    ],
)
def test_program_fits_validates_and_writes_predictions(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    regression: bool,
    metric: str,
    features: str,
    family: str,
) -> None:
    pytest.importorskip("sklearn")
    (tmp_path / "data").mkdir()
    _write_table(tmp_path / "data", regression=regression)
    monkeypatch.chdir(tmp_path)
    program = _load_program(tmp_path)
    params = {
        "move": "m",
        "features": features,
        "family": family,
        "setting": "small",
        "metric": metric,
        "val_fraction": 0.25,
        "split_seed": 0,
        "out": "macro/preds/m.csv",
    }
    result, printed = _run_program(program, params)
    assert result_line(printed) == result
    assert result["metric"] == metric and (result["n_fit"], result["n_val"]) == (120, 40)
    assert result["n_features"] >= (2 if features == "num" else 3)
    ideal = 0.0 if regression else 1.0
    # the candidate beats the constant predictor on this learnable table
    assert abs(result["score"] - ideal) < abs(result["baseline"] - ideal)
    preds = (tmp_path / "macro" / "preds" / "m.csv").read_text().splitlines()
    assert preds[0] == "Id,target" and len(preds) == 41 and preds[1].startswith("0160_01,")
    first = (tmp_path / "macro" / "preds" / "m.csv").read_bytes()
    again, _ = _run_program(program, params)  # deterministic (fixed seeds)
    assert again["score"] == result["score"]
    assert (tmp_path / "macro" / "preds" / "m.csv").read_bytes() == first


@pytest.mark.slow
def test_program_runs_as_a_script(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    (tmp_path / "data").mkdir()
    _write_table(tmp_path / "data", regression=False)
    (tmp_path / "macro").mkdir()
    (tmp_path / "macro" / "macro_solution.py").write_text(SOLUTION_SCRIPT)
    call = fit_action("execute", fit_spec(build_moves()[0], "accuracy", 0.2, 0), None)
    argv = shlex.split(call["args"]["command"])
    assert argv[:2] == ["python", SCRIPT_PATH]
    done = subprocess.run(
        [sys.executable, *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    result = result_line(done.stdout)
    assert result is not None and result["move"] == "fit-num-linear-small"
    assert (tmp_path / "macro" / "preds" / "fit-num-linear-small.csv").is_file()


# -- the fit cache ---------------------------------------------------------------------------


def test_fit_cache_round_trip_and_misses(tmp_path: Path) -> None:
    fields = {"task": "mlebench/t", "move": "fit-a", "data": "d1"}
    cache = FitCache(tmp_path)
    assert cache.get("mlebench/t", "replica-x", "fit-a", fields) is None
    cache.put(
        "mlebench/t",
        "replica-x",
        "fit-a",
        fields,
        result={"score": 0.7},
        seconds=1.5,
        predictions_csv="id,y\n1,0\n",
    )
    path = cache.path("mlebench/t", "replica-x", "fit-a", FitCache.key(fields))
    assert path.parent == tmp_path / "mlebench__t" / "replica-x" and path.is_file()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temp file left
    stored = json.loads(path.read_text())
    assert stored["key"]["version"] == CACHE_VERSION and stored["seconds"] == 1.5
    fresh = FitCache(tmp_path)  # a new process: read from disk
    entry = fresh.get("mlebench/t", "replica-x", "fit-a", fields)
    assert entry is not None and entry["predictions_csv"] == "id,y\n1,0\n"
    assert fresh.get("mlebench/t", "replica-x", "fit-a", {**fields, "data": "d2"}) is None
    path.write_text("{not json")
    assert FitCache(tmp_path).get("mlebench/t", "replica-x", "fit-a", fields) is None


# -- reading the episode through the sandbox file layer ----------------------------------------


def _fs(tmp_path: Path) -> SandboxFS:
    data, workspace = tmp_path / "public", tmp_path / "ws"
    data.mkdir(exist_ok=True)
    workspace.mkdir(exist_ok=True)
    return SandboxFS([Mount(data, DATA_DIR, False), Mount(workspace, WORKSPACE, True)])


def test_task_data_is_checked_and_checksummed_through_sandbox_paths(tmp_path: Path) -> None:
    fs = _fs(tmp_path)
    public = tmp_path / "public"
    (public / "train.csv").write_text("id,a,y\n1,2,3\n")
    (public / "test.csv").write_text("id,a\n4,5\n")
    with pytest.raises(ValueError, match=r"has no sample_submission\.csv"):
        load_task_data(fs, "t")
    (public / "sample_submission.csv").write_text("id,z\n4,0\n")
    with pytest.raises(ValueError, match=r"target columns in train.csv; t: \['z'\]"):
        load_task_data(fs, "t")
    (public / "sample_submission.csv").write_text("id,y\n4,0\n")
    first = load_task_data(fs, "t")
    assert first.sample_submission == "id,y\n4,0\n" and len(first.digest) == 24
    assert load_task_data(fs, "t") == first
    (public / "train.csv").write_text("id,a,y\n1,2,4\n")
    assert load_task_data(fs, "t").digest != first.digest


def test_predictions_are_read_without_following_links(tmp_path: Path) -> None:
    fs = _fs(tmp_path)
    preds = tmp_path / "ws" / "macro" / "preds"
    preds.mkdir(parents=True)
    (preds / "a.csv").write_text("id,y\n1,0\n")
    assert read_text(fs, "macro/preds/a.csv") == "id,y\n1,0\n"
    secret = tmp_path / "secret.csv"
    secret.write_text("answers")
    (preds / "b.csv").symlink_to(secret)
    assert read_text(fs, "macro/preds/b.csv") is None
    (preds / "c.csv").write_bytes(b"\xff\xfe")
    assert read_text(fs, "macro/preds/c.csv") is None
    assert read_text(fs, "macro/preds/missing.csv") is None
