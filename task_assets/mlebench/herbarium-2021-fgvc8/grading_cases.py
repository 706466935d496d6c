"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    ExactCase,
    ExactGrading,
    MLEBenchTask,
    ParityCase,
    assert_invalid,
    assert_score,
    case_classes,
    macro_f1,
    score,
)


def case() -> ExactCase:
    return case_classes(
        "Id", "Predicted", ["0", "1", "2", "3"], [41213, 702, 702, 5], [41213, 702, 5, 5], macro_f1
    )


ANSWERS = pd.DataFrame({"Id": [0, 1, 2, 3], "Predicted": [41213, 702, 702, 5]})
SUBMISSION = pd.DataFrame({"Id": [0, 1, 2, 3], "Predicted": [41213, 702, 5, 5]})
# per class F1: 41213 -> 1; 702 (1 of 2 found) -> 2/3; 5 (1 of 2 predictions right) -> 2/3;
# macro F1 = (1 + 2/3 + 2/3) / 3 = 7/9 = 0.77778 (5 decimals); the first answer twice
# (41213, predicted right) leaves every class's F1 as it is.
PARITY = ParityCase(
    ANSWERS,
    SUBMISSION,
    score=0.77778,
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
        "duplicate_answer_keys": "same",
    },
)


def labels_go_through_int(task: MLEBenchTask, tmp_path: Path) -> None:
    """MLE-bench converts each label with Python's int()."""
    answers = {"Id": [0, 1, 2, 3], "Predicted": [41213, 702, 702, 5]}
    # floats are truncated: 702.9 is class 702, 5.5 class 5 (the submission above)
    floats = {"Id": [0, 1, 2, 3], "Predicted": [41213.0, 702.9, 5.5, 5.0]}
    assert_score(score(task, tmp_path, answers, floats, grading="mlebench"), 0.77778)
    # "41_213" keeps the column text for pandas, but int() reads it as 41213
    underscore = {"Id": [0, 1, 2, 3], "Predicted": ["41_213", "702", "5", "5"]}
    assert_score(score(task, tmp_path, answers, underscore, grading="mlebench"), 0.77778)
    # text that int() cannot read, a blank, inf: the grader fails
    for bad in ("x", None, float("inf")):
        labels = {"Id": [0, 1, 2, 3], "Predicted": [41213, bad, 5, 5]}
        assert_invalid(score(task, tmp_path, answers, labels, grading="mlebench"))


CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
    "parity": PARITY,
    "labels-go-through-int": labels_go_through_int,
}
