"""Hidden evaluator of MLAgentBench/tomato-yield: the mean absolute error of
``submission.csv`` (``bed_id,yield_kg``, one row per test bed, matched by ``bed_id``)
against the private yields. Runs on the host; no sandbox ever sees this file."""

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

SUBMISSION = submission_spec("submission.csv", "bed_id", ["yield_kg"], "numeric")


def evaluate(job: EvalJob) -> Evaluation:
    """The MAE; EvaluationFailed (from read_predictions) for a missing or malformed file."""
    answers, predicted = answers_and_predictions(job, "answers.csv", SUBMISSION)
    truth = answers["yield_kg"].astype(float).to_numpy()
    error = float(np.mean(np.abs(predicted["yield_kg"].to_numpy() - truth)))
    return Evaluation(score=error, details={"rows": len(truth)})


def check(outputs: Path, public: Path | None) -> str:
    """What validate_submission says: the file's format only, never a score."""
    assert public is not None
    ids = pd.read_csv(public / "test.csv", usecols=["bed_id"], dtype=str)["bed_id"]
    return check_file(outputs, SUBMISSION, ids.tolist())
