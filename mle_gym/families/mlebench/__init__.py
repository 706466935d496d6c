"""MLE-bench as a task family: Kaggle competitions graded on a CSV submission.

The family's parts (the layout every family shares, see :mod:`mle_gym.families`):
:mod:`.family` (the hooks), :mod:`.task` (task.yaml model, :class:`MLEBenchTask`),
:mod:`.options` (``replica_seed``), :mod:`.prepare` (Kaggle, replica and bundled data),
:mod:`.grading` (the grader, with :mod:`.format_check`, :mod:`.leaderboard` and
:mod:`.grade_report`), :mod:`.rewards`, :mod:`.prompts` and :mod:`.policy` (the scripted
reference policy). Task folders use :mod:`mle_gym.authoring`; their grading cases
(``grading_cases.py``) the public kit :mod:`.testing`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mle_gym._lazy import lazy_attributes

if TYPE_CHECKING:
    from mle_gym.families.mlebench.family import MLEBenchFamily
    from mle_gym.families.mlebench.task import MLEBenchTask

__all__ = ["MLEBenchFamily", "MLEBenchTask"]

# the family class and task spec, imported on first use
__getattr__ = lazy_attributes(__name__, {"MLEBenchFamily": "family", "MLEBenchTask": "task"})
