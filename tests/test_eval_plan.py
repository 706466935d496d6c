"""``mle-gym eval``'s plan check: every task's family judges the settings before anything
runs; tasks that cannot run here now are listed (or dropped with --skip-unavailable)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mle_gym.evaluation.config import RunConfig
from mle_gym.evaluation.errors import EvalConfigError
from mle_gym.evaluation.plan import EvalRequest, check_config


def _check(tmp_path: Path, tasks: tuple[str, ...], *, skip: bool = False, **settings: object):
    config = RunConfig(tasks=tasks, seeds=(0,), agent="random", sandbox="local", **settings)
    return check_config(config, EvalRequest(out=tmp_path, skip_unavailable=skip))


def test_a_setting_no_family_serves_is_an_error_naming_the_task(tmp_path: Path) -> None:
    with pytest.raises(EvalConfigError, match=r"spaceship-titanic: .*needs real Kaggle data"):
        _check(tmp_path, ("MLEBench/spaceship-titanic-v0",), data="replica", reward_mode="medal")
    with pytest.raises(EvalConfigError, match=r"clusterlab: reward_mode must be one of"):
        _check(tmp_path, ("MLBench/clusterlab-v0",), reward_mode="percentile")
    with pytest.raises(EvalConfigError, match=r"house-price: data must be one of"):
        _check(tmp_path, ("MLAgentBench/house-price-v0",), data="kaggle")


def test_tasks_without_the_data_are_listed_or_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = ("MLAgentBench/cifar10-v0", "MLAgentBench/house-price-v0")
    with pytest.raises(EvalConfigError, match=r"cifar10: task mlagentbench/cifar10 has no offline"):
        _check(tmp_path, tasks, data="replica", reward_mode="success")
    kept = _check(tmp_path, tasks, skip=True, data="replica", reward_mode="success")
    assert kept.tasks == ("MLAgentBench/house-price-v0",)
    assert "skipping 1 task(s) without usable data: cifar10" in capsys.readouterr().err
    with pytest.raises(EvalConfigError, match="no selected task has usable data"):
        _check(tmp_path, tasks[:1], skip=True, data="replica", reward_mode="success")


def test_the_plan_loads_no_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ML-Bench checks its examples when an env is built, not in the plan: a run of hub tasks
    is planned offline without touching the dataset."""
    from mle_gym.families.mlbench import family

    def no_loading(*args: object, **kwargs: object) -> None:
        raise AssertionError("the plan loaded examples")

    monkeypatch.setattr(family, "load_examples", no_loading)
    config = _check(tmp_path, ("MLBench/bert-v0",))
    assert config.tasks == ("MLBench/bert-v0",)
