"""MLAgentBench grades and rewards: improvement over the starter code's own score.

* ``improvement`` is relative and direction-aware: ``(score - baseline) / |baseline|``
  when higher is better, ``(baseline - score) / |baseline|`` when lower is better
  (so a positive value always means better than the starter code);
* ``success`` is ``improvement > success_threshold`` (MLAgentBench: 10%).

Timing tasks may supply their own, paired estimate of the improvement (see
:class:`~mle_gym.families.mlagentbench.evaluation.Evaluation`).

Reward modes (``reward_mode``):

* ``improvement`` (``auto``): the improvement clipped to [-1, 1]; an invalid or
  missing result earns -1 (worse than leaving the starter code alone, which
  scores about 0);
* ``success``: 1.0 on success, else 0.0;
* ``raw``: the score itself, negated when lower is better.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

REWARD_MODES = ("auto", "improvement", "success", "raw")
INVALID_IMPROVEMENT_REWARD = -1.0


def improvement(score: float, baseline: float, lower_is_better: bool) -> float:
    """Relative improvement of ``score`` over ``baseline`` (positive = better)."""
    if baseline == 0:
        if score == baseline:
            return 0.0
        better = score < baseline if lower_is_better else score > baseline
        return math.inf if better else -math.inf
    delta = (baseline - score) if lower_is_better else (score - baseline)
    return delta / abs(baseline)


@dataclass
class MLABGrade:
    """The grade of one MLAgentBench episode (``to_dict()`` is ``info["grade"]``).

    ``score`` is None when the result is missing or invalid (``message`` says why);
    ``baseline`` is the starter code's score, with ``baseline_runs`` (per seed) and
    ``baseline_measured_by`` saying how it was obtained. ``submission_exists`` says whether
    the agent handed in what the evaluator grades — the output files, or with ``rerun`` the
    final code (:mod:`~mle_gym.families.mlagentbench.submission`) — valid or not.
    """

    task_id: str
    data_source: str
    metric: str
    lower_is_better: bool
    valid: bool
    message: str
    score: float | None
    baseline: float | None
    baseline_runs: list[float] = field(default_factory=list)
    baseline_measured_by: str = ""
    improvement: float | None = None
    success: bool = False
    success_threshold: float = 0.1
    submission_exists: bool = False
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain builtin types, ready for ``json.dumps``."""
        out = dataclasses.asdict(self)
        for key in ("score", "baseline", "improvement"):
            value = out[key]
            if value is not None and not math.isfinite(value):
                out[key] = None if math.isnan(value) else (1e308 if value > 0 else -1e308)
        return out


def finish(grade: MLABGrade) -> MLABGrade:
    """Fill ``improvement`` and ``success`` from score and baseline."""
    if grade.valid and grade.score is not None and grade.baseline is not None:
        grade.improvement = improvement(grade.score, grade.baseline, grade.lower_is_better)
        grade.success = grade.improvement > grade.success_threshold
    else:
        grade.improvement = None
        grade.success = False
    return grade


def resolve_mode(mode: str) -> str:
    """The concrete reward mode."""
    if mode not in REWARD_MODES:
        raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {mode!r}")
    return "improvement" if mode == "auto" else mode


def reward(grade: dict[str, Any], mode: str, lower_is_better: bool) -> float:
    """The reward of a grade dict under a resolved ``mode`` (see module docstring)."""
    if mode == "success":
        return 1.0 if grade.get("success") else 0.0
    score = grade.get("score")
    if not grade.get("valid") or score is None:
        return INVALID_IMPROVEMENT_REWARD if mode == "improvement" else 0.0
    if mode == "raw":
        return float(-score if lower_is_better else score)
    value = grade.get("improvement")
    if value is None:
        return INVALID_IMPROVEMENT_REWARD
    return float(min(1.0, max(-1.0, value)))


def summary(grade: MLABGrade, reward_value: float, reason: str | None) -> str:
    """What the agent reads when the episode ends."""
    why = (
        f"Episode over ({reason}); the final state of the workspace was evaluated."
        if reason
        else "Episode over: the final state of the workspace was evaluated."
    )
    if not grade.valid:
        return f"{why}\nThe result is invalid: {grade.message}\nReward: {reward_value:g}"
    lines = [why, f"Score ({grade.metric}): {grade.score:.6g}"]
    if grade.baseline is not None and grade.improvement is not None:
        lines.append(
            f"Starter code's score: {grade.baseline:.6g} · improvement: "
            f"{grade.improvement:+.1%} · success (> {grade.success_threshold:.0%}): "
            f"{'yes' if grade.success else 'no'}"
        )
    lines.append(f"Reward: {reward_value:.4g}")
    return "\n".join(lines)
