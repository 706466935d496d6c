"""MLAgentBench as a task family: research problems with working starter code.

The family's parts (the layout every family shares, see :mod:`mle_gym.families`):
:mod:`.family` (the episode), :mod:`.task` (task.yaml model, :class:`MLAgentBenchTask`),
:mod:`.options` (``rerun``, ``replica_seed``), :mod:`.prepare` (real and replica data),
:mod:`.grading` (grades and rewards, with the hidden evaluators' runner :mod:`.evaluation`,
the starter's :mod:`.baseline` and the timing :mod:`.guard`), :mod:`.prompts` and
:mod:`.policy` (the scripted reference policy); :mod:`.toolset` is MLAgentBench's action
set. Task folders use :mod:`mle_gym.authoring` and :mod:`.authoring`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mle_gym._lazy import lazy_attributes

if TYPE_CHECKING:
    from mle_gym.families.mlagentbench.family import MLAgentBenchFamily
    from mle_gym.families.mlagentbench.task import MLAgentBenchTask

__all__ = ["MLAgentBenchFamily", "MLAgentBenchTask"]

# the family class and task spec, imported on first use
__getattr__ = lazy_attributes(
    __name__, {"MLAgentBenchFamily": "family", "MLAgentBenchTask": "task"}
)
