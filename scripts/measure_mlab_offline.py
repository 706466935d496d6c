"""Figures of the offline MLAgentBench tasks: baseline, starter and scripted-solution scores.

    python scripts/measure_mlab_offline.py [--sandbox local|docker] [--repeats N]
        [--tasks house-price spaceship-titanic vectorization]

For each task and repeat it plays two episodes on the default data (replica seed 0, or
none): the starter code alone (``python train.py`` then submit) and the scripted solution
(``solution/train.py`` written over train.py, run, submitted), and prints one JSON line
per episode (score, baseline with its runs, improvement, success, seconds). For the
timing task the repeats show how much the in-run comparison moves from run to run
(the starter alone must never reach success). A summary line per task closes the output.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import gymnasium as gym

import mle_gym  # noqa: F401  (registers the env ids)

ASSETS = Path(__file__).resolve().parents[1] / "task_assets" / "mlagentbench"


def episode(task: str, sandbox: str, solution: bool) -> dict:
    env = gym.make(f"MLAgentBench/{task}-v0", sandbox=sandbox)
    try:
        env.reset(seed=0)
        started = time.monotonic()
        if solution:
            code = (ASSETS / task / "solution" / "train.py").read_text()
            env.step({"tool": "write_file", "args": {"path": "train.py", "content": code}})
        env.step({"tool": "execute", "args": {"command": "python train.py"}})
        _, reward, _, _, info = env.step({"tool": "submit", "args": {}})
        grade = info["grade"]
        return {
            "task": task,
            "code": "solution" if solution else "starter",
            "score": grade["score"],
            "baseline": grade["baseline"],
            "baseline_runs": grade["baseline_runs"],
            "improvement": grade["improvement"],
            "success": grade["success"],
            "reward": reward,
            "seconds": round(time.monotonic() - started, 2),
        }
    finally:
        env.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sandbox", default="local")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument(
        "--tasks", nargs="+", default=["house-price", "spaceship-titanic", "vectorization"]
    )
    args = parser.parse_args(argv)
    for task in args.tasks:
        rows = []
        for _ in range(args.repeats):
            for solution in (False, True):
                row = episode(task, args.sandbox, solution)
                rows.append(row)
                print(json.dumps(row), flush=True)
        for code in ("starter", "solution"):
            improvements = [r["improvement"] for r in rows if r["code"] == code]
            summary = {
                "task": task,
                "code": code,
                "episodes": len(improvements),
                "improvement_median": statistics.median(improvements),
                "improvement_min": min(improvements),
                "improvement_max": max(improvements),
                "success_rate": sum(r["success"] for r in rows if r["code"] == code)
                / len(improvements),
            }
            print("SUMMARY " + json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
