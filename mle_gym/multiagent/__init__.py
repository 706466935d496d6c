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

Code: :mod:`.ranking` (ranks and rewards), :mod:`.base` (what both modes share),
:mod:`.compete` and :mod:`.cooperate` (the two environments); every public name is
imported from here.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Mapping
from typing import Any

from mle_gym.agents.base import Agent
from mle_gym.multiagent.base import ParallelStep
from mle_gym.multiagent.compete import DEFAULT_BONUS, CompeteParallelEnv
from mle_gym.multiagent.cooperate import CooperateParallelEnv
from mle_gym.multiagent.ranking import Standing, rank_agents, standings_text

MODES = ("compete", "cooperate")


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

    Each agent is reset with its own reset info plus ``task``, ``observation`` and ``tools``
    (as :func:`mle_gym.episode_runner.run_episode` does), then fed its own observations and
    infos; waiting agents (compete) are not asked to act. Returns per agent ``{"reward",
    "terminated", "truncated", "info", "steps", "seconds"}``, where ``steps`` counts the steps
    in which the agent acted and ``info`` is its final info.
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
    "ParallelStep",
    "Standing",
    "parallel_env",
    "rank_agents",
    "run_game",
    "standings_text",
]
