"""Cost of the execution trace on ML-Bench grading: traced vs untraced, per backend.

    python scripts/measure_mlbench_trace.py [local] [docker] [--repeats N]

Runs ``MLBench/clusterlab-v0`` example 30 with the correct command, graded with the
default rules traced (``trace=True``, the default) and untraced (``trace=False``);
prints the median ``submit`` (grading) time and the median duration of the graded run.
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym

import mle_gym  # noqa: F401

COMMAND = "python reduce.py --dataset digits --method pca --n-components 2\n"


def measure(backend: str, trace: bool, repeats: int) -> tuple[float, float]:
    """(median submit seconds, median graded-run seconds)."""
    env = gym.make("MLBench/clusterlab-v0", sandbox=backend, trace=trace)
    grades, runs = [], []
    try:
        for _ in range(repeats):
            env.reset(options={"example_id": 30})
            env.step({"tool": "write_file", "args": {"path": "run.sh", "content": COMMAND}})
            t = time.perf_counter()
            _, reward, _, _, info = env.step({"tool": "submit", "args": {}})
            grades.append(time.perf_counter() - t)
            if reward != 1.0:
                raise SystemExit(f"the reference command did not pass: {info['grade']}")
            runs.append(info["grade"]["execution"]["duration_s"])
    finally:
        env.close()
    return statistics.median(grades), statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("backends", nargs="*", default=["local", "docker"])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    print("| backend | grading | submit (median s) | graded run (median s) |")
    print("|---|---|---|---|")
    for backend in args.backends:
        for trace in (False, True):
            submit, run = measure(backend, trace, args.repeats)
            label = "traced" if trace else "untraced"
            print(f"| {backend} | {label} | {submit:.3f} | {run:.3f} |", flush=True)


if __name__ == "__main__":
    main()
