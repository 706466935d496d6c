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
    ParityCase,
    RawCase,
    RawFormat,
    RawGrading,
    RawSampleScore,
    assert_close,
    assert_invalid,
    assert_score,
    grade_file,
    raw_files,
)

JIGSAW_IDENTITIES = [
    "male",
    "female",
    "homosexual_gay_or_lesbian",
    "christian",
    "jewish",
    "muslim",
    "black",
    "white",
    "psychiatric_or_mental_illness",
]


def jigsaw_like_mlebench(answers: pd.DataFrame, predictions: np.ndarray) -> float:
    """MLE-bench's formula with scikit-learn: everything cut at 0.5, then ROC AUCs."""
    from sklearn.metrics import roc_auc_score

    truth = (answers["toxicity"].to_numpy() >= 0.5).astype(int)
    guess = (np.asarray(predictions) >= 0.5).astype(int)
    kinds: list[list[float]] = [[], [], []]
    for name in JIGSAW_IDENTITIES:
        member = (answers[name] >= 0.5).to_numpy()  # NaN (not annotated) is not a mention
        subsets = (
            member,
            ((truth == 0) & member) | ((truth == 1) & ~member),
            ((truth == 1) & member) | ((truth == 0) & ~member),
        )
        for kind, subset in zip(kinds, subsets, strict=True):
            kind.append(roc_auc_score(truth[subset], guess[subset]))
    means = [(sum(v**-5 for v in values) / len(values)) ** (1 / -5) for values in kinds]
    return 0.25 * roc_auc_score(truth, guess) + 0.25 * sum(means)


def raw_case_jigsaw() -> RawCase:
    rows: list[dict[str, object]] = []
    for name in JIGSAW_IDENTITIES:  # a toxic and a harmless comment mentioning each identity
        for toxicity, share in ((0.8, 1.0), (0.2, 0.6)):
            shares = dict.fromkeys(JIGSAW_IDENTITIES, 0.0) | {name: share}
            rows.append({"toxicity": toxicity, **shares})
    rows.append({"toxicity": 0.9})  # identities not annotated: blank
    rows.append({"toxicity": 0.0})
    rows.append({"toxicity": 0.7, **dict.fromkeys(JIGSAW_IDENTITIES, 0.0), "male": 0.3})
    body = pd.DataFrame(rows)
    ids = list(range(7097320, 7097320 + len(body)))
    answers = pd.DataFrame(  # a subset of test_private_expanded.csv's 45 columns, same layout
        {
            "id": ids,
            "comment_text": [f'comment {i}, with "quotes"\nand a new line' for i in ids],
            "created_date": "2017-05-11 00:14:15.417484+00",
            "toxicity": body["toxicity"],
            "severe_toxicity": 0.0,
            "obscene": 0.0,
            "asian": np.where(body["male"].isna(), np.nan, 0.0),
            **{name: body[name] for name in JIGSAW_IDENTITIES},
            "identity_annotator_count": np.where(body["male"].isna(), 0, 4),
            "toxicity_annotator_count": 10,
        }
    )
    sample = pd.DataFrame({"id": ids, "prediction": 0.0})
    perfect = pd.DataFrame({"id": ids, "prediction": body["toxicity"]})
    guess = body["toxicity"].to_numpy().copy()
    guess[JIGSAW_IDENTITIES.index("muslim") * 2] = 0.1  # a toxic comment on muslims missed
    guess[-2] = 0.7  # a harmless comment flagged
    imperfect = pd.DataFrame({"id": ids, "prediction": guess})
    expected = jigsaw_like_mlebench(answers, guess)
    malformed = "id,prediction\n" + "".join(f"{i},{'abc' if i == ids[3] else 0.5}\n" for i in ids)
    return RawCase(
        answers, sample, perfect, imperfect, expected, malformed, "prediction must be a number", 1.0
    )


def matches_ids_ignores_side_of_threshold(task: MLEBenchTask, tmp_path: Path) -> None:
    task, case, answers = raw_files(task, raw_case_jigsaw, tmp_path)
    # any score on the right side of 0.5 is perfect; rows in any order
    sided = case.perfect.assign(prediction=np.where(case.perfect["prediction"] >= 0.5, 0.5, 0.49))
    report = grade_file(task, tmp_path, answers, "sided.csv", sided.iloc[::-1])
    assert_score(report, 1.0)
    blank = case.perfect.astype(str)
    blank.loc[4, "prediction"] = ""
    report = grade_file(task, tmp_path, answers, "blank.csv", blank)
    assert_invalid(report, "data row 5")
    report = grade_file(task, tmp_path, answers, "dup.csv", case.perfect.iloc[[*range(20), 0]])
    assert_invalid(report, "repeated")
    report = grade_file(task, tmp_path, answers, "short.csv", case.perfect.iloc[1:])
    assert_invalid(report, "1 id(s) of sample_submission.csv are missing")


def parity_answers() -> pd.DataFrame:
    return raw_case_jigsaw().answers


def parity_submission() -> pd.DataFrame:
    return raw_case_jigsaw().imperfect


def _guess() -> np.ndarray:
    return np.asarray(parity_submission()["prediction"], dtype=float)


def _with_first_row_twice(frame: pd.DataFrame) -> pd.DataFrame:
    return pd.concat([frame, frame.iloc[:1]], ignore_index=True)


# MLE-bench's formula as computed independently by jigsaw_like_mlebench (checked by
# "parity-scores-by-the-formula"): the submission as is; with its first prediction (a
# toxic comment, 0.8) blank, which MLE-bench cuts to 0 like any value under 0.5; with
# the first row twice in both files
PARITY_SCORE = 0.81704
BLANK_FIRST = 0.75541
TWICE_FIRST = 0.8189
PARITY_EXPECTED: dict[str, str | float] = {
    "shuffled_rows": "same",
    "reordered_columns": "same",
    "extra_column": "same",
    "index_column": "same",
    "float_ids": "same",
    "missing_id": "invalid",
    "duplicate_id": "invalid",
    "unknown_id": "invalid",
    "blank_target": BLANK_FIRST,
    "empty_file": "invalid",
    "header_only": "invalid",
    "duplicate_answer_keys": TWICE_FIRST,
}


def parity_scores_by_the_formula(task: MLEBenchTask, tmp_path: Path) -> None:
    guess = _guess()
    twice = _with_first_row_twice(parity_answers())
    for value, expected in (
        (jigsaw_like_mlebench(parity_answers(), guess), PARITY_SCORE),
        (jigsaw_like_mlebench(parity_answers(), np.r_[np.nan, guess[1:]]), BLANK_FIRST),
        (jigsaw_like_mlebench(twice, np.r_[guess, guess[:1]]), TWICE_FIRST),
    ):
        assert_close(value, expected, abs=5e-6)


def parity_submission_as_toxicity() -> pd.DataFrame:
    """The predictions under the answers' column name, which MLE-bench also accepts."""
    return parity_submission().rename(columns={"prediction": "toxicity"})


CASES: dict[str, Check] = {
    "parity": ParityCase(
        parity_answers,
        parity_submission,
        score=PARITY_SCORE,
        expected=PARITY_EXPECTED,
        # strict grading reads the ids as integers too; it wants each id once even where
        # the answers repeat one (its raw grader matches rows one to one)
        strict={"float_ids": "same", "duplicate_answer_keys": "invalid"},
    ),
    "parity-toxicity-column": ParityCase(
        parity_answers,
        parity_submission_as_toxicity,
        score=PARITY_SCORE,
        target_column="toxicity",
        expected=PARITY_EXPECTED,
        strict={
            "as_is": "invalid",
            "shuffled_rows": "invalid",
            "reordered_columns": "invalid",
            "duplicate_answer_keys": "invalid",
        },
    ),
    "parity-scores-by-the-formula": parity_scores_by_the_formula,
    "grading": RawGrading(raw_case_jigsaw),
    "format": RawFormat(raw_case_jigsaw),
    "sample-scores-as-on-the-leaderboard": RawSampleScore(raw_case_jigsaw),
    "matches-ids-ignores-side-of-threshold": matches_ids_ignores_side_of_threshold,
}
