"""The worked example of docs/adding-an-mlagentbench-task.md: a new MLAgentBench task is
one folder.

The example folder ``docs/examples/mlagentbench/tomato-yield/`` is copied into an empty
task root named by ``$MLE_GYM_TASKS_PATH`` (as a user adds tasks outside the package; a
folder under ``task_assets/mlagentbench/`` is found the same way). With nothing else
changed, the task is discovered, listed, registered as a gymnasium id, its offline data is
generated, its evaluator scores, and the scripted agent plays it on each sandbox backend:
the starter's baseline is measured, the reference solution succeeds, and without the
solution the starter's own result is no success.
"""

from __future__ import annotations

import json
import shutil
import statistics
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import pandas as pd
import pytest

import mle_gym
from mle_gym.agents import make_agent
from mle_gym.cli import main as cli
from mle_gym.data import store
from mle_gym.episode_runner import run_episode
from mle_gym.families.mlagentbench import prepare as mlab_data
from mle_gym.families.mlagentbench.evaluation import EvalJob, EvaluationFailed, run_evaluator
from mle_gym.families.mlagentbench.task import MLAgentBenchTask
from mle_gym.tasks import TaskError, clear_caches, get_task, task_errors

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "examples" / "mlagentbench" / "tomato-yield"
TASK_ID = EXAMPLE.name
KEY = f"mlagentbench/{TASK_ID}"
ENV_ID = f"MLAgentBench/{TASK_ID}-v0"


@pytest.fixture
def task_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A task root holding only a copy of the example folder, on $MLE_GYM_TASKS_PATH, and
    a fresh $MLE_GYM_HOME (so the data and the baseline are made by the test)."""
    root = tmp_path / "my_tasks"
    shutil.copytree(EXAMPLE, root / "mlagentbench" / TASK_ID)
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", str(root))
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    clear_caches()
    yield root
    gym.registry.pop(ENV_ID, None)
    clear_caches()


def test_the_example_is_not_a_builtin_task() -> None:
    with pytest.raises(TaskError, match="unknown task"):
        get_task(KEY)


def test_one_folder_is_discovered_listed_and_registered(
    task_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert task_errors() == []
    task = get_task(TASK_ID)
    assert isinstance(task, MLAgentBenchTask) and task.family == "mlagentbench"
    assert task.folder == task_root / "mlagentbench" / TASK_ID and task.key == KEY
    cfg = task.config
    assert (cfg.run, cfg.outputs, cfg.read_only) == (
        "python train.py",
        ("submission.csv",),
        ("data/*",),
    )
    assert cfg.baseline_mode == "measured" and cfg.baseline_seeds == (0, 1, 2)
    assert cfg.has_replica and not cfg.real_source and not cfg.self_contained
    assert task.limits.max_steps == 20 and task.lower_is_better

    assert ENV_ID in mle_gym.register_all()
    assert gym.spec(ENV_ID).max_episode_steps == 20

    assert cli(["list", "--benchmark", "MLAgentBench", "--wide"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if TASK_ID in line)
    assert row.split()[:4] == [ENV_ID, "MLAgentBench", "-", "mae"] and "replica available" in row


def test_the_replica_is_generated_offline_and_reproducibly(task_root: Path) -> None:
    task = get_task(KEY)
    data = mlab_data.prepare_replica(task, 0)
    assert data.variant.startswith("replica-seed0-key")
    public = sorted(p.name for p in data.public.iterdir())
    assert public == ["sample_submission.csv", "test.csv", "train.csv"]
    assert [p.name for p in data.private.iterdir()] == ["answers.csv"]
    train = pd.read_csv(data.public / "train.csv")
    test = pd.read_csv(data.public / "test.csv")
    answers = pd.read_csv(data.private / "answers.csv")
    assert (len(train), len(test)) == (1600, 400) and "yield_kg" not in test
    assert answers["bed_id"].tolist() == test["bed_id"].tolist()
    assert set(train["variety"]) == {"Cherry", "Roma", "Beefsteak", "Heirloom"}
    assert store.verify(data) == []

    files = data.manifest()["files"]
    again = mlab_data.prepare_replica(task, 0, force=True)
    assert again.manifest()["files"] == files  # same key and seed: byte-identical
    other = mlab_data.prepare_replica(task, 1)
    assert other.manifest()["files"]["public/train.csv"] != files["public/train.csv"]


def test_the_hidden_evaluator_scores_and_checks(task_root: Path, tmp_path: Path) -> None:
    task = get_task(KEY)
    data = mlab_data.prepare_replica(task, 0)
    answers = pd.read_csv(data.private / "answers.csv")

    def score(frame: pd.DataFrame) -> float:
        outputs = tmp_path / f"outputs-{len(list(tmp_path.iterdir()))}"
        outputs.mkdir()
        frame.to_csv(outputs / "submission.csv", index=False)
        job = EvalJob.for_task(task, outputs, data, seed=0, timeout_s=60)
        return run_evaluator(job).score

    assert score(answers) == 0.0
    assert score(answers.iloc[::-1]) == 0.0  # rows are matched by bed_id, not by position
    expected = float((answers["yield_kg"] - 20.0).abs().mean())
    assert score(pd.read_csv(data.public / "sample_submission.csv")) == pytest.approx(expected)
    with pytest.raises(EvaluationFailed, match=r"^submission\.csv: .*400"):
        score(answers.iloc[1:])

    check = task.module("evaluate").check
    (tmp_path / "good").mkdir()
    answers.to_csv(tmp_path / "good" / "submission.csv", index=False)
    assert "well-formed" in check(tmp_path / "good", data.public)


def _play(backend: str) -> dict:
    env = gym.make(ENV_ID, sandbox=backend)
    try:
        result = run_episode(env, make_agent("scripted"), seed=0)
    finally:
        env.close()
    assert result.terminated and result.errors == [], result
    assert result.grade is not None and result.data_source == "replica"
    return result.grade


@pytest.mark.slow
def test_the_scripted_agent_plays_the_example(task_root: Path, backend: str) -> None:
    mle_gym.register_all()
    solved = _play(backend)
    assert solved["valid"] is True, solved["message"]
    # the starter's baseline, measured at reset: one run per seed, scored by evaluate.py
    runs = solved["baseline_runs"]
    assert len(runs) == 3 and solved["baseline"] == pytest.approx(statistics.mean(runs))
    assert "python train.py" in solved["baseline_measured_by"]
    reference = get_task(KEY).config.baseline_reference["replica-seed0"]
    assert solved["baseline"] == pytest.approx(reference, rel=1e-6)  # task.yaml's figure
    data = store.lookup(get_task(KEY), "replica", 0)
    assert data is not None
    stored = json.loads((data.root / "mlab_baseline.json").read_text())
    assert stored["runs"] == runs
    # the reference solution beats it by more than 10%
    assert solved["success"] is True and solved["improvement"] > 0.1, solved

    # without solution/, the scripted agent runs the starter as it is: no success
    shutil.rmtree(task_root / "mlagentbench" / TASK_ID / "solution")
    starter = _play(backend)
    assert starter["valid"] is True and starter["success"] is False
    assert starter["baseline_runs"] == runs  # reused, not measured again
    assert starter["score"] == pytest.approx(runs[0])  # SEED unset is seed 0
