"""``info["grade"]["submission_exists"]`` of MLAgentBench episodes: True exactly when the agent
handed in what the evaluator grades — the output files (every pattern of
``mlagentbench.outputs`` names a file), or with ``rerun=True`` the final code the run command
names — whether or not the result is valid."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mle_gym.env import MLEEnv
from mle_gym.families.mlagentbench.submission import outputs_present, run_scripts
from mle_gym.sandbox.base import WORKSPACE, Mount
from mle_gym.tasks import load_task
from mle_gym.tools.fs import SandboxFS

TOY_YAML = """\
id: exists-toy
benchmark: MLAgentBench
title: Write a number
version: 0
metric: value
lower_is_better: false
mlagentbench:
  run: python train.py
  outputs: [result.txt]
  read_only: [notes.txt]
  baseline:
    mode: measured
    seeds: [0]
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
    try:
        return Evaluation(score=float(path.read_text()))
    except ValueError:
        raise EvaluationFailed("result.txt must hold a number") from None
"""

TOY_TRAIN = 'open("result.txt", "w").write("3")\n'


def call(tool: str, **args: object) -> dict:
    return {"tool": tool, "args": args}


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    folder = tmp_path / "tasks" / "mlagentbench" / "exists-toy"
    (folder / "starter").mkdir(parents=True)
    (folder / "task.yaml").write_text(TOY_YAML)
    (folder / "description.md").write_text("Make result.txt hold a larger number.\n")
    (folder / "evaluate.py").write_text(TOY_EVALUATE)
    (folder / "starter" / "train.py").write_text(TOY_TRAIN)
    (folder / "starter" / "notes.txt").write_text("do not edit\n")
    return folder


def _workspace(tmp_path: Path) -> tuple[Path, SandboxFS]:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws, SandboxFS([Mount(ws, WORKSPACE, True)])


def test_every_output_pattern_must_name_a_regular_file(tmp_path: Path) -> None:
    ws, fs = _workspace(tmp_path)
    assert outputs_present(fs, WORKSPACE, ("submission.csv",)) is False
    (ws / "submission.csv").mkdir()  # a folder is not the file the evaluator reads
    assert outputs_present(fs, WORKSPACE, ("submission.csv",)) is False
    (ws / "submission.csv").rmdir()
    (ws / "submission.csv").write_text("")  # an empty file exists (and is invalid)
    assert outputs_present(fs, WORKSPACE, ("submission.csv",)) is True
    assert outputs_present(fs, WORKSPACE, ("submission.csv", "checkpoints/*")) is False
    (ws / "checkpoints").mkdir()
    assert outputs_present(fs, WORKSPACE, ("submission.csv", "checkpoints/*")) is False
    (ws / "checkpoints" / "best.pkl").write_bytes(b"\x80")
    assert outputs_present(fs, WORKSPACE, ("submission.csv", "checkpoints/*")) is True


def test_links_count_as_the_copy_for_grading_counts_them(tmp_path: Path) -> None:
    ws, fs = _workspace(tmp_path)
    (ws / "real.csv").write_text("a\n")
    os.symlink("real.csv", ws / "submission.csv")  # a literal name is read through links
    assert outputs_present(fs, WORKSPACE, ("submission.csv",)) is True
    os.symlink("/etc/passwd", ws / "escape.csv")  # outside the sandbox's view: nothing
    assert outputs_present(fs, WORKSPACE, ("escape.csv",)) is False
    (ws / "out").mkdir()
    os.symlink("../real.csv", ws / "out" / "linked.csv")  # globs leave links out
    assert outputs_present(fs, WORKSPACE, ("out/*.csv",)) is False


def test_the_scripts_a_run_command_names() -> None:
    assert run_scripts("python train.py") == ("train.py",)
    assert run_scripts("SEED=1 python -u src/train.py --out=x.py && bash run.sh") == (
        "src/train.py",
        "run.sh",
    )
    assert run_scripts("python -m pkg.train") == ()
    assert run_scripts("python ../outside.py /abs/x.py") == ()
    assert run_scripts("python 'unclosed") == ()


def _episode(toy: Path, backend: str, actions: list[dict], **kwargs: object) -> dict:
    env = MLEEnv(load_task(toy), sandbox=backend, **kwargs)
    try:
        env.reset(seed=0)
        for action in actions:
            env.step(action)
        _, _, terminated, _, info = env.step(call("submit"))
    finally:
        env.close()
    assert terminated
    return info["grade"]


@pytest.mark.slow
def test_submission_exists_follows_the_graded_file(toy: Path, backend: str) -> None:
    nothing = _episode(toy, backend, [])
    assert nothing["submission_exists"] is False and nothing["valid"] is False
    made = _episode(toy, backend, [call("execute", command="python train.py")])
    assert made["submission_exists"] is True and made["valid"] is True and made["score"] == 3.0
    junk = _episode(toy, backend, [call("write_file", path="result.txt", content="many")])
    assert junk["submission_exists"] is True and junk["valid"] is False
    assert junk["message"] == "result.txt must hold a number"
    tampered = _episode(
        toy,
        backend,
        [call("execute", command="python train.py && echo edited >> notes.txt")],
    )
    assert tampered["submission_exists"] is True and tampered["valid"] is False
    assert "read-only" in tampered["message"]


@pytest.mark.slow
def test_with_rerun_the_final_code_is_the_submission(toy: Path, backend: str) -> None:
    kept = _episode(toy, backend, [], rerun=True)  # never run: the rerun makes result.txt
    assert kept["submission_exists"] is True and kept["valid"] is True and kept["score"] == 3.0
    gone = _episode(toy, backend, [call("execute", command="rm train.py")], rerun=True)
    assert gone["submission_exists"] is False and gone["valid"] is False
