"""What a new user gets wrong in the Python API, and the guidance they get back: a misspelt
keyword suggests the one meant, a value of the wrong type names the keyword, the value and
the expected type (in every family), and EpisodePool.reset waits for a free place as
documented."""

from __future__ import annotations

import threading
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import mle_gym
from mle_gym import EpisodePool, PoolBusy
from mle_gym.arg_checks import did_you_mean, suggestions
from mle_gym.env import MLEEnv

mle_gym.register_all()

MLEBENCH = "MLEBench/spaceship-titanic-v0"
MLAGENTBENCH = "MLAgentBench/house-price-v0"
MLBENCH = "MLBench/offline-v0"
FAMILIES = [MLEBENCH, MLAGENTBENCH, MLBENCH]
SUBMIT = {"tool": "submit", "args": {}}


def _make(env_id: str, **kwargs: Any) -> gym.Env:
    """``gym.make`` without a sandbox backend to check (none starts before reset)."""
    return gym.make(env_id, sandbox="unsafe-local", **kwargs)


# -- misspelt keywords ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env_id", "word", "meant"),
    [
        (MLEBENCH, "data_sorce", "'data'"),
        (MLEBENCH, "data_source", "'data'"),
        (MLEBENCH, "max_steps", "'max_episode_steps'"),
        (MLEBENCH, "replica_sed", "'replica_seed'"),
        (MLEBENCH, "gradng", "'grading'"),
        (MLAGENTBENCH, "reruns", "'rerun'"),
        (MLAGENTBENCH, "sandbx", "'sandbox'"),
        (MLBENCH, "contxt", "'context'"),
        (MLBENCH, "run_timeout", "'run_timeout_s'"),
    ],
)
def test_a_misspelt_keyword_suggests_the_one_meant(env_id: str, word: str, meant: str) -> None:
    with pytest.raises(TypeError) as caught:
        _make(env_id, **{word: 1})
    message = str(caught.value)
    assert f"unexpected keyword argument(s) ['{word}'] (did you mean {meant}" in message
    assert "the env takes data, sandbox, docker_image" in message  # and lists them all
    family = mle_gym.tasks.get_task(env_id).family
    assert f"its family ({family}) takes " in message


def test_several_misspelt_keywords_each_get_their_suggestion() -> None:
    with pytest.raises(TypeError) as caught:
        _make(MLEBENCH, data_sorce="replica", sandbx="local", zzzzzz=1)
    assert (
        "['data_sorce', 'sandbx', 'zzzzzz'] ('data_sorce': did you mean 'data'?; "
        "'sandbx': did you mean 'sandbox'?);"
    ) in str(caught.value)


def test_a_keyword_nothing_resembles_gets_no_guess() -> None:
    with pytest.raises(TypeError) as caught:
        _make(MLEBENCH, qqqqqqqq=1)
    assert "['qqqqqqqq']; the env takes" in str(caught.value)
    assert "did you mean" not in str(caught.value)


@pytest.mark.parametrize(
    ("env_id", "word", "expected"),
    [
        (MLEBENCH, "replica_sed", "unknown option 'replica_sed'; known: replica_seed, grading "),
        (MLAGENTBENCH, "rerunn", "unknown option 'rerunn'; known: replica_seed, rerun "),
        (MLBENCH, "trcae", "unknown option 'trcae'; known: source, split"),
    ],
)
def test_a_misspelt_family_option_in_the_mapping_suggests_the_one_meant(
    env_id: str, word: str, expected: str
) -> None:
    with pytest.raises(ValueError) as caught:
        _make(env_id, family_options={word: True})
    assert str(caught.value).startswith(f"{env_id}: {expected}")
    assert str(caught.value).endswith("?)") and "(did you mean '" in str(caught.value)


def test_did_you_mean_prefers_guessed_names_and_keeps_only_real_candidates() -> None:
    candidates = ["data", "sandbox", "max_episode_steps"]
    assert did_you_mean("data_source", candidates) == ["data"]
    assert did_you_mean("max_stpes", candidates) == ["max_episode_steps"]
    assert did_you_mean("sandbox_kind", candidates) == ["sandbox"]
    # a guessed name whose keyword is not a candidate suggests nothing
    assert did_you_mean("disk", candidates) == []
    assert suggestions(["zz", "qq"], candidates) == ""


# -- values of the wrong type or out of range -----------------------------------------------

#: (keyword, bad value, what the message says after "<keyword> must be ")
ENV_BAD_VALUES = [
    ("time_budget_s", "x", "a positive number of seconds (int or float), got 'x' (str)"),
    ("time_budget_s", -1, "positive and finite, got -1"),
    ("time_budget_s", True, "a positive number of seconds (int or float), got True (bool)"),
    ("exec_timeout_s", float("inf"), "positive and finite, got inf"),
    ("memory_mb", 2.5, "a whole number >= 1 (int), got 2.5 (float)"),
    ("memory_mb", True, "a whole number >= 1 (int), got True (bool)"),
    ("pids", "64", "a whole number >= 1 (int), got '64' (str)"),
    ("cpus", float("nan"), "positive and finite, got nan"),
    ("cpu_time_s", 0, ">= 1, got 0"),
    ("disk_mb", -5, ">= 1, got -5"),
    ("max_observation_chars", "big", "a whole number >= 1 (int), got 'big' (str)"),
    ("grade_on_truncation", "yes", "True or False (bool), got 'yes' (str)"),
    ("keep_workspace", 1, "True or False (bool), got 1 (int)"),
    ("docker_image", 3, "a non-empty string (str) or None, got 3 (int)"),
    ("trajectory_path", 7, "a path (str or os.PathLike) or None, got 7 (int)"),
    ("family_options", ["x"], "a mapping (e.g. a dict) or None, got ['x'] (list)"),
]


@pytest.mark.parametrize("env_id", FAMILIES)
@pytest.mark.parametrize(("keyword", "value", "expected"), ENV_BAD_VALUES)
def test_a_bad_env_keyword_value_names_the_keyword_the_value_and_the_type(
    env_id: str, keyword: str, value: Any, expected: str
) -> None:
    with pytest.raises(ValueError) as caught:
        _make(env_id, **{keyword: value})
    assert str(caught.value) == f"{env_id}: {keyword} must be {expected}"


@pytest.mark.parametrize("env_id", FAMILIES)
def test_a_bad_step_budget_is_refused(env_id: str) -> None:
    with pytest.raises(ValueError, match=r"max_episode_steps must be .*got True \(bool\)"):
        _make(env_id, max_episode_steps=True)
    # gymnasium's TimeLimit checks what gym.make's own argument can check
    with pytest.raises(TypeError, match=r"max_episode_steps.*integer.*str"):
        _make(env_id, max_episode_steps="ten")
    with pytest.raises(TypeError, match=r"max_episode_steps.*integer.*float"):
        _make(env_id, max_episode_steps=2.5)
    with pytest.raises(ValueError, match=r"max_episode_steps.*positive"):
        _make(env_id, max_episode_steps=0)
    # built directly, the env checks its own keyword
    with pytest.raises(ValueError, match=rf"^{env_id}: max_episode_steps must be a whole number"):
        MLEEnv(env_id, sandbox="unsafe-local", max_episode_steps=2.5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("env_id", "keyword", "value", "expected"),
    [
        (MLEBENCH, "replica_seed", "a", "replica_seed: Input should be a valid integer"),
        (MLEBENCH, "replica_seed", True, "replica_seed: Input should be a valid integer"),
        (MLEBENCH, "replica_seed", 1.0, "replica_seed: Input should be a valid integer"),
        (MLEBENCH, "grading", 1, "grading: Input should be 'mlebench' or 'strict'"),
        (MLAGENTBENCH, "replica_seed", "3", "replica_seed: Input should be a valid integer"),
        (MLAGENTBENCH, "rerun", "yes", "rerun: Input should be a valid boolean"),
        (MLAGENTBENCH, "rerun", 1, "rerun: Input should be a valid boolean"),
        (MLBENCH, "run_timeout_s", "x", "run_timeout_s must be a positive number"),
        (MLBENCH, "run_timeout_s", True, "run_timeout_s must be a positive number"),
        (MLBENCH, "run_timeout_s", -1, "run_timeout_s must be a positive number"),
        (MLBENCH, "trace", "yes", "trace must be True or False"),
    ],
)
def test_a_bad_family_option_value_names_the_option_and_the_value(
    env_id: str, keyword: str, value: Any, expected: str
) -> None:
    with pytest.raises(ValueError) as caught:
        _make(env_id, **{keyword: value})
    message = str(caught.value)
    assert message.startswith(f"{env_id}: {expected}")
    assert repr(value) in message


def test_good_values_of_every_kind_are_taken() -> None:
    env = _make(
        MLEBENCH,
        replica_seed=np.int64(2),  # numpy's ints are ints
        time_budget_s=30,
        exec_timeout_s=2.5,
        cpus=1.5,
        memory_mb=np.int32(512),
        grade_on_truncation=False,
        max_episode_steps=3,
    )
    try:
        inner: Any = env.unwrapped
        assert inner.family.replica_seed == 2 and type(inner.family.opts.replica_seed) is int
        assert inner.limits.time_budget_s == 30 and inner.limits.memory_mb == 512
        assert env.spec is not None and env.spec.max_episode_steps == 3
    finally:
        env.close()
    rerun = _make(MLAGENTBENCH, rerun=True, replica_seed=1)
    assert rerun.unwrapped.family.opts.rerun is True
    rerun.close()


# -- EpisodePool.reset waits for a free place ------------------------------------------------


class _Waiter(threading.Thread):
    """``pool.reset(indices, **kwargs)`` in a thread of its own; keeps the result or error."""

    def __init__(self, pool: EpisodePool, indices: list[int], **kwargs: Any) -> None:
        super().__init__(daemon=True)
        self.pool, self.indices, self.kwargs = pool, indices, kwargs
        self.result: dict[int, Any] | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.pool.reset(self.indices, **self.kwargs)
        except BaseException as exc:
            self.error = exc


def _pool(**kwargs: Any) -> EpisodePool:
    return EpisodePool([MLEBENCH] * 2, max_live=1, data="replica", sandbox="local", **kwargs)


def _still_waiting(waiter: _Waiter) -> bool:
    waiter.join(timeout=1.0)
    return waiter.is_alive() and waiter.result is None and waiter.error is None


@pytest.mark.slow
def test_pool_reset_waits_without_timeout_until_the_place_is_released() -> None:
    with _pool() as pool:
        pool.reset([0])
        waiter = _Waiter(pool, [1])  # no timeout: waits as long as it takes
        waiter.start()
        assert _still_waiting(waiter)
        assert pool.live == 1 and pool.running(0) and not pool.running(1)
        pool.release(0)  # frees the only place
        waiter.join(timeout=120)
        assert waiter.error is None and waiter.result is not None
        assert "Spaceship" in waiter.result[1][0]
        assert pool.running(1) and not pool.running(0) and pool.live == 1
        assert pool.env(0).unwrapped.workspace is None  # slot 0's sandbox is gone


@pytest.mark.slow
def test_a_waiting_reset_does_not_hold_up_the_steps_that_free_a_place() -> None:
    """With one worker thread, the step that ends slot 0's episode still runs while slot
    1's reset waits (the wait is in the caller's thread, not in a worker)."""
    with _pool(workers=1) as pool:
        pool.reset([0])
        waiter = _Waiter(pool, [1])
        waiter.start()
        assert _still_waiting(waiter)
        stepper = threading.Thread(target=pool.step, args=({0: SUBMIT},), daemon=True)
        stepper.start()
        stepper.join(timeout=120)
        assert not stepper.is_alive(), "the step waited behind the waiting reset"
        waiter.join(timeout=120)
        assert waiter.error is None and waiter.result is not None and pool.running(1)


@pytest.mark.slow
def test_pool_reset_timeout_is_a_clear_pool_busy_and_close_wakes_a_waiter() -> None:
    pool = _pool()
    try:
        pool.reset([0])
        with pytest.raises(PoolBusy) as caught:
            pool.reset([1], timeout=0.2)
        assert isinstance(caught.value, TimeoutError)
        assert str(caught.value).startswith(
            "slot(s) [1] waited 0.2 s for a sandbox place: 1 of the pool's max_live=1 places "
            "are held by slot(s) [0]; step their episodes to the end, release() them"
        )
        assert not pool.running(1) and pool.live == 1  # the failed wait took nothing
        waiter = _Waiter(pool, [1])
        waiter.start()
        assert _still_waiting(waiter)
    finally:
        pool.close()
    waiter.join(timeout=120)
    assert isinstance(waiter.error, RuntimeError) and "closed" in str(waiter.error)


@pytest.mark.slow
def test_pool_reset_frees_the_place_when_a_slot_cannot_start() -> None:
    pool = EpisodePool(
        [MLEBENCH] * 2, max_live=1, make_kwargs=[{"data": "replica"}, {"data_sorce": "replica"}]
    )
    with pool:
        with pytest.raises(TypeError, match="did you mean 'data'"):
            pool.reset([1])
        assert pool.live == 0
        first = pool.reset([0], timeout=0)  # the place is free again: no wait
        assert 0 in first and pool.live == 1


def test_pool_reset_refuses_what_could_never_start() -> None:
    with EpisodePool([MLEBENCH] * 3, max_live=2, data="replica") as pool:
        with pytest.raises(ValueError, match=r"reset of 3 idle slots needs 3 sandbox places, "):
            pool.reset()
        with pytest.raises(ValueError, match=r"timeout must be non-negative and finite, got -1"):
            pool.reset([0], timeout=-1)
        with pytest.raises(ValueError, match=r"timeout must be .*got '5' \(str\)"):
            pool.reset([0], timeout="5")  # type: ignore[arg-type]
        assert pool.live == 0
    with pytest.raises(ValueError, match=r"max_live must be >= 1, got 0"):
        EpisodePool([MLEBENCH], max_live=0)
    with pytest.raises(ValueError, match=r"max_live must be a whole number >= 1 \(int\), got 1.5"):
        EpisodePool([MLEBENCH], max_live=1.5)  # type: ignore[arg-type]
