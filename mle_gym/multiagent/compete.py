"""Compete mode: each agent in its own MLEEnv, graded and ranked at the end (see the
:mod:`mle_gym.multiagent` docstring)."""

from __future__ import annotations

import json
import math
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, ClassVar

from mle_gym.env import MLEEnv
from mle_gym.multiagent.base import (
    ParallelStep,
    _episode_fields,
    _MLEParallelEnv,
    _plain_messages,
    _reset_options,
    _StepResult,
    _with_observation,
)
from mle_gym.multiagent.ranking import Standing, rank_agents, standings_text

DEFAULT_BONUS = 0.25


class CompeteParallelEnv(_MLEParallelEnv):
    """Agents compete, each in its own MLEEnv (see the module docstring)."""

    mode: ClassVar[str] = "compete"

    def __init__(
        self,
        task_id: str,
        n_agents: int = 2,
        *,
        bonus: float = DEFAULT_BONUS,
        render_mode: str | None = None,
        **env_kwargs: Any,
    ) -> None:
        super().__init__(task_id, n_agents, render_mode)
        if not (isinstance(bonus, int | float) and math.isfinite(bonus) and bonus >= 0):
            raise ValueError(f"bonus must be a finite number >= 0, got {bonus!r}")
        self.bonus = float(bonus)
        trajectory = env_kwargs.pop("trajectory_path", None)
        self.envs: dict[str, MLEEnv] = {}
        for agent in self.possible_agents:
            kwargs = dict(env_kwargs)
            if trajectory is not None:
                path = Path(trajectory)
                kwargs["trajectory_path"] = path.with_name(f"{path.stem}.{agent}{path.suffix}")
            self.envs[agent] = MLEEnv(task_id, render_mode=render_mode, **kwargs)
        first = self.envs[self.possible_agents[0]]
        self.task = first.task
        self.tools: list[dict[str, Any]] = first.tools
        self.system_prompt: str = first.system_prompt
        for agent, env in self.envs.items():
            self._observation_spaces[agent] = env.observation_space
            self._action_spaces[agent] = env.action_space
        self._executor: ThreadPoolExecutor | None = None
        self._finished: dict[str, tuple[float, bool, bool, dict[str, Any]]] = {}
        self._standings: dict[str, Standing] = {}

    # -- API -----------------------------------------------------------------------------------

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
        """Start a new game: a fresh MLEEnv episode per agent (``seed + i`` for agent i)."""
        env_options = _reset_options(options)
        observations: dict[str, str] = {}
        infos: dict[str, dict[str, Any]] = {}
        self.agents = []
        self._finished = {}
        self._standings = {}
        self._round = 0
        try:
            for i, agent in enumerate(self.possible_agents):
                obs, info = self.envs[agent].reset(
                    seed=None if seed is None else seed + i, options=env_options
                )
                obs = obs + "\n\n" + self._intro(agent)
                observations[agent] = obs
                infos[agent] = {**_with_observation(info, obs), "waiting": False}
        except BaseException:
            for env in self.envs.values():
                env.release()
            raise
        self.agents = list(self.possible_agents)
        return observations, infos

    def step(self, actions: dict[str, Any]) -> ParallelStep:
        """Step every working agent concurrently; see the module docstring for the contract."""
        working = [a for a in self.agents if a not in self._finished]
        self._check_actions(actions, working)
        self._round += 1
        results = self._step_envs({a: actions[a] for a in working})

        observations: dict[str, str] = {}
        rewards = dict.fromkeys(self.agents, 0.0)
        terminations = dict.fromkeys(self.agents, False)
        truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {}
        for agent, (obs, reward, terminated, truncated, info) in results.items():
            observations[agent] = obs
            infos[agent] = {**info, "waiting": False}
            if terminated or truncated:
                self._finished[agent] = (reward, terminated, truncated, info)
        still = [a for a in self.agents if a not in self._finished]

        if still:
            for agent in self.agents:
                if agent in results and agent not in self._finished:
                    continue
                if agent in results:  # finished on this step
                    note = (
                        "[compete] You are done. Your reward (grade reward plus rank bonus) is "
                        "paid when every agent has finished; until then your actions are ignored."
                    )
                    obs = observations[agent] + "\n\n" + note
                    infos[agent] = {**_with_observation(infos[agent], obs), "waiting": True}
                else:
                    obs = (
                        f"[waiting] Your episode is over; this action was ignored. "
                        f"{len(still)} agent(s) still working: {', '.join(still)}."
                    )
                    infos[agent] = {
                        **_episode_fields(self._finished[agent][3]),
                        "waiting": True,
                        "action_ignored": agent in actions,
                        "messages": _plain_messages(actions.get(agent), obs),
                    }
                observations[agent] = obs
            return observations, rewards, terminations, truncations, infos

        # Every agent is done: rank them and pay out.
        self._standings = rank_agents(
            {a: self._finished[a][3].get("grade") for a in self.agents},
            {a: self._finished[a][0] for a in self.agents},
            lower_is_better=self.task.lower_is_better,
            bonus=self.bonus,
        )
        table = standings_text(self._standings, self.bonus)
        all_standings = [self._standings[a].to_dict() for a in self.agents]
        for agent in self.agents:
            _, terminated, truncated, final_info = self._finished[agent]
            standing = self._standings[agent]
            if agent in results:
                obs = observations[agent] + "\n\n" + table
                info = _with_observation(infos[agent], obs)
            else:
                obs = "[waiting] Every agent has finished; this action was ignored.\n\n" + table
                info = {
                    **_episode_fields(final_info),
                    "action_ignored": agent in actions,
                    "messages": _plain_messages(actions.get(agent), obs),
                }
            observations[agent] = obs
            rewards[agent] = standing.reward
            terminations[agent] = terminated
            truncations[agent] = truncated
            infos[agent] = {
                **info,
                "waiting": False,
                "grade": final_info.get("grade"),
                "rank": standing.rank,
                "place": standing.place,
                "grade_reward": standing.grade_reward,
                "rank_bonus": standing.rank_bonus,
                "reward": standing.reward,
                "standings": all_standings,
            }
        self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """With render_mode="ansi": every agent's transcript, one after another."""
        if self.render_mode != "ansi":
            return None
        parts = []
        for agent, env in self.envs.items():
            parts.append(f"##### {agent} #####\n{env.render() or ''}")
        if self._standings:
            parts.append(standings_text(self._standings, self.bonus) + "\n")
        return "\n".join(parts)

    def state(self) -> str:
        """A JSON snapshot: round, and per agent its status, steps and (once graded) score."""
        agents: dict[str, Any] = {}
        for agent in self.possible_agents:
            if agent in self._finished:
                info = self._finished[agent][3]
                grade = info.get("grade") or {}
                status = "done" if not self.agents else "waiting"
                entry: dict[str, Any] = {
                    "status": status,
                    "steps": info.get("step"),
                    "valid": bool(grade.get("valid")),
                    "score": grade.get("score"),
                }
                if agent in self._standings:
                    entry.update(self._standings[agent].to_dict())
            else:
                entry = {"status": "working" if agent in self.agents else "idle"}
            agents[agent] = entry
        return json.dumps({"mode": self.mode, "round": self._round, "agents": agents})

    def close(self) -> None:
        """Close every agent's MLEEnv (sandbox and workspace) and the thread pool; idempotent."""
        self.agents = []
        try:
            for env in self.envs.values():
                env.close()
        finally:
            if self._executor is not None:
                self._executor.shutdown(wait=True)
                self._executor = None

    # -- internals ------------------------------------------------------------------------------

    def _intro(self, agent: str) -> str:
        others = self.n_agents - 1
        return (
            f"[multi-agent: compete] You are {agent}, one of {self.n_agents} agents solving this "
            f"task at the same time, each in its own workspace ({others} opponent(s)). When every "
            "agent has finished, you earn your own grade reward plus a rank bonus of up to "
            f"{self.bonus:g} for ranking above the others; an invalid submission ranks last and "
            "earns no bonus. After you submit, you wait for the others."
        )

    def _step_envs(self, actions: dict[str, Any]) -> dict[str, _StepResult]:
        """Step the given agents' envs, concurrently when there are several."""
        if len(actions) == 1:
            ((agent, action),) = actions.items()
            return {agent: self.envs[agent].step(action)}
        if self._executor is None:
            self._executor = ThreadPoolExecutor(
                max_workers=self.n_agents, thread_name_prefix="mle_gym-agent"
            )
        futures = {a: self._executor.submit(self.envs[a].step, act) for a, act in actions.items()}
        wait(futures.values())  # let every step finish before reporting a failure
        return {agent: future.result() for agent, future in futures.items()}
