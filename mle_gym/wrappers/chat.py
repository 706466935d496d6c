"""ChatWrapper: observations as OpenAI chat message lists, actions as the model's output.

    env = ChatWrapper(gym.make("MLEBench/spaceship-titanic-v0"))
    messages, info = env.reset(seed=0)          # [system, user]
    while True:
        reply = client.chat.completions.create(model=..., messages=messages, tools=env.tools)
        messages, reward, terminated, truncated, info = env.step(reply.choices[0].message)
        if terminated or truncated:
            break

Contract: the observation is the whole conversation so far, as a fresh list of
plain dicts in OpenAI Chat Completions format — the system prompt (the tools and
the tool-call conventions), the task as the first user message, then for every
step the assistant message exactly as the policy produced it (a message object
or dict with ``tool_calls``, or raw text with a ``<tool_call>`` block) followed
by the ``tool`` message with the result (or a ``user`` message when no tool call
could be read). ``env.tools`` holds the tool schemas for the ``tools=`` argument.
Rewards, termination and ``info`` are the wrapped env's.
"""

from __future__ import annotations

import copy
from typing import Any

import gymnasium as gym
from gymnasium import spaces


class ChatMessages(spaces.Space[list]):
    """A list of chat messages (dicts with a ``role``)."""

    def __init__(self) -> None:
        super().__init__(shape=None, dtype=None)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any = None, probability: Any = None) -> list[dict[str, Any]]:
        return [{"role": "user", "content": "hello"}]

    def contains(self, x: Any) -> bool:
        return isinstance(x, list) and all(isinstance(m, dict) and "role" in m for m in x)


def _plain(action: Any) -> Any:
    """An SDK message object (pydantic) as a plain dict; anything else unchanged."""
    dump = getattr(action, "model_dump", None)
    if callable(dump):
        return {k: v for k, v in dump().items() if v is not None or k == "content"}
    return action


class ChatWrapper(gym.Wrapper):
    """See module docstring."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.observation_space = ChatMessages()
        self._messages: list[dict[str, Any]] = []

    @property
    def tools(self) -> list[dict[str, Any]]:
        """Tool schemas (OpenAI Chat Completions ``tools`` format)."""
        return copy.deepcopy(self.env.unwrapped.tools)  # type: ignore[attr-defined]

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The conversation so far (a copy)."""
        return copy.deepcopy(self._messages)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        _, info = self.env.reset(seed=seed, options=options)
        self._messages = copy.deepcopy(info["messages"])
        return self.messages, info

    def step(self, action: Any):
        _, reward, terminated, truncated, info = self.env.step(_plain(action))
        self._messages.extend(copy.deepcopy(info["messages"]))
        return self.messages, reward, terminated, truncated, info
