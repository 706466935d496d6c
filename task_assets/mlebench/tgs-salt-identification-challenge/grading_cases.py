"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={
        "id": ["003c477d7c", "0108518d1e", "010ee525b6"],
        "rle_mask": ["1 5 102 8", "", "300 20"],
    },
    imperfect={
        "id": ["003c477d7c", "0108518d1e", "010ee525b6"],
        "rle_mask": ["1 5", "", "300 20"],
    },
    malformed={
        "id": ["003c477d7c", "0108518d1e", "010ee525b6"],
        "rle_mask": ["102 8 1 5", "", ""],
    },
    best=1.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
