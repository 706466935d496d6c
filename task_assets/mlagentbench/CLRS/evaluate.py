"""Hidden evaluator of MLAgentBench/CLRS: the test score (``clrs.evaluate``'s ``score``:
accuracy of the predicted Floyd-Warshall shortest-path predecessors) of the agent's
trained model, restored from ``checkpoints/`` in a fresh evaluation sandbox by
``harness/score.py``, on the held-out test split; higher is better.

The sandbox needs the ``clrs`` package and its dependencies (jax, dm-haiku,
tensorflow-datasets); without them the result is invalid with the import error."""

from __future__ import annotations

from pathlib import Path

from mle_gym.families.mlagentbench.authoring import (
    EvalJob,
    Evaluation,
    EvaluationFailed,
    run_harness,
)

HERE = Path(__file__).resolve().parent


def evaluate(job: EvalJob) -> Evaluation:
    assert job.private is not None
    if not (job.outputs / "checkpoints" / "best.pkl").is_file():
        raise EvaluationFailed("checkpoints/best.pkl (the trained model) is missing")
    record = run_harness(job, HERE / "harness" / "score.py", hidden={"test": job.private})
    return Evaluation(score=float(record["score"]), details={"samples": record.get("samples")})
