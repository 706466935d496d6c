"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in tests/mlebench/grading_kit.py.
"""

from __future__ import annotations

from grading_kit import Check, ExactCase, ExactGrading, case_tag_lists


def case() -> ExactCase:
    return case_tag_lists(
        "Id", "Tags", {"Title": ["t"] * 4, "Body": ["<p>b, with a comma</p>"] * 4}
    )


CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
}
