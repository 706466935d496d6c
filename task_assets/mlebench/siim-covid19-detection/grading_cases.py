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
    grade_file,
    write_csv,
)

CASE = WorseCase(
    answers={
        "id": [
            "00188a671292_study",
            "004bd59708be_study",
            "000a312787f2_image",
            "000c3a3f293f_image",
        ],
        "PredictionString": [
            "typical 1 0 0 1 1",
            "negative 1 0 0 1 1",
            "opacity 1 789.28836 582.43035 1815.94498 2499.73327",
            "none 1 0 0 1 1",
        ],
    },
    imperfect={
        "id": [
            "00188a671292_study",
            "004bd59708be_study",
            "000a312787f2_image",
            "000c3a3f293f_image",
        ],
        "PredictionString": [
            "negative 0.6 0 0 1 1 typical 0.4 0 0 1 1",
            "negative 0.9 0 0 1 1",
            "opacity 0.8 700 500 1500 2000",
            "none 0.7 0 0 1 1",
        ],
    },
    malformed={
        "id": [
            "00188a671292_study",
            "004bd59708be_study",
            "000a312787f2_image",
            "000c3a3f293f_image",
        ],
        "PredictionString": [
            "typical 1 0 0 1",
            "negative 1 0 0 1 1",
            "none 1 0 0 1 1",
            "none 1 0 0 1 1",
        ],
    },
    best=1.0,
)


IDS = ["00188a671292_study", "004bd59708be_study", "000a312787f2_image", "000c3a3f293f_image"]
ANSWERS = pd.DataFrame(
    {
        "id": IDS,
        "PredictionString": [
            "typical 1 0 0 1 1",
            "negative 1 0 0 1 1",
            "opacity 1 10 10 20 20",
            "none 1 0 0 1 1",
        ],
    }
)
# Pairs (is a true box, confidence) per class, over the rows in id order:
# negative: (0, .6) from the first study, (1, .3), (0, 0), (0, 0): AP = 1/2 at recall 1
# typical: (1, .4) and three (0, 0): AP 1; none: (1, .7): AP 1
# opacity: the 0.8 box has IoU 64/136 < 0.5 (false), the 0.5 box 81/119 (true), (0, .3) on
#   the "none" image: ranked 0, 1, 0: AP 1/2.  mAP = (1/2 + 1 + 1 + 1/2) / 4 = 0.75
SUBMISSION = ANSWERS.assign(
    PredictionString=[
        "negative 0.6 0 0 1 1 typical 0.4 0 0 1 1",
        "negative 0.3 0 0 1 1",
        "opacity 0.8 12 12 22 22 opacity 0.5 11 11 21 21",
        "none 0.7 0 0 1 1 opacity 0.3 0 0 5 5",
    ]
)


def accepts_nan_boxes(task: MLEBenchTask, tmp_path: Path) -> None:
    """A NaN coordinate passes float() and gives IoU 0 (a false positive); strict grading
    rejects it."""
    answers = write_csv(tmp_path / task.answers_file, ANSWERS)
    nan_box = SUBMISSION.assign(
        PredictionString=SUBMISSION["PredictionString"].str.replace("0.5 11 11", "0.5 nan 11")
    )
    # opacity: (0, .8), (0, .5), (1, 0) on the image, (0, .3), (0, 0) twice: AP 1/6
    report = grade_file(task, tmp_path, answers, "nan.csv", nan_box, grading="mlebench")
    assert_score(report, (0.5 + 1 + 1 / 6 + 1) / 4, abs=1e-5)


CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.75,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",  # NaN has no .strip()
            "empty_file": "invalid",
            "header_only": "invalid",
            # the first study twice: negative AP 1/3, (1/3 + 1 + 1 + 1/2) / 4
            "duplicate_answer_keys": 0.70833,
        },
    ),
    "accepts-nan-boxes": accepts_nan_boxes,
}
