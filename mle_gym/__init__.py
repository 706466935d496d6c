"""mle_gym: every ML-engineering benchmark task as a Gymnasium environment.

Importing the package registers one gymnasium id per task folder
(``MLEBench/spaceship-titanic-v0``...) from each folder's task.yaml. It imports
nothing heavy (no docker, torch, ray or scikit-learn) and no task family: a family
is imported when one of its tasks is first used.
"""

from __future__ import annotations

from typing import Any

from mle_gym import _deprecation
from mle_gym.pool import EpisodePool, PoolBusy, StepResult
from mle_gym.registration import register_all

__version__ = "0.1.0"

_deprecation.install()
register_all()

__all__ = ["EpisodePool", "PoolBusy", "StepResult", "__version__", "register_all"]


def __getattr__(name: str) -> Any:
    """``EnvPool``: the deprecated former name of :class:`EpisodePool`."""
    return _deprecation.renamed_attribute(__name__, name, {"EnvPool": "EpisodePool"}, globals())
