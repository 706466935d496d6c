"""Execution evidence (default rules): the graded run must show the repository's entry
point running with the instructed values — on both backends, with the tracer — and the
pieces (entry point of a reference solution, the trace check) on synthetic traces."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from mle_gym.families.mlbench.evidence import EntryPoint, check_trace, entry_point
from mle_gym.families.mlbench.grading import grade
from mle_gym.families.mlbench.schema import parse_example
from mle_gym.sandbox import SandboxLimits, make_sandbox
from mle_gym.sandbox.base import Sandbox
from mle_gym.sandbox.traced import ExecRecord, Trace

TRAIN = """\
import argparse, time
p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, required=True)
p.add_argument("--sleep", type=float, default=0)
a = p.parse_args()
time.sleep(a.sleep)
open("model.txt", "w").write(str(a.epochs))
print("trained", a.epochs, flush=True)
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
        "artifacts": ["model.txt"],
    }
    record.update(over)
    return parse_example(record)


# -- the pieces, on synthetic traces --------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "path", "want"),
    [
        ("python train.py --epochs 3", "./task", ("script", "task/train.py")),
        ("cd sub && CUDA=0 python3 -u -W ignore run.py --x 1", ".", ("script", "sub/run.py")),
        ("python -m pkg.train --epochs 3", ".", ("module", "pkg.train")),
        ("bash scripts/go.sh 3 wine", "./a", ("script", "a/scripts/go.sh")),
        ("torchrun --nproc_per_node 2 main.py --epochs 3", ".", ("script", "main.py")),
        ("pip install x\npython eval.py\npython fit.py --epochs 3", ".", ("script", "fit.py")),
        ("# python old.py --epochs 3\npython new.py --epochs 3", ".", ("script", "new.py")),
    ],
)
def test_entry_point_of_a_reference_solution(output: str, path: str, want) -> None:
    got = entry_point(example(output=output, path=path))
    assert got == EntryPoint(*want)


def test_python_code_examples_have_no_entry_point() -> None:
    ex = example(type="Python Code", output="from toy import fit\nfit(epochs=3)\n")
    assert entry_point(ex) is None


def rec(pid: int, argv: list[str], exe: str = "/usr/bin/python3.11", cwd: str = "/workspace/task",
        **env: str) -> ExecRecord:  # fmt: skip
    return ExecRecord(pid, pid, 1, tuple(argv), cwd, exe, dict(env))  # seq = pid here


def trace(*records: ExecRecord, exits=None, timed_out: bool = False) -> Trace:
    exits = exits if exits is not None else {r.seq: (0, None, False) for r in records}
    return Trace(records, exits, 0, None, timed_out, False, 0, 0, 0, "")


ENTRY = EntryPoint("script", "task/train.py")


def test_a_finished_run_of_the_entry_point_with_the_values_is_evidence() -> None:
    ev = check_trace(trace(rec(5, ["python", "-u", "train.py", "--epochs=3"])), example(), ENTRY)
    assert ev.ok and ev.found == {"epochs": True}
    shebang = rec(6, ["/usr/bin/python3", "/workspace/task/train.py", "--epochs", "3"], cwd="/")
    assert check_trace(trace(shebang), example(), ENTRY).ok
    env_value = rec(7, ["python", "train.py"], EPOCHS="3")
    assert check_trace(trace(env_value), example(), ENTRY).found == {"epochs": True}


@pytest.mark.parametrize(
    ("record", "exits", "reason"),
    [
        (rec(5, ["python", "other.py", "--epochs", "3"]), None, "never executed"),
        (rec(5, ["python", "-c", "pass", "train.py", "--epochs", "3"]), None, "never executed"),
        (rec(5, ["cat", "train.py", "--epochs", "3"], exe="/usr/bin/cat"), None, "never executed"),
        (rec(5, ["python", "train.py", "--epochs", "3"], exe="/workspace/task/python"), None,
         "not an interpreter"),
        (rec(5, ["python", "train.py", "--epochs", "3"], exe="/tmp/python3"), None,
         "not an interpreter"),
        (rec(5, ["python", "train.py", "--epochs", "3"], LD_PRELOAD="/tmp/x.so"), None,
         "start-up hooks in its environment: LD_PRELOAD"),
        (rec(5, ["bash", "train.py", "--epochs", "3"], exe="/usr/bin/bash",
             BASH_FUNC_python__="() { :; }"), None, "BASH_FUNC_python__"),
        (rec(5, ["python", "train.py", "--epochs", "3"]), {5: (None, 9, False)},
         "ended with signal 9"),
        (rec(5, ["python", "train.py", "--epochs", "3"]), {5: (1, None, False)}, "exit status 1"),
        (rec(5, ["python", "train.py", "--epochs", "3"]), {}, "still running when the command"),
    ],
)  # fmt: skip
def test_what_is_not_evidence(record: ExecRecord, exits, reason: str) -> None:
    ev = check_trace(trace(record, exits=exits), example(), ENTRY)
    assert not ev.ok and reason in ev.reason


def test_a_process_that_replaced_the_entry_point_does_not_count() -> None:
    first = rec(5, ["python", "train.py", "--epochs", "3"])
    after = replace(rec(5, ["true"], exe="/usr/bin/true"), seq=6)
    exits = {5: (None, None, True), 6: (0, None, False)}
    ev = check_trace(trace(first, after, exits=exits), example(), ENTRY)
    assert not ev.ok and "executed another program" in ev.reason


def test_values_come_from_a_finished_run_not_from_a_killed_one() -> None:
    wrong = rec(5, ["python", "train.py", "--epochs", "30"])
    killed = rec(6, ["python", "train.py", "--epochs", "3"])
    ev = check_trace(
        trace(wrong, killed, exits={5: (0, None, False), 6: (None, 9, False)}), example(), ENTRY
    )
    assert ev.ok and ev.found == {"epochs": False}
    at_timeout = check_trace(trace(killed, exits={}, timed_out=True), example(), ENTRY)
    assert at_timeout.ok and at_timeout.found == {"epochs": True}


# -- graded runs on both backends ---------------------------------------------------------


@pytest.fixture
def run_in(backend: str, tmp_path: Path):
    """``run_in(submission, compat=None)`` -> the grade of a fresh repository copy."""
    made: list[Sandbox] = []

    def factory(submission: str, compat: str | None = None, timeout: float = 60):
        ws = tmp_path / f"ws{len(made)}"
        (ws / "task").mkdir(parents=True)
        (ws / "task" / "train.py").write_text(TRAIN)
        ex = example()
        (ws / "task" / "run.sh").write_text(submission)
        sb = make_sandbox(backend, ws, None, SandboxLimits(memory_mb=1024, pids=64))
        made.append(sb)
        return grade(ex, submission, sb, timeout, compat=compat).to_dict()

    yield factory
    for sb in made:
        sb.close()
    shutil.rmtree(tmp_path, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.sandbox
def test_the_real_solution_passes_with_its_trace(run_in) -> None:
    d = run_in("python train.py --epochs 3\n")
    assert d["passed"], d["message"]
    ev = d["execution"]["evidence"]
    assert ev["ok"] and ev["entry_point"] == "task/train.py"
    assert ev["exec"]["argv"][-2:] == ["--epochs", "3"]
    assert d["argument_check"]["rule"] == "token-in-traced-argv"
    assert run_in("E=3\npython train.py --epochs $E\n")["passed"]


NO_WORK = [
    ("# python train.py --epochs 3\ntouch model.txt\nexit 0\n", "never executed"),
    ("touch model.txt\nexit 0\npython train.py --epochs 3\n", "never executed"),
    ("if false; then python train.py --epochs 3; fi\ntouch model.txt\n", "never executed"),
    ("cat <<'EOF'\npython train.py --epochs 3\nEOF\ntouch model.txt\n", "never executed"),
    ("echo python train.py --epochs 3 > /dev/null; touch model.txt\n", "never executed"),
    ("python train.py --epochs 3 --sleep 30 &\nsleep 2; kill -9 $!\ntouch model.txt\n",
     "ended with signal 9"),
    ("python train.py --epochs 3 --sleep 30 &\ntouch model.txt\n", "still running when"),
    ("cp /bin/true python\n./python train.py --epochs 3\ntouch model.txt\n",
     "not an interpreter"),
    ("mkdir -p b && cp /bin/true b/python3\nPATH=$PWD/b:$PATH python3 train.py --epochs 3\n"
     "touch model.txt\n", "not an interpreter"),
    ("LD_PRELOAD=/nonexistent.so python train.py --epochs 3\n", "start-up hooks"),
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.sandbox
@pytest.mark.parametrize(("submission", "reason"), NO_WORK)
def test_exit_0_and_the_artifacts_without_the_work_fail(run_in, submission, reason) -> None:
    d = run_in(submission)
    assert not d["passed"]
    assert d["execution"]["status"] in ("exit_0", "exit_nonzero")
    assert reason in d["execution"]["evidence"]["reason"], d["execution"]["evidence"]
    assert not d["execution"]["passed"] and reason in d["message"]
    if reason == "never executed":  # no argv carries the values: the text does not count
        assert not d["argument_check"]["passed"] and d["partial_credit"] == 0


@pytest.mark.slow
@pytest.mark.sandbox
def test_wrong_values_in_the_real_run_fail_the_argument_check(run_in) -> None:
    d = run_in("python train.py --epochs 30\necho --epochs 3\n")
    assert not d["passed"] and d["argument_check"]["missing"] == ["epochs"]
    assert d["execution"]["passed"]  # the entry point did run and finish


@pytest.mark.slow
@pytest.mark.sandbox
def test_compat_mode_keeps_the_original_verdict(run_in) -> None:
    """ML-Bench's own grader passes a commented-out command that exits 0 (its quirk)."""
    d = run_in("# python train.py --epochs 3\ntouch model.txt\nexit 0\n", compat="mlbench")
    assert d["passed"] and d["execution"]["traced"] is False
