"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    MLEBenchTask,
    ParityCase,
    WorseCase,
    assert_invalid,
    assert_score,
    expect,
    grade_file,
    score,
    write_csv,
)

CASE = WorseCase(
    answers={
        "id": [30192, 53567, 65089],
        "model_a": ["gpt-4-1106-preview", "koala-13b", "gpt-3.5-turbo-0613"],
        "model_b": ["gpt-4-0613", "gpt-4-0613", "mistral-medium"],
        "prompt": ['["Is it morally right?"]', '["What is the difference?"]', '["hi, go"]'],
        "response_a": ['["The question, \\"moral\\"..."]', '["A"]', '["B"]'],
        "response_b": ['["As an AI..."]', '["C"]', '["D"]'],
        "winner_model_a": [1, 0, 0],
        "winner_model_b": [0, 1, 0],
        "winner_tie": [0, 0, 1],
    },
    imperfect={
        "id": [30192, 53567, 65089],
        "winner_model_a": [0.5, 0.2, 0.3],
        "winner_model_b": [0.3, 0.6, 0.3],
        "winner_tie": [0.2, 0.2, 0.4],
    },
    malformed={  # the first row sums to 0.9
        "id": [30192, 53567, 65089],
        "winner_model_a": [0.5, 0.2, 0.3],
        "winner_model_b": [0.2, 0.6, 0.3],
        "winner_tie": [0.2, 0.2, 0.4],
    },
    best=0.0,
)


def requires_rows_summing_to_one(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    report = score(task, tmp_path, case.answers, case.malformed)
    expect("must add up to 1" in report.message and "30192" in report.message, report.message)


# log loss: -(ln 0.5 + ln 0.6 + ln 0.4) / 3 = (0.69315 + 0.51083 + 0.91629) / 3 = 0.70675
PARITY = ParityCase(
    pd.DataFrame(CASE.answers),
    pd.DataFrame(CASE.imperfect),
    score=0.70675,
    expected={
        "shuffled_rows": "same",
        "reordered_columns": "same",
        "extra_column": "same",
        "index_column": "same",
        "float_ids": "same",
        "missing_id": "invalid",
        "duplicate_id": "invalid",
        "unknown_id": "invalid",
        "blank_target": "invalid",  # NaN fails the [0, 1] check
        "empty_file": "invalid",
        "header_only": "invalid",
        "duplicate_answer_keys": 0.70335,  # ln 0.5 twice: (2 * 0.69315 + 0.51083 + 0.91629) / 4
    },
)


def accepts_booleans_and_rounds_the_sums(task: MLEBenchTask, tmp_path: Path) -> None:
    """True/False pass as 1/0; a row sum is checked after rounding to 6 decimals."""
    answers = write_csv(tmp_path / task.answers_file, CASE.answers)
    head = "id,winner_model_a,winner_model_b,winner_tie\n"
    flags = head + "30192,True,False,False\n53567,False,True,False\n65089,False,False,True\n"
    report = grade_file(task, tmp_path, answers, "flags.csv", flags, grading="mlebench")
    assert_score(report, 0.0)
    near = head + "30192,0.5,0.3,0.2\n53567,0.2,0.6,0.2\n65089,0.3,0.3,0.4000004\n"
    report = grade_file(task, tmp_path, answers, "near.csv", near, grading="mlebench")
    assert_score(report, 0.70675)
    off = near.replace("0.4000004", "0.400001")
    report = grade_file(task, tmp_path, answers, "off.csv", off, grading="mlebench")
    assert_invalid(report)


CASES: dict[str, Check] = {
    "grading": CASE,
    "requires-rows-summing-to-one": requires_rows_summing_to_one,
    "parity": PARITY,
    "accepts-booleans-and-rounds-the-sums": accepts_booleans_and_rounds_the_sums,
}
