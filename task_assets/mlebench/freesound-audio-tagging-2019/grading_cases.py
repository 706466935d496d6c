"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from collections.abc import Mapping
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


def case_freesound(task: MLEBenchTask) -> ExactCase:
    """The case for ``task`` (its target columns are the classes)."""
    from sklearn.metrics import label_ranking_average_precision_score

    classes = list(task.submission.target_columns)
    rng = np.random.default_rng(0)
    truth = np.zeros((5, len(classes)), dtype=int)
    truth[0, [1, 5]] = 1
    truth[1, 7] = 1
    truth[2, [0, 2, 79]] = 1
    truth[3, 40] = 1  # row 4 has no label: skipped by the metric
    ids = [f"{i:08x}.wav" for i in range(5)]
    answers = pd.DataFrame(truth, columns=classes).assign(fname=ids)[["fname", *classes]]
    scores = rng.random(truth.shape).round(3)
    imperfect = pd.DataFrame(scores, columns=classes).assign(fname=ids)[["fname", *classes]]
    keep = truth.sum(axis=1) > 0
    expected = label_ranking_average_precision_score(
        truth[keep] > 0, scores[keep], sample_weight=truth[keep].sum(axis=1)
    )
    broken = imperfect.astype(object)
    broken.iloc[2, 5] = "nan"
    return ExactCase(answers, answers.copy(), imperfect, expected, broken.to_csv(index=False), 1.0)


CLIPS = [f"{i:08x}.wav" for i in (3, 10, 17, 99, 200)]


def _frame(rows: Mapping[int, Mapping[int, float]], classes: list[str]) -> pd.DataFrame:
    """``fname`` and every class column; row ``i`` gets ``rows[i]`` (class index -> value)."""
    values = np.zeros((len(CLIPS), len(classes)))
    for row, cells in rows.items():
        for column, value in cells.items():
            values[row, column] = value
    frame = pd.DataFrame(values, columns=classes)
    frame.insert(0, "fname", CLIPS)
    return frame


#: the vocabulary, in the sample submission's order (the folder's mlebench_grade.py)
VOCABULARY = list(
    load_folder_module(  # type: ignore[union-attr]
        Path(__file__).parent, "MLEBench", "freesound-audio-tagging-2019", "mlebench_grade"
    ).CLASS_NAMES
)


def parity_answers() -> pd.DataFrame:
    # clip 3 has no label (the metric skips it)
    labels = {0: {1: 1, 5: 1}, 1: {7: 1}, 2: {0: 1, 2: 1, 79: 1}, 4: {40: 1}}
    return _frame(labels, VOCABULARY).astype({c: int for c in VOCABULARY})


def parity_submission() -> pd.DataFrame:
    # clip 0: class 1 first (precision 1/1), class 5 third behind class 2 (2/3); clip 1:
    # class 7 second behind class 0 (1/2); clip 2: classes 0 and 2 first and second
    # (1/1, 2/2), class 79 fourth behind class 3 (3/4); clip 4: class 40 first (1/1).
    # lwlrap: the mean over the 7 (clip, label) pairs: (1 + 2/3 + 1/2 + 1 + 1 + 3/4 + 1) / 7
    scores = {
        0: {1: 0.9, 5: 0.3, 2: 0.5},
        1: {7: 0.2, 0: 0.8},
        2: {0: 0.7, 2: 0.6, 79: 0.1, 3: 0.4},
        3: {9: 0.5},
        4: {40: 1.0},
    }
    return _frame(scores, VOCABULARY)


PAIRS = [1, 2 / 3, 1 / 2, 1, 1, 3 / 4, 1]

CASES: dict[str, Check] = {
    "grading": ExactGrading(case_freesound, takes_task=True),
    "parity": ParityCase(
        parity_answers,
        parity_submission,
        score=round(sum(PAIRS) / 7, 5),
        expected={
            "shuffled_rows": "same",
            # the header must be fname and the classes in the vocabulary's order
            "reordered_columns": "invalid",
            "extra_column": "invalid",
            "index_column": "invalid",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # clip 0 twice adds its two pairs again
            "duplicate_answer_keys": round((sum(PAIRS) + 1 + 2 / 3) / 9, 5),
        },
    ),
}
