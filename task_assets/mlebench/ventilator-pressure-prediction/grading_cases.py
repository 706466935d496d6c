"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    MLEBenchTask,
    ParityCase,
    WorseCase,
    assert_score,
    expect,
    is_worse,
    score,
)

CASE = WorseCase(
    answers={
        "id": [1, 2, 3, 4, 5, 6],
        "breath_id": [7] * 6,
        "R": [20] * 6,
        "C": [50] * 6,
        "time_step": [0.0, 0.0336, 0.0672, 0.1008, 0.1344, 0.168],
        "u_in": [0.08, 18.4, 22.5, 22.8, 0.0, 0.0],
        "u_out": [0, 0, 0, 1, 1, 1],
        "pressure": [5.84, 5.91, 7.88, 11.74, 6.2, 6.1],
    },
    imperfect={"id": [1, 2, 3, 4, 5, 6], "pressure": [6.84, 4.91, 8.88, 0.0, 0.0, 0.0]},
    malformed={"id": [1, 2, 3, 4, 5, 6], "pressure": [5.84, "inf", 7.88, 0, 0, 0]},
    best=0.0,
)


def ignores_the_expiratory_phase(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    report = score(task, tmp_path, case.answers, case.imperfect)
    assert_score(report, 1.0)


def lists_the_metric_it_grades(task: MLEBenchTask, tmp_path: Path) -> None:
    """task.yaml names what is graded: MLE-bench's grade.py computes the mean absolute error
    (lower is better), although its config.yaml calls the metric dice-hausdorff-combo."""
    expect(task.metric == "mean-absolute-error", f"task.yaml lists the metric {task.metric!r}")
    expect(task.lower_is_better, "task.yaml says higher is better")
    closer = {"id": CASE.imperfect["id"], "pressure": [6.34, 5.41, 8.38, 0.0, 0.0, 0.0]}
    near = score(task, tmp_path, CASE.answers, closer)  # each scored row off by 0.5
    far = score(task, tmp_path, CASE.answers, CASE.imperfect)  # off by 1.0
    assert_score(near, 0.5)
    assert_score(far, 1.0)
    expect(is_worse(task, 1.0, 0.5), "the farther submission does not score worse")


PARITY_EXPECTED = {
    "shuffled_rows": "same",
    "reordered_columns": "same",
    "extra_column": "same",
    "index_column": "same",
    "float_ids": "same",
    "missing_id": "invalid",
    "duplicate_id": "invalid",
    "unknown_id": "invalid",
    "blank_target": "invalid",
    "empty_file": "invalid",
    "header_only": "invalid",
    "duplicate_answer_keys": "same",
}

CASES: dict[str, Check] = {
    "grading": CASE,
    # ids 1-3 (u_out 0) are off by 1.0 each, ids 4-6 (u_out 1) are not scored: MAE 1.0; the
    # repeated id 1 is off by 1.0 too
    "parity": ParityCase(
        pd.DataFrame(CASE.answers),
        pd.DataFrame(CASE.imperfect),
        score=1.0,
        expected=PARITY_EXPECTED,
    ),
    # the same rows, an expiratory one (id 4) first: blanking it changes nothing, nor does
    # repeating it (in both files)
    "parity-expiratory-first": ParityCase(
        pd.DataFrame(CASE.answers).iloc[[3, 0, 1, 2, 4, 5]],
        pd.DataFrame(CASE.imperfect).iloc[[3, 0, 1, 2, 4, 5]],
        score=1.0,
        expected={**PARITY_EXPECTED, "blank_target": "same"},
    ),
    "ignores-the-expiratory-phase": ignores_the_expiratory_phase,
    "lists-the-metric-it-grades": lists_the_metric_it_grades,
}
