"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, case_tag_lists


def case() -> ExactCase:
    return case_tag_lists("id", "attribute_ids", {})


CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
}
