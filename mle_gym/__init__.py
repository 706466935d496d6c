"""mle_gym: every ML-engineering benchmark task as a Gymnasium environment.

Importing the package registers one gymnasium id per task folder
(``MLEBench/spaceship-titanic-v0``...). It imports nothing heavy: no docker,
torch, ray or scikit-learn.
"""

from __future__ import annotations

from mle_gym.pool import EnvPool, PoolBusy, StepResult
from mle_gym.registration import register_all

__version__ = "0.1.0"

register_all()

__all__ = ["EnvPool", "PoolBusy", "StepResult", "__version__", "register_all"]
