"""Reward modes computed from grade reports, with hand-computed expectations."""

from __future__ import annotations

import pytest

from mle_gym.families.mlebench.rewards import RewardConfigError, compute_reward, resolve_mode
from mle_gym.tasks import get_task

TASK = get_task("spaceship-titanic")


def grade(score: float | None, valid: bool = True, **medals: object) -> dict:
    base = {
        "score": score,
        "valid": valid,
        "gold_medal": False,
        "silver_medal": False,
        "bronze_medal": False,
        "percentile": None,
    }
    return {**base, **medals}


def test_auto_mode_resolution() -> None:
    assert resolve_mode("auto", TASK, "kaggle") == "percentile"
    assert resolve_mode("auto", TASK, "replica") == "normalized"


@pytest.mark.parametrize("mode", ["percentile", "medal"])
def test_leaderboard_modes_refused_on_replica(mode: str) -> None:
    with pytest.raises(RewardConfigError, match="Kaggle data"):
        resolve_mode(mode, TASK, "replica")


def test_unknown_mode() -> None:
    with pytest.raises(RewardConfigError, match="reward_mode must be one of"):
        resolve_mode("best", TASK, "kaggle")


def test_medal_rewards() -> None:
    assert compute_reward(grade(0.83, gold_medal=True), "medal", TASK, "kaggle") == 1.0
    assert compute_reward(grade(0.815, silver_medal=True), "medal", TASK, "kaggle") == 0.75
    assert compute_reward(grade(0.81, bronze_medal=True), "medal", TASK, "kaggle") == 0.5
    assert compute_reward(grade(0.70), "medal", TASK, "kaggle") == 0.0


def test_percentile_reward_is_the_report_percentile() -> None:
    assert compute_reward(grade(0.8, percentile=0.62), "percentile", TASK, "kaggle") == 0.62


def test_normalized_reward_on_kaggle_uses_sample_and_gold() -> None:
    # (score - 0.50345) / (0.82066 - 0.50345)
    value = compute_reward(grade(0.7), "normalized", TASK, "kaggle")
    assert value == pytest.approx((0.7 - 0.50345) / (0.82066 - 0.50345))
    assert compute_reward(grade(0.9), "normalized", TASK, "kaggle") == 1.0
    assert compute_reward(grade(0.3), "normalized", TASK, "kaggle") == 0.0


def test_normalized_reward_on_replica_uses_reference_score() -> None:
    ref = TASK.data["replica"]["reference_score"]
    base = TASK.data["replica"]["sample_submission_score"]
    assert compute_reward(grade(ref), "normalized", TASK, "replica") == pytest.approx(1.0)
    assert compute_reward(grade(base), "normalized", TASK, "replica") == pytest.approx(0.0)
    mid = (ref + base) / 2
    assert compute_reward(grade(mid), "normalized", TASK, "replica") == pytest.approx(0.5)


def test_raw_reward_and_invalid_submissions() -> None:
    assert compute_reward(grade(0.77), "raw", TASK, "replica") == 0.77
    for mode in ("raw", "normalized", "medal", "percentile"):
        assert compute_reward(grade(None, valid=False), mode, TASK, "kaggle") == 0.0
        assert compute_reward(grade(0.9, valid=False, gold_medal=True), mode, TASK, "kaggle") == 0.0
