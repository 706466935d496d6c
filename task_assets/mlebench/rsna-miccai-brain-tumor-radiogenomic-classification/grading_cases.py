"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

CASE = WorseCase(
    answers={"BraTS21ID": ["00013", "00097", "00104", "00210"], "MGMT_value": [1, 0, 1, 0]},
    imperfect={
        "BraTS21ID": ["00013", "00097", "00104", "00210"],
        "MGMT_value": [0.9, 0.4, 0.3, 0.1],
    },
    malformed={"BraTS21ID": ["13", "97", "104", "210"], "MGMT_value": [0.9, 0.4, 0.3, 0.1]},
    best=1.0,
)

IDS = ["00013", "00097", "00104", "00210", "00568"]
ANSWERS = pd.DataFrame({"BraTS21ID": IDS, "MGMT_value": [1, 0, 1, 0, 1]})
# positives 0.9, 0.3, 0.6 against negatives 0.4 and 0.1: 0.9 and 0.6 beat both, 0.3 beats
# 0.1 only: 5 of 6 pairs
SUBMISSION = pd.DataFrame({"BraTS21ID": IDS, "MGMT_value": [0.9, 0.4, 0.3, 0.1, 0.6]})
# pandas reads the zero-padded ids as integers, in the answers and in the submission:
# ids written without the zeros are the same ids to MLE-bench's grader
UNPADDED = SUBMISSION.assign(BraTS21ID=[int(i) for i in IDS])
EXPECTED: dict[str, str | float] = {
    "shuffled_rows": "same",
    "reordered_columns": "same",
    "extra_column": "same",
    "index_column": "same",
    "float_ids": "same",
    "missing_id": "invalid",
    "duplicate_id": "invalid",
    "unknown_id": "invalid",
    "blank_target": "invalid",
    "empty_file": "invalid",
    "header_only": "invalid",
    # a fourth positive at 0.9: 7 of 8 pairs
    "duplicate_answer_keys": 7 / 8,
}

CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(ANSWERS, SUBMISSION, score=round(5 / 6, 5), expected=EXPECTED),
    "parity-unpadded-ids": ParityCase(
        ANSWERS,
        UNPADDED,
        score=round(5 / 6, 5),
        # no submitted id is written as the answers write it: no twin for duplicate keys
        expected={k: v for k, v in EXPECTED.items() if k != "duplicate_answer_keys"},
        strict={"as_is": "invalid", "shuffled_rows": "invalid", "reordered_columns": "invalid"},
    ),
}
