"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={
        "Image": ["00029b3a.jpg", "0003c693.jpg", "000a6daec.jpg"],
        "Id": ["w_1287fbc", "new_whale", "w_d3b4b6e"],
    },
    imperfect={
        "Image": ["00029b3a.jpg", "0003c693.jpg", "000a6daec.jpg"],
        "Id": ["new_whale w_1287fbc", "new_whale", "w_98baff9 w_7554f44"],
    },
    malformed={
        "image": ["00029b3a.jpg", "0003c693.jpg", "000a6daec.jpg"],
        "Id": ["a", "b", "c"],
    },
    best=1.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
