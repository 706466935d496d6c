"""MLAgentBench's options: the ``gym.make`` keywords of its tasks beyond the env's own."""

from __future__ import annotations

from pydantic import Field, StrictBool

from mle_gym.families.replicas import ReplicaSeedOptions


class MLAgentBenchOptions(ReplicaSeedOptions):
    """``gym.make("MLAgentBench/<task>-v0", rerun=True, replica_seed=1)``."""

    rerun: StrictBool = Field(
        False, description="run the final code again in a fresh sandbox and score that run"
    )
