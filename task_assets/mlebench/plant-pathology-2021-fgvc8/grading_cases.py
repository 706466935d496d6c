"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.families.mlebench.testing import Check, MLEBenchTask, WorseCase, assert_score, score

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


CASES: dict[str, Check] = {
    "grading": CASE,
    "ignores-labels-outside-the-answers": ignores_labels_outside_the_answers,
}
