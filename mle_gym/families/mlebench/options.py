"""MLE-bench's options: the ``gym.make`` keywords of its tasks beyond the env's own."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mle_gym.families.replicas import ReplicaSeedOptions

#: the values of ``grading``: MLE-bench's own verdict (default) or the stricter one
GradingMode = Literal["mlebench", "strict"]


class MLEBenchOptions(ReplicaSeedOptions):
    """``gym.make("MLEBench/<task>-v0", replica_seed=3, grading="strict")``;
    ``options={"replica_seed": n}`` at reset overrides the seed for one episode.

    ``grading``: ``"mlebench"`` (default) grades as MLE-bench's ``grade()`` does — the
    same score or the same rejection, quirks included, so results compare with published
    MLE-bench numbers; the report's ``strict_findings`` and the validation tool's
    warnings say what strict grading would flag. ``"strict"``: the project's stricter
    validation and corrected graders (exact header, ids as in the sample submission,
    rows matched by key; see docs/mlebench-grading.md).
    """

    grading: GradingMode = Field(
        "mlebench", description="mlebench: MLE-bench's verdict (default); strict: stricter"
    )
