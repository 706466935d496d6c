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
    assert_invalid,
    assert_score,
    dense_mask,
    score,
)


def case_hubmap() -> ExactCase:
    ids = ["aa05346ff", "afa5e8098", "b2dc8411c"]
    truth = ["3 4 20 5", "", "50 10"]
    answers = pd.DataFrame({"id": ids, "predicted": truth})
    guesses = ["3 2 19 3 40 2", "", "NA"]  # image 2 empty in both (Dice 1), NA = empty mask
    imperfect = answers.assign(predicted=guesses)
    dices = []
    for a, b in zip(truth, ["3 2 19 3 40 2", "", ""], strict=True):
        t, p = dense_mask(a, 10, 10), dense_mask(b, 10, 10)
        total = t.sum() + p.sum()
        dices.append(1.0 if total == 0 else 2 * (t & p).sum() / total)
    malformed = "id,predicted\naa05346ff,1 5 3 2\nafa5e8098,\nb2dc8411c,\n"  # overlapping runs
    return ExactCase(answers, answers.copy(), imperfect, float(np.mean(dices)), malformed, 1.0)


# Answers as MLE-bench's private test.csv has them (encoding and the image sizes), plus
# the same encodings as `predicted`, the column of this task's answers file
# (MLE-bench's gold_submission.csv). Pixels are numbered from 1, down then right.
PARITY_ANSWERS = pd.DataFrame(
    {
        "id": ["4a0b1c2d3", "5e6f7a8b9", "6c7d8e9f0"],
        "encoding": ["3 4 20 5", "18 5", "1 18"],
        "width_pixels": [10, 5, 3],
        "height_pixels": [10, 4, 6],
    }
).assign(predicted=lambda frame: frame["encoding"])
# image 1 (100 pixels): truth 3-6 and 20-24 (9), prediction 3-4, 19-21, 40-41 (7), in
# common 3-4, 20-21 (4): Dice 8/16; image 2 (20 pixels): the true run 18-22 is cut to
# 18-20 (3), prediction 16-18 (3), in common 18: Dice 2/6; image 3: all 18 pixels true,
# nothing predicted: Dice 0. Mean (1/2 + 1/3 + 0) / 3
PARITY_SUBMISSION = pd.DataFrame(
    {"id": PARITY_ANSWERS["id"], "predicted": ["3 2 19 3 40 2", "16 3", None]}
)
# numpy's reading of odd-length encodings and of runs past the end: image 1 "3 2 19"
# gives both starts the length 2 (3-4, 19-20: 3 pixels in common of 4 + 9: Dice 6/13);
# image 2 "16" alone is no run (Dice 0); image 3 "5 100" is cut to pixels 5-18 (14 of
# the 18 true ones: Dice 28/32)
ODD_SUBMISSION = PARITY_SUBMISSION.assign(predicted=["3 2 19", "16", "5 100"])
EXPECTED = {
    "shuffled_rows": "same",
    "reordered_columns": "same",
    "extra_column": "same",
    "index_column": "same",
    "missing_id": "invalid",
    "duplicate_id": "invalid",
    "unknown_id": "invalid",
    "blank_target": "scored",
    "empty_file": "invalid",
    "header_only": "invalid",
    "duplicate_answer_keys": "scored",
}


def real_images_sizes_from_the_table(task: MLEBenchTask, tmp_path: Path) -> None:
    """This task's answers (id, predicted) carry no sizes: those of Kaggle's images cut
    the runs at the image's end as MLE-bench's decoding does."""
    answers = {
        # aaa6a05cc has 18484 x 13013 = 240,532,292 pixels; b2dc8411c 14844 x 31262
        "id": ["aaa6a05cc", "b2dc8411c"],
        "predicted": ["240532290 10", "1 4"],
    }
    # image 1: truth cut to 240532290-240532292 (3), prediction to 240532291-240532292
    # (2), both in common: Dice 4/5; image 2 exact: Dice 1
    submission = {"id": answers["id"], "predicted": ["240532291 5", "1 4"]}
    assert_score(score(task, tmp_path, answers, submission, grading="mlebench"), 0.9)
    # an overlap past the end is not seen (both runs are cut to nothing)
    beyond = {"id": answers["id"], "predicted": ["240532300 5 240532301 5", "1 4"]}
    assert_score(score(task, tmp_path, answers, beyond, grading="mlebench"), 0.5)
    unknown = {"id": ["0000aaaa1", "b2dc8411c"], "predicted": ["1 2", "1 4"]}
    report = score(task, tmp_path, unknown, unknown, grading="mlebench")
    assert_invalid(report, "fails")


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_hubmap),
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round((1 / 2 + 1 / 3 + 0) / 3, 5),
        expected={
            **EXPECTED,
            # image 1 blank: (0 + 1/3 + 0) / 3
            "blank_target": round(1 / 9, 5),
            # image 1 twice: (1/2 + 1/2 + 1/3 + 0) / 4
            "duplicate_answer_keys": round((1 + 1 / 3) / 4, 5),
        },
        # strict grading reads a blank as an empty mask too, but does not cut image 2's
        # true run at the image's end (Dice 2/8): (0 + 1/4 + 0) / 3
        strict={"blank_target": round(1 / 12, 5)},
    ),
    "parity-odd-encodings": ParityCase(
        PARITY_ANSWERS,
        ODD_SUBMISSION,
        score=round((6 / 13 + 0 + 28 / 32) / 3, 5),
        expected=EXPECTED,
        # strict grading wants start/length pairs
        strict={
            "as_is": "invalid",
            "shuffled_rows": "invalid",
            "reordered_columns": "invalid",
            "duplicate_answer_keys": "invalid",
        },
    ),
    "real-images-sizes-from-the-table": real_images_sizes_from_the_table,
}
