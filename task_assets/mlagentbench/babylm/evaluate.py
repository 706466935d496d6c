"""Hidden evaluator of MLAgentBench/babylm: the perplexity of the agent's language model
(saved to ``output/`` in Hugging Face format, weights as safetensors) on the held-out
BabyLM test text, computed in a fresh evaluation sandbox by ``harness/score.py``; lower
is better. No code of the agent's runs during the evaluation."""

from __future__ import annotations

import math
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
    if not (job.outputs / "output").is_dir():
        raise EvaluationFailed("output/ (the trained model, saved with save_pretrained) is missing")
    record = run_harness(
        job, HERE / "harness" / "score.py", hidden={"test": job.private / "babylm_test"}
    )
    perplexity = float(record["perplexity"])
    if not math.isfinite(perplexity):
        raise EvaluationFailed("the model's perplexity on the test text is infinite")
    return Evaluation(score=perplexity, details={"tokens": int(record.get("tokens", 0))})
