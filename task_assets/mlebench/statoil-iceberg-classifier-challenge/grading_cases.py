"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0, 1, 1]},
    imperfect={"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0.2, 0.7, 0.9]},
    malformed={"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0.2, 1.7, 0.9]},
    best=0.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
