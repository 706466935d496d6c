"""Measure a task's reference-solution and sample-submission scores on its offline replica.

    python scripts/measure_replica_reference.py TASK [--seeds 0 1 2] [--sandbox local]

For each seed, in a temporary ``$MLE_GYM_HOME``: generate the replica, run a real
episode of the scripted agent (which writes the task's ``solution.py`` into the
workspace, runs it in the sandbox, validates and submits), and grade the
replica's sample submission with the task's grader. Prints the ``data.replica``
figures for task.yaml (first seed) and one line per seed.

Replica data depends on the replica key (mle_gym/data/replica_key.py): the key of
``$MLE_GYM_REPLICA_KEY`` if set, else a fresh random key per seed. The figures
stored in task.yaml are measured under the test suite's fixed, public key
(``TEST_REPLICA_KEY`` in tests/conftest.py), so that tests see them exactly:
``MLE_GYM_REPLICA_KEY=<that key> python scripts/measure_replica_reference.py TASK``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import gymnasium as gym

import mle_gym  # noqa: F401 - registers the envs
from mle_gym.agents import make_agent
from mle_gym.data import replica_key
from mle_gym.episode_runner import run_episode
from mle_gym.families.mlebench import prepare as sources
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.tasks import get_task


def measure(task_name: str, seed: int, sandbox: str) -> tuple[float, float, float, str]:
    """(reference score, sample-submission score, episode seconds, key id) for one seed."""
    task = get_task(task_name)
    with tempfile.TemporaryDirectory(prefix="mle_gym-measure-") as home:
        os.environ["MLE_GYM_HOME"] = home
        data = sources.prepare_replica(task, seed)
        key_id = replica_key.key_id()
        env = gym.make(
            task.env_id, data="replica", replica_seed=seed, reward_mode="raw", sandbox=sandbox
        )
        start = time.perf_counter()
        try:
            result = run_episode(env, make_agent("scripted"), seed=seed)
        finally:
            env.close()
        seconds = time.perf_counter() - start
        grade = result.grade or {}
        if not grade.get("valid"):
            raise SystemExit(f"seed {seed}: the reference submission is invalid: {grade}")
        sample = grade_submission(
            task,
            data.public / task.sample_submission_file,
            answers=data.private / task.answers_file,
            data_source="replica",
        )
        if not sample.valid or sample.score is None:
            raise SystemExit(f"seed {seed}: the sample submission is invalid: {sample.message}")
        return float(grade["score"]), float(sample.score), seconds, key_id


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("task", help="task id, e.g. spaceship-titanic")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--sandbox", default="local", help="sandbox backend (default local)")
    args = parser.parse_args(argv)
    rows = [(seed, *measure(args.task, seed, args.sandbox)) for seed in args.seeds]
    seed, ref, sample, _, key_id = rows[0]
    seeds = " ".join(str(r[0]) for r in rows)
    print(f"reference_score: {ref}")
    print(f"sample_submission_score: {sample}")
    print(
        f'measured_by: "python scripts/measure_replica_reference.py {args.task} --seeds {seeds}'
        f' (scripted agent running solution.py; seed {seed}, replica key {key_id} shown)"'
    )
    for seed, ref, sample, seconds, key_id in rows:
        print(
            f"# seed {seed} (key {key_id}): reference {ref}, sample submission {sample}, "
            f"episode {seconds:.1f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
