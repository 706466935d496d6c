"""The scripted reference agent: the reference policy of the task's family.

Each family ships one (``TaskFamily.reference_policy``, in the family's
``policy.py``): MLE-bench's works a tabular task as a careful engineer would
(look at the data, write and run the task's reference ``solution.py``, validate,
submit; the generic baseline, then the sample submission, as fallbacks);
MLAgentBench's runs the task's reference ``solution/`` (the starter code as it is
when the task has none), in the env's toolset; ML-Bench's reads the repository's
README and writes the command it documents (it never sees the example's reference
command). The agent picks the policy from ``task_info["task"]`` at every reset.

On every task that can run offline (the MLE-bench replicas, the offline MLAgentBench
tasks, the shipped ML-Bench examples) an episode makes no failing tool call and ends
with a valid submission (``tests/test_scripted_agent.py``).
"""

from __future__ import annotations

from typing import Any

from mle_gym._deprecation import moved_names
from mle_gym.agents.base import Agent, AgentError
from mle_gym.families import family_class
from mle_gym.families.base import ReferencePolicy


class ScriptedAgent(Agent):
    """See module docstring."""

    name = "scripted"

    def __init__(self) -> None:
        self._policy: ReferencePolicy | None = None

    def reset(self, task_info: dict[str, Any]) -> None:
        task = task_info.get("task")
        if task is None:
            raise AgentError(
                "the scripted agent follows the task's reference policy: task_info needs "
                "'task' (the env's TaskSpec, as mle_gym.episode_runner.run_episode passes it)"
            )
        observation = str(task_info.get("observation") or "")
        self._policy = family_class(task.family).reference_policy(task, observation)

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        if self._policy is None:
            raise AgentError("call reset(task_info) before act()")
        return self._policy.act(observation, info)


# generic_solution moved to mle_gym.families.mlebench.policy
__getattr__ = moved_names(
    __name__, {"generic_solution": "mle_gym.families.mlebench.policy:generic_solution"}
)
