"""Hidden evaluator of MLAgentBench/feedback: MCRMSE — the root mean squared error of each
of the six scores, averaged over the six — of submission.csv (``text_id`` and the six
score columns, one row per test essay) against the private scores; lower is better."""

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

MEASURES = ["cohesion", "syntax", "vocabulary", "phraseology", "grammar", "conventions"]
SUBMISSION = submission_spec("submission.csv", "text_id", MEASURES, "numeric")


def evaluate(job: EvalJob) -> Evaluation:
    answers, predicted = answers_and_predictions(job, "answers.csv", SUBMISSION)
    truth = answers[MEASURES].astype(float).to_numpy()
    errors = np.sqrt(np.mean((predicted[MEASURES].to_numpy(dtype=float) - truth) ** 2, axis=0))
    details = {f"rmse_{m}": float(e) for m, e in zip(MEASURES, errors, strict=True)}
    return Evaluation(score=float(np.mean(errors)), details=details)


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    ids = pd.read_csv(public / "test.csv", usecols=["text_id"], dtype=str)["text_id"]
    return check_file(outputs, SUBMISSION, ids.tolist())
