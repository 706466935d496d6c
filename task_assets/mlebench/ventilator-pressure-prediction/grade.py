"""Grading for ventilator-pressure-prediction (MLE-bench semantics).

Mean absolute error of ``pressure`` over the inspiratory time steps only: rows
whose ``u_out`` in the answers is 1 (the expiratory phase) are not scored, as in
MLE-bench's grader and the original competition. The exact MAE is used (the
registered ``mean-absolute-error`` is rounded to a whole number for another
competition).

Note: the reference figures label this competition ``dice-hausdorff-combo``
(copied from MLE-bench's config.yaml), but MLE-bench's grade.py computes this masked
MAE, which is what is implemented here, and task.yaml lists ``mean-absolute-error``
(a correction in scripts/generate_mlebench_tasks.py). Lower is better.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.authoring.metrics import mean_absolute_error


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """MAE over the rows with ``u_out == 0``."""
    inspiratory = answers["u_out"].astype(float).to_numpy() == 0
    if not inspiratory.any():
        raise RuntimeError("the answers have no inspiratory (u_out == 0) row to score")
    return mean_absolute_error(
        answers["pressure"].to_numpy(dtype=float)[inspiratory],
        submission["pressure"].to_numpy(dtype=float)[inspiratory],
    )
