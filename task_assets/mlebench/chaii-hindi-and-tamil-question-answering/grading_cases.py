"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading


def case_chaii() -> ExactCase:
    answers = pd.DataFrame(
        {"id": ["q1", "q2", "q3"], "PredictionString": ["नई दिल्ली", "१९४७", "சென்னை நகரம்"]}
    )
    guesses = ["नई दिल्ली शहर", "", "சென்னை"]
    imperfect = pd.DataFrame({"id": ["q1", "q2", "q3"], "PredictionString": guesses})
    expected = (2 / 3 + 0.0 + 1 / 2) / 3
    malformed = "id,PredictionString\nq1,a\nq1,b\nq3,c\n"  # duplicate id, q2 missing
    return ExactCase(answers, answers.copy(), imperfect, expected, malformed, 1.0)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_chaii),
}
