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
    MLEBenchTask,
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


CASES: dict[str, Check] = {
    "grading": RawGrading(raw_case_hms),
    "format": RawFormat(raw_case_hms),
    "pairs-repeated-eeg-ids-in-file-order": pairs_repeated_eeg_ids_in_file_order,
}
