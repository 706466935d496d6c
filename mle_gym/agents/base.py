"""The agent interface and per-episode usage accounting.

An agent is a policy over one episode at a time: ``reset(task_info)`` starts an
episode, ``act(observation, info)`` returns the next action in any form the env
accepts. Every agent also carries :attr:`Agent.usage`, an :class:`AgentUsage`
record of what the current episode cost in model calls (all zeros for agents
that call no model), replaced by a fresh record at every ``reset``.

:func:`mle_gym.agents.factory.make_agent` builds agents by name. This module imports
nothing heavy.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from mle_gym._deprecation import moved_names


class AgentError(RuntimeError):
    """An agent cannot produce an action (e.g. its model endpoint keeps failing)."""


class AgentConfigError(AgentError, ValueError):
    """An agent cannot be built as asked: unknown name, bad import path, bad settings."""


@dataclass
class AgentUsage:
    """What one episode cost in model calls; a fresh record is made at every ``reset``.

    Attributes:
        requests: HTTP requests sent to the model, retries included.
        prompt_tokens, completion_tokens, total_tokens: summed from the ``usage``
            the server reported with each successful response (responses without
            ``usage`` add nothing and are counted in ``extra["responses_without_usage"]``).
        retries: requests that repeated a failed one.
        errors: failed requests (HTTP errors, timeouts, connection errors,
            malformed responses), whether or not a retry followed.
        model_seconds: wall-clock seconds spent waiting for responses.
        backoff_seconds: wall-clock seconds slept between a failure and its retry.
        extra: agent-specific counters (e.g. the ``llm`` agent's context trimming).
    """

    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    retries: int = 0
    errors: int = 0
    model_seconds: float = 0.0
    backoff_seconds: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def wait_seconds(self) -> float:
        """All the time the episode spent on the model: responses plus backoff."""
        return self.model_seconds + self.backoff_seconds

    def bump(self, key: str, amount: float = 1) -> None:
        """Add ``amount`` to the agent-specific counter ``extra[key]``."""
        self.extra[key] = self.extra.get(key, 0) + amount

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (seconds rounded to the millisecond)."""
        out = asdict(self)
        out["model_seconds"] = round(self.model_seconds, 3)
        out["backoff_seconds"] = round(self.backoff_seconds, 3)
        out["wait_seconds"] = round(self.wait_seconds, 3)
        return out


def _clearing_usage(reset: Callable[..., None]) -> Callable[..., None]:
    """Wrap an agent's ``reset`` so that it starts a fresh :class:`AgentUsage` first.

    A nested call (a subclass's ``reset`` calling ``super().reset``) does not
    start another one, so counts a subclass makes before delegating survive.
    """

    @functools.wraps(reset)
    def wrapper(self: Agent, *args: Any, **kwargs: Any) -> None:
        if self._in_reset:
            return reset(self, *args, **kwargs)
        self._in_reset = True
        try:
            self._usage = AgentUsage()
            return reset(self, *args, **kwargs)
        finally:
            self._in_reset = False

    wrapper._clears_usage = True  # type: ignore[attr-defined]
    return wrapper


class Agent(abc.ABC):
    """A policy over one episode at a time.

    Contract:

    * ``reset(task_info)`` starts an episode. ``task_info`` is the reset ``info``
      dict (``messages`` = [system, user] in OpenAI chat format, ...) plus
      ``task`` (the TaskSpec), ``observation`` (the first observation) and, when
      built by :func:`mle_gym.episode_runner.run_episode`, ``tools`` (the env's tool
      schemas in Chat Completions format).
    * ``act(observation, info)`` returns the next action in any form the env
      accepts. The first call after ``reset`` gets the reset observation and
      info; later calls get the last step's observation and info.
    * ``usage`` is the current episode's :class:`AgentUsage`. Every subclass's
      ``reset`` is wrapped (at class creation) so that a fresh record replaces
      the old one before the subclass's own code runs, even if it never calls
      ``super().reset``; a record someone kept from an earlier episode stays as
      it was.
    """

    name: str = "agent"
    #: True while the outermost wrapped ``reset`` of this agent runs
    _in_reset: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        reset = cls.__dict__.get("reset")
        if callable(reset) and not getattr(reset, "_clears_usage", False):
            cls.reset = _clearing_usage(reset)  # type: ignore[method-assign]

    @property
    def usage(self) -> AgentUsage:
        """Model usage of the current episode (since the last ``reset``)."""
        usage = getattr(self, "_usage", None)
        if usage is None:
            usage = self._usage = AgentUsage()
        return usage

    @usage.setter
    def usage(self, value: AgentUsage) -> None:
        if not isinstance(value, AgentUsage):
            raise TypeError(f"Agent.usage must be an AgentUsage, got {type(value).__name__}")
        self._usage = value

    @abc.abstractmethod
    def reset(self, task_info: dict[str, Any]) -> None:
        """Start a new episode."""

    @abc.abstractmethod
    def act(self, observation: str, info: dict[str, Any]) -> Any:
        """The next action given the last observation and info."""


# the agent factory's names, which moved to mle_gym.agents.factory
__getattr__ = moved_names(
    __name__,
    {
        n: f"mle_gym.agents.factory:{n}"
        for n in ("make_agent", "load_agent_class", "BUILTIN_AGENTS")
    },
)
