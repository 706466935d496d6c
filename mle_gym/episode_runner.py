"""Run one episode of an agent in an env and collect what happened."""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from mle_gym.agents.base import Agent

#: Tool errors kept in :attr:`EpisodeResult.errors` (each cut to 500 characters); the
#: others are only counted in ``error_count``, so the result stays small however long
#: the episode.
MAX_ERRORS = 100


@dataclass
class EpisodeResult:
    """Outcome of :func:`run_episode`."""

    env_id: str
    seed: int | None
    steps: int
    reward: float
    terminated: bool
    truncated: bool
    grade: dict[str, Any] | None
    data_source: str | None
    seconds: float
    episode_id: str | None = None
    errors: list[str] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    error_count: int = 0


def run_episode(
    env: gym.Env,
    agent: Agent,
    seed: int | None = None,
    on_step: Any = None,
    on_reset: Any = None,
) -> EpisodeResult:
    """Reset ``env`` with ``seed``, let ``agent`` act until the episode ends.

    The agent's ``reset`` gets the reset ``info`` plus ``task`` (the TaskSpec),
    ``observation`` and ``tools`` (the env's tool schemas, Chat Completions format).
    ``on_reset(observation, info)`` is called after the reset and
    ``on_step(step_index, action, observation, reward, info)`` after every step
    (e.g. to print the transcript live). ``errors`` keeps the first :data:`MAX_ERRORS`
    tool errors; ``error_count`` counts them all.
    """
    start = time.monotonic()
    obs, info = env.reset(seed=seed)
    if on_reset is not None:
        on_reset(obs, info)
    task = env.unwrapped.task  # type: ignore[attr-defined]
    tools = copy.deepcopy(getattr(env.unwrapped, "tools", None))
    agent.reset({**info, "task": task, "observation": obs, "tools": tools})
    steps, reward, terminated, truncated = 0, 0.0, False, False
    errors: list[str] = []
    error_count = 0
    while not (terminated or truncated):
        action = agent.act(obs, info)
        obs, step_reward, terminated, truncated, info = env.step(action)
        reward = float(step_reward)
        steps += 1
        if info.get("ok") is False and "error" in info:
            error_count += 1
            if len(errors) < MAX_ERRORS:
                errors.append(str(info["error"])[:500])
        if on_step is not None:
            on_step(steps, action, obs, reward, info)
    return EpisodeResult(
        env_id=task.env_id,
        seed=seed,
        steps=steps,
        reward=float(reward),
        terminated=terminated,
        truncated=truncated,
        grade=info.get("grade"),
        data_source=info.get("data_source"),
        seconds=round(time.monotonic() - start, 3),
        episode_id=info.get("episode_id"),
        errors=errors,
        usage=_usage_of(agent),
        error_count=error_count,
    )


def _usage_of(agent: Agent) -> dict[str, Any]:
    usage = getattr(agent, "usage", None)
    if usage is None:
        return {}
    to_dict = getattr(usage, "to_dict", None)
    return dict(to_dict()) if callable(to_dict) else dict(usage)
