"""Hidden evaluator of MLAgentBench/ogbn-arxiv: accuracy of submission.csv (``node,label``:
the predicted subject area, 0-39, of every test node) against the private labels,
aligned by node id."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlagentbench import tabular
from mle_gym.families.mlagentbench.evaluation import EvalJob, Evaluation

SUBMISSION = tabular.spec("submission.csv", "node", ["label"], "integer")


def evaluate(job: EvalJob) -> Evaluation:
    assert job.private is not None
    answers = tabular.read_answers(job.private / "test_labels.csv", "node")
    predicted = tabular.read_predictions(job.outputs, SUBMISSION, answers["node"].tolist())
    truth = answers["label"].astype(int).to_numpy()
    accuracy = float(np.mean(predicted["label"].to_numpy() == truth))
    return Evaluation(score=accuracy, details={"test_nodes": len(truth)})


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    test = pd.read_csv(public / "split" / "time" / "test.csv.gz", header=None)
    return tabular.check_file(outputs, SUBMISSION, test.iloc[:, 0].astype(str).tolist())
