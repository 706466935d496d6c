"""Reward hacking: a reward without the work (replicas, MLAgentBench, ML-Bench).

The cases live in one module per family (``security/reward_<family>.py``, each with a
``CASES`` tuple and the ``@attack`` implementations); this module gathers them.
"""

from __future__ import annotations

import importlib

TITLE = "Rewards without the work"

_PARTS = ("reward_replica", "reward_mlab", "reward_mlbench")


def _gather() -> tuple:
    out: list = []
    for name in _PARTS:
        try:
            module = importlib.import_module(f"security.{name}_cases")
        except ModuleNotFoundError as exc:
            if exc.name != f"security.{name}_cases":
                raise
            continue
        out.extend(module.CASES)
    return tuple(out)


CASES = _gather()
