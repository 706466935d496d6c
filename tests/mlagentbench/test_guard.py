"""The timing guard of MLAgentBench's timing tasks, in real sandboxes of both backends.

Every timing below is a lower bound the guard must respect (it cannot measure less than
the work it waited for); nothing asserts how long a test takes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from mle_gym.families.mlagentbench.guard import (
    PREFIX,
    TimingFailed,
    parse_report,
    read_checked,
    sign,
    timed_run,
)
from mle_gym.families.mlagentbench.sandbox_runner import SandboxRunner
from mle_gym.sandbox.base import Sandbox
from mle_gym.tasks import Limits

OUT = "/workspace/out.txt"


@pytest.fixture
def session(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    """A fresh evaluation sandbox (as evaluators get) over ``tmp_path / "eval"``."""
    image = request.getfixturevalue("docker_image") if backend == "docker" else None
    folder = tmp_path / "eval"
    folder.mkdir()
    runner = SandboxRunner(backend, Limits(memory_mb=1024, pids=128), None, image)
    with runner.session(folder) as sandbox:
        import os

        if sandbox.file_owner is not None:
            os.chown(folder, *sandbox.file_owner)
        yield sandbox


def sh(script: str) -> list[str]:
    return ["sh", "-c", script]


# -- the signed line (no sandbox) --------------------------------------------------------


def test_only_a_line_signed_with_the_run_key_is_believed() -> None:
    key, other = b"k" * 32, b"o" * 32
    payload = json.dumps({"seconds": 0.001, "exit_code": 0})
    good = f"{PREFIX} {sign(key, payload)} {payload}"
    assert parse_report(f"noise\n{good}\n", key)["seconds"] == 0.001
    forged = f"{PREFIX} {sign(other, payload)} {payload}"
    with pytest.raises(TimingFailed, match="without a valid signature were rejected"):
        parse_report(forged + "\n" + f"{PREFIX} {'0' * 64} {payload}", key)
    tampered = good.replace("0.001", "0.002")
    with pytest.raises(TimingFailed, match="without a valid signature"):
        parse_report(tampered, key)
    with pytest.raises(TimingFailed, match="the timing harness did not finish"):
        parse_report('RESULT 0123 {"ok": true, "seconds": 0.001}\n', key)


def test_an_output_changed_after_the_clock_stopped_does_not_count(tmp_path: Path) -> None:
    from mle_gym.families.mlagentbench.guard import TimedRun

    (tmp_path / "out.txt").write_bytes(b"at clock stop\n")
    import hashlib

    digest = hashlib.sha256(b"at clock stop\n").hexdigest()
    run = TimedRun(1.0, 0, False, True, {OUT: {"sha256": digest, "size": 14}, "/workspace/x": None})
    assert read_checked(run, tmp_path, OUT, 100) == b"at clock stop\n"
    assert read_checked(run, tmp_path, "/workspace/x", 100) is None
    (tmp_path / "out.txt").write_bytes(b"rewritten by a survivor\n")
    with pytest.raises(TimingFailed, match="changed after the clock stopped"):
        read_checked(run, tmp_path, OUT, 100)
    (tmp_path / "x").write_bytes(b"created later\n")
    with pytest.raises(TimingFailed, match="changed after the clock stopped"):
        read_checked(run, tmp_path, "/workspace/x", 100)
    (tmp_path / "out.txt").unlink()
    (tmp_path / "out.txt").symlink_to(tmp_path / "x")  # never followed
    with pytest.raises(TimingFailed, match="changed after the clock stopped"):
        read_checked(run, tmp_path, OUT, 100)


# -- real runs -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.sandbox
def test_an_honest_run_is_timed_and_its_output_fixed(session: Sandbox, tmp_path: Path) -> None:
    run = timed_run(
        session, sh("sleep 0.4; echo result > out.txt; echo said"), timeout_s=60, outputs=[OUT]
    )
    assert run.ok and run.exit_code == 0 and run.output == "said\n"
    assert run.seconds >= 0.4
    assert read_checked(run, tmp_path / "eval", OUT, 100) == b"result\n"
    failed = timed_run(session, sh("echo oops >&2; exit 3"), timeout_s=60, outputs=[OUT])
    assert not failed.ok and failed.exit_code == 3 and "oops" in failed.output


@pytest.mark.slow
@pytest.mark.sandbox
def test_work_moved_into_a_detached_process_keeps_the_clock_running(
    session: Sandbox, tmp_path: Path
) -> None:
    """The main process writes a placeholder and exits at once; a double-forked `setsid`
    process (and a python fork + setsid) finishes the work 1 s later: the clock covers it
    and the output evaluated is the final one, as hashed when the last process exited."""
    script = (
        "echo placeholder > out.txt; "
        "( setsid sh -c 'sleep 1; echo final > out.txt' & ) ; "
        "python -c 'import os, time\nif os.fork() == 0:\n os.setsid()\n time.sleep(1.2)\n"
        ' open("late.txt", "w").write("x")\n os._exit(0)\'; exit 0'
    )
    run = timed_run(session, sh(script), timeout_s=60, outputs=[OUT, "/workspace/late.txt"])
    assert run.ok
    assert run.seconds >= 1.2
    assert read_checked(run, tmp_path / "eval", OUT, 100) == b"final\n"
    assert read_checked(run, tmp_path / "eval", "/workspace/late.txt", 100) == b"x"


@pytest.mark.slow
@pytest.mark.sandbox
def test_a_printed_result_line_is_not_believed(session: Sandbox) -> None:
    """The command prints a guard-like line (and tries the guard's own stdout through
    /proc, which its non-dumpable guard denies): the real, signed report wins."""
    payload = json.dumps({"seconds": 0.0001, "exit_code": 0, "ready": True})
    fake = f"{PREFIX} {'a' * 64} {payload}"
    script = (
        f"echo '{fake}'; echo '{fake}' >&2; "
        f"(echo '{fake}' > /proc/$PPID/fd/1) 2>/dev/null && echo reached-guard-stdout; "
        "sleep 0.5"
    )
    run = timed_run(session, sh(script), timeout_s=60)
    assert run.seconds >= 0.5
    assert "reached-guard-stdout" not in run.output
    assert fake in run.output  # reported as the command's output, nothing more


@pytest.mark.slow
@pytest.mark.sandbox
def test_a_killed_guard_does_not_count(session: Sandbox, tmp_path: Path) -> None:
    with pytest.raises(TimingFailed, match="the timing harness did not finish"):
        timed_run(
            session,
            sh("echo early > out.txt; kill -9 $PPID; sleep 0.3; echo x"),
            timeout_s=60,
            outputs=[OUT],
        )


@pytest.mark.slow
@pytest.mark.sandbox
def test_signals_to_the_guard_are_ignored(session: Sandbox) -> None:
    run = timed_run(
        session,
        sh("for s in TERM INT HUP QUIT USR1 USR2 ALRM; do kill -$s $PPID; done; sleep 0.3"),
        timeout_s=60,
    )
    assert run.ok and run.seconds >= 0.3


@pytest.mark.slow
@pytest.mark.sandbox
def test_a_stopped_guard_does_not_count(session: Sandbox) -> None:
    """Stopped then resumed by a detached process of the run: the guard saw SIGCONT."""
    with pytest.raises(TimingFailed, match="the timing harness was stopped"):
        timed_run(
            session,
            sh("kill -STOP $PPID; ( setsid sh -c 'sleep 0.5; kill -CONT $0' $PPID & ); exit 0"),
            timeout_s=60,
        )


@pytest.mark.slow
@pytest.mark.sandbox
def test_the_timeout_kills_the_whole_tree(session: Sandbox) -> None:
    run = timed_run(
        session, sh("( setsid sleep 300 & ); setsid sleep 300 & sleep 300"), timeout_s=1.0
    )
    assert run.timed_out and not run.ok and run.seconds >= 1.0


@pytest.mark.slow
@pytest.mark.sandbox
def test_handshake_starts_the_clock_at_go(session: Sandbox) -> None:
    """Work before ``ready`` is not timed; the go line reaches the command's stdin."""
    child = (
        "import os, sys, time\n"
        "time.sleep(1.0)\n"
        "fd = int(sys.argv[1])\n"
        "os.write(fd, b'ready\\n')\n"
        "line = sys.stdin.readline()\n"
        "print('got', line.strip())\n"
        "os.write(fd, b'done\\n')\n"
    )
    run = timed_run(
        session, ["python", "-c", child, "{protocol_fd}"], timeout_s=60, go="go 1234 /x\n"
    )
    assert run.ok and run.protocol == ["ready", "done"] and "got go 1234 /x" in run.output
    never = timed_run(
        session,
        ["python", "-c", "import time; time.sleep(60)", "{protocol_fd}"],
        timeout_s=60,
        go="go\n",
        ready_timeout_s=0.5,
    )
    assert not never.ready and not never.ok
