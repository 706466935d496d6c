"""The worked example of docs/adding-a-task.md: a new MLE-bench competition is one folder.

The example folder ``docs/examples/mlebench/tiny-house-prices/`` is copied into a fresh
task root named by ``$MLE_GYM_TASKS_PATH`` (as a user adds tasks outside the package; a
folder under ``task_assets/mlebench/`` is found the same way). With nothing else changed,
the task is discovered, registered as a gymnasium id, prepared from a small generated
competition zip, graded, and its folder's grading cases are found and pass.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import numpy as np
import pandas as pd
import pytest

import mle_gym
from mle_gym.families.mlebench import prepare as sources
from mle_gym.families.mlebench import testing
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.tasks import TaskError, all_tasks, get_task, task_errors

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "examples" / "mlebench" / "tiny-house-prices"
TASK_ID = EXAMPLE.name
ENV_ID = f"MLEBench/{TASK_ID}-v0"
GENERATOR = REPO / "scripts" / "generate_mlebench_tasks.py"


@pytest.fixture
def task_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A task root holding only a copy of the example folder, on $MLE_GYM_TASKS_PATH."""
    root = tmp_path / "my_tasks"
    shutil.copytree(EXAMPLE, root / "mlebench" / TASK_ID)
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", str(root))
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    yield root
    gym.registry.pop(ENV_ID, None)


def competition_zip(path: Path, rows: int = 50) -> Path:
    """The competition's files as Kaggle would serve them: a zip with a labelled train.csv."""
    rng = np.random.default_rng(0)
    area = rng.integers(200, 1200, rows)
    rooms = rng.integers(1, 8, rows)
    age = rng.integers(0, 90, rows)
    price = (0.15 * area + 12 * rooms - 0.4 * age + rng.normal(0, 8, rows)).round(1)
    frame = pd.DataFrame(
        {"Id": np.arange(1, rows + 1), "LotArea": area, "Rooms": rooms, "Age": age}
    ).assign(SalePrice=price)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("train.csv", frame.to_csv(index=False))
    return path


def test_the_example_is_not_a_builtin_task() -> None:
    with pytest.raises(TaskError, match="unknown task"):
        get_task(TASK_ID)


def run_generator(*args: str) -> subprocess.CompletedProcess[str]:
    """``python scripts/generate_mlebench_tasks.py ARGS``, as docs/adding-a-task.md runs it."""
    command = [sys.executable, str(GENERATOR), *args]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)


def test_the_generator_checks_and_writes_the_example_task_yaml(task_root: Path) -> None:
    """The doc's commands: task.yaml's generated sections come from reference.json."""
    tasks = task_root / "mlebench"
    task_yaml = tasks / TASK_ID / "task.yaml"
    table = {p: p.read_bytes() for p in (REPO / "scripts" / "mlebench_reference").iterdir()}

    done = run_generator("--check", "--tasks", str(tasks))
    assert (done.returncode, done.stdout) == (0, "1 competitions; 0 file(s) would change\n")

    # a task.yaml with only its hand-written sections gets the generated ones back
    full = task_yaml.read_text()
    task_yaml.write_text(full[full.index("\nsubmission:") + 1 :])
    done = run_generator("--check", "--tasks", str(tasks))
    assert done.returncode == 1 and str(task_yaml) in done.stdout
    done = run_generator("--tasks", str(tasks))
    assert done.returncode == 0, done.stderr
    assert task_yaml.read_text() == full
    # the reference table covers the built-in folders only
    assert {p: p.read_bytes() for p in table} == table


def test_one_folder_is_discovered_registered_prepared_and_graded(
    task_root: Path, tmp_path: Path
) -> None:
    assert task_errors() == []
    task = get_task(TASK_ID)
    assert task.folder == task_root / "mlebench" / TASK_ID
    assert task.leaderboard is not None and task.leaderboard.gold == 9.5
    assert ENV_ID in mle_gym.register_all() and ENV_ID in gym.registry

    # the test suite finds the folder's grading cases (test_grading_cases.py runs them
    # for every folder found this way), and they pass
    params = {p.id for p in testing.case_params(all_tasks().values())}
    assert {f"{TASK_ID}-rmse", f"{TASK_ID}-worse"} <= params
    for name in testing.load_cases(task.folder):
        (tmp_path / name).mkdir()
        testing.run_case(task, name, tmp_path / name)

    data = sources.prepare_kaggle(task, competition_zip(tmp_path / "tiny-house-prices.zip"))
    public = sorted(p.name for p in data.public.iterdir())
    assert public == ["sample_submission.csv", "test.csv", "train.csv"]
    answers = pd.read_csv(data.private / task.answers_file)
    assert len(answers) == 10 and "SalePrice" not in pd.read_csv(data.public / "test.csv")

    answers_file = data.private / task.answers_file
    sample_file = data.public / "sample_submission.csv"
    sample = grade_submission(task, sample_file, answers=answers_file, data_source="kaggle")
    assert sample.valid, sample.message
    rmse = float(np.sqrt(np.mean(answers["SalePrice"] ** 2)))  # every sample price is 0
    assert sample.score == pytest.approx(rmse, abs=1e-5)
    perfect = tmp_path / "perfect.csv"
    answers[["Id", "SalePrice"]].to_csv(perfect, index=False)
    report = grade_submission(task, perfect, answers=answers_file, data_source="kaggle")
    assert report.valid and report.score == 0.0


@pytest.mark.slow
def test_the_example_task_runs_an_episode(task_root: Path, tmp_path: Path, backend: str) -> None:
    task = get_task(TASK_ID)
    sources.prepare_kaggle(task, competition_zip(tmp_path / "tiny-house-prices.zip"))
    mle_gym.register_all()
    env = gym.make(ENV_ID, sandbox=backend, reward_mode="raw")
    try:
        obs, info = env.reset(seed=0)
        assert "train.csv" in obs and info["data_source"] == "kaggle"
        command = "cp data/sample_submission.csv submission.csv"
        env.step({"tool": "execute", "args": {"command": command}})
        _, _, terminated, _, info = env.step({"tool": "submit", "args": {}})
    finally:
        env.close()
    assert terminated
    assert info["grade"]["valid"] and info["grade"]["score"] > 0
