"""Controls: the suite's checks catch a real hole.

The ``unsafe-local`` backend runs commands on the host without isolation. Run there,
the attacks below must *succeed*, so the case's checks must fail: this shows the
leak detector, the host-side checks and the expected phrases can fail at all.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import pytest

import mle_gym  # noqa: F401
from security.cases import CASES_BY_ID, ENV_KWARGS, FAKE_API_KEY, FAKE_API_KEY_NAME
from security.harness import Agent, Ctx, HostTargets, Secrets, assert_no_leak
from security.suite import run_case

CONTROLS = [
    "answers-host-path",
    "host-env-secrets",
    "host-process-list",
    "network-host-loopback",
    "write-host-paths",
]


@pytest.fixture
def unsafe_ctx(monkeypatch: pytest.MonkeyPatch) -> Iterator[Ctx]:
    monkeypatch.setenv(FAKE_API_KEY_NAME, FAKE_API_KEY)
    host = HostTargets.start()
    env = gym.make(
        "MLEBench/spaceship-titanic-v0", data="replica", sandbox="unsafe-local", **ENV_KWARGS
    )
    agent = Agent(env, "unsafe-local")
    agent.reset()
    ctx = Ctx(agent, Secrets.of(env), host, "local")
    public = Path(ctx.env.data_dir)
    yield ctx
    env.close()
    host.close()
    # What the unsafe attacks managed to write on the host.
    marker = f"mle-gym-escape-{host.sleeper_tag}"
    for leftover in (Path("/tmp", marker), public / marker):
        leftover.unlink(missing_ok=True)


@pytest.mark.parametrize("case_id", CONTROLS)
def test_checks_fail_without_a_sandbox(case_id: str, unsafe_ctx: Ctx) -> None:
    importlib.import_module(f"security.test_{CASES_BY_ID[case_id].category}")
    with pytest.raises(AssertionError):
        run_case(CASES_BY_ID[case_id], unsafe_ctx)


def test_leak_detector_flags_the_answers_and_not_guesses(unsafe_ctx: Ctx) -> None:
    agent, secrets = unsafe_ctx.agent, unsafe_ctx.secrets
    agent.execute(f"head -n 40 {secrets.path}")
    with pytest.raises(AssertionError, match="leaked answers"):
        assert_no_leak(agent, secrets)
    guesses = Agent(agent.env, "unsafe-local")
    guesses.execute("sed 's/False$/True/' data/sample_submission.csv | head -n 300")
    guesses.execute("head -n 300 data/sample_submission.csv")
    assert_no_leak(guesses, secrets)
