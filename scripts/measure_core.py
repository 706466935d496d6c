"""Side-by-side timings of the core episode operations (medians over repeats).

    python scripts/measure_core.py [--repeats 30]

Prints, in one run: reset latency; the cost of a file-tool step next to the raw
Python file operation; an ``execute`` step of ``true`` and of ``python -c pass``
next to a plain ``subprocess.run`` of the same; and a full scripted episode.
Absolute times are noisy on small machines: compare the ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import gymnasium as gym

import mle_gym  # noqa: F401
from mle_gym.agents import make_agent
from mle_gym.runner import run_episode

ENV_ID = "MLEBench/spaceship-titanic-v0"


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    n = args.repeats
    os.environ.setdefault("MLE_GYM_HOME", tempfile.mkdtemp(prefix="mle_gym-measure-"))

    env = gym.make(ENV_ID, data="replica", max_episode_steps=100_000)
    env.reset(seed=0)  # generates and caches the replica once
    rows: list[tuple[str, float, str]] = []
    rows.append(("reset()", median_ms(lambda: env.reset(seed=0), max(5, n // 3)), ""))

    def step(tool: str, **a: object) -> Callable[[], object]:
        return lambda: env.step({"tool": tool, "args": a})

    ws = env.unwrapped.workspace
    raw_read = median_ms(lambda: (env.unwrapped.data_dir / "sample_submission.csv").read_bytes(), n)
    raw_write = median_ms(lambda: (ws / "raw.txt").write_text("x = 1\n" * 100), n)
    raw_list = median_ms(lambda: sorted(e.name for e in os.scandir(ws)), n)
    for label, fn, raw in [
        (
            "read_file step (sample_submission.csv, 871 lines)",
            step("read_file", path="data/sample_submission.csv"),
            raw_read,
        ),
        (
            "write_file step (600 B)",
            step("write_file", path="w.py", content="x = 1\n" * 100),
            raw_write,
        ),
        ("list_files step (depth 2)", step("list_files"), raw_list),
    ]:
        ms = median_ms(fn, n)
        rows.append((label, ms, f"raw Python op {raw:.3f} ms"))

    for cmd in ("true", "python -c pass"):
        argv = ["true"] if cmd == "true" else [sys.executable, "-c", "pass"]
        plain = median_ms(lambda argv=argv: subprocess.run(argv, check=False), n)
        ms = median_ms(step("execute", command=cmd), n)
        rows.append(
            (f"execute step `{cmd}`", ms, f"plain subprocess {plain:.2f} ms = x{ms / plain:.2f}")
        )
    env.close()

    env = gym.make(ENV_ID, data="replica")
    t = time.perf_counter()
    result = run_episode(env, make_agent("scripted"), seed=0)
    rows.append(
        (
            "scripted episode (7 steps, trains a model)",
            (time.perf_counter() - t) * 1000,
            f"score {result.grade['score'] if result.grade else None}",
        )
    )
    env.close()

    width = max(len(r[0]) for r in rows)
    print(f"{'operation'.ljust(width)}  median ms  comparison")
    for label, ms, note in rows:
        print(f"{label.ljust(width)}  {ms:9.3f}  {note}")


if __name__ == "__main__":
    main()
