"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, MLEBenchTask


def case_freesound(task: MLEBenchTask) -> ExactCase:
    """The case for ``task`` (its target columns are the classes)."""
    from sklearn.metrics import label_ranking_average_precision_score

    classes = list(task.submission.target_columns)
    rng = np.random.default_rng(0)
    truth = np.zeros((5, len(classes)), dtype=int)
    truth[0, [1, 5]] = 1
    truth[1, 7] = 1
    truth[2, [0, 2, 79]] = 1
    truth[3, 40] = 1  # row 4 has no label: skipped by the metric
    ids = [f"{i:08x}.wav" for i in range(5)]
    answers = pd.DataFrame(truth, columns=classes).assign(fname=ids)[["fname", *classes]]
    scores = rng.random(truth.shape).round(3)
    imperfect = pd.DataFrame(scores, columns=classes).assign(fname=ids)[["fname", *classes]]
    keep = truth.sum(axis=1) > 0
    expected = label_ranking_average_precision_score(
        truth[keep] > 0, scores[keep], sample_weight=truth[keep].sum(axis=1)
    )
    broken = imperfect.astype(object)
    broken.iloc[2, 5] = "nan"
    return ExactCase(answers, answers.copy(), imperfect, expected, broken.to_csv(index=False), 1.0)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_freesound, takes_task=True),
}
