"""Cost of the EpisodePool batch API over stepping one env directly (medians, one run).

    python scripts/measure_pool.py [--repeats 200] [--slots 8]

Rows: a cheap step (``list_files``) on a bare env; the same step through a
one-slot pool; one pool step over all slots at once (per step and per slot);
and an ``execute`` step of ``true`` the same three ways, where the sandbox work
dominates and the slots run concurrently.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

import gymnasium as gym

import mle_gym  # noqa: F401
from mle_gym import EpisodePool

ENV_ID = "MLEBench/spaceship-titanic-v0"
LIST = {"tool": "list_files", "args": {}}
TRUE = {"tool": "execute", "args": {"command": "true"}}


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--slots", type=int, default=8)
    args = parser.parse_args(argv)
    os.environ.setdefault("MLE_GYM_HOME", tempfile.mkdtemp(prefix="mle_gym-pool-"))
    n, k = args.repeats, args.slots
    budget = {"max_episode_steps": 10**9, "data": "replica"}
    env = gym.make(ENV_ID, **budget)
    env.reset(seed=0)
    rows = []
    for label, action in (("list_files", LIST), ("execute `true`", TRUE)):
        reps = n if action is LIST else max(20, n // 5)
        bare = median_ms(lambda a=action: env.step(a), reps)
        with EpisodePool([ENV_ID], **budget) as one:
            one.reset()
            single = median_ms(lambda a=action, p=one: p.step({0: a}), reps)
        with EpisodePool([ENV_ID] * k, **budget) as many:
            many.reset()
            batch = median_ms(lambda a=action, p=many: p.step({i: a for i in range(k)}), reps)
        rows += [
            (f"{label}: bare env.step", bare, ""),
            (f"{label}: 1-slot pool.step", single, f"+{single - bare:.3f} ms over bare"),
            (f"{label}: {k}-slot pool.step (all slots)", batch, f"{batch / k:.3f} ms per slot"),
        ]
    env.close()
    width = max(len(r[0]) for r in rows)
    print(f"{'operation'.ljust(width)}  median ms  note")
    for label, ms, note in rows:
        print(f"{label.ljust(width)}  {ms:9.3f}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
