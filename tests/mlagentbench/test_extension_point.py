"""The task-family extension point on a family defined outside mle_gym (by import path):
reset options, a repository-style workspace with a working directory inside it, grading
that runs code in the episode's sandbox, and hidden files kept in the episode folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from mle_gym.env import MLEEnv
from mle_gym.families import DEFAULT_BY_BENCHMARK, family_class
from mle_gym.tasks import TaskError, get_task, load_task

TASK_YAML = """\
id: toy-repo
benchmark: Toy
family: mlab_toyfamily:ToyFamily
title: Toy repository task
metric: exact
limits:
  max_steps: 10
  exec_timeout_s: 30
"""


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    folder = tmp_path / "toy" / "toy-repo"
    folder.mkdir(parents=True)
    (folder / "task.yaml").write_text(TASK_YAML)
    (folder / "description.md").write_text("Write run.sh.\n")
    return folder


def test_a_family_from_an_import_path_runs_whole_episodes(toy: Path, backend: str) -> None:
    env = MLEEnv(load_task(toy), sandbox=backend)
    try:
        obs, info = env.reset(options={"example": "count"})
        assert obs.startswith("Instruction: print 1 2 3") and info["data_source"] == "none"
        assert "README.md" in obs  # the listing starts at the working directory
        obs, _, _, _, info = env.step({"tool": "execute", "args": {"command": "pwd; ls"}})
        assert obs.splitlines()[1:3] == ["/workspace/repo/tool", "README.md"]
        env.step({"tool": "write_file", "args": {"path": "run.sh", "content": "echo 1 2 3\n"}})
        assert (env.workspace / "repo" / "tool" / "run.sh").is_file()
        obs, _, _, _, info = env.step({"tool": "read_file", "args": {"path": "README.md"}})
        assert "run.sh must print" in obs
        obs, _, _, _, info = env.step({"tool": "validate_submission", "args": {}})
        assert obs == "run.sh exists"
        obs, reward, terminated, _, info = env.step({"tool": "submit", "args": {}})
        assert terminated and reward == 1.0 and info["grade"]["printed"] == "1 2 3"
        assert obs.endswith("graded: 1.0")

        env.reset(options={"example": "greet"})
        assert not (env.workspace / "repo" / "tool" / "run.sh").exists()  # a fresh workspace
        env.step({"tool": "write_file", "args": {"path": "run.sh", "content": "echo 1 2 3\n"}})
        _, reward, _, _, _ = env.step({"tool": "submit", "args": {}})
        assert reward == 0.0
    finally:
        env.close()


def test_reset_options_are_checked_by_the_family(toy: Path) -> None:
    env = MLEEnv(load_task(toy), sandbox="local")
    try:
        with pytest.raises(ValueError, match=r"unknown reset options \['replica_seed'\]"):
            env.reset(options={"replica_seed": 1})
        with pytest.raises(ValueError, match="unknown example"):
            env.reset(options={"example": "nope"})
    finally:
        env.close()


def test_family_selection_and_errors(toy: Path, tmp_path: Path) -> None:
    assert get_task("MLEBench/spaceship-titanic-v0").family == "mlebench"
    assert get_task("MLAgentBench/spaceship-titanic-v0").family == "mlagentbench"
    assert get_task("spaceship-titanic").benchmark == "MLEBench"  # bare ids stay MLE-bench's
    assert DEFAULT_BY_BENCHMARK["mlagentbench"] == "mlagentbench"
    assert family_class("mlebench").__name__ == "MLEBenchFamily"
    bad = tmp_path / "bad" / "toy-repo"
    bad.mkdir(parents=True)
    (bad / "description.md").write_text("x")
    (bad / "task.yaml").write_text(TASK_YAML.replace("mlab_toyfamily:ToyFamily", "nowhere"))
    with pytest.raises(TaskError, match="unknown task family 'nowhere'"):
        load_task(bad)
    (bad / "task.yaml").write_text(TASK_YAML.replace("ToyFamily", "Missing"))
    with pytest.raises(TaskError, match="cannot be loaded"):
        load_task(bad)
