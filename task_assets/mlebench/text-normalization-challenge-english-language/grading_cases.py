"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    MLEBenchTask,
    ParityCase,
    assert_score,
    grade_file,
    write_csv,
)

IDS = ["0_0", "0_1", "0_2", "0_3", "1_0", "1_1"]
ANSWERS = pd.DataFrame({"id": IDS, "after": ["the", "one point five", "1.50", ".", "x", "twelve"]})
# right: 0_0, 0_1, 0_3, 1_1 ("1.5" is not the text "1.50") -> 4 / 6
SUBMISSION = pd.DataFrame(
    {"id": IDS, "after": ["the", "one point five", "1.5", ".", "y", "twelve"]}
)


def compares_text_as_pandas_typed_it(task: MLEBenchTask, tmp_path: Path) -> None:
    """``after`` is compared after pandas' parse and ``astype(str)``: an all-number column
    is floats ("1.50" -> "1.5", "12" -> "12.0"); a missing-looking cell is the text
    "nan" (pandas 2), here among text, so the other cells stay as written."""
    numbers = pd.DataFrame({"id": ["0_0", "0_1", "0_2"], "after": ["12", "1.50", "three"]})
    answers = write_csv(tmp_path / task.answers_file, numbers)
    written = "id,after\n0_0,12\n0_1,1.50\n0_2,3\n"  # read as 12.0, 1.5, 3.0: none right
    report = grade_file(task, tmp_path, answers, "numbers.csv", written, grading="mlebench")
    assert_score(report, 0.0)
    # strict grading compares the text as written: 0_0 and 0_1 right
    report = grade_file(task, tmp_path, answers, "text.csv", written, grading="strict")
    assert_score(report, 2 / 3, abs=1e-5)
    blank = "id,after\n0_0,12\n0_1,NA\n0_2,three\n"
    report = grade_file(task, tmp_path, answers, "blank.csv", blank, grading="mlebench")
    assert_score(report, 2 / 3, abs=1e-5)


CASES: dict[str, Check] = {
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.66667,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": 0.5,  # the text "nan" (pandas 2) against "the": 3 / 6 right
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 0.71429,  # the repeated row (right) twice: 5 / 7
        },
        strict={"blank_target": 0.5},  # strict grading reads a blank as "nan" too
    ),
    "compares-text-as-pandas-typed-it": compares_text_as_pandas_typed_it,
}
