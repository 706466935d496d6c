"""The host process is SIGKILLed in the middle of an episode.

A child Python process runs an episode with a trajectory file, finishes a few
steps, then starts a long ``execute`` or ``python`` step; the test kills it with
SIGKILL while that step runs. Then, on each backend:

* the trajectory is valid JSON Lines: the reset and the finished steps, every
  line complete (invariant 4: a crash loses at most the step in flight);
* local: every sandbox process is gone (``--die-with-parent``: the kernel kills
  the sandbox when its parent dies);
* docker: the container goes away with its stdin stream, and ``mle-gym sandbox
  gc`` (the real CLI) removes any container of the dead process; none remains;
* the next env's ``reset`` in the same workspace root removes the dead episode's
  folder and unmounts its quota volume (freeing the loop device), and the
  sandbox's cgroups and temporary files of the dead process are removed too.

The child uses a private uid range and temporary directory, so only its own
leftovers are counted even when other mle_gym programs run on the machine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym
import pytest

import mle_gym  # noqa: F401

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]
ENV_ID = "MLEBench/spaceship-titanic-v0"
UID_BASE = 320_000
UID_COUNT = 1_000
FINISHED_STEPS = [
    {"tool": "list_files", "args": {"path": "data"}},
    {"tool": "write_file", "args": {"path": "notes.txt", "content": "crash test\n"}},
    {"tool": "python", "args": {"code": "import pandas as pd; x = 41"}},
    {"tool": "execute", "args": {"command": "cp data/sample_submission.csv submission.csv"}},
]
IN_FLIGHT = {
    "execute": {
        "tool": "execute",
        "args": {"command": "touch started; (setsid sleep 900 &); sleep 900"},
    },
    "python": {
        "tool": "python",
        "args": {
            "code": (
                "import subprocess, time; subprocess.Popen(['sleep', '900']); "
                "open('started', 'w').close(); time.sleep(900)"
            )
        },
    },
}

CHILD = textwrap.dedent(
    """
    import json, sys
    import gymnasium as gym
    import mle_gym
    backend, traj, root, steps, in_flight = sys.argv[1:6]
    env = gym.make(
        "MLEBench/spaceship-titanic-v0", data="replica", sandbox=backend,
        trajectory_path=traj, workspace_root=root, exec_timeout_s=1200, max_episode_steps=50,
    )
    env.reset(seed=0)
    sb = env.unwrapped.sandbox
    for action in json.loads(steps):
        *_, info = env.step(action)
        assert info["ok"], info
    print(json.dumps({
        "uid": getattr(sb, "uid", None),
        "container": getattr(sb, "container_id", None),
        "episode_dir": str(env.unwrapped.workspace.parent),
        "workspace": str(env.unwrapped.workspace),
    }), flush=True)
    env.step(json.loads(in_flight))
    print("the in-flight step returned", flush=True)
    """
)


def _wait(what: str, check: Callable[[], bool], timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for: {what}")
        time.sleep(0.1)


def _processes(uid: int | None, marker: str) -> list[str]:
    """Live processes running as ``uid`` or whose command line mentions ``marker``."""
    found = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            owner = os.stat(f"/proc/{p}").st_uid
            cmdline = Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and (owner == uid or marker in cmdline):
            found.append(f"{p} (uid {owner}): {cmdline[:120]}")
    return found


def _volume_traces(episode_dir: str) -> list[str]:
    """Mounts and loop devices that still refer to the episode folder."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        if episode_dir in line:
            found.append(f"mount {line.split()[4]}")
    for backing in Path("/sys/block").glob("loop*/loop/backing_file"):
        try:
            if episode_dir in backing.read_text():
                found.append(f"loop device {backing.parts[3]}")
        except OSError:
            continue
    return found


def _containers_of(pid: int) -> list[str]:
    out = subprocess.run(
        ["docker", "ps", "-aq", "--no-trunc", "--filter", f"label=mle_gym.owner_pid={pid}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.split()


def _cli() -> list[str]:
    script = Path(sys.executable).with_name("mle-gym")
    return [str(script)] if script.exists() else [sys.executable, "-m", "mle_gym.cli"]


@pytest.mark.parametrize("in_flight", ["execute", "python"])
def test_sigkill_mid_episode(
    backend: str, in_flight: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "workspaces"
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    traj = tmp_path / "episode.jsonl"
    env_vars = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "TMPDIR": str(private_tmp),
        "MLE_GYM_UID_BASE": str(UID_BASE),
        "MLE_GYM_UID_COUNT": str(UID_COUNT),
    }
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD,
            backend,
            str(traj),
            str(root),
            json.dumps(FINISHED_STEPS),
            json.dumps(IN_FLIGHT[in_flight]),
        ],
        stdout=subprocess.PIPE,
        env=env_vars,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line, "the child process died before finishing its steps"
        facts = json.loads(line)
        started = Path(facts["workspace"]) / "started"
        _wait("the in-flight step to start", started.exists, timeout_s=60)
        time.sleep(0.3)
        if backend == "local":
            assert _processes(facts["uid"], facts["episode_dir"]), "no sandbox process seen"
        else:
            assert _containers_of(child.pid) == [facts["container"]]
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()
    assert child.returncode == -signal.SIGKILL

    # The trajectory: complete lines for the reset and every finished step, nothing else.
    raw = traj.read_bytes()
    assert raw.endswith(b"\n")
    records = [json.loads(line) for line in raw.decode("utf-8").splitlines()]
    assert [r["type"] for r in records] == ["reset"] + ["step"] * len(FINISHED_STEPS)
    assert [r.get("step") for r in records[1:]] == list(range(1, len(FINISHED_STEPS) + 1))
    assert [r["tool"] for r in records[1:]] == [a["tool"] for a in FINISHED_STEPS]
    assert len({r["episode_id"] for r in records}) == 1

    # The sandbox dies with its host.
    if backend == "local":
        _wait(
            "the sandbox processes to die",
            lambda: not _processes(facts["uid"], facts["episode_dir"]),
        )
    else:
        done = subprocess.run(
            [*_cli(), "sandbox", "gc"], capture_output=True, text=True, env=env_vars, timeout=120
        )
        assert done.returncode == 0, done.stderr
        assert "orphaned container(s)" in done.stdout
        _wait("no container of the dead process", lambda: not _containers_of(child.pid))

    # What only a later process can clean: the next reset in the same root does it.
    episode_dir = facts["episode_dir"]
    assert Path(episode_dir).exists()
    monkeypatch.setenv("MLE_GYM_UID_BASE", str(UID_BASE))
    monkeypatch.setenv("MLE_GYM_UID_COUNT", str(UID_COUNT))
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))
    env = gym.make(ENV_ID, data="replica", sandbox=backend, workspace_root=root)
    try:
        env.reset(seed=1)
        assert not Path(episode_dir).exists()
        assert _volume_traces(episode_dir) == []
        assert list(Path("/sys/fs/cgroup").glob(f"*/mle_gym/{child.pid}-*")) == []
        mine = str(env.unwrapped.workspace.parent)
        assert [str(p) for p in root.iterdir()] == [mine]
    finally:
        env.close()
    assert list(root.iterdir()) == []
    leftovers = sorted(set(os.listdir(private_tmp)) - {"mle_gym-uids"})
    assert leftovers == [], leftovers
