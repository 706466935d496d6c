"""Reward hacking: a reward without the work (replicas, MLAgentBench, ML-Bench).

The cases live in one module per part (``security/reward_<family>_cases.py``, a ``CASES``
tuple; the attacks in ``security/reward_<family>.py``); this module gathers them.
"""

from __future__ import annotations

from security.cases import gather_parts

TITLE = "Rewards without the work"

_PARTS = ("reward_replica", "reward_mlab", "reward_mlbench")

CASES = gather_parts(_PARTS)
