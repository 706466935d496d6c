"""MLAgentBench's reference policy (``policy.SolutionPolicy``), as the scripted agent plays it.

The scripted agent (``mle_gym.agents.make_agent("scripted")``) follows the family's
reference policy: write the files of the task folder's ``solution/``, run the task's
``run`` command, submit. On the offline tasks with a solution that succeeds; a task
without ``solution/`` ends with the starter code's own result, never a success.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import pytest

import mle_gym
from mle_gym.agents import make_agent
from mle_gym.env import MLEEnv
from mle_gym.episode_runner import run_episode
from mle_gym.families.mlagentbench.policy import (
    MAX_SOLUTION_FILE_BYTES,
    SolutionPolicy,
    solution_files,
)
from mle_gym.families.mlagentbench.task import parse_config
from mle_gym.tasks import get_task, load_task

ASSETS = Path(__file__).resolve().parents[2] / "task_assets" / "mlagentbench"

TOY_YAML = """\
id: no-solution
benchmark: MLAgentBench
title: A task without a solution folder
version: 0
metric: value
lower_is_better: false
mlagentbench:
  run: python train.py
  outputs: [result.txt]
  baseline:
    mode: measured
    seeds: [0, 1]
data:
  none: {}
limits:
  max_steps: 10
  time_budget_s: 600
  exec_timeout_s: 60
"""

TOY_EVALUATE = """\
from mle_gym.families.mlagentbench.authoring import EvalJob, Evaluation, EvaluationFailed


def evaluate(job: EvalJob) -> Evaluation:
    path = job.outputs / "result.txt"
    if not path.is_file():
        raise EvaluationFailed("result.txt was not written")
    return Evaluation(score=float(path.read_text()))
"""

# SEED is set by the baseline runs (0 and 1); the episode's own run leaves it unset
TOY_TRAIN = """\
import os
seed = int(os.environ.get("SEED", "0"))
with open("result.txt", "w") as f:
    f.write(str(10 + 2 * seed))
"""


def call(tool: str, **args: object) -> dict:
    return {"tool": tool, "args": args}


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    """A data-free MLAgentBench task with a starter but no solution/ folder."""
    folder = tmp_path / "tasks" / "mlagentbench" / "no-solution"
    (folder / "starter").mkdir(parents=True)
    (folder / "task.yaml").write_text(TOY_YAML)
    (folder / "description.md").write_text("Make result.txt hold a larger number.\n")
    (folder / "evaluate.py").write_text(TOY_EVALUATE)
    (folder / "starter" / "train.py").write_text(TOY_TRAIN)
    return folder


def test_the_plan_writes_the_solution_runs_and_submits() -> None:
    task = get_task("MLAgentBench/house-price")
    policy = SolutionPolicy(task.folder, parse_config(task))
    code = (ASSETS / "house-price" / "solution" / "train.py").read_text()
    assert policy.act("", {}) == call("write_file", path="train.py", content=code)
    assert policy.act("", {}) == call("execute", command="python train.py")
    assert policy.act("", {}) == call("submit")
    assert policy.act("", {}) == call("submit")  # once the plan is done


def test_without_a_solution_the_starter_is_run_as_it_is(toy: Path) -> None:
    task = load_task(toy)
    assert solution_files(toy) == []
    policy = SolutionPolicy(toy, parse_config(task))
    assert [policy.act("", {}) for _ in range(3)] == [
        call("execute", command="python train.py"),
        call("submit"),
        call("submit"),
    ]


def test_solution_files_are_relative_sorted_and_bounded(tmp_path: Path) -> None:
    root = tmp_path / "solution"
    (root / "lib" / "__pycache__").mkdir(parents=True)
    (root / "train.py").write_text("print('train')\n")
    (root / "lib" / "model.py").write_text("X = 1\n")
    (root / "lib" / "__pycache__" / "model.cpython-311.pyc").write_text("cached")
    assert solution_files(tmp_path) == [
        ("lib/model.py", "X = 1\n"),
        ("train.py", "print('train')\n"),
    ]
    # a file the policy cannot write through a tool call is an error, not a silent skip
    (root / "big.txt").write_text("x" * (MAX_SOLUTION_FILE_BYTES + 1))
    with pytest.raises(ValueError, match=r"big\.txt: .* at most 1048576 bytes"):
        solution_files(tmp_path)
    (root / "big.txt").write_bytes(b"\xff\xfe")
    with pytest.raises(ValueError, match="must be UTF-8 text"):
        solution_files(tmp_path)


def test_the_scripted_agent_follows_the_family_s_policy() -> None:
    agent = make_agent("scripted")
    task = get_task("MLAgentBench/spaceship-titanic")
    agent.reset({"task": task, "observation": ""})
    first = agent.act("", {})
    code = (ASSETS / "spaceship-titanic" / "solution" / "train.py").read_text()
    assert first == call("write_file", path="train.py", content=code)


@pytest.mark.slow
@pytest.mark.parametrize("task", ["house-price", "spaceship-titanic"])
def test_the_scripted_agent_solves_the_offline_tasks(task: str, backend: str) -> None:
    mle_gym.register_all()
    env = gym.make(f"MLAgentBench/{task}-v0", sandbox=backend, data="replica")
    try:
        result = run_episode(env, make_agent("scripted"), seed=0)
    finally:
        env.close()
    grade = result.grade
    assert grade is not None and result.data_source == "replica"
    assert result.terminated and not result.truncated and result.steps == 3, result
    assert result.errors == [], result.errors
    assert grade["valid"] is True, grade["message"]
    assert grade["success"] is True, grade
    assert grade["improvement"] > grade["success_threshold"] == 0.1
    assert grade["baseline"] is not None and len(grade["baseline_runs"]) == 3
    assert result.reward == pytest.approx(min(1.0, grade["improvement"]))


@pytest.mark.slow
def test_a_task_without_a_solution_ends_with_the_starter_s_result(toy: Path, backend: str) -> None:
    env = MLEEnv(load_task(toy), sandbox=backend)
    try:
        result = run_episode(env, make_agent("scripted"), seed=0)
    finally:
        env.close()
    grade = result.grade
    assert grade is not None and result.terminated and result.steps == 2
    assert grade["valid"] is True, grade["message"]
    # the starter's own output (SEED unset: 10), scored against its measured baseline
    assert grade["score"] == 10.0 and grade["baseline_runs"] == [10.0, 12.0]
    assert grade["baseline"] == 11.0
    assert grade["success"] is False and grade["improvement"] < 0
