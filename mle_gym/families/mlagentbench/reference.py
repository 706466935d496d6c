"""The reference solution's own score, measured outside an episode.

What an episode of the scripted agent (:mod:`.policy`) hands in, made the way
:func:`~mle_gym.families.mlagentbench.baseline.measure` makes the starter code's score: a
copy of ``starter/`` with the task's ``solution/`` files written over it, the task's ``run``
command run once in a fresh sandbox over the data (as the episode runs it: no ``SEED``
set), and the files it wrote scored by the hidden evaluator with the episode's seed. So a
scripted episode's score equals :func:`measure` — exactly, for a task whose solution and
evaluator are deterministic (every task with a measured baseline here); a timing task
(``baseline.mode: in_run``) measures a duration and differs run to run.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from mle_gym.data.store import PreparedData
from mle_gym.families.mlagentbench.evaluation import (
    EvalJob,
    EvaluationFailed,
    copy_tree_outputs,
    run_evaluator,
)
from mle_gym.families.mlagentbench.policy import solution_files
from mle_gym.families.mlagentbench.sandbox_runner import SandboxRunner
from mle_gym.families.mlagentbench.task import parse_config
from mle_gym.task_spec import Limits, TaskSpec
from mle_gym.tools.format import decode


def measure(
    task: TaskSpec,
    data: PreparedData | None,
    *,
    sandbox_kind: str,
    limits: Limits | None = None,
    image: str | None = None,
    seed: int = 0,
) -> float:
    """The score of the task's reference solution on ``data`` (None: a task without data),
    run in a ``sandbox_kind`` sandbox with ``limits`` (default: the task's). ValueError for
    a task without ``solution/``; EvaluationFailed (with the run's output) when the
    solution fails or its result cannot be scored."""
    cfg = parse_config(task)
    files = solution_files(task.folder)
    if not files:
        raise ValueError(f"{task.key} has no reference solution ({task.folder / 'solution'})")
    limits = limits or task.limits
    runner = SandboxRunner(sandbox_kind, limits, data.public if data else None, image)
    with tempfile.TemporaryDirectory(prefix="mle_gym-reference-") as tmp:
        work = Path(tmp) / "workspace"
        shutil.copytree(task.folder / "starter", work)
        for name, text in files:
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            (work / name).write_text(text, encoding="utf-8")
        result = runner(work, cfg.run, limits.exec_timeout_s)
        if not result.ok:
            status = result.killed_reason or f"exit code {result.exit_code}"
            output = decode(result.head + result.tail)[-3000:]
            raise EvaluationFailed(
                f"the reference solution of {task.key} failed ({status}):\n{output}"
            )
        outputs = Path(tmp) / "outputs"
        outputs.mkdir()
        copy_tree_outputs(work, cfg.outputs, outputs)
        job = EvalJob.for_task(
            task, outputs, data, seed=seed, timeout_s=limits.exec_timeout_s, runner=runner
        )
        return float(run_evaluator(job).score)
