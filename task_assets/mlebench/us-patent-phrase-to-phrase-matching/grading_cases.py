"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

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
    # Pearson's r: answers 0.5 0.75 0.25 0 (mean 0.375), predictions 0.3 0.7 0.4 0.1 (mean
    # 0.375); deviations' products add up to 0.2125, squares to 0.3125 and 0.1875. With the
    # first pair twice (means 0.4 and 0.36): 0.205 / sqrt(0.325 * 0.192).
    "parity": ParityCase(
        pd.DataFrame(CASE.answers),
        pd.DataFrame(CASE.imperfect),
        score=round(0.2125 / math.sqrt(0.3125 * 0.1875), 5),
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": round(0.205 / math.sqrt(0.325 * 0.192), 5),
        },
    ),
}
