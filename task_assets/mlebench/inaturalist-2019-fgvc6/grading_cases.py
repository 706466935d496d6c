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
    grade_file,
    write_csv,
)


def case_inaturalist() -> ExactCase:
    answers = pd.DataFrame(
        {"id": [268243, 268244, 268245, 268246], "predicted": [612, 55, 7, 1009]}
    )
    imperfect = answers.assign(predicted=["612", "3 55 1009", "7 1 2", "1000"])
    malformed = "id,predicted\n268243,abc\n268244,55\n268245,7\n268246,1\n"
    return ExactCase(answers, answers.copy(), imperfect, 0.5, malformed, 0.0)


ANSWERS = pd.DataFrame({"id": [268243, 268244, 268245, 268246], "predicted": [612, 55, 7, 1009]})
# first tokens 612, 3, 7, 1000: 2 of 4 right -> error 1 - 0.5 = 0.5
TEXT = ANSWERS.assign(predicted=["612", "3 55 1009", "7 1 2", "1000"])
# a column pandas reads as integers: 612, 55 right -> error 0.5
INTEGERS = ANSWERS.assign(predicted=[612, 55, 8, 1])
EXPECTED = {
    "shuffled_rows": "same",
    "reordered_columns": "same",
    "extra_column": "same",
    "index_column": "same",
    "float_ids": "same",
    "missing_id": "invalid",
    "duplicate_id": "invalid",
    "unknown_id": "invalid",
    "blank_target": "invalid",  # NaN is a float: it has no .split()
    "empty_file": "invalid",
    "header_only": "invalid",
    "duplicate_answer_keys": 0.4,  # the repeated row (right) twice: 3 of 5 right
}


def parses_values_as_pandas_typed_them(task: MLEBenchTask, tmp_path: Path) -> None:
    """An integer (or boolean) cell is the class itself; any float column makes MLE-bench's
    grader fail; text is cut at its first whitespace-separated token."""
    answers = write_csv(tmp_path / task.answers_file, ANSWERS.assign(predicted=[1, 0, 7, 1009]))
    # True/False are 1/0 to Python: True, False, True, True -> rows 1 and 2 right, error 0.5
    flags = "id,predicted\n268243,True\n268244,False\n268245,True\n268246,True\n"
    report = grade_file(task, tmp_path, answers, "flags.csv", flags, grading="mlebench")
    assert_score(report, 0.5)
    # one class written as 1.0 makes the whole column float: no score
    floats = "id,predicted\n268243,1.0\n268244,0\n268245,7\n268246,1009\n"
    report = grade_file(task, tmp_path, answers, "floats.csv", floats, grading="mlebench")
    assert_invalid(report)
    # "  7 12" gives 7, "7.0 2" is not an int() literal
    text = "id,predicted\n268243,1 5\n268244,0\n268245,  7 12\n268246,1009\n"
    report = grade_file(task, tmp_path, answers, "text.csv", text, grading="mlebench")
    assert_score(report, 0.0)
    report = grade_file(
        task, tmp_path, answers, "bad.csv", text.replace("  7 12", "7.0 2"), grading="mlebench"
    )
    assert_invalid(report)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_inaturalist),
    "parity-text": ParityCase(ANSWERS, TEXT, score=0.5, expected=EXPECTED),
    "parity-integers": ParityCase(ANSWERS, INTEGERS, score=0.5, expected=EXPECTED),
    "parses-values-as-pandas-typed-them": parses_values_as_pandas_typed_them,
}
