"""Hidden evaluator of MLAgentBench/fathomnet: mean average precision at 20 (MAP@20) of
the categories predicted per test image in submission.csv (``id,categories,osd``:
space-separated category ids, most confident first, and an out-of-sample score).

The ``osd`` column is accepted but not scored: every held-out image comes from the
training distribution, so an out-of-sample AUC is undefined here (MLAgentBench scored it
against random labels, which only adds noise)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlagentbench.authoring import (
    EvalJob,
    Evaluation,
    EvaluationFailed,
    answers_and_predictions,
    check_file,
    read_predictions,
    submission_spec,
)

SUBMISSION = submission_spec("submission.csv", "id", ["categories", "osd"], "label")
K = 20


def average_precision_at_k(actual: set[int], predicted: list[int], k: int = K) -> float:
    """AP@k: precision at each rank holding a new correct category, averaged over
    min(|actual|, k)."""
    if not actual:
        return 0.0
    hits, total, seen = 0, 0.0, set()
    for rank, category in enumerate(predicted[:k], start=1):
        if category in actual and category not in seen:
            hits += 1
            total += hits / rank
        seen.add(category)
    return total / min(len(actual), k)


def _parse(text: str, row: str) -> list[int]:
    try:
        return [int(float(v)) for v in str(text).split()]
    except ValueError:
        raise EvaluationFailed(
            f"categories of id {row} must be space-separated category ids, got {text!r:.60}"
        ) from None


def evaluate(job: EvalJob) -> Evaluation:
    answers, predicted = answers_and_predictions(job, "answers.csv", SUBMISSION)
    scores = []
    for (row, truth), guess in zip(
        answers[["id", "categories"]].itertuples(index=False),
        predicted["categories"],
        strict=True,
    ):
        scores.append(average_precision_at_k(set(_parse(truth, row)), _parse(guess, row)))
    return Evaluation(score=float(np.mean(scores)), details={"images": len(scores)})


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    ids = pd.read_csv(public / "test_ids.csv", dtype=str)["id"].tolist()
    message = check_file(outputs, SUBMISSION, ids)
    frame = read_predictions(outputs, SUBMISSION, ids)
    for row, text in zip(frame["id"], frame["categories"], strict=True):
        _parse(text, row)
    return message
