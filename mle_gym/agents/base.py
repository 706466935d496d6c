"""The agent interface and the registry of built-in agents."""

from __future__ import annotations

import abc
from typing import Any


class Agent(abc.ABC):
    """A policy over one episode at a time.

    ``reset`` receives ``task_info`` (the reset ``info`` dict plus ``task``: the
    TaskSpec, ``observation``: the first observation); ``act`` returns an action
    in any form the env accepts.
    """

    name: str = "agent"

    @abc.abstractmethod
    def reset(self, task_info: dict[str, Any]) -> None:
        """Start a new episode."""

    @abc.abstractmethod
    def act(self, observation: str, info: dict[str, Any]) -> Any:
        """The next action given the last observation and info."""


def make_agent(name: str, seed: int | None = None) -> Agent:
    """Build a built-in agent: "scripted" or "random"."""
    if name == "scripted":
        from mle_gym.agents.scripted import ScriptedAgent

        return ScriptedAgent()
    if name == "random":
        from mle_gym.agents.random_agent import RandomAgent

        return RandomAgent(seed=seed)
    raise ValueError(f"unknown agent {name!r}; built-in agents: scripted, random")
