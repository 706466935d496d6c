"""PettingZoo parallel environments in which several agents work on one task.

    from mle_gym.multiagent import parallel_env

    env = parallel_env("spaceship-titanic", n_agents=2, mode="compete", data="replica")
    observations, infos = env.reset(seed=0)
    while env.agents:
        actions = {a: policies[a](observations[a], infos[a]) for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)
    env.close()

:func:`parallel_env` returns a :class:`pettingzoo.ParallelEnv`. Its agents are named
``agent_0`` ... ``agent_{n-1}``; an observation is text and an action is one tool call in any form
:class:`~mle_gym.env.MLEEnv` accepts. ``observation_space(agent)`` and ``action_space(agent)``
return the same object on every call: MLEEnv's ``ToolCallSpace`` and ``FreeText`` (in cooperate
mode a ``FreeText`` n times as long, as an observation holds every agent's result). Keyword
arguments other than ``bonus`` and ``render_mode`` are passed to every underlying ``MLEEnv``
(``data``, ``reward_mode``, ``max_episode_steps``, ``sandbox``, ``workspace_root``, ...).
Importing this module imports PettingZoo (the ``rl`` extra); ``import mle_gym`` does not.

Common contract
---------------
* ``reset(seed, options)``: ``options["replica_seed"]`` selects the replica variant for every
  agent (all agents always face the same task data); other option keys are ignored. The
  observation is MLEEnv's task observation followed by a paragraph telling the agent its name,
  the mode and how it is rewarded.
* ``step(actions)`` needs an action for every agent that has to act (compete: the agents still
  working; cooperate: every agent). A missing or unknown agent raises ``ValueError`` before
  anything runs; stepping after the game ended raises ``gymnasium.error.ResetNeeded``. Agent
  input itself never raises (bad calls come back as ``error:`` observations, as in MLEEnv).
* The returned dicts are keyed by every agent in ``env.agents`` before the step; when the game
  ends, every agent is terminated or truncated on the same step and ``env.agents`` becomes empty.
* ``render()`` returns a text transcript when ``render_mode="ansi"`` (else None); ``state()``
  returns a JSON text snapshot of the game (a member of ``state_space``); ``close()`` closes
  every MLEEnv (sandboxes stopped, workspaces deleted unless ``keep_workspace``) and the thread
  pool, and is idempotent.

Compete (``mode="compete"``)
----------------------------
Each agent has its own MLEEnv: its own workspace, sandbox and budgets. On every step the
actions of the agents still working run concurrently, one thread per agent.

* An agent whose MLEEnv episode ends (it called ``submit``, or its step or time budget ran out)
  is graded at once and then *waits*: it stays in ``env.agents``; on that step it observes
  MLEEnv's final observation (its grade) plus a note; on later steps its action is ignored (it
  may be left out of ``actions``) and it observes a line saying so. ``infos[agent]["waiting"]``
  is True while it waits.
* When the last agent finishes, the game ends for all on that step. ``terminations[agent]`` /
  ``truncations[agent]`` are how that agent's own MLEEnv episode ended (submit: terminated;
  budget: truncated), and every agent observes the final standings.
* Rewards are 0 on every step before the end. At the end agent ``i`` receives::

      reward_i     = grade_reward_i + rank_bonus_i
      rank_bonus_i = bonus * (n - 1 - rank_i) / (n - 1)   if i's submission is valid and n > 1
      rank_bonus_i = 0                                    otherwise

  ``grade_reward_i`` is the reward agent i's MLEEnv paid when it finished (``reward_mode``; 0
  for an invalid or ungraded submission). ``rank_i`` is the tie-averaged 0-based rank, best
  first, in the task's direction (higher or lower score is better)::

      rank_i = #(agents standing strictly above i) + #(other agents standing level with i) / 2

  A valid submission stands above every invalid or ungraded one; equal scores stand level; all
  invalid submissions stand level at the bottom (and earn no bonus). Two agents with the same
  score therefore both get rank 0.5 of 2 and half the bonus; when every submission is valid the
  bonuses add up to exactly ``bonus * n / 2``. ``place`` = 1 + #(agents strictly above) is the
  1-based place for display (ties share the better place).
* At the end ``infos[agent]`` is the MLEEnv info of the agent's final step (for an agent that
  finished earlier, without that step's per-turn keys ``tool``, ``ok``, ``messages``...) with
  ``grade`` (the full report, or None if ungraded) plus ``rank``, ``place``, ``grade_reward``,
  ``rank_bonus``, ``reward`` and ``standings`` (every agent's score, validity, rank, place and
  reward).
* A ``trajectory_path`` is split per agent: ``run.jsonl`` becomes ``run.agent_0.jsonl``, ...

Cooperate (``mode="cooperate"``)
--------------------------------
One MLEEnv, so one workspace and one sandbox shared by the team.

* On every step the agents' actions are applied one after another in agent order (``agent_0``
  first), so a file written by ``agent_0`` is already visible to ``agent_1``'s call of the same
  step. Every applied action is one step of the shared MLEEnv: ``max_episode_steps`` is the
  team's budget of tool calls (n agents use n of them per step) and the time budget is the
  team's wall clock. ``infos[agent]["steps_left"]`` is the team's remaining calls.
* The episode ends for every agent on the step where any agent calls ``submit`` (terminated) or
  the team's budget runs out (truncated; the submission file is graded as MLEEnv does). Actions
  later in the order on that step are not applied, and their sections say so.
* Every agent observes the same text: a header line with the step number and the calls left,
  then one section per agent, ``=== agent_k: <tool> <args> ===`` followed by the result of that
  call (MLEEnv's observation, including the grade summary for the call that ended the episode).
* Rewards are 0 until the end; then every agent receives the same team reward: the reward of the
  shared MLEEnv's final step, i.e. the grade reward of the team's one submission.
* ``infos[agent]`` is the MLEEnv info of the agent's own call (``applied=True``) or the latest
  shared info (``applied=False``), plus ``round`` and ``results`` (each agent's tool and
  ``ok``); at the end also ``grade``, ``reward_mode``, ``ended_by`` (the agent whose call ended
  the episode) and ``submitted_by`` (that agent if it submitted, else None).
"""

from __future__ import annotations

import copy
import json
import math
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, ClassVar

from gymnasium.error import ResetNeeded

from mle_gym.agents.base import Agent
from mle_gym.env import MLEEnv
from mle_gym.spaces import FreeText, ToolCallSpace
from mle_gym.tools.parsing import parse_action
from mle_gym.transcript import Transcript

try:
    from pettingzoo import ParallelEnv
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "mle_gym.multiagent needs PettingZoo: pip install 'mle-gym[rl]' (or pettingzoo)"
    ) from exc

MODES = ("compete", "cooperate")
DEFAULT_BONUS = 0.25

# Keys of an MLEEnv info that describe one turn, not the episode: dropped when an info is
# reused for a step in which the agent's own call did not run.
_TURN_KEYS = ("tool", "ok", "error", "tool_meta", "step_elapsed_s", "messages")
_StepResult = tuple[str, float, bool, bool, dict[str, Any]]
# What ParallelEnv.step returns: observations, rewards, terminations, truncations, infos.
ParallelStep = tuple[
    dict[str, str], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]
]


# -- ranking -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One agent's result in a compete game (see the module docstring for the definitions)."""

    agent: str
    score: float | None
    valid: bool
    rank: float
    place: int
    grade_reward: float
    rank_bonus: float

    @property
    def reward(self) -> float:
        """The agent's final reward: grade reward plus rank bonus."""
        return self.grade_reward + self.rank_bonus

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict, with ``reward``."""
        return {**asdict(self), "reward": self.reward}


def _valid_score(grade: Mapping[str, Any] | None) -> float | None:
    """The grade's score if the submission is valid and the score finite, else None."""
    if not grade or not grade.get("valid"):
        return None
    score = grade.get("score")
    if score is None:
        return None
    value = float(score)
    return value if math.isfinite(value) else None


def rank_agents(
    grades: Mapping[str, Mapping[str, Any] | None],
    grade_rewards: Mapping[str, float],
    *,
    lower_is_better: bool,
    bonus: float,
) -> dict[str, Standing]:
    """Rank agents by their grades and compute their compete rewards.

    ``grades`` maps each agent to its grade report (a dict with ``valid`` and ``score``) or None
    if it was not graded; ``grade_rewards`` maps each agent to the reward its own MLEEnv paid.
    Returns one :class:`Standing` per agent, with ``rank`` (tie-averaged, 0 = best), ``place``
    (1-based, ties share the better place) and ``rank_bonus`` as defined in the module docstring.
    """
    n = len(grades)
    keys: dict[str, tuple[int, float]] = {}
    scores: dict[str, float | None] = {}
    for agent, grade in grades.items():
        score = _valid_score(grade)
        scores[agent] = score
        if score is None:
            keys[agent] = (0, 0.0)
        else:
            keys[agent] = (1, -score if lower_is_better else score)
    out: dict[str, Standing] = {}
    for agent, key in keys.items():
        above = sum(1 for other, k in keys.items() if other != agent and k > key)
        level = sum(1 for other, k in keys.items() if other != agent and k == key)
        rank = above + level / 2
        valid = scores[agent] is not None
        rank_bonus = bonus * (n - 1 - rank) / (n - 1) if valid and n > 1 else 0.0
        out[agent] = Standing(
            agent=agent,
            score=scores[agent],
            valid=valid,
            rank=rank,
            place=above + 1,
            grade_reward=float(grade_rewards.get(agent, 0.0)) if valid else 0.0,
            rank_bonus=rank_bonus,
        )
    return out


def standings_text(standings: Mapping[str, Standing], bonus: float) -> str:
    """The final standings as a short table for observations and the demo."""
    lines = [f"[game over] Final standings (rank bonus up to {bonus:g}):"]
    for s in sorted(standings.values(), key=lambda s: (s.rank, s.agent)):
        score = f"score {s.score:g}" if s.valid else "invalid or no submission"
        lines.append(
            f"  place {s.place}  {s.agent}  {score}  rank {s.rank:g}  reward {s.reward:.4g} "
            f"(grade {s.grade_reward:.4g} + bonus {s.rank_bonus:.4g})"
        )
    return "\n".join(lines)


# -- helpers -----------------------------------------------------------------------------------


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


# -- environments ------------------------------------------------------------------------------


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


def parallel_env(
    task_id: str,
    n_agents: int = 2,
    mode: str = "compete",
    *,
    bonus: float | None = None,
    render_mode: str | None = None,
    **env_kwargs: Any,
) -> CompeteParallelEnv | CooperateParallelEnv:
    """A PettingZoo ParallelEnv of ``n_agents`` agents on ``task_id`` (see module docstring).

    Args:
        task_id: env id, task key or task id, as for :class:`~mle_gym.env.MLEEnv`.
        n_agents: number of agents (>= 1), named ``agent_0`` ... ``agent_{n-1}``.
        mode: "compete" (one MLEEnv per agent, grade reward plus rank bonus) or "cooperate"
            (one shared MLEEnv, one team reward).
        bonus: compete only: the rank bonus of the best agent (default 0.25).
        render_mode: None or "ansi".
        **env_kwargs: passed to every MLEEnv (``data``, ``reward_mode``, ``max_episode_steps``...).
    """
    if mode == "compete":
        return CompeteParallelEnv(
            task_id,
            n_agents,
            bonus=DEFAULT_BONUS if bonus is None else bonus,
            render_mode=render_mode,
            **env_kwargs,
        )
    if mode == "cooperate":
        if bonus is not None:
            raise ValueError("bonus applies to mode='compete' only")
        return CooperateParallelEnv(task_id, n_agents, render_mode=render_mode, **env_kwargs)
    raise ValueError(f"mode must be one of {MODES}, got {mode!r}")


def run_game(
    env: CompeteParallelEnv | CooperateParallelEnv,
    agents: Mapping[str, Agent],
    *,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, dict[str, Any]]:
    """Play one game with one :class:`~mle_gym.agents.Agent` per agent name until it ends.

    Each agent is reset with its own reset info plus ``task``, ``observation`` and ``tools`` (as
    :func:`mle_gym.runner.run_episode` does), then fed its own observations and infos; waiting
    agents (compete) are not asked to act. Returns per agent ``{"reward", "terminated",
    "truncated", "info", "steps", "seconds"}``, where ``steps`` counts the steps in which the
    agent acted and ``info`` is its final info.
    """
    start = time.monotonic()
    observations, infos = env.reset(seed=seed, options=options)
    for name, agent in agents.items():
        task_info = {
            **infos[name],
            "task": env.task,
            "observation": observations[name],
            "tools": copy.deepcopy(env.tools),
        }
        agent.reset(task_info)
    steps = dict.fromkeys(env.possible_agents, 0)
    final: dict[str, dict[str, Any]] = {}
    while env.agents:
        actions = {}
        for name in env.agents:
            if not infos[name].get("waiting"):
                actions[name] = agents[name].act(observations[name], infos[name])
                steps[name] += 1
        observations, rewards, terminations, truncations, infos = env.step(actions)
        for name in rewards:
            if terminations[name] or truncations[name]:
                final[name] = {
                    "reward": rewards[name],
                    "terminated": terminations[name],
                    "truncated": truncations[name],
                    "info": infos[name],
                    "steps": steps[name],
                    "seconds": round(time.monotonic() - start, 3),
                }
    return final


__all__ = [
    "DEFAULT_BONUS",
    "MODES",
    "CompeteParallelEnv",
    "CooperateParallelEnv",
    "Standing",
    "parallel_env",
    "rank_agents",
    "run_game",
    "standings_text",
]
