"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={
        "essay_id": ["000d118", "000fe60", "001ab80", "001bdc0", "002ba53"],
        "full_text": ["Cars are useful.", "Venus, a planet.", "Face on Mars", "x", "y"],
        "score": [3, 4, 1, 6, 2],
    },
    imperfect={
        "essay_id": ["000d118", "000fe60", "001ab80", "001bdc0", "002ba53"],
        "score": [3, 3, 2, 5, 2],
    },
    malformed={
        "essay_id": ["000d118", "000fe60", "001ab80", "001bdc0", "002ba53"],
        "score": [3, 3.5, 2, 5, 2],
    },
    best=1.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
