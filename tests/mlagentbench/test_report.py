"""Evaluation reports count MLAgentBench success from the grade's own measured baseline."""

from __future__ import annotations

from mle_gym.evaluation.config import RunConfig
from mle_gym.evaluation.run_report import episode_outcome, task_info

ENV = "MLAgentBench/vectorization-v0"


def grade(score: float, baseline: float, improvement: float, success: bool) -> dict:
    return {
        "task_id": "vectorization",
        "data_source": "none",
        "valid": True,
        "score": score,
        "baseline": baseline,
        "improvement": improvement,
        "success": success,
    }


def test_success_comes_from_the_grade_when_it_has_a_baseline() -> None:
    config = RunConfig(tasks=(ENV,), seeds=(0,))
    record = {"status": "done", "reward": 0.7, "steps": 3}
    info = task_info(ENV)
    # the paired estimate (success) wins over score/baseline, which alone would say 8%
    row = episode_outcome(config, ENV, 0, record, grade(0.092, 0.1, 0.31, True), info)
    assert row["baseline_score"] == 0.1 and row["success"] is True
    row = episode_outcome(config, ENV, 0, record, grade(0.05, 0.1, 0.02, False), info)
    assert row["success"] is False
    mlebench = episode_outcome(
        RunConfig(tasks=("MLEBench/spaceship-titanic-v0",), seeds=(0,)),
        "MLEBench/spaceship-titanic-v0",
        0,
        record,
        {"valid": True, "score": 0.8, "data_source": "replica"},
        task_info("MLEBench/spaceship-titanic-v0"),
    )
    assert mlebench["success"] is None  # no baseline: not an MLAgentBench episode
