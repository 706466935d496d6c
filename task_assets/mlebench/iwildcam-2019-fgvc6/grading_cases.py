"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    ExactCase,
    ExactGrading,
    ParityCase,
    case_classes,
    macro_f1,
)

IDS = ["5998cfa4-23d2", "588a679f-23d2", "59279ce3-23d2", "5a2af4ab-23d2", "599fbd89-23d2"]


def case_iwildcam_2019() -> ExactCase:
    case = case_classes("Id", "Category", IDS, [0, 19, 0, 1, 11], [0, 19, 1, 1, 0], macro_f1)
    # MLE-bench's own sample submission format, with the pandas index as first column
    case.malformed = ",Id,Category\n" + "".join(f"{n},{i},0\n" for n, i in enumerate(IDS))
    return case


PARITY_ANSWERS = pd.DataFrame({"Id": IDS, "Category": [0, 19, 0, 1, 11]})
# per class F1: 0 -> 1 tp, 1 fp, 1 fn: 0.5; 19 -> 1; 1 -> 1 tp, 1 fp: 2/3; 11 -> 0;
# macro (0.5 + 1 + 2/3 + 0) / 4 = 13/24
PARITY_SUBMISSION = pd.DataFrame({"Id": IDS, "Category": [0, 19, 1, 1, 0]})
TRUNCATED = "Id,Category\n" + "".join(
    f"{i},{c}\n" for i, c in zip(IDS, [0.9, 19.5, 1.99, 1, 0], strict=True)
)

CASES: dict[str, Check] = {
    "grading": ExactGrading(case_iwildcam_2019),
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round(13 / 24, 5),
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",  # int() of NaN
            "empty_file": "invalid",
            "header_only": "invalid",
            # the first id twice: class 0 gets 2 tp, 1 fp, 1 fn (F1 2/3):
            # (2/3 + 1 + 2/3 + 0) / 4 = 7/12
            "duplicate_answer_keys": round(7 / 12, 5),
        },
    ),
    # MLE-bench's int() truncates: 0.9 -> 0, 19.5 -> 19, 1.99 -> 1 (the same predictions)
    "parity-truncated-floats": ParityCase(
        PARITY_ANSWERS,
        TRUNCATED,
        score=round(13 / 24, 5),
        expected={},
        strict={"as_is": "invalid"},
    ),
}
