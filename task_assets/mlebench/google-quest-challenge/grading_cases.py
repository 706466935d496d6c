"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, MLEBenchTask


def case_quest(task: MLEBenchTask) -> ExactCase:
    """The case for ``task`` (its target columns are the classes)."""
    from scipy.stats import spearmanr

    classes = list(task.submission.target_columns)
    rng = np.random.default_rng(1)
    truth = rng.choice([0.0, 1 / 3, 0.5, 2 / 3, 1.0], size=(8, len(classes)))
    truth[0], truth[1] = 0.0, 1.0  # no constant answer column
    ids = [39, 46, 70, 132, 200, 245, 251, 300]
    answers = pd.DataFrame(truth, columns=classes).assign(qa_id=ids)[["qa_id", *classes]]
    guess = rng.random(truth.shape)
    imperfect = pd.DataFrame(guess, columns=classes).assign(qa_id=ids)[["qa_id", *classes]]
    expected = float(np.mean([spearmanr(guess[:, j], truth[:, j]).correlation for j in range(30)]))
    constant = imperfect.copy()
    constant[classes[3]] = 0.5  # no Spearman correlation for a constant column
    return ExactCase(
        answers, answers.copy(), imperfect, expected, constant.to_csv(index=False), 1.0
    )


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_quest, takes_task=True),
}
