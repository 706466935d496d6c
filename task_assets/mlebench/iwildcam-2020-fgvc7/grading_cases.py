"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, case_classes


def case() -> ExactCase:
    from sklearn.metrics import accuracy_score

    return case_classes(
        "Id",
        "Category",
        ["8b2e1c20", "8b2f3b9e", "8b30a1b2"],
        [372, 0, 5],
        [372, 0, 0],
        accuracy_score,
    )


CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
}
