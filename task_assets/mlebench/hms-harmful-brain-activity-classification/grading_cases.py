"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    MLEBenchTask,
    ParityCase,
    RawCase,
    RawFormat,
    RawGrading,
    assert_invalid,
    assert_score,
    grade_file,
    raw_files,
)

HMS_VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]


def raw_case_hms() -> RawCase:
    from scipy.special import rel_entr

    eeg = [568657, 568657, 582999, 642382, 642382, 642382]
    votes = np.array(
        [
            [0, 0, 3, 0, 0, 0],
            [0, 0, 1, 0, 0, 2],
            [1, 0, 0, 0, 0, 13],
            [0, 0, 0, 0, 0, 1],
            [0, 3, 0, 0, 0, 0],
            [0, 1, 0, 1, 0, 0],
        ]
    )
    answers = pd.DataFrame(  # MLE-bench's private test.csv: the 15 columns of train.csv
        {
            "eeg_id": eeg,
            "eeg_sub_id": [0, 1, 0, 0, 1, 2],
            "eeg_label_offset_seconds": [0.0, 6.0, 0.0, 0.0, 8.0, 12.0],
            "spectrogram_id": [789577333, 789577333, 1552638400, 14960202, 14960202, 14960202],
            "spectrogram_sub_id": [0, 1, 0, 0, 1, 2],
            "spectrogram_label_offset_seconds": [0.0, 6.0, 0.0, 1008.0, 1016.0, 1020.0],
            "label_id": [1628180742, 142182171, 3811445599, 2875932463, 3066287262, 1447271428],
            "patient_id": [42516, 42516, 30539, 56885, 56885, 56885],
            "expert_consensus": ["GPD", "Other", "Other", "Other", "LPD", "LPD"],
            **{name: votes[:, k] for k, name in enumerate(HMS_VOTES)},
        }
    )
    shares = votes / votes.sum(axis=1, keepdims=True)
    perfect = pd.DataFrame({"eeg_id": eeg, **dict(zip(HMS_VOTES, shares.T, strict=True))})
    sample = perfect.assign(**dict.fromkeys(HMS_VOTES, 1 / 6))
    # half the vote shares, half uniform; the two rows of eeg 568657 exchanged
    guess = (0.5 * shares + 0.5 / 6)[[1, 0, 2, 3, 4, 5]]
    imperfect = pd.DataFrame({"eeg_id": eeg, **dict(zip(HMS_VOTES, guess.T, strict=True))})
    expected = float(np.mean(rel_entr(shares, np.clip(guess, 1e-15, 1 - 1e-15)).sum(axis=1)))
    malformed = sample.copy()
    malformed.loc[2, "other_vote"] = 0.5
    return RawCase(
        answers,
        sample,
        perfect,
        imperfect,
        expected,
        malformed.to_csv(index=False),
        "must add up to 1",
        0.0,
    )


def pairs_repeated_eeg_ids_in_file_order(task: MLEBenchTask, tmp_path: Path) -> None:
    from scipy.special import rel_entr

    task, case, answers = raw_files(task, raw_case_hms, tmp_path)
    # whole eeg_id blocks moved around, rows of one eeg_id in order: still perfect
    moved = case.perfect.iloc[[3, 4, 2, 0, 5, 1]]
    report = grade_file(task, tmp_path, answers, "moved.csv", moved)
    assert_score(report, 0.0, abs=1e-9)
    # the answers' vote counts are turned into shares: a one-hot guess of row 1 costs log(3)
    guess = case.perfect.copy()
    guess.loc[0, HMS_VOTES] = [0, 0, 1, 0, 0, 0]
    guess.loc[1, HMS_VOTES] = [0, 0, 0, 0, 0, 1]
    report = grade_file(task, tmp_path, answers, "onehot.csv", guess)
    shares = np.array([1 / 3, 2 / 3])
    cost = float(rel_entr(shares, [1e-15, 1 - 1e-15]).sum()) / 6
    assert_score(report, cost, abs=1e-5)
    # as many rows as the sample, but 642382 once too often and 568657 once too rarely
    counts = case.perfect.copy()
    counts.loc[1, "eeg_id"] = 642382
    report = grade_file(task, tmp_path, answers, "counts.csv", counts)
    assert_invalid(report, "instead of")
    short = grade_file(task, tmp_path, answers, "short.csv", case.perfect.iloc[:5])
    assert_invalid(short, "5 rows but 6")
    negative = case.sample.copy()
    negative.loc[0, ["seizure_vote", "lpd_vote"]] = [-0.1, 0.1 + 1 / 6]
    report = grade_file(task, tmp_path, answers, "negative.csv", negative)
    assert_invalid(report, "[0, 1]")


def _parity_submission() -> pd.DataFrame:
    """One probability row per eeg_id (the same for its repeated rows, so that any pairing
    of those rows gives the same score)."""
    rows = {
        568657: [0, 0, 0.5, 0, 0, 0.5],
        582999: [0.25, 0, 0, 0, 0, 0.75],
        642382: [0, 0.5, 0, 0.25, 0, 0.25],
    }
    eeg = [568657, 568657, 582999, 642382, 642382, 642382]
    table = np.array([rows[e] for e in eeg], dtype=float)
    return pd.DataFrame({"eeg_id": eeg, **dict(zip(HMS_VOTES, table.T, strict=True))})


# sum of q * log(q / p) over the classes with a share q > 0, per answers row:
#   568657: gpd 1 vs 0.5 | gpd 1/3 vs 0.5, other 2/3 vs 0.5
#   582999: seizure 1/14 vs 0.25, other 13/14 vs 0.75
#   642382: other 1 vs 0.25 | lpd 1 vs 0.5 | lpd 1/2 vs 0.5, lrda 1/2 vs 0.25
_ROW_KL = [
    math.log(2),
    math.log(2 / 3) / 3 + 2 * math.log(4 / 3) / 3,
    math.log(2 / 7) / 14 + 13 * math.log(26 / 21) / 14,
    math.log(4),
    math.log(2),
    math.log(2) / 2,
]
# the first answers row twice (and the submission's first row twice)
_PARITY_DUPLICATE = round((sum(_ROW_KL) + _ROW_KL[0]) / 7, 5)


def pairs_rows_of_the_answers_order(task: MLEBenchTask, tmp_path: Path) -> None:
    """Rows of a repeated eeg_id are paired as pandas' unstable sort leaves them: a
    submission in the answers' row order (the same eeg_id sequence) is paired row by row."""
    from scipy.special import rel_entr

    case = raw_case_hms()
    answers = tmp_path / task.answers_file
    case.answers.to_csv(answers, index=False)
    report = grade_file(task, tmp_path, answers, "s.csv", case.imperfect, grading="mlebench")
    guess = case.imperfect[HMS_VOTES].to_numpy()
    shares = case.answers[HMS_VOTES].to_numpy()
    shares = shares / shares.sum(axis=1, keepdims=True)
    expected = float(np.mean(rel_entr(shares, np.clip(guess, 1e-15, 1 - 1e-15)).sum(axis=1)))
    assert_score(report, round(expected, 5), abs=1e-9)


def blanks_and_zero_columns(task: MLEBenchTask, tmp_path: Path) -> None:
    """A blank probability contributes nothing, even where the true share is 1; an extra
    column of zeros passes Kaggle's checks and is ignored."""
    answers = tmp_path / task.answers_file
    raw_case_hms().answers.to_csv(answers, index=False)
    blank = _parity_submission().astype({"gpd_vote": object})
    blank.loc[0, ["gpd_vote", "other_vote"]] = [None, 1.0]  # row 0: gpd share 1 (log 2 before)
    report = grade_file(task, tmp_path, answers, "blank.csv", blank, grading="mlebench")
    assert_score(report, round((sum(_ROW_KL) - _ROW_KL[0]) / 6, 5), abs=1e-9)
    zeros = _parity_submission().assign(extra=0)
    report = grade_file(task, tmp_path, answers, "zeros.csv", zeros, grading="mlebench")
    assert_score(report, round(sum(_ROW_KL) / 6, 5), abs=1e-9)


CASES: dict[str, Check] = {
    "grading": RawGrading(raw_case_hms),
    # the extra column (1) and the written index (0..5) are taken for probabilities by
    # Kaggle's metric: rows then add up to more than 1. A blank seizure_vote on the first
    # row is skipped by the row sums and sits where the true share is 0: harmless.
    "parity": ParityCase(
        lambda: raw_case_hms().answers,
        _parity_submission,
        score=round(sum(_ROW_KL) / 6, 5),
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "invalid",
            "index_column": "invalid",
            "float_ids": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "same",
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": _PARITY_DUPLICATE,
        },
        strict={"float_ids": "same"},
    ),
    "pairs-rows-of-the-answers-order": pairs_rows_of_the_answers_order,
    "blanks-and-zero-columns": blanks_and_zero_columns,
    "format": RawFormat(raw_case_hms),
    "pairs-repeated-eeg-ids-in-file-order": pairs_repeated_eeg_ids_in_file_order,
}
