"""Register one gymnasium id per task folder, through one entry point for every family.

Ids are ``<Benchmark>/<task_id>-v<version>``, read from each task.yaml by the task
index (:func:`mle_gym.tasks.task_index`, which imports no family);
``max_episode_steps`` comes from ``limits.max_steps`` and every env is marked
``nondeterministic=True`` (agent code runs with real time and real processes). The
entry point is :class:`~mle_gym.env.MLEEnv`, whose keyword arguments beyond its own
are the family's options, so ``gym.make(id, replica_seed=1)`` and
``gym.make(id, context="oracle")`` reach the task's family alike. The
:class:`~mle_gym.wrappers.budget.StepBudgetSync` wrapper keeps the env's own budget
equal to gymnasium's ``TimeLimit`` so the last step is graded.
"""

from __future__ import annotations

import gymnasium
from gymnasium.envs.registration import WrapperSpec

from mle_gym.tasks import task_index

ENTRY_POINT = "mle_gym.env:MLEEnv"
BUDGET_WRAPPER = WrapperSpec(
    name="StepBudgetSync", entry_point="mle_gym.wrappers.budget:StepBudgetSync", kwargs={}
)


def register_all() -> list[str]:
    """Register every indexed task not yet registered; return all of their ids."""
    ids = []
    for entry in task_index().values():
        if entry.env_id not in gymnasium.registry:
            gymnasium.register(
                id=entry.env_id,
                entry_point=ENTRY_POINT,
                kwargs={"task": entry.key},
                max_episode_steps=entry.max_steps,
                nondeterministic=True,
                disable_env_checker=False,
                additional_wrappers=(BUDGET_WRAPPER,),
            )
        ids.append(entry.env_id)
    return ids
