"""The execution check on both sandbox backends: how a submitted run.sh/run.py ended, the
artifact and output rules, ML-Bench's compat rule, and the grading copy of a workspace."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from mle_gym.families.mlbench.execution import run_submission
from mle_gym.families.mlbench.grading import grade
from mle_gym.families.mlbench.schema import parse_example
from mle_gym.families.mlbench.workspace import build_grading_tree, changed_code, code_fingerprint
from mle_gym.sandbox import SandboxLimits, make_sandbox
from mle_gym.sandbox.base import Sandbox

pytestmark = pytest.mark.sandbox

TRAIN = """\
import argparse, os, sys, time
p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, required=True)
p.add_argument("--out", default="model.txt")
p.add_argument("--sleep", type=float, default=0)
a = p.parse_args()
if a.epochs < 0:
    raise ValueError("epochs must be >= 0")
with open(a.out, "w") as f:
    f.write(str(a.epochs))
print(f"trained for {a.epochs} epochs", flush=True)
time.sleep(a.sleep)
"""


def example(**over: object):
    record: dict[str, object] = {
        "github_id": 1,
        "github": "https://example.org/toy",
        "repo_id": 1,
        "id": 7,
        "path": "./task",
        "arguments": "{'epochs': '3'}",
        "instruction": "train for 3 epochs",
        "oracle": "",
        "type": "Bash Script",
        "output": "python train.py --epochs 3",
        "prefix_code": "",
    }
    record.update(over)
    return parse_example(record)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "task").mkdir(parents=True)
    (root / "task" / "train.py").write_text(TRAIN)
    (root / "README.md").write_text("python train.py --epochs N\n")
    return root


@pytest.fixture
def run_in(backend: str, tmp_path: Path, repo: Path):
    """``run_in(submission, **example_fields)`` -> (grade, sandbox workspace) of a fresh copy."""
    made: list[Sandbox] = []
    counter = [0]

    def factory(submission: str | None, timeout: float = 60, compat=None, **over: object):
        counter[0] += 1
        ws = tmp_path / f"ws{counter[0]}"
        shutil.copytree(repo, ws)
        ex = example(**over)
        if submission is not None:
            (ws / ex.path / ex.submission_file).write_text(submission)
        sb = make_sandbox(backend, ws, None, SandboxLimits(memory_mb=1024, pids=64))
        made.append(sb)
        return grade(ex, submission, sb, timeout, compat=compat), ws

    yield factory
    for sb in made:
        sb.close()


def test_exit_zero_passes_and_artifacts_are_checked(run_in) -> None:
    g, ws = run_in("python train.py --epochs 3\n", artifacts=["model.txt"], expected_stdout="3 ep")
    d = g.to_dict()
    assert g.passed and d["score"] == 1.0 and d["partial_credit"] == 1.0, d
    ex = d["execution"]
    assert ex["status"] == "exit_0" and ex["exit_code"] == 0
    assert ex["artifacts_found"] == ["model.txt"] and ex["stdout_matched"] is True
    assert "trained for 3 epochs" in ex["output_tail"]
    assert (ws / "task" / "model.txt").read_text() == "3"  # ran with cwd = the task folder


def test_wrong_argument_fails_the_argument_check_only(run_in) -> None:
    g, _ = run_in("python train.py --epochs 30\n")
    d = g.to_dict()
    assert not g.passed and d["argument_check"]["missing"] == ["epochs"]
    assert d["execution"]["status"] == "exit_0" and d["execution"]["passed"]
    assert d["partial_credit"] == 0.5 and d["message"].startswith("argument check failed")


def test_crash_fails_execution_with_its_exit_code(run_in) -> None:
    g, _ = run_in("python train.py --epochs 3 --out /nonexistent/dir/m.txt\n")
    d = g.to_dict()
    assert not g.passed and d["argument_check"]["passed"]
    assert d["execution"]["status"] == "exit_nonzero" and d["execution"]["exit_code"] == 1
    assert "No such file or directory" in d["execution"]["output_tail"]
    assert d["message"] == "execution failed: exit_nonzero (exit code 1)"


def test_exit_zero_without_the_expected_artifact_fails(run_in) -> None:
    g, _ = run_in("python train.py --epochs 3 --out elsewhere.txt\n", artifacts=["model.txt"])
    d = g.to_dict()
    assert not g.passed and d["execution"]["status"] == "exit_0"
    assert d["execution"]["artifacts_found"] == []
    assert d["message"] == "execution failed: expected artifacts/output not produced"


def test_still_running_at_timeout_is_reported_and_passes_only_in_compat(run_in) -> None:
    sub = "python train.py --epochs 3 --sleep 60\n"
    g, _ = run_in(sub, timeout=4)
    d = g.to_dict()
    assert d["still_running_at_timeout"] and d["execution"]["status"] == "timeout"
    assert not g.passed and d["message"] == "execution failed: still running at the timeout"
    compat, _ = run_in(sub, timeout=4, compat="mlbench")
    assert compat.passed and compat.to_dict()["compat"] == "mlbench"
    assert compat.to_dict()["still_running_at_timeout"]
    # with an expected artifact that exists before the timeout, the real rule passes too
    produced, _ = run_in(sub, timeout=4, artifacts=["model.txt"])
    assert produced.passed and produced.to_dict()["execution"]["status"] == "timeout"


def test_keyboard_interrupt_counts_only_in_compat(run_in) -> None:
    sub = 'python -c "raise KeyboardInterrupt" ; python train.py --epochs 3 ; exit 130\n'
    assert not run_in(sub)[0].passed
    assert run_in(sub, compat="mlbench")[0].passed


def test_python_type_prefix_code_and_missing_submission(run_in) -> None:
    code = (
        "import subprocess, sys\n"
        "sys.exit(subprocess.call([sys.executable, 'train.py', '--epochs', '3']))\n"
    )
    g, ws = run_in(code, type="Python Code", prefix_code="mkdir -p made_by_prefix")
    assert g.passed, g.to_dict()
    assert (ws / "task" / "made_by_prefix").is_dir() and (ws / "task" / "run.py").is_file()
    bad_prefix, _ = run_in("python train.py --epochs 3\n", prefix_code="exit 3")
    d = bad_prefix.to_dict()
    assert not bad_prefix.passed and d["execution"]["status"] == "prefix_failed"
    assert d["execution"]["exit_code"] == 3
    missing, _ = run_in(None)
    assert not missing.passed and missing.to_dict()["message"] == "no submission file"
    assert missing.to_dict()["valid"] is False


def test_run_submission_reports_a_missing_file(backend: str, repo: Path) -> None:
    sb = make_sandbox(backend, repo, None, SandboxLimits(memory_mb=512, pids=32))
    try:
        out = run_submission(sb, example(), 30)
    finally:
        sb.close()
    assert out.status == "no_submission" and not out.passed()


def test_grading_tree_restores_the_repository_and_keeps_additions(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "task").mkdir(parents=True)
    (repo / "task" / "train.py").write_text("print('real')\n")
    (repo / ".git").mkdir()
    (repo / ".git" / "HEAD").write_text("ref")
    ws = tmp_path / "ws"
    shutil.copytree(repo, ws)
    (ws / "task" / "train.py").write_text("print('tampered')\n")  # modified: restored
    (ws / "task" / "run.sh").write_text("python train.py\n")  # added: kept
    (ws / "task" / "helpers").mkdir()
    (ws / "task" / "helpers" / "cfg.yaml").write_text("a: 1\n")
    secret = tmp_path / "secret.txt"
    secret.write_text("host secret")
    os.symlink(secret, ws / "task" / "link")  # a link stays a link, never followed
    dest = tmp_path / "grading"
    added = build_grading_tree(repo, ws, dest)
    assert sorted(added) == ["task/helpers/cfg.yaml", "task/link", "task/run.sh"]
    assert (dest / "task" / "train.py").read_text() == "print('real')\n"
    assert (dest / "task" / "run.sh").read_text() == "python train.py\n"
    assert (dest / "task" / "link").is_symlink()
    assert os.readlink(dest / "task" / "link") == str(secret)
    assert not (dest / ".git").exists()
    before = code_fingerprint(repo)
    assert changed_code(before, dest) == []
    (dest / "task" / "train.py").write_text("print('rewritten by the run')\n")
    assert changed_code(before, dest) == ["task/train.py"]
