"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    MLEBenchTask,
    ParityCase,
    assert_invalid,
    assert_score,
    grade_file,
    write_csv,
)

IDS = ["1_1_1", "1_1_2", "1_2_1", "1_2_2"]
ANSWERS = pd.DataFrame({"id": IDS, "value": [1.0, 0.5, 0.0, 0.25]})
# errors 0.1, 0, 0.1, 0.25: sqrt((0.01 + 0 + 0.01 + 0.0625) / 4) = sqrt(0.020625) = 0.14361
SUBMISSION = pd.DataFrame({"id": IDS, "value": [0.9, 0.5, 0.1, 0.5]})


def takes_values_as_pandas_parsed_them(task: MLEBenchTask, tmp_path: Path) -> None:
    """No clipping to [0, 1]; True/False are 1/0; text that Python's float() reads (such
    as 1_000) counts as that number; infinity makes scikit-learn fail."""
    answers = write_csv(tmp_path / task.answers_file, ANSWERS)
    flags = "id,value\n1_1_1,True\n1_1_2,False\n1_2_1,False\n1_2_2,False\n"
    # errors 0, 0.5, 0, 0.25: sqrt((0.25 + 0.0625) / 4)
    report = grade_file(task, tmp_path, answers, "flags.csv", flags, grading="mlebench")
    assert_score(report, math.sqrt(0.3125 / 4), abs=1e-5)
    wide = "id,value\n1_1_1,1\n1_1_2,0.5\n1_2_1,0\n1_2_2,1_000\n"  # error 999.75 on one pixel
    report = grade_file(task, tmp_path, answers, "wide.csv", wide, grading="mlebench")
    assert_score(report, 999.75 / 2, abs=1e-5)
    report = grade_file(
        task, tmp_path, answers, "inf.csv", wide.replace("1_000", "inf"), grading="mlebench"
    )
    assert_invalid(report)


CASES: dict[str, Check] = {
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.14361,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",  # scikit-learn refuses NaN
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 0.13601,  # error 0.1 twice: sqrt(0.0925 / 5)
        },
    ),
    "takes-values-as-pandas-parsed-them": takes_values_as_pandas_parsed_them,
}
