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
)


def case() -> ExactCase:
    from sklearn.metrics import accuracy_score

    return case_classes(
        "image_id",
        "label",
        ["1000015157.jpg", "1000201771.jpg", "100042118.jpg", "1000723321.jpg"],
        [3, 0, 4, 3],
        [3, 1, 4, 4],
        accuracy_score,
    )


IMAGES = ["1000015157.jpg", "1000201771.jpg", "100042118.jpg", "1000723321.jpg", "1000812911.jpg"]
PARITY_ANSWERS = pd.DataFrame({"image_id": IMAGES, "label": [3, 0, 4, 3, 2]})
PARITY_SUBMISSION = pd.DataFrame({"image_id": IMAGES, "label": [3, 1, 4, 4, 2]})


CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
    # MLE-bench's grading: 3 of 5 labels right.
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=3 / 5,
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
            # the first image twice in both files, right both times: 4 of 6
            "duplicate_answer_keys": round(4 / 6, 5),
        },
    ),
}
