"""stable-baselines3 support: MacroActionWrapper over real sandboxed episodes, memoization,
check_env, a PPO smoke run and the training script end to end.

Every fit runs the wrapper's solution script in a real bubblewrap sandbox. One session
fixture warms a fit cache with all 18 fit moves once; tests that need a cold cache use a
fresh folder of their own.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import mle_gym  # noqa: F401  (registers the env ids)
from mle_gym.families.mlebench import rewards
from mle_gym.tasks import get_task
from mle_gym.wrappers.macro import (
    SCRIPT_PATH,
    MacroActionWrapper,
    build_moves,
    skill,
    validation_metric,
)

pytestmark = pytest.mark.sandbox

REPO = Path(__file__).resolve().parents[1]
ENV_ID = "MLEBench/spaceship-titanic-v0"
MOVES = build_moves()
N_FIT = len(MOVES) - 1
CHEAP = next(m.index for m in MOVES if m.name == "fit-num-linear-small")
SUBMIT = len(MOVES) - 1


class ToolCounter(gym.Wrapper):
    """Counts the tool calls that reach the wrapped env, by tool name."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.calls: Counter[str] = Counter()

    def step(self, action: Any):  # type: ignore[override]
        self.calls[action["tool"]] += 1
        return self.env.step(action)


def _inner(task: str = ENV_ID, backend: str = "local") -> gym.Env:
    return gym.make(task, data="replica", reward_mode="normalized", sandbox=backend)


def _macro(
    cache_dir: Path, task: str = ENV_ID, backend: str = "local", **kwargs: Any
) -> tuple[MacroActionWrapper, Any]:
    counter = ToolCounter(_inner(task, backend))
    return MacroActionWrapper(counter, cache_dir=cache_dir, **kwargs), counter


@pytest.fixture(scope="session")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fit cache holding every fit move of the default library on replica seed 0."""
    cache = tmp_path_factory.mktemp("macro_cache")
    env, _ = _macro(cache, move_budget=N_FIT + 1)
    try:
        env.reset(seed=0)
        for index in range(N_FIT):
            _, _, terminated, _, info = env.step(index)
            assert info["ok"], info
            assert not terminated
        _, reward, terminated, _, info = env.step(SUBMIT)
        assert terminated and info["grade"]["valid"] and reward > 0.5
    finally:
        env.close()
    assert len(list(cache.rglob("*.json"))) == N_FIT
    return cache


def test_spaces_and_move_table(tmp_path: Path) -> None:
    env, _ = _macro(tmp_path)
    try:
        assert env.action_space == gym.spaces.Discrete(19)
        assert env.move_names[SUBMIT] == "submit-best"
        assert len(set(env.move_names)) == 19
        assert {m.family for m in env.fit_moves} == {"linear", "rf", "hgb"}
        assert {m.features for m in env.fit_moves} == {"num", "cat", "eng"}
        space = env.observation_space
        assert space.shape == (2 * N_FIT + 4,) and space.dtype == np.float32
        assert space.low.min() == -1.0 and space.high.max() == 1.0
        assert "fit-eng-hgb-large" in env.describe()
    finally:
        env.close()
    assert validation_metric("accuracy", "binary") == "accuracy"
    assert validation_metric("auroc-multi-label", "numeric") == "auc"
    assert validation_metric("mean-column-wise-rmsle", "numeric") == "rmsle"
    assert validation_metric("root-mean-squared-error", "numeric") == "rmse"
    assert skill(0.75, 0.5, "accuracy") == pytest.approx(0.5)
    assert skill(2.0, 4.0, "rmse") == pytest.approx(0.5)
    assert skill(5.0, 4.0, "rmse") == 0.0


@pytest.mark.slow
def test_fit_memoize_and_submit_on_a_fresh_cache(tmp_path: Path, backend: str) -> None:
    """On either backend: the fit's result and predictions come back through the env (its
    tools and their file layer), are cached, replayed and submitted."""
    env, counter = _macro(tmp_path / "cache", backend=backend)
    task = get_task(ENV_ID)
    try:
        obs, info = env.reset(seed=0)
        assert info["moves"] == env.move_names
        assert np.all(obs[:N_FIT] == -1.0) and obs[N_FIT] == -1.0
        assert obs[N_FIT + 1] == 1.0 and obs[N_FIT + 2] == 1.0 and not obs[N_FIT + 3 :].any()

        # A fit really runs in the sandbox: script written once, then the python tool.
        obs, reward, terminated, truncated, info = env.step(CHEAP)
        assert info["ok"] and info["cache_hit"] is False, info
        assert 0.6 < info["val_score"] < 0.95 and info["metric"] == "accuracy"
        assert counter.calls == Counter({"write_file": 1, "python": 1})
        workspace = Path(env.unwrapped.workspace)
        assert (workspace / SCRIPT_PATH).is_file()
        preds = (workspace / "macro/preds/fit-num-linear-small.csv").read_text()
        assert preds.startswith("PassengerId,Transported\n")
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert obs[CHEAP] == pytest.approx(info["val_skill"]) and 0 < obs[CHEAP] <= 1
        assert obs[N_FIT] == obs[CHEAP] and obs[N_FIT + 1] == pytest.approx(5 / 6)
        assert 0.9 < obs[N_FIT + 2] < 1.0 and obs[N_FIT + 3 + CHEAP] == 1.0
        first = info["val_score"]

        # The identical move again: served from the cache, no script run.
        obs, _, _, _, info = env.step(CHEAP)
        assert info["cache_hit"] is True and info["val_score"] == first
        assert counter.calls["python"] + counter.calls["execute"] == 1
        assert counter.calls["write_file"] == 2
        assert len(list((tmp_path / "cache").rglob("*.json"))) == 1

        # Submit best: the candidate's predictions are graded; the reward is the env's.
        obs, reward, terminated, truncated, info = env.step(SUBMIT)
        assert terminated and not truncated
        assert info["submitted"] == "fit-num-linear-small"
        grade = info["grade"]
        assert grade["valid"] and 0.6 < grade["score"] < 0.9
        assert reward == info["env_reward"]
        assert reward == pytest.approx(rewards.compute_reward(grade, "normalized", task, "replica"))
        assert 0.0 < reward < 1.0
        assert counter.calls["submit"] == 1
        assert obs[N_FIT + 1] == pytest.approx(3 / 6) and obs[N_FIT + 3 + SUBMIT] == 1.0
        with pytest.raises(gym.error.ResetNeeded):
            env.step(CHEAP)

        # A new episode (new workspace) replays the cached fit without running anything.
        env.reset(seed=1)
        _, _, _, _, info = env.step(CHEAP)
        assert info["cache_hit"] is True and info["val_score"] == first
        assert counter.calls["python"] == 1 and env.cache_hits == 2 and env.cache_misses == 1
    finally:
        env.close()


def test_execute_runner_without_memoization_and_empty_submit(tmp_path: Path) -> None:
    env, counter = _macro(tmp_path / "cache", runner="execute", memoize=False)
    try:
        env.reset(seed=0)
        _, _, _, _, first = env.step(CHEAP)
        _, _, _, _, second = env.step(CHEAP)
        assert first["ok"] and second["ok"] and second["cache_hit"] is False
        assert counter.calls["execute"] == 2 and counter.calls["python"] == 0
        assert first["val_score"] == second["val_score"]  # fixed split seed: deterministic
        assert not (tmp_path / "cache").exists()
        env.step(SUBMIT)

        # Submitting before any fit sends the sample submission: valid, reward 0.
        env.reset(seed=0)
        _, reward, terminated, _, info = env.step(SUBMIT)
        assert terminated and info["submitted"] == "sample_submission"
        assert info["grade"]["valid"] and reward == 0.0
    finally:
        env.close()


def test_move_budget_submits_automatically(warm_cache: Path) -> None:
    env, counter = _macro(warm_cache, move_budget=2, move_cost=0.01)
    try:
        env.reset(seed=0)
        _, reward, terminated, _, info = env.step(CHEAP)
        assert reward == pytest.approx(-0.01) and not terminated and info["cache_hit"]
        best = next(m.index for m in MOVES if m.name == "fit-eng-hgb-small")
        obs, reward, terminated, truncated, info = env.step(best)
        assert terminated and not truncated and info["auto_submitted"]
        assert info["submitted"] == "fit-eng-hgb-small" and info["grade"]["valid"]
        assert reward == pytest.approx(info["env_reward"] - 0.01) and info["env_reward"] > 0.9
        assert obs[N_FIT + 1] == 0.0
        assert counter.calls["python"] == 0 and counter.calls["execute"] == 0
    finally:
        env.close()


def test_check_env_passes(warm_cache: Path) -> None:
    from stable_baselines3.common.env_checker import check_env

    env, counter = _macro(warm_cache)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no warning either
            check_env(env)
        assert counter.calls["python"] == 0  # every fit came from the warm cache
    finally:
        env.close()


def test_ppo_smoke(warm_cache: Path) -> None:
    from stable_baselines3 import PPO

    env, _ = _macro(warm_cache)
    try:
        model = PPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=2, seed=0, device="cpu")
        model.learn(total_timesteps=64)
        action, _ = model.predict(env.reset(seed=0)[0], deterministic=True)
        assert env.action_space.contains(int(action))
    finally:
        env.close()


def test_other_tabular_task_with_two_targets(tmp_path: Path) -> None:
    env, _ = _macro(tmp_path / "cache", task="MLEBench/playground-series-s3e18-v0")
    try:
        _, info = env.reset(seed=0)
        assert info["metric"] == "auc"
        _, _, _, _, info = env.step(CHEAP)
        assert info["ok"] and 0.5 < info["val_score"] < 1.0, info
        _, reward, terminated, _, info = env.step(SUBMIT)
        assert terminated and info["grade"]["valid"] and reward > 0.0
    finally:
        env.close()


def test_macro_module_import_stays_light() -> None:
    code = (
        "import sys, mle_gym.wrappers, mle_gym.wrappers.macro\n"
        "heavy = [m for m in ('torch', 'stable_baselines3', 'sklearn') if m in sys.modules]\n"
        "assert not heavy, heavy"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_train_script_smoke(warm_cache: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        str(REPO / "scripts" / "train_sb3.py"),
        "--seed",
        "0",
        "--timesteps",
        "64",
        "--n-steps",
        "32",
        "--eval-episodes",
        "10",
        "--out",
        str(out),
        "--cache-dir",
        str(warm_cache),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PPO" in done.stdout and "random policy" in done.stdout
    assert "train: 64/64 timesteps (100%)" in done.stderr  # progress lines, on stderr
    assert "eval PPO: 10/10 episodes" in done.stderr and "eval random: 10/10" in done.stderr
    png = out / "learning_curve.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert list((out / "tb").rglob("events.out.tfevents.*"))
    results = json.loads((out / "results.json").read_text())
    for who in ("ppo", "random"):
        assert results[who]["episodes"] == 10 and len(results[who]["rewards"]) == 10
        assert 0.0 <= results[who]["mean"] <= 1.0 and results[who]["std"] >= 0.0
    assert results["seed"] == 0 and results["timesteps"] == 64
    assert results["train_cache_misses"] == 0
