"""ML-Bench: turn an instruction into the command (or script) that runs a repository's code.

The family's parts (the layout every family shares, see :mod:`mle_gym.families`):
:mod:`.family` (the episode), :mod:`.task` (task.yaml model, :class:`MLBenchTask`),
:mod:`.options` (``context``, ``split``, ``compat``...), :mod:`.prepare` (cloning the
pinned repositories), :mod:`.grading`, :mod:`.prompts` and :mod:`.policy` (the scripted
reference policy, with :mod:`.solver`). Their helpers, one concern each:

* :mod:`~mle_gym.families.mlbench.schema` — an example of the Hugging Face schema, validated;
* :mod:`~mle_gym.families.mlbench.loader` — examples from the hub, a local export or the
  bundled offline set, by split;
* :mod:`~mle_gym.families.mlbench.folders` — the task folders: bundled repositories (one
  folder each: task, ``repository/``, ``examples/``) and the repository URLs tasks declare;
* :mod:`~mle_gym.families.mlbench.repos` — the repository checkout an example runs in;
* :mod:`~mle_gym.families.mlbench.workspace` — episode and grading copies of a checkout;
* :mod:`~mle_gym.families.mlbench.argcheck` and :mod:`~mle_gym.families.mlbench.execution` — the
  two checks, combined by :mod:`~mle_gym.families.mlbench.grading`;
* :mod:`~mle_gym.evaluation.passk` — the unbiased pass@k estimator.

Importing this package is light (no sandbox backend, no ``datasets``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mle_gym._lazy import lazy_attributes

if TYPE_CHECKING:
    from mle_gym.families.mlbench.family import MLBenchFamily
    from mle_gym.families.mlbench.options import MLBenchConfig, MLBenchOptions
    from mle_gym.families.mlbench.task import MLBenchBlock, MLBenchTask, MLBenchTaskFile

__all__ = [
    "MLBenchBlock",
    "MLBenchConfig",
    "MLBenchFamily",
    "MLBenchOptions",
    "MLBenchTask",
    "MLBenchTaskFile",
]

_lazy = lazy_attributes(
    __name__,
    {
        "MLBenchFamily": "family",
        "MLBenchTask": "task",
        "MLBenchTaskFile": "task",
        "MLBenchBlock": "task",
        "MLBenchConfig": "options",
        "MLBenchOptions": "options",
        # the other public names of the former module mle_gym/families/mlbench.py
        "REWARD_MODES": "family",
        "MAX_SUBMISSION_BYTES": "family",
        "TASK_KEYS": "task",
    },
)

# ``make_env``: the former gym.make entry point of ML-Bench tasks, now MLEEnv (whose
# keywords reach every family); ``OPTION_NAMES``: now options.OPTION_FIELDS
_MOVED = {
    "make_env": "mle_gym.env:MLEEnv",
    "OPTION_NAMES": "mle_gym.families.mlbench.options:OPTION_FIELDS",
}


def __getattr__(name: str) -> object:
    """The family's classes and constants, imported on first use; the former module's
    ``make_env`` and ``OPTION_NAMES``, with a warning naming their new place."""
    if name in _MOVED:
        from mle_gym._deprecation import moved_attribute

        return moved_attribute(__name__, name, _MOVED)
    return _lazy(name)
