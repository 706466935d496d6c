"""Two hundred abusive episodes leave nothing behind (invariant 3) and no memory trend.

The episode mix and the measurements live in ``scripts/leak_check.py`` (also a
command that prints the figures); this test runs it, 120 episodes on the local
backend and 80 on docker (200 in all; a few minutes together), after one
warm-up round of each kind. The mix: graded submits, step-budget truncations,
wall-clock timeouts with detached background processes, OOM kills, exceptions
in agent Python code, interpreter deaths by OOM, resets in mid-episode, fresh
envs closed after one episode, and fresh envs dropped without ``close()`` and
garbage-collected while their interpreter runs.

Afterwards: no process of the sandbox uids and no child process of this one, no
container of this process, no episode folder, nothing new in the temporary
directory, no mount or loop device of a workspace volume, no cgroup of this
process, the same open file descriptors as after the warm-up, and resident
memory growth over the second half of the run under 50 MB (the measured figures
are printed; see the README for the last measurement).
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

import mle_gym  # noqa: F401

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]
EPISODES = {"local": 120, "docker": 80}
MAX_RSS_GROWTH_MB = 50.0


def _leak_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("leak_check", REPO / "scripts" / "leak_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["leak_check"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_abusive_episodes_leave_nothing_behind(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lc = _leak_check()
    monkeypatch.setenv("MLE_GYM_UID_BASE", str(lc.UID_BASE))
    monkeypatch.setenv("MLE_GYM_UID_COUNT", str(lc.UID_COUNT))
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))

    report = lc.run(backend, EPISODES[backend], tmp_path / "workspaces", private_tmp)
    print(report.summary())

    assert report.leftovers == []
    assert report.fds_added == [] and report.fds_end == report.fds_baseline
    assert report.rss_second_half_growth_mb < MAX_RSS_GROWTH_MB, report.summary()
    counts = report.counts
    assert counts["episodes"] == EPISODES[backend]
    assert set(counts["kinds"]) == set(lc.KINDS)
    for outcome in ("graded", "truncated", "timeouts", "python_errors", "dropped"):
        assert counts[outcome] > 0, (outcome, report.summary())
    # OOM kills of a command, and of the interpreter, are seen as such at least once
    # per kind (a loaded machine may turn a few into timeouts).
    assert counts["oom_kills"] > 0 and counts["kernel_deaths"] > 0, report.summary()


def test_dropped_env_releases_everything(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: an env dropped without close() kept its sandbox processes, cgroups,
    mounted workspace volume, workspace folder and descriptors until the host exited."""
    import gc

    import gymnasium as gym

    lc = _leak_check()
    monkeypatch.setenv("MLE_GYM_UID_BASE", str(lc.UID_BASE))
    monkeypatch.setenv("MLE_GYM_UID_COUNT", str(lc.UID_COUNT))
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))
    root = tmp_path / "workspaces"
    root.mkdir()

    def episode() -> gym.Env:
        env = gym.make(lc.ENV_ID, data="replica", sandbox=backend, workspace_root=root)
        env.reset(seed=0)
        env.step({"tool": "python", "args": {"code": "x = 1"}})
        env.step({"tool": "execute", "args": {"command": "(setsid sleep 600 &); echo started"}})
        return env

    episode().close()  # warm-up: imports, caches
    gc.collect()
    before = lc.snapshot(root, private_tmp)
    fds = lc.open_fds()
    env = episode()
    assert lc.snapshot(root, private_tmp) - before  # the episode holds resources
    del env
    gc.collect()
    assert lc.leftovers(root, private_tmp, before) == []
    assert lc.open_fds() == fds


EXIT_WITHOUT_CLOSE = """
import json, sys
import gymnasium as gym
import mle_gym
env = gym.make("MLEBench/spaceship-titanic-v0", data="replica", sandbox=sys.argv[1],
               workspace_root=sys.argv[2])
env.reset(seed=0)
env.step({"tool": "python", "args": {"code": "x = 1"}})
sb = env.unwrapped.sandbox
print(json.dumps({"container": getattr(sb, "container_id", None),
                  "dir": str(env.unwrapped.workspace.parent)}))
# the interpreter exits here with the env still open
"""


def test_env_left_open_is_released_at_exit(backend: str, tmp_path: Path) -> None:
    """A script that ends without close() leaves no episode folder, mount or sandbox behind
    (not even until the next reset)."""
    import json
    import os
    import subprocess

    root = tmp_path / "workspaces"
    done = subprocess.run(
        [sys.executable, "-c", EXIT_WITHOUT_CLOSE, backend, str(root)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    assert "Exception ignored" not in done.stderr, done.stderr
    facts = json.loads(done.stdout.splitlines()[-1])
    assert not Path(facts["dir"]).exists()
    assert list(root.iterdir()) == []
    assert facts["dir"] not in Path("/proc/self/mountinfo").read_text()
    if backend == "docker":
        out = subprocess.run(
            ["docker", "ps", "-aq", "--no-trunc", "--filter", f"id={facts['container']}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert facts["container"] not in out


def test_forked_child_does_not_end_the_parents_episode(backend: str, make_env) -> None:
    """Regression guard for the exit hook and __del__: a forked child that exits normally
    must not close the episodes it inherited from its parent."""
    import atexit
    import gc
    import os

    env = make_env()
    env.reset(seed=0)
    workspace = env.unwrapped.workspace
    pid = os.fork()
    if pid == 0:  # the child: what a normal interpreter exit does, then leave
        try:
            gc.collect()
            atexit._run_exitfuncs()
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert workspace.is_dir()
    _, _, _, _, info = env.step({"tool": "execute", "args": {"command": "echo parent-ok"}})
    assert info["ok"]
