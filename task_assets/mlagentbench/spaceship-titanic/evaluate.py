"""Hidden evaluator of MLAgentBench/spaceship-titanic: accuracy of submission.csv
(``PassengerId,Transported``, one row per test passenger, aligned by id; True/False or
1/0) against the private labels."""

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

SUBMISSION = submission_spec("submission.csv", "PassengerId", ["Transported"], "binary")


def evaluate(job: EvalJob) -> Evaluation:
    answers, predicted = answers_and_predictions(job, "answers.csv", SUBMISSION)
    truth = answers["Transported"].str.strip().str.lower().isin(["true", "1", "1.0"]).to_numpy()
    accuracy = float(np.mean(predicted["Transported"].to_numpy(dtype=bool) == truth))
    return Evaluation(score=accuracy, details={"rows": len(truth)})


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    ids = pd.read_csv(public / "test.csv", usecols=["PassengerId"], dtype=str)
    return check_file(outputs, SUBMISSION, ids["PassengerId"].tolist())
