"""Rewards as functions of a grade report.

Modes (``reward_mode`` of the env):

* ``percentile`` — share of human leaderboard teams the score beats, in [0, 1]
  (needs real Kaggle data and the leaderboard figures);
* ``medal`` — 1.0 gold, 0.75 silver, 0.5 bronze, 0.0 otherwise (Kaggle data);
* ``normalized`` — the score placed between the sample submission's score (0)
  and a target (1): the gold threshold on Kaggle data, the stored reference
  solution's score on replica data; clipped to [0, 1];
* ``raw`` — the score itself, negated when lower is better (so higher is always
  better), bounded by :data:`RAW_LIMIT` (an infinite score gives ±1e12);
* ``auto`` (default) — ``percentile`` on Kaggle data with a leaderboard, else
  ``normalized``.

An invalid or missing submission earns 0.0 in every mode. Medals and
percentiles are never claimed on replica data: asking for them there is an
error at reset.
"""

from __future__ import annotations

from typing import Any

from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.hints import Hinted, Setting

REWARD_MODES = ("auto", "percentile", "medal", "normalized", "raw")
MEDAL_REWARD = {"gold": 1.0, "silver": 0.75, "bronze": 0.5}
#: bound of the ``raw`` reward: an infinite score (MLE-bench's champs grader gives -inf for
#: a coupling type predicted exactly) still gives a number
RAW_LIMIT = 1e12


class RewardConfigError(ValueError):
    """The reward mode cannot be computed for this task and data source."""


def _normalized_bounds(task: MLEBenchTask, data_source: str) -> tuple[float, float] | None:
    base: float | None
    top: float | None
    if data_source == "kaggle" and task.leaderboard is not None:
        base = task.leaderboard.sample_submission_score
        top = task.leaderboard.gold
    else:
        figures = task.data.get(data_source) or {}
        base, top = figures.get("sample_submission_score"), figures.get("reference_score")
    if base is None or top is None or float(base) == float(top):
        return None
    return float(base), float(top)


def resolve_mode(mode: str, task: MLEBenchTask, data_source: str) -> str:
    """The concrete mode for ``mode`` (resolving ``auto``), or RewardConfigError."""
    if mode not in REWARD_MODES:
        raise RewardConfigError(f"reward_mode must be one of {REWARD_MODES}, got {mode!r}")
    has_lb = task.leaderboard is not None and bool(task.leaderboard.score_at_rank_fraction)
    if mode == "auto":
        mode = "percentile" if data_source == "kaggle" and has_lb else "normalized"
        if mode == "normalized" and _normalized_bounds(task, data_source) is None:
            mode = "raw"
    if mode in ("percentile", "medal"):
        if data_source != "kaggle":
            raise RewardConfigError(
                Hinted(
                    Setting("reward_mode", mode),
                    " compares with the human leaderboard and needs real Kaggle data, but "
                    f"this episode uses {data_source!r} data; use ",
                    Setting("reward_mode", "normalized"),
                    " or ",
                    Setting("reward_mode", "raw"),
                    f", or prepare Kaggle data (`mle-gym prepare {task.id}`)",
                )
            )
        if task.leaderboard is None or (mode == "percentile" and not has_lb):
            raise RewardConfigError(
                Hinted(f"task {task.key} has no leaderboard for ", Setting("reward_mode", mode))
            )
    if mode == "normalized" and _normalized_bounds(task, data_source) is None:
        raise RewardConfigError(
            Hinted(
                f"task {task.key} has no sample-submission/reference scores for {data_source!r} "
                "data, so ",
                Setting("reward_mode", "normalized"),
                " is undefined; use ",
                Setting("reward_mode", "raw"),
            )
        )
    return mode


def compute_reward(grade: dict[str, Any], mode: str, task: MLEBenchTask, data_source: str) -> float:
    """Reward of a grade report (``GradeReport.to_dict()``) under a resolved ``mode``."""
    score = grade.get("score")
    if not grade.get("valid") or score is None:
        return 0.0
    lower = task.lower_is_better
    if mode == "percentile":
        return float(grade.get("percentile") or 0.0)
    if mode == "medal":
        for medal, value in MEDAL_REWARD.items():
            if grade.get(f"{medal}_medal"):
                return value
        return 0.0
    if mode == "normalized":
        bounds = _normalized_bounds(task, data_source)
        assert bounds is not None
        base, top = bounds
        value = (score - base) / (top - base)
        return float(min(1.0, max(0.0, value)))
    if mode == "raw":
        value = -score if lower else score
        return float(min(RAW_LIMIT, max(-RAW_LIMIT, value)))
    raise RewardConfigError(f"unresolved reward mode {mode!r}")
