"""The MLE-bench catalog as a whole: registered ids, figures, metrics, graders, data paths.

MLE-bench's own list of competitions per split is the committed data file
``mlebench_splits.json`` (82 ids); every one of them must be registered with its split, and a
task folder beyond that list needs no edit anywhere. Each competition's figures are written
once, in its folder's reference.json; `scripts/generate_mlebench_tasks.py` writes them into
task.yaml and the table in `scripts/mlebench_reference/`, and the tests here check both are in
sync.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import mle_gym
from mle_gym.agents import make_agent
from mle_gym.data.store import DataNotPrepared
from mle_gym.episode_runner import run_episode
from mle_gym.grading.metrics import get_metric
from mle_gym.tasks import TaskError, all_tasks, evaluation_set, get_task, task_errors

REPO = Path(__file__).resolve().parents[2]
TABLE = REPO / "scripts" / "mlebench_reference"
MLEBENCH_TASKS = REPO / "task_assets" / "mlebench"
#: MLE-bench's competition ids per split (low = lite, medium, high, dev): the benchmark's list
MLEBENCH_SPLITS: dict[str, list[str]] = json.loads(
    (Path(__file__).with_name("mlebench_splits.json")).read_text(encoding="utf-8")
)["splits"]


def _generator() -> Any:
    """The generator script, imported as a module."""
    import importlib.util

    path = REPO / "scripts" / "generate_mlebench_tasks.py"
    spec = importlib.util.spec_from_file_location("generate_mlebench_tasks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()
# The figures as each task folder's reference.json gives them (the table is generated from them)
FIGURES = [GENERATOR.read_reference(f) for f in GENERATOR.reference_folders(MLEBENCH_TASKS)]
ROWS = [row for row, _ in FIGURES]
QUANTILES = {row["competition_id"]: q for row, q in FIGURES if q is not None}
IDS = [r["competition_id"] for r in ROWS]
LITE_AND_DEV = [r["competition_id"] for r in ROWS if r["split"] in ("low", "dev")]


WITH_REPLICA = sorted(
    s.id for s in all_tasks().values() if s.benchmark == "MLEBench" and "replica" in s.data
)


def test_no_invalid_task_folders() -> None:
    assert task_errors() == []


def test_the_mlebench_list_is_whole() -> None:
    """The data file is MLE-bench's list: 22 low, 38 medium, 15 high and 7 dev ids, once each."""
    assert {split: len(ids) for split, ids in MLEBENCH_SPLITS.items()} == {
        "low": 22,
        "medium": 38,
        "high": 15,
        "dev": 7,
    }
    every = [i for ids in MLEBENCH_SPLITS.values() for i in ids]
    assert len(set(every)) == len(every) == 82


def test_every_mlebench_competition_is_registered_with_its_split() -> None:
    """A superset check: MLE-bench's competitions are all there; more may be."""
    registered = set(mle_gym.register_all())
    tasks = {s.id: s for s in all_tasks().values() if s.benchmark == "MLEBench"}
    expected = {i: split for split, ids in MLEBENCH_SPLITS.items() for i in ids}
    # MLE-bench's competitions and every built-in folder (each with its figures)
    missing = sorted(i for i in {*expected, *IDS} if f"MLEBench/{i}-v0" not in registered)
    assert missing == []
    assert {i: tasks[i].split for i in expected} == expected
    builtin = {i for i, task in tasks.items() if task.folder.parent == MLEBENCH_TASKS}
    assert builtin == set(IDS)


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_task_figures_match_the_reference(row: dict[str, str]) -> None:
    spec = get_task(f"MLEBench/{row['competition_id']}-v0")
    assert spec.split == row["split"]
    fix = GENERATOR.CORRECTIONS.get(row["competition_id"], {})
    assert spec.metric == fix.get("metric", row["metric"])
    assert spec.lower_is_better == fix.get("lower_is_better", row["lower_is_better"] == "True")
    if row["gold"]:
        lb = spec.leaderboard
        assert lb is not None
        assert (lb.gold, lb.silver, lb.bronze, lb.median) == tuple(
            float(row[k]) for k in ("gold", "silver", "bronze", "median")
        )
        assert lb.teams == int(row["teams"])
        assert list(lb.score_at_rank_fraction) == [
            float(x) for x in QUANTILES[row["competition_id"]]["score_at_rank_fraction"]
        ]
    else:
        assert spec.leaderboard is None


def test_generated_sections_and_reference_table_are_in_sync() -> None:
    """task.yaml's generated sections and scripts/mlebench_reference/ match the folders."""
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_mlebench_tasks.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout


def test_every_mlebench_folder_has_its_reference_figures() -> None:
    folders = {p.name for p in MLEBENCH_TASKS.iterdir() if (p / "task.yaml").is_file()}
    assert folders == set(IDS)
    committed = list(csv.DictReader((TABLE / GENERATOR.CSV_NAME).open()))
    assert committed == ROWS
    assert json.loads((TABLE / GENERATOR.QUANTILES_NAME).read_text()) == QUANTILES


def test_reference_table_is_built_from_the_folders(tmp_path: Path) -> None:
    """A changed or added reference.json changes the table; a malformed one is refused."""
    for name in ("spaceship-titanic", "ventilator-pressure-prediction"):
        shutil.copytree(MLEBENCH_TASKS / name, tmp_path / name)
    ref = json.loads((tmp_path / "spaceship-titanic" / "reference.json").read_text())
    (tmp_path / "new-competition").mkdir()
    added = ref | {"name": "New", "teams": 7, "score_at_rank_fraction": None}
    (tmp_path / "new-competition" / "reference.json").write_text(json.dumps(added))
    texts = GENERATOR.table_texts(tmp_path)
    rows = list(csv.DictReader(io.StringIO(texts[GENERATOR.CSV_NAME])))
    assert [r["competition_id"] for r in rows] == [
        "new-competition",
        "spaceship-titanic",
        "ventilator-pressure-prediction",
    ]
    assert rows[0]["name"] == "New" and rows[0]["teams"] == "7"
    assert rows[1] == ROWS[IDS.index("spaceship-titanic")]
    assert rows[2]["lower_is_better"] == "" and rows[2]["gold"] == ""
    quantiles = json.loads(texts[GENERATOR.QUANTILES_NAME])
    assert sorted(quantiles) == ["spaceship-titanic"]
    (tmp_path / "new-competition" / "reference.json").write_text(json.dumps({"name": "New"}))
    with pytest.raises(ValueError, match="keys must be"):
        GENERATOR.table_texts(tmp_path)


def test_every_reference_metric_name_is_implemented() -> None:
    for name in sorted({r["metric"] for r in ROWS}):
        metric = get_metric(name)
        expected = {
            r["lower_is_better"] == "True"
            for r in ROWS
            if r["metric"] == name and r["lower_is_better"]
        }
        if len(expected) == 1:
            assert metric.lower_is_better == expected.pop(), name


@pytest.mark.parametrize("competition", IDS)
def test_every_task_can_be_graded_or_says_why(competition: str) -> None:
    spec = get_task(f"MLEBench/{competition}-v0")
    problem = spec.problem()
    if spec.grader == "missing":
        assert problem and "no grader" in problem
        with pytest.raises(TaskError, match="cannot be used"):
            gym.make(spec.env_id, data="auto")
    else:
        assert problem is None, problem


@pytest.mark.parametrize("competition", LITE_AND_DEV)
def test_lite_and_dev_competitions_are_preparable(competition: str) -> None:
    spec = get_task(competition)
    assert spec.kaggle_supported
    module = spec.module("prepare")
    assert module is not None and callable(getattr(module, "prepare", None))


@pytest.mark.parametrize("competition", IDS)
def test_make_without_data_gives_the_preparation_error(
    competition: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path))
    spec = get_task(competition)
    if spec.grader == "missing" or "replica" in spec.data:
        return  # covered by the grader test / the replica episodes
    with pytest.raises(DataNotPrepared) as err:
        gym.make(spec.env_id)
    message = str(err.value)
    if spec.kaggle_supported:
        assert f"mle-gym prepare {competition}" in message
        assert "kaggle.com/competitions/" in message and "/rules" in message
    else:
        assert "not yet supported" in message


def test_leaky_tasks_are_excluded_from_evaluation_sets() -> None:
    leaky = {s.id for s in all_tasks().values() if s.leaky}
    assert "random-acts-of-pizza" in leaky
    default = {s.id for s in evaluation_set("lite", "MLEBench")}
    assert default and not (default & leaky)
    everything = {s.id for s in evaluation_set("lite", "MLEBench", include_leaky=True)}
    assert everything == {r["competition_id"] for r in ROWS if r["split"] == "low"}


def test_at_least_nine_replicas() -> None:
    assert len(WITH_REPLICA) >= 9, WITH_REPLICA


@pytest.mark.slow
@pytest.mark.parametrize("competition", WITH_REPLICA)
def test_replica_reference_solution_episode(competition: str) -> None:
    """reset -> the scripted agent runs the task's reference solution -> submit -> valid."""
    spec = get_task(competition)
    env = gym.make(spec.env_id, data="replica", reward_mode="raw", sandbox="local")
    try:
        result = run_episode(env, make_agent("scripted"), seed=0)
    finally:
        env.close()
    grade = result.grade
    assert grade is not None and grade["valid"], grade
    replica = spec.data["replica"]
    sample = replica["sample_submission_score"]
    better = grade["score"] < sample if spec.lower_is_better else grade["score"] > sample
    assert better, (grade["score"], sample)
