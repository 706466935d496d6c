"""MLE-bench's options: the ``gym.make`` keywords of its tasks beyond the env's own."""

from __future__ import annotations

from mle_gym.families.replicas import ReplicaSeedOptions


class MLEBenchOptions(ReplicaSeedOptions):
    """``gym.make("MLEBench/<task>-v0", replica_seed=3)``; ``options={"replica_seed": n}``
    at reset overrides it for one episode."""
