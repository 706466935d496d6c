"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={"Id": ["0300", "0301"], "Sequence": ["2 14 20 6", "1 8 8 19 5"]},
    imperfect={"Id": ["0300", "0301"], "Sequence": ["2 14 6", "1 8 19 5 11"]},
    malformed={"Id": ["0300", "0301"], "Sequence": ["2 fourteen 6", "1 8"]},
    best=0.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
