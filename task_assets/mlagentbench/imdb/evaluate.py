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
    check_file,
    read_answers,
    read_predictions,
    submission_spec,
)

SUBMISSION = submission_spec("submission.csv", "idx", ["0", "1"], "numeric")


def evaluate(job: EvalJob) -> Evaluation:
    assert job.private is not None
    answers = read_answers(job.private / "test_labels.csv", "idx")
    predicted = read_predictions(job.outputs, SUBMISSION, answers["idx"].tolist())
    guess = predicted[["0", "1"]].to_numpy(dtype=float).argmax(axis=1)
    truth = answers["label"].astype(int).to_numpy()
    return Evaluation(score=float(np.mean(guess == truth)), details={"reviews": len(truth)})


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    ids = pd.read_parquet(public / "test.parquet", columns=["idx"])["idx"].astype(str)
    return check_file(outputs, SUBMISSION, ids.tolist())
