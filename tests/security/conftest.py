"""Fixtures of the security suite: real host targets and an env under attack."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from security.cases import ENV_KWARGS, FAKE_API_KEY, FAKE_API_KEY_NAME, Case
from security.harness import Agent, Ctx, HostTargets, Secrets


@pytest.fixture
def host_targets() -> Iterator[HostTargets]:
    """TCP servers on every host address, a UDP socket and a ``sleep``, for this test."""
    targets = HostTargets.start()
    yield targets
    targets.close()


@pytest.fixture
def attack_ctx(
    make_env, backend: str, host_targets: HostTargets, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[Case], Ctx]]:
    """``attack_ctx(case)`` -> a fresh env (the suite's limits + the case's) reset once,
    with a fake API key in the host environment."""
    monkeypatch.setenv(FAKE_API_KEY_NAME, FAKE_API_KEY)
    made: list = []

    def make(case: Case) -> Ctx:
        if case.task is not None:
            import gymnasium as gym

            import mle_gym  # noqa: F401

            env = gym.make(case.task, **{"sandbox": backend, **case.env})
            made.append(env)
            agent = Agent(env, backend)
            agent.reset()
            return Ctx(agent, None, host_targets, backend)
        env = make_env(**{**ENV_KWARGS, **case.env})
        agent = Agent(env, backend)
        agent.reset()
        return Ctx(agent, Secrets.of(env), host_targets, backend)

    yield make
    for env in made:
        env.close()
