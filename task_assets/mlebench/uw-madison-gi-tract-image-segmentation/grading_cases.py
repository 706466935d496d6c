"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring.metrics import dice_hausdorff_combo
from mle_gym.families.mlebench.testing import (
    Check,
    KeyedRawCase,
    KeyedRawFormat,
    KeyedRawGrading,
    MLEBenchTask,
    ParityCase,
    assert_close,
    assert_invalid,
    assert_score,
    grade_frame,
    keyed_raw_files,
)

UW_HEIGHT, UW_WIDTH = 5, 6


UW_CLASSES = ["large_bowel", "small_bowel", "stomach"]


UW_TRUTH = {  # slice id -> the three organs' masks, run-length encoded (column-major)
    "case123_day20_slice_0001": ["", "8 3 14 2", ""],
    "case123_day20_slice_0002": ["1 2", "9 3 15 3", ""],
    "case7_day0_slice_0065": ["", "", ""],
    "case7_day0_slice_0066": ["", "", "20 4 26 3"],
}


UW_GUESS = {
    "case123_day20_slice_0001": ["", "8 3", ""],
    "case123_day20_slice_0002": ["", "9 3 15 3", "28 2"],
    "case7_day0_slice_0065": ["", "", ""],
    "case7_day0_slice_0066": ["", "", "21 3 26 4"],
}


def dense(rle: str) -> np.ndarray:
    """A column-major 1-based RLE decoded pixel by pixel."""
    flat = np.zeros(UW_HEIGHT * UW_WIDTH, dtype=bool)
    numbers = [int(v) for v in rle.split()]
    for start, length in zip(numbers[0::2], numbers[1::2], strict=True):
        flat[start - 1 : start - 1 + length] = True
    return flat.reshape((UW_WIDTH, UW_HEIGHT)).T


def hausdorff_like_mlebench(pred: np.ndarray, true: np.ndarray) -> float:
    from scipy.spatial.distance import directed_hausdorff

    if not pred.any() and not true.any():
        return math.nan
    if np.array_equal(pred, true):
        return 0.0
    if not pred.any() or not true.any() or pred.sum() > 10 * true.sum():
        return 1.0
    a = np.argwhere(true) / true.shape
    b = np.argwhere(pred) / true.shape
    return max(directed_hausdorff(a, b)[0], directed_hausdorff(b, a)[0]) / math.sqrt(3)


def uw_like_mlebench(truth: dict[str, list[str]], guess: dict[str, list[str]]) -> float:
    dices = []
    for slice_id in truth:
        for t, g in zip(truth[slice_id], guess[slice_id], strict=True):
            a, b = dense(t), dense(g)
            total = a.sum() + b.sum()
            dices.append(2 * (a & b).sum() / total if total else math.nan)
    distances = []
    for day in sorted({k.split("_slice_")[0] for k in truth}):
        ids = sorted(k for k in truth if k.startswith(day + "_slice_"))
        volume = [
            np.logical_or.reduce([dense(r) for r in masks[k]])
            for masks in (truth, guess)
            for k in ids
        ]
        true, pred = np.stack(volume[: len(ids)]), np.stack(volume[len(ids) :])
        distances.append(hausdorff_like_mlebench(pred, true))
    return 0.4 * float(np.nanmean(dices)) + 0.6 * (1 - float(np.nanmean(distances)))


def _uw_rows(masks: dict[str, list[str]]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": [k for k in masks for _ in UW_CLASSES],
            "class": UW_CLASSES * len(masks),
            "predicted": [rle for k in masks for rle in masks[k]],
        }
    )


def raw_case_uw() -> KeyedRawCase:
    # MLE-bench writes the sizes as floats (assigned row by row into a new column)
    answers = _uw_rows(UW_TRUTH).assign(image_width=float(UW_WIDTH), image_height=float(UW_HEIGHT))
    sample = _uw_rows(UW_TRUTH).assign(predicted="1 1 5 2")
    malformed = _uw_rows(UW_GUESS)
    malformed.loc[4, "predicted"] = "15 3 9 3"  # runs out of order
    return KeyedRawCase(
        answers,
        sample,
        _uw_rows(UW_GUESS),
        uw_like_mlebench(UW_TRUTH, UW_GUESS),
        malformed,
        "invalid run-length encoding",
        1.0,
        ("id", "class", "predicted"),
    )


def matches_the_library_combo_and_checks_masks(task: MLEBenchTask, tmp_path: Path) -> None:
    task, case, answers = keyed_raw_files(task, raw_case_uw, tmp_path)
    truth = [dense(r) for k in UW_TRUTH for r in UW_TRUTH[k]]
    guess = [dense(r) for k in UW_GUESS for r in UW_GUESS[k]]
    ids = [k for k in UW_TRUTH for _ in UW_CLASSES]
    assert_close(dice_hausdorff_combo(truth, guess, ids), case.expected, abs=1e-9)
    # a prediction more than ten times the true volume counts as Hausdorff distance 1
    flood = {**UW_TRUTH, "case7_day0_slice_0065": ["1 30", "", ""]}
    report = grade_frame(task, tmp_path, "flood", _uw_rows(flood), answers)
    assert_score(report, uw_like_mlebench(UW_TRUTH, flood), abs=1e-5)
    # pandas reads "nan" as missing, i.e. an empty mask, as MLE-bench does
    nan = _uw_rows(UW_TRUTH).replace({"predicted": {"": "nan"}})
    report = grade_frame(task, tmp_path, "nan", nan, answers)
    assert_score(report, 1.0)
    missing = _uw_rows(UW_TRUTH).iloc[:-1]
    report = grade_frame(task, tmp_path, "missing", missing, answers)
    assert_invalid(report, "case7_day0_slice_0066, class stomach")
    extra = pd.concat([_uw_rows(UW_TRUTH), _uw_rows(UW_TRUTH).iloc[[0]]])
    report = grade_frame(task, tmp_path, "extra", extra, answers)
    assert_invalid(report, "appears 2 time(s) instead of 1")


def parity_answers() -> pd.DataFrame:
    return _uw_rows(UW_TRUTH).assign(image_width=float(UW_WIDTH), image_height=float(UW_HEIGHT))


# MLE-bench pairs rows by position and drops surplus rows (zip): the as-is score is
# uw_like_mlebench's (rows in the answers' order); the first row repeated at the end is
# dropped; the last row (an organ of case7_day0 slice 66) missing leaves that organ out of
# the Dice mean and of the slice's volume. In reverse order each row's mask is compared
# with the opposite row's truth. ``class`` is never read (blanking it changes nothing); an
# unknown id in the first row (an empty mask) only adds an unpaired case-day. The scores of
# the reversed and the shortened submission are MLE-bench's own (its code run on them).
PARITY = ParityCase(
    parity_answers,
    lambda: _uw_rows(UW_GUESS),
    score=round(uw_like_mlebench(UW_TRUTH, UW_GUESS), 5),
    expected={
        "shuffled_rows": 0.44248,
        "reordered_columns": "same",
        "extra_column": "same",
        "index_column": "same",
        "missing_id": 0.38482,  # case7_day0's predicted volume is then empty: distance 1
        "duplicate_id": "same",
        "unknown_id": "same",
        "blank_target": "same",
        "empty_file": "invalid",
        "header_only": "invalid",
        "duplicate_answer_keys": "same",
    },
)

CASES: dict[str, Check] = {
    "grading": KeyedRawGrading(raw_case_uw),
    "format": KeyedRawFormat(raw_case_uw),
    "matches-the-library-combo-and-checks-masks": matches_the_library_combo_and_checks_masks,
    "parity": PARITY,
}
