"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

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


IDS = ["000d118", "000fe60", "001ab80", "001bdc0"]
ANSWERS = pd.DataFrame({"essay_id": IDS, "full_text": ["a", "b", "c", "d"], "score": [1, 2, 3, 3]})
# Quadratic weighted kappa, weights (i - j)^2: observed pairs (1,1) (2,2) (3,3) (4,3) give
# sum w*O = 1; expected sum w*E = (1/4) * sum_i sum_j pred_i true_j (i - j)^2 with predicted
# counts 1,1,1,1 and true counts 1,1,2,0 = (14 + 6 + 2 * 6) / 4 = 8 -> 1 - 1/8 = 0.875
SUBMISSION = pd.DataFrame({"essay_id": IDS, "score": [1, 2, 3, 4]})

CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.875,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",  # the id arrays of unequal length cannot be compared
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # first row twice: sum w*O = 1, sum w*E = (18 + 4 + 9 + 24) / 5 = 11 -> 1 - 1/11
            "duplicate_answer_keys": 0.90909,
        },
    ),
}
