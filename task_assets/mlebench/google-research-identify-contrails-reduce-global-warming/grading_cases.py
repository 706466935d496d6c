"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, ParityCase, dense_mask


def case_contrails() -> ExactCase:
    h, w = 4, 5
    truth = ["2 3 7 2", "-", "1 4"]
    ids = ["1002653297254493116", "1005310838114010045", "1006338000000000001"]
    answers = pd.DataFrame({"record_id": ids, "encoded_pixels": truth, "height": h, "width": w})
    guesses = ["2 2 8 5", "18 5", "-"]  # the run past the image end is cut off
    imperfect = answers.assign(encoded_pixels=guesses)
    t = [dense_mask("" if v == "-" else v, h, w) for v in truth]
    p = [dense_mask("" if v == "-" else v, h, w) for v in guesses]
    inter = sum(int((a & b).sum()) for a, b in zip(t, p, strict=True))
    expected = 2 * inter / (sum(int(a.sum()) for a in t) + sum(int(b.sum()) for b in p))
    malformed = answers.assign(encoded_pixels=["7 2 2 3", "-", "-"]).to_csv(index=False)  # unsorted
    return ExactCase(answers, answers.copy(), imperfect, expected, malformed, 1.0)


# Parity with MLE-bench's grade(): 4x5 images (20 pixels, column-major, 1-based).
IDS = [1002653297254493116, 1005310838114010045, 1006338000000000001]
ANSWERS = pd.DataFrame(
    {"record_id": IDS, "encoded_pixels": ["2 3 7 2", "-", "1 4"], "height": 4, "width": 5}
)
# truth 5 + 0 + 4 = 9 pixels; predicted "2 3" (3, all true), "1 2" (2, none true),
# "1 4 9 2" (6, 4 true): 11 pixels, 7 shared -> 2 * 7 / (9 + 11) = 0.7
SUBMISSION = ANSWERS.assign(encoded_pixels=["2 3", "1 2", "1 4 9 2"])
# Only the two columns MLE-bench needs, and odd counts of RLE numbers, which numpy's
# broadcasting reads as runs of the one length: "2 3 9" = pixels 2-4 and 9-11 (6, 3 true),
# "1 4 13" = 1-4 and 13-16 (8, 4 true): 14 pixels, 7 shared -> 14 / 23 = 0.6087
ODD = pd.DataFrame({"record_id": IDS, "encoded_pixels": ["2 3 9", "-", "1 4 13"]})

CASES: dict[str, Check] = {
    "grading": ExactGrading(case_contrails),
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.7,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "float_ids": "same",  # 1.0026532972544932e+18 == 1002653297254493116 in numpy
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",  # a blank cell is NaN, not text
            "empty_file": "invalid",
            "header_only": "invalid",
            # row 1 twice: 2 * (7 + 3) / (9 + 5 + 11 + 3) = 20 / 28
            "duplicate_answer_keys": 0.71429,
        },
    ),
    "parity_two_columns_odd_runs": ParityCase(
        ANSWERS,
        ODD,
        score=0.6087,
        expected={
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
            # row 1 twice: 2 * (7 + 3) / (9 + 5 + 14 + 6) = 20 / 34
            "duplicate_answer_keys": 0.58824,
        },
        # strict grading wants the height and width columns and start/length pairs
        strict={
            "as_is": "invalid",
            "shuffled_rows": "invalid",
            "reordered_columns": "invalid",
            "duplicate_answer_keys": "invalid",
        },
    ),
}
