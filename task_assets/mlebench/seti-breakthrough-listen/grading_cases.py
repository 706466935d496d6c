"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={
        "id": ["000bf832cae9ff1", "000c74cc71a1140", "000f5f9851161d3"],
        "target": [0, 1, 0],
    },
    imperfect={
        "id": ["000bf832cae9ff1", "000c74cc71a1140", "000f5f9851161d3"],
        "target": [0.6, 0.5, 0.1],
    },
    malformed={
        "id": ["000bf832cae9ff1", "000c74cc71a1140", "000f5f9851161d3"],
        "target": [0.6, 1.5, 0.1],
    },
    best=1.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
