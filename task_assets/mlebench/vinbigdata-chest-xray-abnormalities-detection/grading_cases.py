"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

CASE = WorseCase(
    answers={  # gold_submission.csv: the true boxes with confidence 1.0
        "image_id": ["004f33259ee4", "008b3176a7248a0a", "00a2145de1886cb9"],
        "PredictionString": [
            "14 1.0 0.0 0.0 1.0 1.0",
            "0 1.0 1223.0 582.0 1470.0 859.0 3 1.0 691.0 1375.0 1653.0 1831.0",
            "14 1.0 0.0 0.0 1.0 1.0",
        ],
    },
    imperfect={
        "image_id": ["004f33259ee4", "008b3176a7248a0a", "00a2145de1886cb9"],
        "PredictionString": [
            "14 0.9 0 0 1 1",
            "0 0.8 1223 582 1470 859 3 0.7 100 100 300 300",
            "14 0.6 0 0 1 1",
        ],
    },
    malformed={
        "image_id": ["004f33259ee4", "008b3176a7248a0a", "00a2145de1886cb9"],
        "PredictionString": ["14 0.9 0 0 1", "14 1 0 0 1 1", "14 1 0 0 1 1"],
    },
    # pycocotools (as MLE-bench calls it) never counts the first true box (id 0)
    # as matched: class 14 keeps half its recall, (25.5 / 101 + 1 + 1) / 3.
    best=(25.5 / 101 + 2) / 3,
)


# MLE-bench's grading (mlebench_grade.py). True boxes get ids 0..4 (a: 0 class 0, 1 class 3;
# b: 2 class 14; c: 3 class 0, 4 class 3), predicted boxes 0..5 in file order. Boxes are
# read as x, y, width, height, identically on both sides, so equal boxes have IoU 1.
PARITY_ANSWERS = pd.DataFrame(
    {
        "image_id": ["0a1b2c3d4e5f", "1b2c3d4e5f6a", "2c3d4e5f6a7b"],
        "PredictionString": [
            "0 1.0 10.0 10.0 50.0 50.0 3 1.0 100.0 100.0 200.0 200.0",
            "14 1.0 0.0 0.0 1.0 1.0",
            "0 1.0 20.0 20.0 60.0 60.0 3 1.0 400.0 400.0 30.0 30.0",
        ],
    }
)
PARITY_SUBMISSION = pd.DataFrame(
    {
        "image_id": ["0a1b2c3d4e5f", "1b2c3d4e5f6a", "2c3d4e5f6a7b"],
        "PredictionString": [
            "3 0.8 100 100 200 200 3 0.4 100 100 200 200 0 0.9 10 10 50 50",
            "14 0.7 0 0 1 1",
            "0 0.6 20 20 60 60 0 0.5 300 300 10 10",
        ],
    }
)
# As is: class 0 -- the 0.9 box hits true box 0, which never counts (id 0), the 0.6 box
# hits box 3, the 0.5 box misses: precision 0, 1/2, 1/3 at recall 0, 1/2, 1/2, envelope
# 1/2 at the 51 recall levels up to 0.5, so 25.5 / 101. Class 3 -- the 0.8 box is
# predicted box 0, so its true box stays free and the 0.4 duplicate hits it again:
# recall 1/2 then 1 at precision 1, so 1 at all 101 levels. Class 14: 1. Mean over the
# 3 x 101 levels: (25.5 + 101 + 101) / 303 (class 14's precision is 1/(1 + eps)).
PARITY_SCORE = round(227.5 / 303, 5)
# Rows reversed: class 3's first box no longer has id 0, so the duplicate is a false
# positive: precision 1 up to recall 1/2 only, (25.5 + 51 + 101) / 303.
SHUFFLED_SCORE = round(177.5 / 303, 5)
# First row repeated: class 3 as is (101); class 0's two 0.9 boxes are both false
# positives before the hit at 0.6: envelope 1/3 up to recall 1/2, (17 + 101 + 101) / 303.
DUPLICATE_ROW_SCORE = round(219 / 303, 5)
# Image a twice in the answers (its true boxes 0, 1 again as 2, 3) and in the submission.
# Class 3: the 0.8 box (id 0) takes the later of two equal true boxes without using it
# up, the second 0.8 box takes it, a 0.4 box the other one: recall 1/3, 2/3, 1 at
# precision 1, so 101. Class 0: a 0.9 box hits true box 2, the other 0.9 box finds only
# box 0 free (never a hit), the 0.6 box hits: precision 1 to recall 1/3 (34 levels),
# 2/3 to recall 2/3 (33 levels). (101 + 34 + 22 + 101) / 303.
DUPLICATE_KEYS_SCORE = round(258 / 303, 5)


def mlebench_answers(ours: Path, folder: Path) -> Path:
    """MLE-bench's answers file (one row per true box: image_id, class_name, class_id,
    rad_id, x_min, y_min, x_max, y_max) from ours (gold_submission.csv: per image, the
    boxes as ``class 1.0 x_min y_min x_max y_max`` groups), for the parity script."""
    gold = pd.read_csv(ours, dtype=str, keep_default_na=False)
    boxes = []
    for image, cell in zip(gold["image_id"], gold["PredictionString"], strict=True):
        tokens = cell.split()
        for at in range(0, len(tokens), 6):
            cls = int(float(tokens[at]))
            x0, y0, x1, y1 = (float(t) for t in tokens[at + 2 : at + 6])
            boxes.append((image, f"class {cls}", cls, "R1", x0, y0, x1, y1))
    columns = ["image_id", "class_name", "class_id", "rad_id", "x_min", "y_min", "x_max", "y_max"]
    out = folder / "answers.csv"
    pd.DataFrame(boxes, columns=columns).to_csv(out, index=False)
    return out


CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=PARITY_SCORE,
        mlebench_answers=mlebench_answers,
        expected={
            "shuffled_rows": SHUFFLED_SCORE,
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": DUPLICATE_ROW_SCORE,
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": DUPLICATE_KEYS_SCORE,
        },
    ),
}
