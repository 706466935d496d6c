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
    case_tag_lists,
    score,
)


def case() -> ExactCase:
    return case_tag_lists("id", "attribute_ids", {})


IDS = ["10023b2c", "100fbe07", "101b627f", "10234480"]
ANSWERS = pd.DataFrame({"id": IDS, "attribute_ids": ["1 13 405", "13", "79 405", "2"]})
SUBMISSION = pd.DataFrame({"id": IDS, "attribute_ids": ["1 13", "13 999", "79 405 7", "1"]})
# classes: 1 13 2 405 79 (999 and 7 are dropped); tp 2 + 1 + 2 = 5, fp 1 (row 4), fn 1 + 1
# (rows 1, 4) = 2: micro F1 = 10 / (10 + 1 + 2) = 0.76923. The first answer twice: tp 7,
# fp 1, fn 3, F1 = 14 / 18 = 0.77778. Its prediction blank: tp 3, fp 1, fn 4, F1 = 6 / 11.
PARITY = ParityCase(
    ANSWERS,
    SUBMISSION,
    score=0.76923,
    expected={
        "shuffled_rows": "same",
        "reordered_columns": "same",
        "extra_column": "same",
        "index_column": "same",
        "missing_id": "invalid",
        "duplicate_id": "invalid",
        "unknown_id": "invalid",
        "blank_target": 0.54545,
        "empty_file": "invalid",
        "header_only": "invalid",
        "duplicate_answer_keys": 0.77778,
    },
    strict={"blank_target": 0.54545},
)


def single_ids_are_read_as_numbers(task: MLEBenchTask, tmp_path: Path) -> None:
    """One attribute id per cell: pandas reads the column as numbers and MLE-bench's
    ``.str.split()`` fails; a single text cell keeps the column text."""
    answers = {"id": IDS, "attribute_ids": ["1 13 405", "13", "79 405", "2"]}
    numbers = {"id": IDS, "attribute_ids": ["1", "13", "79", "2"]}
    assert_invalid(score(task, tmp_path, answers, numbers, grading="mlebench"))
    with_blank = {"id": IDS, "attribute_ids": ["1", "13", "79", ""]}
    assert_invalid(score(task, tmp_path, answers, with_blank, grading="mlebench"))
    # tp 1 + 1 + 1 = 3, fp 0, fn 2 + 0 + 1 + 1 = 4: F1 = 6 / 10
    text = {"id": IDS, "attribute_ids": ["1", "13", "79", "2x"]}
    assert_score(score(task, tmp_path, answers, text, grading="mlebench"), 0.6)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
    "parity": PARITY,
    "single-ids-are-read-as-numbers": single_ids_are_read_as_numbers,
}
