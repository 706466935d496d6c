"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={
        "id": ["4112d61851461f60", "09e418c93a776564", "36baf228038e314b", "1f37ead645e7f0c8"],
        "anchor": ["opc drum", "adjust gas flow", "lower trunnion", "cap component"],
        "target": [
            "inorganic photoconductor drum",
            "altering gas flow",
            "lower locating",
            "mask",
        ],
        "context": ["G02", "F23", "B60", "H01"],
        "score": [0.5, 0.75, 0.25, 0.0],
    },
    imperfect={
        "id": ["4112d61851461f60", "09e418c93a776564", "36baf228038e314b", "1f37ead645e7f0c8"],
        "score": [0.3, 0.7, 0.4, 0.1],
    },
    malformed={
        "id": ["4112d61851461f60", "09e418c93a776564", "36baf228038e314b", "1f37ead645e7f0c8"],
        "score": [0.3, "high", 0.4, 0.1],
    },
    best=1.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
