"""Hidden evaluator of MLAgentBench/imdb: accuracy of the arg-max class of submission.csv
(``idx,0,1``: per test review, the probabilities of negative (0) and positive (1))
against the private labels, aligned by ``idx``."""

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

SUBMISSION = submission_spec("submission.csv", "idx", ["0", "1"], "numeric")


def evaluate(job: EvalJob) -> Evaluation:
    answers, predicted = answers_and_predictions(job, "test_labels.csv", SUBMISSION)
    guess = predicted[["0", "1"]].to_numpy(dtype=float).argmax(axis=1)
    truth = answers["label"].astype(int).to_numpy()
    return Evaluation(score=float(np.mean(guess == truth)), details={"reviews": len(truth)})


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    ids = pd.read_parquet(public / "test.parquet", columns=["idx"])["idx"].astype(str)
    return check_file(outputs, SUBMISSION, ids.tolist())
