"""Host memory per idle live env: RSS growth of the host process when N envs are reset
and left idle.

Each repeat runs in a fresh Python process (``python -m mle_gym.bench.memory``),
so freed memory of an earlier repeat cannot hide the growth: it builds, resets
and closes one env first (imports, caches), reads its RSS, resets N envs, waits,
collects garbage, reads its RSS again, and reports the growth per env (memory
the warm-up freed is reused, as in a training process). As many more probes
trace Python's heap (tracemalloc) for the bytes each env's objects take. It also
reports what the envs' sandboxes hold outside the host process (the processes of
each local sandbox's uid; each container's cgroup RSS), which is not counted in
the host figure.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mle_gym.bench.context import BenchContext
from mle_gym.bench.results import Figure
from mle_gym.bench.timing import median


def _status_kb(path: str, field: str) -> int:
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def rss_kb() -> int:
    """This process's resident set size in KiB."""
    return _status_kb("/proc/self/status", "VmRSS")


def _uid_rss_kb(uid: int) -> int:
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
        except OSError:
            continue
        total += _status_kb(f"/proc/{entry.name}/status", "VmRSS")
    return total


def sandbox_rss_kb(sandbox: Any) -> int:
    """What one sandbox's processes hold outside the host process (0 if unknown)."""
    if sandbox is None:
        return 0
    if sandbox.kind == "local" and os.geteuid() == 0:
        return _uid_rss_kb(sandbox.uid)
    if sandbox.kind == "docker":
        stat = Path(f"/sys/fs/cgroup/memory/docker/{sandbox.container_id}/memory.stat")
        try:
            for line in stat.read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "total_rss":
                    return int(value) // 1024
        except (OSError, ValueError):
            return 0
    return 0


def measure_once(env_id: str, backend: str, n: int, *, heap: bool = False) -> dict[str, Any]:
    """In this process: KiB of RSS growth for ``n`` idle envs, and their sandbox RSS; with
    ``heap``, also the growth of Python's heap (tracemalloc, which itself costs memory, so
    that probe's RSS figures are not used)."""
    import tracemalloc

    import gymnasium as gym

    import mle_gym  # noqa: F401

    def make() -> Any:
        return gym.make(env_id, data="replica", sandbox=backend, max_episode_steps=10**6)

    warm = make()
    warm.reset(seed=0)
    warm.step({"tool": "list_files", "args": {}})
    warm.close()
    gc.collect()
    time.sleep(0.3)
    if heap:
        tracemalloc.start()
    before, heap_before = rss_kb(), tracemalloc.get_traced_memory()[0]
    envs = [make() for _ in range(n)]
    try:
        for env in envs:
            env.reset(seed=0)
        time.sleep(1.0)
        gc.collect()
        after, heap_after = rss_kb(), tracemalloc.get_traced_memory()[0]
        sandbox = sum(sandbox_rss_kb(env.unwrapped.sandbox) for env in envs)
    finally:
        for env in envs:
            env.close()
    result = {"before_kb": before, "after_kb": after, "envs": n, "sandbox_kb": sandbox}
    if heap:
        result["heap_kb"] = (heap_after - heap_before) // 1024
    return result


def measure(ctx: BenchContext, backend: str) -> list[Figure]:
    """Host RSS per idle env (and sandbox-side RSS per env where it can be read)."""
    n = ctx.config.rss_envs
    runs = [_probe(ctx, backend, n) for _ in range(ctx.config.rss_repeats)]
    heaps = [_probe(ctx, backend, n, "--heap")["heap_kb"] for _ in range(ctx.config.rss_repeats)]
    per_env = [max(r["after_kb"] - r["before_kb"], 1) / n / 1024 for r in runs]
    figures = [
        Figure(
            key=f"memory.host_rss_per_env.{backend}",
            family="memory",
            label=f"host RSS growth per idle env ({n} envs reset)",
            unit="MB",
            value=median(per_env),
            samples=len(runs),
            backend=backend,
            notes="after one warm-up episode in the same process, as in a training run",
            extra={"runs": runs},
        ),
        Figure(
            key=f"memory.python_heap_per_env.{backend}",
            family="memory",
            label="Python heap growth per idle env (tracemalloc)",
            unit="MB",
            value=median([max(h, 1) / n / 1024 for h in heaps]),
            samples=len(heaps),
            backend=backend,
        ),
    ]
    sandbox = [r["sandbox_kb"] / n / 1024 for r in runs if r["sandbox_kb"] > 0]
    if sandbox:
        figures.append(
            Figure(
                key=f"memory.sandbox_rss_per_env.{backend}",
                family="memory",
                label="sandbox processes' RSS per idle env (outside the host process)",
                unit="MB",
                value=median(sandbox),
                samples=len(sandbox),
                backend=backend,
            )
        )
    return figures


def _probe(ctx: BenchContext, backend: str, n: int, *flags: str) -> dict[str, Any]:
    argv = [sys.executable, "-m", "mle_gym.bench.memory", *flags]
    argv += ["--env-id", ctx.small_env, "--backend", backend, "--envs", str(n)]
    done = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=1800,
        env={**os.environ, **ctx.world.env_vars()},
    )
    if done.returncode != 0:
        raise RuntimeError(f"memory probe failed: {done.stderr.strip()[-2000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    """Entry point of the per-repeat child process; prints one JSON line."""
    parser = argparse.ArgumentParser(description="one host-RSS probe of the mle-gym bench")
    parser.add_argument("--env-id", required=True)
    parser.add_argument("--backend", required=True)
    parser.add_argument("--envs", type=int, required=True)
    parser.add_argument("--heap", action="store_true", help="also trace Python's heap")
    args = parser.parse_args(argv)
    print(json.dumps(measure_once(args.env_id, args.backend, args.envs, heap=args.heap)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
