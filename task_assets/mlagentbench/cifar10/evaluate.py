"""Hidden evaluator of MLAgentBench/cifar10: accuracy of the arg-max class of
submission.csv (``idx,0,1,...,9``: one row per test image, its class probabilities or
scores) against the private test labels, aligned by ``idx``."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mle_gym.families.mlagentbench.authoring import (
    EvalJob,
    Evaluation,
    answers_and_predictions,
    check_file,
    submission_spec,
)

CLASSES = [str(i) for i in range(10)]
SUBMISSION = submission_spec("submission.csv", "idx", CLASSES, "numeric")


def evaluate(job: EvalJob) -> Evaluation:
    answers, predicted = answers_and_predictions(job, "test_labels.csv", SUBMISSION)
    guess = predicted[CLASSES].to_numpy(dtype=float).argmax(axis=1)
    truth = answers["label"].astype(int).to_numpy()
    return Evaluation(score=float(np.mean(guess == truth)), details={"images": len(truth)})


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    count = np.load(public / "test_images.npy", mmap_mode="r").shape[0]
    return check_file(outputs, SUBMISSION, [str(i) for i in range(count)])
