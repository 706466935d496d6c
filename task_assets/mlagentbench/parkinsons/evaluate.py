"""Hidden evaluator of MLAgentBench/parkinsons: SMAPE of (rating + 1) in percent (0-200;
lower is better) of submission.csv (``prediction_id,rating``, one row per id of
``data/sample_submission.csv``) against the private ratings, aligned by id."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlagentbench.authoring import (
    EvalJob,
    Evaluation,
    answers_and_predictions,
    check_file,
    submission_spec,
)

SUBMISSION = submission_spec("submission.csv", "prediction_id", ["rating"], "numeric")


def smape_plus_one(truth: np.ndarray, predicted: np.ndarray) -> float:
    """Symmetric mean absolute percentage error of (x + 1), in percent; a pair of zeros
    counts as no error."""
    t, p = truth + 1.0, predicted + 1.0
    denominator = (np.abs(t) + np.abs(p)) / 2.0
    ratio = np.where(
        denominator == 0, 0.0, np.abs(p - t) / np.where(denominator == 0, 1, denominator)
    )
    return float(100.0 * np.mean(ratio))


def evaluate(job: EvalJob) -> Evaluation:
    answers, predicted = answers_and_predictions(job, "answers.csv", SUBMISSION)
    truth = answers["rating"].astype(float).to_numpy()
    score = smape_plus_one(truth, predicted["rating"].to_numpy(dtype=float))
    return Evaluation(score=score, details={"predictions": len(truth)})


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    ids = pd.read_csv(public / "sample_submission.csv", usecols=["prediction_id"], dtype=str)
    return check_file(outputs, SUBMISSION, ids["prediction_id"].tolist())
