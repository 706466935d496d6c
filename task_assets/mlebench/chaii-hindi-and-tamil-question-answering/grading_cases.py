"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, ParityCase


def case_chaii() -> ExactCase:
    answers = pd.DataFrame(
        {"id": ["q1", "q2", "q3"], "PredictionString": ["नई दिल्ली", "१९४७", "சென்னை நகரம்"]}
    )
    guesses = ["नई दिल्ली शहर", "", "சென்னை"]
    imperfect = pd.DataFrame({"id": ["q1", "q2", "q3"], "PredictionString": guesses})
    expected = (2 / 3 + 0.0 + 1 / 2) / 3
    malformed = "id,PredictionString\nq1,a\nq1,b\nq3,c\n"  # duplicate id, q2 missing
    return ExactCase(answers, answers.copy(), imperfect, expected, malformed, 1.0)


IDS = ["22bff3dec", "282758170", "d60987e0e", "f8b0c9a21"]
ANSWERS = pd.DataFrame(
    {"id": IDS, "PredictionString": ["भारत की राजधानी", "சென்னை", "1947", "New Delhi"]}
)
# word-set Jaccard per row: 2/3, 1/2, 1, 1 (lower-cased: "new DELHI" = "New Delhi")
# mean = (0.66667 + 0.5 + 1 + 1) / 4 = 0.79167
SUBMISSION = pd.DataFrame(
    {"id": IDS, "PredictionString": ["भारत की", "சென்னை நகரம்", "1947", "new DELHI"]}
)

CASES: dict[str, Check] = {
    "grading": ExactGrading(case_chaii),
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.79167,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": 0.625,  # row 1 empty: (0 + 0.5 + 1 + 1) / 4
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 0.76667,  # (2 * 2/3 + 0.5 + 1 + 1) / 5
        },
        strict={"blank_target": 0.625},  # an empty answer is allowed there too
    ),
}
