"""Grading a large submission: accuracy (integer class labels) and RMSE (numbers).

The bench writes an answers file and a submission of ``grading_rows`` rows each
(ids shuffled differently, so alignment is real work) and grades it with
:func:`mle_gym.grading.grade_submission`, the path every episode takes: read
both files safely, validate, align by id, score — strictly (``grading.<metric>.*``) and
in the default mode (``grading.<metric>.mlebench.*``: MLE-bench's verdict through a
``mlebench_grade.py`` as the built-in tasks have, plus the strict grade for its
findings). "cold" is a first grade of
those answers (their modification time is changed before each one, so the
grader's memory of parsed answers cannot serve them); "warm" grades again with
the answers already parsed, as in a run that grades the same task repeatedly.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

from mle_gym.bench.context import BenchContext
from mle_gym.bench.results import Figure
from mle_gym.bench.timing import elapsed_ms, median
from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.grading.submission import SubmissionSpec

METRICS = {
    "accuracy": ("accuracy", "integer", False),
    "rmse": ("root-mean-squared-error", "numeric", True),
}


def _write(path: Path, ids: list[str], values: list[str]) -> None:
    with open(path, "w") as f:
        f.write("id,target\n")
        f.writelines(f"{i},{v}\n" for i, v in zip(ids, values, strict=True))


#: the default mode's grader of the bench tasks: MLE-bench's shape (sort by id, compare,
#: the scikit-learn metric), as a built-in task folder's mlebench_grade.py
PARITY_MODULE = """
import numpy as np


def grade(submission, answers):
    from sklearn.metrics import accuracy_score, root_mean_squared_error

    sub = submission.sort_values("id")
    ans = answers.sort_values("id")
    if len(sub) != len(ans) or (sub["id"].values != ans["id"].values).any():
        raise ValueError("ids differ")
    if "{name}" == "accuracy":
        return accuracy_score(ans["target"].to_numpy(), sub["target"].to_numpy())
    return root_mean_squared_error(ans["target"].to_numpy(), sub["target"].to_numpy())
"""


def _task(folder: Path, name: str) -> MLEBenchTask:
    metric, kind, lower = METRICS[name]
    (folder / "mlebench_grade.py").write_text(PARITY_MODULE.replace("{name}", name))
    return MLEBenchTask(
        id=f"bench-grading-{name}",
        benchmark="Bench",
        title=f"bench grading ({name})",
        version=0,
        folder=folder,
        family="mlebench",
        metric=metric,
        lower_is_better=lower,
        submission=SubmissionSpec(
            file="submission.csv",
            id_column="id",
            target_columns=("target",),
            target_kind=kind,
            max_mb=1024,
        ),
        answers_file="answers.csv",
        sample_submission_file="sample_submission.csv",
        data={"replica": {}},
    )


def _files(folder: Path, name: str, rows: int) -> tuple[Path, Path]:
    rng = random.Random(rows)
    ids = [f"id{i:08d}" for i in range(rows)]
    rng.shuffle(ids)
    if name == "accuracy":
        truth = [str(rng.randrange(5)) for _ in ids]
        guess = [t if rng.random() < 0.7 else str(rng.randrange(5)) for t in truth]
    else:
        truth = [f"{rng.gauss(0, 1):.6f}" for _ in ids]
        guess = [f"{float(t) + rng.gauss(0, 0.5):.6f}" for t in truth]
    answers, submission = folder / f"{name}-answers.csv", folder / f"{name}-submission.csv"
    _write(answers, ids, truth)
    order = list(range(rows))
    rng.shuffle(order)
    _write(submission, [ids[i] for i in order], [guess[i] for i in order])
    return answers, submission


def _grader(
    task: MLEBenchTask, answers: Path, submission: Path, grading: str
) -> Callable[[], None]:
    from mle_gym.families.mlebench.grading import grade_submission

    def grade() -> None:
        report = grade_submission(
            task, submission, answers=answers, data_source="replica", grading=grading
        )
        if not report.valid:
            raise RuntimeError(f"bench submission rejected: {report.message}")

    return grade


def measure(ctx: BenchContext) -> list[Figure]:
    """Two figures per metric: cold and warm grading of ``grading_rows`` rows."""
    rows = ctx.config.grading_rows
    folder = ctx.scratch / "grading"
    folder.mkdir(exist_ok=True)
    figures = []
    for name in METRICS:
        where = folder / name
        where.mkdir(exist_ok=True)
        task = _task(where, name)
        answers, submission = _files(where, name, rows)
        for grading, prefix, mode in (
            ("strict", f"grading.{name}", "strict"),
            ("mlebench", f"grading.{name}.mlebench", "default: MLE-bench's + strict"),
        ):
            cold: list[float] = []
            warm: list[float] = []
            grade = _grader(task, answers, submission, grading)
            for r in range(ctx.config.slow_repeats + 1):
                st = answers.stat()
                os.utime(answers, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
                c, w = elapsed_ms(grade), elapsed_ms(grade)
                if r > 0:  # the first round warms imports and the allocator
                    cold.append(c)
                    warm.append(w)
            for kind, samples in (("cold", cold), ("warm", warm)):
                what = "answers parsed too" if kind == "cold" else "answers already parsed"
                figures.append(
                    Figure(
                        key=f"{prefix}.{kind}",
                        family="grading",
                        label=f"grade {rows:,}-row submission, {name}, {mode} ({kind}: {what})",
                        unit="ms",
                        value=median(samples),
                        samples=len(samples),
                        extra={"rows": rows, "file_bytes": submission.stat().st_size},
                    )
                )
        answers.unlink()
        submission.unlink()
    return figures
