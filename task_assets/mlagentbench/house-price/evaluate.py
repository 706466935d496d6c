"""Hidden evaluator of MLAgentBench/house-price: mean absolute error of submission.csv
(``Id,SalePrice``, one row per test home, aligned by ``Id``) against the private prices."""

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

SUBMISSION = submission_spec("submission.csv", "Id", ["SalePrice"], "numeric")


def _test_ids(public: Path) -> list[str]:
    return pd.read_csv(public / "test.csv", usecols=["Id"], dtype=str)["Id"].tolist()


def evaluate(job: EvalJob) -> Evaluation:
    answers, predicted = answers_and_predictions(job, "answers.csv", SUBMISSION)
    truth = answers["SalePrice"].astype(float).to_numpy()
    mae = float(np.mean(np.abs(predicted["SalePrice"].to_numpy() - truth)))
    return Evaluation(score=mae, details={"rows": len(truth)})


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    return check_file(outputs, SUBMISSION, _test_ids(public))
