"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, case_classes, macro_f1


def case_iwildcam_2019() -> ExactCase:
    ids = ["5998cfa4-23d2", "588a679f-23d2", "59279ce3-23d2", "5a2af4ab-23d2", "599fbd89-23d2"]
    case = case_classes("Id", "Category", ids, [0, 19, 0, 1, 11], [0, 19, 1, 1, 0], macro_f1)
    # MLE-bench's own sample submission format, with the pandas index as first column
    case.malformed = ",Id,Category\n" + "".join(f"{n},{i},0\n" for n, i in enumerate(ids))
    return case


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_iwildcam_2019),
}
