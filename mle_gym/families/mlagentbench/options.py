"""MLAgentBench's options: the ``gym.make`` keywords of its tasks beyond the env's own."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class MLAgentBenchOptions(BaseModel):
    """``gym.make("MLAgentBench/<task>-v0", rerun=True, replica_seed=1)``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rerun: bool = Field(
        False, description="run the final code again in a fresh sandbox and score that run"
    )
    replica_seed: int = Field(0, description="which variant of the offline replica to use")
