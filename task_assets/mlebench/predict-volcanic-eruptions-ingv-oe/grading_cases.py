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
    expect,
    score,
)

CASE = WorseCase(
    answers={"segment_id": [1000213997, 1000015382], "time_to_eruption": [24500000, 11250000]},
    imperfect={
        "segment_id": [1000213997, 1000015382],
        "time_to_eruption": [24500123.4, 11249000],
    },
    malformed={"segment_id": [1000213997, 1000015382], "time_to_eruption": ["soon", 0]},
    best=0.0,
)


def mae_is_rounded(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    report = score(task, tmp_path, case.answers, case.imperfect)
    expect(report.score == 562.0, f"score {report.score} is not 562.0")  # mean(123.4, 1000)


ANSWERS = pd.DataFrame(
    {
        "segment_id": [1000213997, 1000015382, 1003520023],
        "time_to_eruption": [24500000, 11250000, 30000000],
    }
)
SUBMISSION = pd.DataFrame(
    {
        "segment_id": [1000213997, 1000015382, 1003520023],
        "time_to_eruption": [24500300.0, 11249000.0, 30000000.5],
    }
)
# (300 + 1000 + 0.5) / 3 = 433.5, rounded half to even: 434

CASES: dict[str, Check] = {
    "grading": CASE,
    "mae-is-rounded": mae_is_rounded,
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=434.0,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "float_ids": "same",
            "missing_id": "invalid",
            # the first segment is joined twice: (2 * 300 + 1000 + 0.5) / 4 = 400.125
            "duplicate_id": 400.0,
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # two answers rows and two submission rows of the first segment join into
            # four: (4 * 300 + 1000 + 0.5) / 6 = 366.75
            "duplicate_answer_keys": 367.0,
        },
    ),
    # 2.5 rounds to 2 (half to even), 3.5 to 4
    "parity-half-even": ParityCase(
        ANSWERS.iloc[:2],
        pd.DataFrame(
            {"segment_id": [1000213997, 1000015382], "time_to_eruption": [24500002, 11250003]}
        ),
        score=2.0,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "float_ids": "same",
            "missing_id": "invalid",
            "duplicate_id": 2.0,  # (2 + 2 + 3) / 3
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 2.0,  # (4 * 2 + 3) / 5 = 2.2
        },
    ),
}
