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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mle_gym.families.mlebench.family import MLEBenchFamily
    from mle_gym.families.mlebench.task import MLEBenchTask

_NAMES = {"MLEBenchFamily": "family", "MLEBenchTask": "task"}

__all__ = ["MLEBenchFamily", "MLEBenchTask"]


def __getattr__(name: str) -> Any:
    """The family class and task spec, imported on first use."""
    if name in _NAMES:
        return getattr(importlib.import_module(f"{__name__}.{_NAMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
