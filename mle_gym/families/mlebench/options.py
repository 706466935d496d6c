"""MLE-bench's options: the ``gym.make`` keywords of its tasks beyond the env's own."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class MLEBenchOptions(BaseModel):
    """``gym.make("MLEBench/<task>-v0", replica_seed=3)``; ``options={"replica_seed": n}``
    at reset overrides it for one episode."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    replica_seed: int = Field(0, description="which variant of the offline replica to use")
