"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, case_classes


def case() -> ExactCase:
    from sklearn.metrics import accuracy_score

    return case_classes(
        "image_id",
        "label",
        ["1000015157.jpg", "1000201771.jpg", "100042118.jpg", "1000723321.jpg"],
        [3, 0, 4, 3],
        [3, 1, 4, 4],
        accuracy_score,
    )


CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
}
