"""What a CSV submission must look like: the spec the shared reader and validator check."""

from __future__ import annotations

from dataclasses import dataclass

#: kinds of target column (``mle_gym.families.mlebench.task.TargetKind`` is the same list)
TARGET_KINDS = ("binary", "integer", "numeric", "probability", "label")


@dataclass(frozen=True)
class SubmissionSpec:
    """What the agent must hand in."""

    file: str
    id_column: str
    target_columns: tuple[str, ...]
    target_kind: str  # one of TARGET_KINDS
    allow_empty: bool = False  # label targets may be blank (e.g. "no objects")
    max_mb: int = 200  # the largest submission file accepted
