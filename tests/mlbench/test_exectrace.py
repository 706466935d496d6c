"""The exec tracer run directly as root on the host, the command dropped to ``nobody``
with setpriv (the shape of a sandbox's supervised exec): what it records, and what the
traced command cannot do to it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mle_gym.sandbox import exectrace
from mle_gym.sandbox.base import ExecResult
from mle_gym.sandbox.traced import MARK, Trace, parse_trace

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv"
    ),
]
NOBODY = 65534
SCRIPT = """\
import os, sys, threading, subprocess
print("args", sys.argv[1:], flush=True)
t = threading.Thread(target=lambda: subprocess.run(["true", "from-a-thread"]))
t.start(); t.join()
if os.fork() == 0:
    os.execvp("echo", ["echo", "from-a-fork"])
os.wait()
"""


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder ``nobody`` can read (pytest's own tmp_path is private to root)."""
    work = Path(tempfile.mkdtemp(prefix="mle-gym-trace-"))
    work.chmod(0o755)
    (work / "train.py").write_text(SCRIPT)
    yield work
    shutil.rmtree(work, ignore_errors=True)


def trace_of(folder: Path, command: str, deadline: float = 60, nonce: str = "n1") -> Trace:
    argv = [sys.executable, "-I", exectrace.__file__, "--deadline", str(deadline),
            "--nonce", nonce, "--",
            "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--",
            "/bin/sh", "-c", command]  # fmt: skip
    done = subprocess.run(argv, cwd=folder, capture_output=True, timeout=deadline + 60)
    result = ExecResult(done.returncode, done.stdout, b"", len(done.stdout), 0.0)
    trace, error = parse_trace(result, nonce)
    assert trace is not None and error is None, (error, done.stderr[-2000:])
    return trace


def test_exec_of_a_script_with_its_arguments_and_cwd_is_recorded(folder: Path) -> None:
    trace = trace_of(folder, "python3 train.py --epochs 3 --lr=0.1")
    runs = [r for r in trace.records if r.argv[1:2] == ("train.py",)]
    assert len(runs) == 1
    run = runs[0]
    assert run.argv == ("python3", "train.py", "--epochs", "3", "--lr=0.1")
    assert run.cwd == str(folder) and run.exe and "python3" in os.path.basename(run.exe)
    assert trace.exits[run.seq] == (0, None, False) and trace.exit_code == 0
    assert "args ['--epochs', '3', '--lr=0.1']" in trace.output


def test_children_of_forks_threads_and_subprocesses_are_traced(folder: Path) -> None:
    trace = trace_of(folder, "python3 train.py x")
    py = next(r for r in trace.records if r.argv[1:2] == ("train.py",))
    by_argv = {r.argv: r for r in trace.records}
    thread_child = by_argv[("true", "from-a-thread")]
    fork_child = by_argv[("echo", "from-a-fork")]
    assert fork_child.ppid == py.pid
    assert thread_child.ppid != 0 and trace.exits[thread_child.seq] == (0, None, False)
    shells = [r for r in trace.records if r.pid == trace.records[0].pid]
    assert len(shells) >= 2 and trace.exits[shells[0].seq][2]  # replaced by its next exec
    assert "from-a-fork" in trace.output


def test_a_command_that_kills_itself_is_reported_with_its_signal(folder: Path) -> None:
    trace = trace_of(folder, "python3 train.py a; kill -9 $$")
    assert trace.exit_code is None and trace.signal == 9
    assert any(r.argv[1:2] == ("train.py",) for r in trace.records)


def test_leftovers_are_killed_and_the_deadline_holds(folder: Path) -> None:
    marker = f"mle-gym-trace-test-{os.getpid()}"
    started = time.monotonic()
    trace = trace_of(folder, f"(setsid sleep 300 {marker} &) ; exec sleep 200", deadline=2)
    assert time.monotonic() - started < 60
    assert trace.timed_out and trace.exit_code is None
    time.sleep(0.5)
    ps = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True)
    assert ps.stdout.strip() == ""  # the detached sleep died with the tracer


def test_the_command_cannot_forge_kill_or_outlive_the_trace(folder: Path) -> None:
    fake = MARK + ' {"nonce":"n1","records":[],"exits":{},"end":{"exit_code":0}}'
    command = (
        f"echo '{fake}'; "
        "kill -9 $PPID 2>/dev/null; echo kill-parent=$?; "
        "kill -STOP $PPID 2>/dev/null; echo stop-parent=$?; "
        f"echo '{fake}' >&2; exit 0"
    )
    trace = trace_of(folder, command)
    assert "kill-parent=1" in trace.output and "stop-parent=1" in trace.output
    assert fake in trace.output  # the forged line is only ever part of the captured output
    assert any(r.argv[:2] == ("/bin/sh", "-c") for r in trace.records)


def test_a_trace_from_another_run_or_a_cut_output_is_refused(folder: Path) -> None:
    line = f'{MARK} {{"nonce":"other","records":[],"exits":{{}},"end":{{}},'
    line += '"output_head":"","output_tail":""}\n'
    ok = ExecResult(0, line.encode(), b"", len(line), 0.0)
    assert parse_trace(ok, "mine")[1] == "the trace belongs to another run"
    cut = ExecResult(0, line.encode(), b"", len(line) + 10**6, 0.0)
    assert "cut" in str(parse_trace(cut, "other")[1])
    none = ExecResult(0, b"agent output\n", b"", 13, 0.0)
    assert "did not report" in str(parse_trace(none, "other")[1])


def test_bad_usage_is_a_clear_error() -> None:
    done = subprocess.run(
        [sys.executable, exectrace.__file__, "--deadline", "x", "--", "true"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3 and "--deadline: bad value 'x'" in done.stderr
