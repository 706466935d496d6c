"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, case_classes, macro_f1


def case() -> ExactCase:
    return case_classes(
        "Id", "Predicted", ["0", "1", "2", "3"], [41213, 702, 702, 5], [41213, 702, 5, 5], macro_f1
    )


CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
}
