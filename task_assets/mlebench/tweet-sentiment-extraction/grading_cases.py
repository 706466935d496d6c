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
    score,
)

CASE = WorseCase(
    answers={
        "textID": ["f87dea47db", "96d74cb729", "eee518ae67"],
        "text": ["Last session of the day, happy bday!", "so sad today", "what a day"],
        "selected_text": ["happy bday!", "so sad", "what a day"],
        "sentiment": ["positive", "negative", "neutral"],
    },
    imperfect={
        "textID": ["f87dea47db", "96d74cb729", "eee518ae67"],
        "selected_text": ["Happy BDAY! today", "sad", "what a day"],
    },
    malformed={"textID": ["f87dea47db", "96d74cb729", "eee518ae67"], "text": ["a", "b", "c"]},
    best=1.0,
)


def with_an_empty_reference(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    answers = {**case.answers, "selected_text": ["happy bday!", "so sad", ""]}
    ids = case.answers["textID"]
    blank = score(
        task,
        tmp_path,
        answers,
        {"textID": ids, "selected_text": ["happy bday!", "so sad", ""]},
    )
    assert_invalid(blank, "non-empty")
    guessed = score(
        task,
        tmp_path,
        answers,
        {"textID": ids, "selected_text": ["happy bday!", "so sad", "what"]},
    )
    assert_score(guessed, 2 / 3, abs=1e-5)


CASES: dict[str, Check] = {
    "grading": CASE,
    # word sets: {happy, bday!, today} vs {happy, bday!}: 2/3; {sad} vs {so, sad}: 1/2;
    # the third exact: 1; mean 13/18. A blank first prediction scores 0 there: 1.5/3. The
    # first tweet twice: (2/3 + 2/3 + 1/2 + 1)/4 = 17/24.
    "parity": ParityCase(
        pd.DataFrame(CASE.answers),
        pd.DataFrame(CASE.imperfect),
        score=round(13 / 18, 5),
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": 0.5,
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": round(17 / 24, 5),
        },
        strict={"blank_target": 0.5},
    ),
    "with-an-empty-reference": with_an_empty_reference,
}
