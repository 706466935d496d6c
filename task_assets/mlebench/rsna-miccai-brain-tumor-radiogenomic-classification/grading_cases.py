"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={"BraTS21ID": ["00013", "00097", "00104", "00210"], "MGMT_value": [1, 0, 1, 0]},
    imperfect={
        "BraTS21ID": ["00013", "00097", "00104", "00210"],
        "MGMT_value": [0.9, 0.4, 0.3, 0.1],
    },
    malformed={"BraTS21ID": ["13", "97", "104", "210"], "MGMT_value": [0.9, 0.4, 0.3, 0.1]},
    best=1.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
