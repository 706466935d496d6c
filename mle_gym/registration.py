"""Register one gymnasium id per task folder.

Ids are ``<Benchmark>/<task_id>-v<version>``, taken from each task.yaml;
``max_episode_steps`` comes from ``limits.max_steps`` and every env is marked
``nondeterministic=True`` (agent code runs with real time and real processes).
The :class:`~mle_gym.wrappers.budget.StepBudgetSync` wrapper keeps the env's
own budget equal to gymnasium's ``TimeLimit`` so the last step is graded.
"""

from __future__ import annotations

import gymnasium
from gymnasium.envs.registration import WrapperSpec

from mle_gym.tasks import all_tasks

ENTRY_POINT = "mle_gym.env:MLEEnv"
#: families whose tasks take extra gym.make keyword arguments through their own entry point
FAMILY_ENTRY_POINTS = {"mlbench": "mle_gym.families.mlbench:make_env"}
BUDGET_WRAPPER = WrapperSpec(
    name="StepBudgetSync", entry_point="mle_gym.wrappers.budget:StepBudgetSync", kwargs={}
)


def register_all() -> list[str]:
    """Register every discovered task not yet registered; return all of their ids."""
    ids = []
    for spec in all_tasks().values():
        if spec.env_id not in gymnasium.registry:
            gymnasium.register(
                id=spec.env_id,
                entry_point=FAMILY_ENTRY_POINTS.get(spec.family, ENTRY_POINT),
                kwargs={"task": spec.key},
                max_episode_steps=spec.limits.max_steps,
                nondeterministic=True,
                disable_env_checker=False,
                additional_wrappers=(BUDGET_WRAPPER,),
            )
        ids.append(spec.env_id)
    return ids
