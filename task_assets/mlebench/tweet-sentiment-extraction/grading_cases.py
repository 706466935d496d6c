"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.families.mlebench.testing import (
    Check,
    MLEBenchTask,
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
    "with-an-empty-reference": with_an_empty_reference,
}
