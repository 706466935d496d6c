"""What both multi-agent modes share: the PettingZoo base class, agent names, spaces,
action checks, and the helpers that rewrite MLEEnv infos for a game."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from gymnasium.error import ResetNeeded

from mle_gym.spaces import FreeText, ToolCallSpace
from mle_gym.tools.parsing import parse_action

try:
    from pettingzoo import ParallelEnv
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "mle_gym.multiagent needs PettingZoo: pip install 'mle-gym[rl]' (or pettingzoo)"
    ) from exc


# Keys of an MLEEnv info that describe one turn, not the episode: dropped when an info is
# reused for a step in which the agent's own call did not run.
_TURN_KEYS = ("tool", "ok", "error", "tool_meta", "step_elapsed_s", "messages")
_StepResult = tuple[str, float, bool, bool, dict[str, Any]]
# What ParallelEnv.step returns: observations, rewards, terminations, truncations, infos.
ParallelStep = tuple[
    dict[str, str], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]
]


def _with_observation(info: dict[str, Any], text: str) -> dict[str, Any]:
    """A copy of ``info`` whose last chat message (the observation) reads ``text``."""
    info = dict(info)
    messages = info.get("messages")
    if messages and isinstance(messages[-1], dict) and messages[-1].get("role") in ("tool", "user"):
        info["messages"] = [*messages[:-1], {**messages[-1], "content": text}]
    return info


def _plain_messages(action: Any, text: str) -> list[dict[str, Any]]:
    """Chat messages for a turn whose action was not run: the action as given, then the text."""
    messages: list[dict[str, Any]] = []
    if action is not None:
        content = action if isinstance(action, str) else json.dumps(action, default=repr)
        messages.append({"role": "assistant", "content": content})
    messages.append({"role": "user", "content": text})
    return messages


def _episode_fields(info: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of an MLEEnv info that describe the episode rather than one turn."""
    return {k: v for k, v in info.items() if k not in _TURN_KEYS}


def _describe(action: Any, limit: int = 300) -> str:
    """``tool {args}`` of an action for section headers; ``(unparseable action)`` if none."""
    try:
        call = parse_action(action)
    except Exception:
        return "(unparseable action)"
    args = json.dumps(call.args, ensure_ascii=False, default=repr)
    if len(args) > limit:
        args = args[:limit] + "..."
    return f"{call.name} {args}"


def _reset_options(options: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if options and "replica_seed" in options:
        return {"replica_seed": int(options["replica_seed"])}
    return None


class _MLEParallelEnv(ParallelEnv[str, str, Any]):
    """What both modes share: agent names, spaces, metadata, checks, state space."""

    mode: ClassVar[str] = ""

    def __init__(self, task_id: str, n_agents: int, render_mode: str | None) -> None:
        if not isinstance(n_agents, int) or isinstance(n_agents, bool) or n_agents < 1:
            raise ValueError(f"n_agents must be a positive integer, got {n_agents!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.task_id = task_id
        self.n_agents = n_agents
        self.render_mode = render_mode
        self.possible_agents: list[str] = [f"agent_{i}" for i in range(n_agents)]
        self.agents: list[str] = []
        self.metadata: dict[str, Any] = {
            "name": f"mle_gym_{self.mode}_v0",
            "is_parallelizable": True,
            "render_modes": ["ansi"],
            "render_fps": 4,
        }
        self.state_space = FreeText()
        self._observation_spaces: dict[str, FreeText] = {}
        self._action_spaces: dict[str, ToolCallSpace] = {}
        self._round = 0

    def observation_space(self, agent: str) -> FreeText:
        """The agent's observation space (the same object on every call)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> ToolCallSpace:
        """The agent's action space (the same object on every call)."""
        return self._action_spaces[agent]

    def _check_actions(self, actions: Mapping[str, Any], required: list[str]) -> None:
        if not self.agents:
            raise ResetNeeded("call reset() before step(); the game is over or not started")
        unknown = sorted(set(actions) - set(self.possible_agents))
        if unknown:
            raise ValueError(f"actions for unknown agents {unknown}; agents: {self.agents}")
        missing = [a for a in required if a not in actions]
        if missing:
            raise ValueError(f"no action given for {missing}; every working agent must act")
