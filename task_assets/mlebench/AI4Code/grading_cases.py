"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading


def case_ai4code() -> ExactCase:
    answers = pd.DataFrame({"id": ["nb1", "nb2"], "cell_order": ["a1 b2 c3 d4", "x9 y8 z7"]})
    imperfect = pd.DataFrame({"id": ["nb1", "nb2"], "cell_order": ["b2 a1 c3 d4", "z7 y8 x9"]})
    expected = 1 - 4 * (1 + 3) / (4 * 3 + 3 * 2)
    malformed = "id,cell_order\nnb1,a1 b2 c3\nnb2,x9 y8 z7\n"  # a cell is missing
    return ExactCase(answers, answers.copy(), imperfect, expected, malformed, 1.0)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_ai4code),
}
