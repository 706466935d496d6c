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
    assert_score,
    score,
)

CASE = WorseCase(
    answers={
        "image": ["85f8cb619c66b863.jpg", "ad8770db05586b59.jpg", "c7b03e718489f3ca.jpg"],
        "labels": ["scab", "frog_eye_leaf_spot complex", "healthy"],
    },
    imperfect={
        "image": ["85f8cb619c66b863.jpg", "ad8770db05586b59.jpg", "c7b03e718489f3ca.jpg"],
        "labels": ["scab rust", "complex", ""],
    },
    malformed={
        "image": ["85f8cb619c66b863.jpg", "ad8770db05586b59.jpg", "c7b03e718489f3ca.jpg"],
        "label": ["scab", "complex", "healthy"],
    },
    best=1.0,
)


def ignores_labels_outside_the_answers(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    submission = {
        "image": case.answers["image"],
        "labels": ["scab rust scab", "frog_eye_leaf_spot complex", "healthy"],
    }
    report = score(task, tmp_path, case.answers, submission)
    assert_score(report, 1.0)


PARITY_ANSWERS = pd.DataFrame(
    {
        "image": ["a1.jpg", "b2.jpg", "c3.jpg", "d4.jpg"],
        "labels": ["scab", "frog_eye_leaf_spot complex", "healthy", "rust"],
    }
)
# a1: scab found, rust extra (1 tp, 1 fp); b2: complex found, frog_eye_leaf_spot missed
# (1 tp, 1 fn); c3: 1 tp; d4: powdery_mildew is not in the answers' vocabulary, dropped
# (1 fn). tp=3, fp=1, fn=2: F1 = 6 / (6 + 1 + 2) = 2/3
PARITY_SUBMISSION = pd.DataFrame(
    {
        "image": ["a1.jpg", "b2.jpg", "c3.jpg", "d4.jpg"],
        "labels": ["scab rust", "complex", "healthy", "powdery_mildew"],
    }
)

CASES: dict[str, Check] = {
    "grading": CASE,
    "ignores-labels-outside-the-answers": ignores_labels_outside_the_answers,
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round(2 / 3, 5),
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            # a1 blank: no labels, 1 fn; tp=2, fp=0, fn=3: F1 = 4 / 7
            "blank_target": round(4 / 7, 5),
            "empty_file": "invalid",
            "header_only": "invalid",
            # a1 twice: tp=4, fp=2, fn=2: F1 = 8 / 12, unchanged
            "duplicate_answer_keys": "same",
        },
        strict={"blank_target": round(4 / 7, 5)},
    ),
}
