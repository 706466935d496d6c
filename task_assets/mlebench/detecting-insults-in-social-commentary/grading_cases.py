"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, Outcome, ParityCase

COMMENTS = [
    '"you are a clueless idiot"',
    '"the Lakers looked solid tonight"',
    '"nobody asked you, moron"',
    '"thanks for the link"',
    '"what a game"',
]
ANSWERS = pd.DataFrame(
    {
        "Insult": [1, 0, 1, 0, 0],
        "Date": ["20120618192155Z", None, "20120618221256Z", "20120620171226Z", None],
        "Comment": COMMENTS,
        "Usage": ["PrivateTest", "PublicTest", "PrivateTest", "PrivateTest", "PublicTest"],
    }
)
SUBMISSION = pd.DataFrame(
    {
        "Insult": [0.9, 0.4, 0.3, 0.1, 0.5],
        "Date": ["20120618192155Z", None, "20120618221256Z", "20120620171226Z", None],
        "Comment": COMMENTS,
    }
)
# positives score 0.9 and 0.3, negatives 0.4, 0.1 and 0.5: of the 6 (positive, negative)
# pairs the positive is ahead in 0.9>0.4, 0.9>0.1, 0.9>0.5, 0.3>0.1, so AUC = 4 / 6

EXPECTED: dict[str, Outcome] = {
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
    # the repeated positive (0.9) adds 3 pairs it wins: 7 of 9
    "duplicate_answer_keys": 0.77778,
}

CASES: dict[str, Check] = {
    "parity": ParityCase(ANSWERS, SUBMISSION, score=0.66667, expected=EXPECTED),
    # Date is ignored: a submission without it is graded all the same
    "parity-no-date": ParityCase(
        ANSWERS,
        SUBMISSION.drop(columns=["Date"]),
        score=0.66667,
        expected=EXPECTED,
        strict={
            "as_is": "invalid",
            "shuffled_rows": "invalid",
            "reordered_columns": "invalid",
            "duplicate_answer_keys": "invalid",
        },
    ),
}
