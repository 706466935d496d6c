"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    ExactCase,
    ExactGrading,
    MLEBenchTask,
    ParityCase,
    load_folder_module,
)


def case_quest(task: MLEBenchTask) -> ExactCase:
    """The case for ``task`` (its target columns are the classes)."""
    from scipy.stats import spearmanr

    classes = list(task.submission.target_columns)
    rng = np.random.default_rng(1)
    truth = rng.choice([0.0, 1 / 3, 0.5, 2 / 3, 1.0], size=(8, len(classes)))
    truth[0], truth[1] = 0.0, 1.0  # no constant answer column
    ids = [39, 46, 70, 132, 200, 245, 251, 300]
    answers = pd.DataFrame(truth, columns=classes).assign(qa_id=ids)[["qa_id", *classes]]
    guess = rng.random(truth.shape)
    imperfect = pd.DataFrame(guess, columns=classes).assign(qa_id=ids)[["qa_id", *classes]]
    expected = float(np.mean([spearmanr(guess[:, j], truth[:, j]).correlation for j in range(30)]))
    constant = imperfect.copy()
    constant[classes[3]] = 0.5  # no Spearman correlation for a constant column
    return ExactCase(
        answers, answers.copy(), imperfect, expected, constant.to_csv(index=False), 1.0
    )


#: the 30 target columns (the folder's mlebench_grade.py)
CLASSES = list(
    load_folder_module(  # type: ignore[union-attr]
        Path(__file__).parent, "MLEBench", "google-quest-challenge", "mlebench_grade"
    ).CLASSES
)


def _parity_frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Answers: every column 0, .25, .5, .75, 1 over qa_id 39..200. Submission: the
    even-numbered columns ranked 1 3 2 4 5 (Spearman 1 - 6 * 2 / (5 * 24) = 0.9), the
    odd-numbered ones exact (1.0): mean 0.95."""
    ids = [39, 46, 70, 132, 200]
    truth = [0.0, 0.25, 0.5, 0.75, 1.0]
    swapped = [0.1, 0.3, 0.2, 0.4, 0.5]
    answers = pd.DataFrame({"qa_id": ids, **{c: truth for c in CLASSES}})
    submission = pd.DataFrame(
        {"qa_id": ids, **{c: swapped if j % 2 == 0 else truth for j, c in enumerate(CLASSES)}}
    )
    return answers, submission


PARITY_ANSWERS, PARITY_SUBMISSION = _parity_frames()

CASES: dict[str, Check] = {
    "grading": ExactGrading(case_quest, takes_task=True),
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=0.95,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "invalid",  # exactly 31 columns
            "index_column": "invalid",
            "float_ids": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            # ids are never compared: qa_id 39 -> 1200 sorts last, so the even columns
            # pair ranks 3 2 4 5 1 with 1..5 (1 - 6 * 22 / 120 = -0.1) and the odd ones
            # 2 3 4 5 1 (1 - 6 * 20 / 120 = 0): mean -0.05
            "unknown_id": -0.05,
            "blank_target": "invalid",  # NaN correlation
            "empty_file": "invalid",
            "header_only": "invalid",
            # qa_id 39 twice: even columns' ranks 1.5 1.5 3 4 5 6 against 1.5 1.5 4 3 5 6,
            # Pearson 16 / 17; odd columns 1: mean 33 / 34
            "duplicate_answer_keys": round(33 / 34, 5),
        },
    ),
}
