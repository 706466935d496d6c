"""Cooperate mode: a team of agents sharing one MLEEnv (see the :mod:`mle_gym.multiagent`
docstring)."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from mle_gym.env import MLEEnv
from mle_gym.multiagent.base import (
    ParallelStep,
    _describe,
    _episode_fields,
    _MLEParallelEnv,
    _plain_messages,
    _reset_options,
    _with_observation,
)
from mle_gym.spaces import FreeText
from mle_gym.transcript import Transcript


class CooperateParallelEnv(_MLEParallelEnv):
    """Agents cooperate in one shared MLEEnv (see the module docstring)."""

    mode: ClassVar[str] = "cooperate"

    def __init__(
        self,
        task_id: str,
        n_agents: int = 2,
        *,
        render_mode: str | None = None,
        **env_kwargs: Any,
    ) -> None:
        super().__init__(task_id, n_agents, render_mode)
        # The team's transcript is kept here; the shared MLEEnv keeps none.
        self.env = MLEEnv(task_id, render_mode=None, **env_kwargs)
        self.task = self.env.task
        self.tools: list[dict[str, Any]] = self.env.tools
        self.system_prompt: str = self.env.system_prompt
        # One section per agent, each at most an MLEEnv observation plus its header.
        shared_obs = FreeText(max_length=n_agents * (self.env.observation_space.max_length + 1000))
        for agent in self.possible_agents:
            self._observation_spaces[agent] = shared_obs
            self._action_spaces[agent] = self.env.action_space
        self._last_info: dict[str, Any] = {}
        self._calls = 0
        self._ended_by: str | None = None
        self._submitted_by: str | None = None
        self._transcript: Transcript | None = None  # only with render_mode="ansi"

    # -- API -----------------------------------------------------------------------------------

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
        """Start a new episode of the shared MLEEnv; every agent gets the task observation."""
        self.agents = []
        obs, info = self.env.reset(seed=seed, options=_reset_options(options))
        self._last_info = info
        self._calls = 0
        self._round = 0
        self._ended_by = self._submitted_by = None
        self._transcript = Transcript() if self.render_mode == "ansi" else None
        if self._transcript is not None:
            title = f"=== {self.task.env_id} · cooperate · {self.n_agents} agents ==="
            self._transcript.start((title, obs))
        observations: dict[str, str] = {}
        infos: dict[str, dict[str, Any]] = {}
        for agent in self.possible_agents:
            text = obs + "\n\n" + self._intro(agent)
            observations[agent] = text
            infos[agent] = {**_with_observation(info, text), "round": 0}
        self.agents = list(self.possible_agents)
        return observations, infos

    def step(self, actions: dict[str, Any]) -> ParallelStep:
        """Apply every agent's action in agent order; see the module docstring."""
        self._check_actions(actions, self.agents)
        self._round += 1
        sections: list[str] = []
        parts: list[tuple[str, str | None]] = []  # the same, for the transcript
        own: dict[str, dict[str, Any]] = {}
        results: dict[str, dict[str, Any] | None] = {}
        reward, terminated, truncated = 0.0, False, False
        for agent in self.agents:
            action = actions[agent]
            if terminated or truncated:
                sections.append(
                    f"=== {agent}: not applied (the episode ended with {self._ended_by}'s call) ==="
                )
                parts.append((sections[-1], None))
                results[agent] = None
                continue
            obs, reward, terminated, truncated, info = self.env.step(action)
            self._calls += 1
            self._last_info = info
            own[agent] = info
            results[agent] = {"tool": info.get("tool"), "ok": info.get("ok")}
            heading = f"=== {agent}: {_describe(action)} ==="
            sections.append(f"{heading}\n{obs}")
            parts.append((heading, obs))
            if terminated or truncated:
                self._ended_by = agent
                self._submitted_by = agent if terminated else None
        left = self._last_info.get("steps_left")
        header = f"[team step {self._round} · {self._calls} tool calls so far · {left} left]"
        text = header + "\n" + "\n\n".join(sections)
        if self._transcript is not None:
            self._transcript.add((header, None), *parts)

        done = terminated or truncated
        observations = dict.fromkeys(self.agents, text)
        rewards = dict.fromkeys(self.agents, float(reward) if done else 0.0)
        terminations = dict.fromkeys(self.agents, terminated)
        truncations = dict.fromkeys(self.agents, truncated)
        infos: dict[str, dict[str, Any]] = {}
        for agent in self.agents:
            if agent in own:
                info = {**_with_observation(own[agent], text), "applied": True}
            else:
                info = {
                    **_episode_fields(self._last_info),
                    "applied": False,
                    "messages": _plain_messages(actions[agent], text),
                }
            info.update(round=self._round, results=results, steps_left=left)
            if done:
                info.update(
                    grade=self._last_info.get("grade"),
                    reward_mode=self._last_info.get("reward_mode"),
                    ended_by=self._ended_by,
                    submitted_by=self._submitted_by,
                )
                if "truncation_reason" in self._last_info:
                    info["truncation_reason"] = self._last_info["truncation_reason"]
            infos[agent] = info
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """With render_mode="ansi": the team's transcript (one labelled block per step;
        agent-produced text escaped and quoted with ``| ``, bounded: see
        :mod:`mle_gym.transcript`)."""
        if self.render_mode != "ansi":
            return None
        return self._transcript.text() if self._transcript is not None else "\n"

    def state(self) -> str:
        """A JSON snapshot of the shared episode: round, calls made and left, how it ended."""
        info = self._last_info
        return json.dumps(
            {
                "mode": self.mode,
                "round": self._round,
                "tool_calls": self._calls,
                "steps_left": info.get("steps_left"),
                "time_left_s": info.get("time_left_s"),
                "over": not self.agents,
                "ended_by": self._ended_by,
                "submitted_by": self._submitted_by,
                "score": (info.get("grade") or {}).get("score"),
                "workspace": str(self.env.workspace) if self.env.workspace else None,
            }
        )

    def close(self) -> None:
        """Close the shared MLEEnv (sandbox and workspace); idempotent."""
        self.agents = []
        self.env.close()

    # -- internals ------------------------------------------------------------------------------

    def _intro(self, agent: str) -> str:
        budget = self._last_info.get("steps_left")
        return (
            f"[multi-agent: cooperate] You are {agent}, one of a team of {self.n_agents} agents "
            "sharing this one workspace. On every step each agent makes one tool call; the calls "
            "are applied in agent order (agent_0 first) and everyone sees all the results. Each "
            f"call uses one of the team's {budget} tool calls. The first submit ends the episode "
            "for the whole team, and every agent receives the same reward: the grade of that "
            "submission."
        )
