"""Baseline agents: ``scripted`` (the reference agent) and ``random``.

An agent has ``reset(task_info)`` and ``act(observation, info) -> action``;
:func:`make_agent` builds one by name.
"""

from __future__ import annotations

from mle_gym.agents.base import Agent
from mle_gym.agents.factory import make_agent

__all__ = ["Agent", "make_agent"]
