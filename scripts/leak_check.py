"""Run many abusive episodes and report what the host process kept: memory, file
descriptors, and anything the episodes left behind.

    python scripts/leak_check.py --backend local --episodes 120
    python scripts/leak_check.py --backend docker --episodes 80

The episodes mix every way an episode can end or go wrong: a graded ``submit``;
step-budget truncation; a command killed by its wall timeout (leaving a detached
background process); a command killed by the memory limit; an exception in the
agent's Python code; the ``python`` tool's interpreter killed by the memory limit;
an env reset in the middle of an episode; fresh envs closed after one episode;
and fresh envs dropped without ``close()`` (then garbage-collected) while their
interpreter and a background process are running.

Afterwards it looks for leftovers that belong to this process only (other
programs may be using mle_gym at the same time): processes of the sandbox uids
(local; the uids come from ``$MLE_GYM_UID_BASE``, set here to a private range),
processes descended from this one, containers labelled with this process's pid
(docker), episode folders under the private workspace root, entries added to
the private temporary directory, mounts and loop devices backed by files under
the workspace root (the workspace quota volumes), and cgroups named after this
process. It prints resident memory (RSS) and open file descriptors before and
after, and the RSS trend over the second half of the run (MB per 100 episodes,
least-squares slope), so a slow leak shows as a slope rather than noise.

The test suite (tests/test_leaks.py) runs the same mix and asserts on the figures.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ENV_ID = "MLEBench/spaceship-titanic-v0"
UID_BASE = 310_000  # a private range, so only this run's sandbox uids are counted
UID_COUNT = 10_000
KINDS = (
    "submit",
    "truncate",
    "timeout",
    "oom",
    "python-error",
    "kernel-oom",
    "reset-mid-episode",
    "fresh-closed",
    "dropped",
)


def call(tool: str, **args: Any) -> dict[str, Any]:
    return {"tool": tool, "args": args}


# -- measurements --------------------------------------------------------------------------------


def rss_mb() -> float:
    """Resident memory of this process, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def open_fds() -> dict[int, str]:
    """This process's open file descriptors and what they point to."""
    out: dict[int, str] = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            out[int(name)] = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue  # the descriptor listdir itself used
    return out


def _proc_stat(pid: str) -> tuple[int, int] | None:
    """(uid, parent pid) of a process, or None if it is gone."""
    try:
        uid = os.stat(f"/proc/{pid}").st_uid
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return uid, int(fields[1])


def descendants(root_pid: int) -> list[int]:
    """Live processes descended from ``root_pid`` (excluding zombies' absence)."""
    parent: dict[int, int] = {}
    for p in os.listdir("/proc"):
        if p.isdigit() and (st := _proc_stat(p)) is not None:
            parent[int(p)] = st[1]
    found = []
    for pid in parent:
        seen, cur = 0, pid
        while cur in parent and seen < 64:
            cur, seen = parent[cur], seen + 1
            if cur == root_pid:
                found.append(pid)
                break
    return sorted(found)


def leftovers(root: Path, tmp_dir: Path, before: set[str], *, settle_s: float = 5.0) -> list[str]:
    """What the episodes left behind: :func:`snapshot` entries not in ``before``; polls
    briefly, since killed processes take a moment to disappear."""
    deadline = time.monotonic() + settle_s
    while True:
        found = sorted(snapshot(root, tmp_dir) - before)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def snapshot(root: Path, tmp_dir: Path) -> set[str]:
    """Everything of this process that an episode could leave behind (module docstring)."""
    found: set[str] = set()
    lo = int(os.environ.get("MLE_GYM_UID_BASE", UID_BASE))
    hi = lo + int(os.environ.get("MLE_GYM_UID_COUNT", UID_COUNT))
    for p in os.listdir("/proc"):
        if p.isdigit() and (st := _proc_stat(p)) is not None and lo <= st[0] < hi:
            found.add(f"process {p} of sandbox uid {st[0]}")
    found |= {f"child process {pid}" for pid in descendants(os.getpid())}
    if root.exists():
        found |= {f"workspace entry {e}" for e in os.listdir(root)}
    found |= {f"temporary entry {tmp_dir / e}" for e in os.listdir(tmp_dir) if e != "mle_gym-uids"}
    real_root = os.path.realpath(root)
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        target = line.split()[4].replace("\\040", " ")
        if target.startswith(real_root + "/"):
            found.add(f"mount {target}")
    for backing in Path("/sys/block").glob("loop*/loop/backing_file"):
        try:
            path = backing.read_text().strip()
        except OSError:
            continue
        if path.startswith(real_root + "/"):
            found.add(f"loop device {backing.parts[3]} -> {path}")
    found |= {f"cgroup {g}" for g in Path("/sys/fs/cgroup").glob(f"*/mle_gym/{os.getpid()}-*")}
    try:
        import docker

        client = docker.from_env()
        try:
            mine = client.containers.list(
                all=True, filters={"label": f"mle_gym.owner_pid={os.getpid()}"}
            )
            found |= {f"container {c.short_id}" for c in mine}
        finally:
            client.close()
    except Exception:  # no docker SDK or engine: nothing of ours can be there
        pass
    return found


# -- the episode mix -----------------------------------------------------------------------------


@dataclass
class Counts:
    """How the episodes went (checked by the test, so the mix is not vacuous)."""

    episodes: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    graded: int = 0
    truncated: int = 0
    timeouts: int = 0
    oom_kills: int = 0
    python_errors: int = 0
    kernel_deaths: int = 0
    dropped: int = 0


class Mix:
    """Runs the episode mix on one backend (see the module docstring)."""

    def __init__(self, backend: str, root: Path) -> None:
        import gymnasium as gym

        import mle_gym  # noqa: F401

        self.gym = gym
        self.backend = backend
        self.root = root
        self.counts = Counts()
        # One long-lived env, reset again and again, for most kinds.
        self.env = self._make(max_episode_steps=4)

    def _make(self, **kwargs: Any) -> Any:
        return self.gym.make(
            ENV_ID,
            data="replica",
            sandbox=self.backend,
            workspace_root=self.root,
            memory_mb=400,
            exec_timeout_s=10,
            **kwargs,
        )

    def _step(self, env: Any, action: dict[str, Any]) -> tuple[str, bool, dict[str, Any]]:
        obs, _, terminated, truncated, info = env.step(action)
        if "grade" in info:
            self.counts.graded += 1
        if truncated:
            self.counts.truncated += 1
        meta = info.get("tool_meta", {})
        self.counts.timeouts += bool(meta.get("timed_out"))
        self.counts.oom_kills += bool(meta.get("oom_killed"))
        self.counts.kernel_deaths += meta.get("status") == "died"
        self.counts.python_errors += meta.get("status") == "error"
        return obs, terminated or truncated, info

    def episode(self, i: int) -> str:
        kind = KINDS[i % len(KINDS)]
        env = self.env
        if kind in ("fresh-closed", "dropped"):
            env = self._make(max_episode_steps=10)
        env.reset(seed=i)
        step = functools.partial(self._step, env)
        if kind in ("submit", "fresh-closed"):
            step(call("execute", command="cp data/sample_submission.csv submission.csv"))
            _, done, _ = step(call("submit"))
            assert done
        elif kind == "truncate":
            for _ in range(4):
                _, done, _ = step(call("list_files", path="data"))
            assert done
        elif kind == "timeout":
            step(call("execute", command="(setsid sleep 600 &); sleep 30", timeout=1))
        elif kind == "oom":
            step(call("execute", command="python -c 'b = bytearray(2 * 1024**3)'"))
        elif kind == "python-error":
            step(call("python", code="import subprocess; subprocess.Popen(['sleep', '600'])"))
            step(call("python", code="raise RuntimeError('agent bug')"))
        elif kind == "kernel-oom":
            step(call("python", code="b = bytearray(2 * 1024**3)"))
        elif kind == "reset-mid-episode":
            step(call("write_file", path="notes.txt", content="half done"))
            env.reset(seed=i + 1000)
            step(call("execute", command="(setsid sleep 600 &); echo started"))
        elif kind == "dropped":
            step(call("python", code="x = 1"))
            step(call("execute", command="(setsid sleep 600 &); echo started"))
            self.counts.dropped += 1
        if kind == "fresh-closed":
            env.close()
        del env, step  # "dropped": the last reference goes here, without close()
        gc.collect()
        self.counts.episodes += 1
        self.counts.kinds[kind] = self.counts.kinds.get(kind, 0) + 1
        return kind

    def close(self) -> None:
        self.env.close()


# -- the report ----------------------------------------------------------------------------------


@dataclass
class Report:
    backend: str
    episodes: int
    seconds: float
    rss_start_mb: float
    rss_end_mb: float
    rss_second_half_growth_mb: float
    rss_slope_mb_per_100: float
    fds_baseline: int
    fds_end: int
    fds_added: list[str]
    leftovers: list[str]
    counts: dict[str, Any]

    def summary(self) -> str:
        lines = [
            f"backend {self.backend}: {self.episodes} episodes in {self.seconds:.0f} s",
            f"  RSS {self.rss_start_mb:.1f} MB after warm-up -> {self.rss_end_mb:.1f} MB"
            f" at the end; second half {self.rss_second_half_growth_mb:+.1f} MB"
            f" (trend {self.rss_slope_mb_per_100:+.2f} MB per 100 episodes)",
            f"  open fds {self.fds_baseline} -> {self.fds_end}"
            + (f" (added: {self.fds_added})" if self.fds_added else ""),
            f"  leftovers: {self.leftovers or 'none'}",
            f"  episodes: {json.dumps(self.counts['kinds'])}",
            "  outcomes: " + ", ".join(f"{k} {v}" for k, v in self.counts.items() if k != "kinds"),
        ]
        return "\n".join(lines)


def _slope(ys: list[float]) -> float:
    """Least-squares slope of ``ys`` against 0..n-1."""
    n = len(ys)
    if n < 2:
        return 0.0
    mx = (n - 1) / 2
    my = statistics.fmean(ys)
    num = sum((x - mx) * (y - my) for x, y in enumerate(ys))
    den = sum((x - mx) ** 2 for x in range(n))
    return num / den


def run(
    backend: str,
    episodes: int,
    root: Path,
    tmp_dir: Path,
    *,
    on_episode: Callable[[int, str], None] | None = None,
) -> Report:
    """Run the mix and measure. ``root`` must be a fresh folder (the workspace root);
    ``tmp_dir`` is the temporary directory this process uses (``tempfile.gettempdir()``)."""
    root.mkdir(parents=True, exist_ok=True)
    before = snapshot(root, tmp_dir)
    mix = Mix(backend, root)
    warm = len(KINDS)  # one full round first: caches, imports, docker connections
    for i in range(warm):
        mix.episode(i)
    mix.env.unwrapped.release()  # no live episode at either measurement of the fds
    gc.collect()
    fds_before = open_fds()
    rss: list[float] = [rss_mb()]
    started = time.monotonic()
    for i in range(warm, warm + episodes):
        kind = mix.episode(i)
        rss.append(rss_mb())
        if on_episode is not None:
            on_episode(i - warm, kind)
    seconds = time.monotonic() - started
    mix.close()
    del mix.env
    gc.collect()
    found = leftovers(root, tmp_dir, before)
    fds_after = open_fds()
    added = sorted(
        f"{fd} -> {target}" for fd, target in fds_after.items() if fds_before.get(fd) != target
    )
    added += sorted(f"{fd} -> (closed) {t}" for fd, t in fds_before.items() if fd not in fds_after)
    half = rss[len(rss) // 2 :]
    counts = asdict(mix.counts)
    counts["episodes"] = episodes  # the warm-up round is not counted
    return Report(
        backend=backend,
        episodes=episodes,
        seconds=seconds,
        rss_start_mb=rss[0],
        rss_end_mb=rss[-1],
        rss_second_half_growth_mb=half[-1] - half[0],
        rss_slope_mb_per_100=_slope(half) * 100,
        fds_baseline=len(fds_before),
        fds_end=len(fds_after),
        fds_added=added,
        leftovers=found,
        counts=counts,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["local", "docker"], default="local")
    parser.add_argument("--episodes", type=int, default=120)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="mle_gym-leak-check-"))
    os.environ.setdefault("MLE_GYM_HOME", str(scratch / "home"))
    os.environ.setdefault("MLE_GYM_UID_BASE", str(UID_BASE))
    os.environ.setdefault("MLE_GYM_UID_COUNT", str(UID_COUNT))
    tmp_dir = scratch / "tmp"
    tmp_dir.mkdir()
    tempfile.tempdir = str(tmp_dir)  # a private temporary directory, compared before/after

    def progress(i: int, kind: str) -> None:
        if (i + 1) % 20 == 0:
            print(f"  {i + 1} episodes ({kind}); RSS {rss_mb():.1f} MB", file=sys.stderr)

    try:
        report = run(
            args.backend, args.episodes, scratch / "workspaces", tmp_dir, on_episode=progress
        )
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    print(json.dumps(asdict(report), indent=2) if args.json else report.summary())
    return 1 if report.leftovers or report.fds_added else 0


if __name__ == "__main__":
    sys.exit(main())
