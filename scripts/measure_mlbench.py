"""Median reset and grading (submit) time of an ML-Bench episode, per sandbox backend.

    python scripts/measure_mlbench.py [local] [docker] [--repeats N]

Runs ``MLBench/clusterlab-v0`` example 30 with the correct command; prints the median
``reset()`` time, the median ``submit`` (grading) time and, within it, the median time of
the graded run itself.
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym

import mle_gym  # noqa: F401

COMMAND = "python reduce.py --dataset digits --method pca --n-components 2\n"


def measure(backend: str, repeats: int) -> str:
    """One line of medians for ``backend``."""
    env = gym.make("MLBench/clusterlab-v0", sandbox=backend)
    resets, grades, runs = [], [], []
    try:
        for _ in range(repeats):
            t = time.perf_counter()
            env.reset(options={"example_id": 30})
            resets.append(time.perf_counter() - t)
            env.step({"tool": "write_file", "args": {"path": "run.sh", "content": COMMAND}})
            t = time.perf_counter()
            _, reward, _, _, info = env.step({"tool": "submit", "args": {}})
            grades.append(time.perf_counter() - t)
            if reward != 1.0:
                raise SystemExit(f"the reference command did not pass: {info['grade']}")
            runs.append(info["grade"]["execution"]["duration_s"])
    finally:
        env.close()
    return (
        f"{backend}: reset {statistics.median(resets) * 1000:.0f} ms, submit (grading) "
        f"{statistics.median(grades):.2f} s, of which the run itself "
        f"{statistics.median(runs):.2f} s (medians of {repeats})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("backends", nargs="*", default=["local", "docker"])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    for backend in args.backends:
        print(measure(backend, args.repeats))


if __name__ == "__main__":
    main()
