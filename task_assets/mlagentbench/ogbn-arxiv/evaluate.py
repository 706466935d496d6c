"""Hidden evaluator of MLAgentBench/ogbn-arxiv: accuracy of submission.csv (``node,label``:
the predicted subject area, 0-39, of every test node) against the private labels,
aligned by node id."""

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

SUBMISSION = submission_spec("submission.csv", "node", ["label"], "integer")


def evaluate(job: EvalJob) -> Evaluation:
    answers, predicted = answers_and_predictions(job, "test_labels.csv", SUBMISSION)
    truth = answers["label"].astype(int).to_numpy()
    accuracy = float(np.mean(predicted["label"].to_numpy() == truth))
    return Evaluation(score=accuracy, details={"test_nodes": len(truth)})


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    test = pd.read_csv(public / "split" / "time" / "test.csv.gz", header=None)
    return check_file(outputs, SUBMISSION, test.iloc[:, 0].astype(str).tolist())
