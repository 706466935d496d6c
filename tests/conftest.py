"""Shared fixtures: an isolated cache per test session, and a ready env factory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def mle_gym_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test session gets its own $MLE_GYM_HOME (replicas generated once per session)."""
    home = tmp_path_factory.mktemp("mle_gym_home")
    old = os.environ.get("MLE_GYM_HOME")
    os.environ["MLE_GYM_HOME"] = str(home)
    yield home
    if old is None:
        os.environ.pop("MLE_GYM_HOME", None)
    else:
        os.environ["MLE_GYM_HOME"] = old


@pytest.fixture
def make_env():
    """``make_env(**kwargs)`` -> a spaceship-titanic env on replica data; closed after the test."""
    import gymnasium as gym

    import mle_gym  # noqa: F401

    envs = []

    def factory(**kwargs):
        kwargs.setdefault("data", "replica")
        env = gym.make("MLEBench/spaceship-titanic-v0", **kwargs)
        envs.append(env)
        return env

    yield factory
    for env in envs:
        env.close()
