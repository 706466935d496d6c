"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading


def case_inaturalist() -> ExactCase:
    answers = pd.DataFrame(
        {"id": [268243, 268244, 268245, 268246], "predicted": [612, 55, 7, 1009]}
    )
    imperfect = answers.assign(predicted=["612", "3 55 1009", "7 1 2", "1000"])
    malformed = "id,predicted\n268243,abc\n268244,55\n268245,7\n268246,1\n"
    return ExactCase(answers, answers.copy(), imperfect, 0.5, malformed, 0.0)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_inaturalist),
}
