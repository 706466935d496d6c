"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

ANSWERS = pd.DataFrame(
    {
        "PhraseId": [4, 9, 15, 16, 23],
        "SentenceId": [1, 1, 2, 2, 3],
        "Phrase": ["a good film", "good", "dull , sadly", "dull", "fine"],
        "Sentiment": [3, 3, 1, 1, 2],
    }
)
# rows 1, 3 and 5 right: accuracy 3/5
SUBMISSION = pd.DataFrame({"PhraseId": ANSWERS["PhraseId"], "Sentiment": [3, 4, 1, 2, 2]})
# labels written as floats (2.0) still equal the integer labels
FLOAT_LABELS = SUBMISSION.assign(Sentiment=SUBMISSION["Sentiment"].astype(float))
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
    # phrase 4 twice, right both times: 4/6
    "duplicate_answer_keys": round(4 / 6, 5),
}

CASES: dict[str, Check] = {
    "parity": ParityCase(ANSWERS, SUBMISSION, score=0.6, expected=EXPECTED),
    "parity-float-labels": ParityCase(ANSWERS, FLOAT_LABELS, score=0.6, expected=EXPECTED),
}
