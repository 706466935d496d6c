"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, case_classes


def case() -> ExactCase:
    from sklearn.metrics import accuracy_score

    return case_classes(
        "_id",
        "category_id",
        ["10", "14", "21", "24", "27"],
        [1000010653, 1000018294, 1000010653, 1000004079, 1000018294],
        [1000010653, 1000010653, 1000010653, 1000004079, 1000018294],
        accuracy_score,
    )


CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
}
