"""The result of grading one submission."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

#: A message may quote the submission (column names, values): longer ones keep their
#: head and tail around a marker, so a grade stays small whatever was submitted.
MAX_MESSAGE_CHARS = 4000


@dataclass
class GradeReport:
    """Everything known about one graded (or ungradeable) submission.

    Field meanings:

    * ``score``: the metric value rounded to 5 decimals, or None when the
      submission is missing or invalid; ``valid`` says whether it was graded;
      ``message`` explains an invalid submission ("" when valid); at most
      :data:`MAX_MESSAGE_CHARS` characters (the middle of a longer one is left out).
    * ``submission_exists``: whether a submission file was there at all.
    * thresholds, medals, ``above_median`` and ``percentile`` describe the
      human Kaggle leaderboard. They are only filled on ``data_source ==
      "kaggle"`` with a leaderboard; on other data (an offline ``replica``...)
      they are None, never claimed. On Kaggle data an invalid submission has
      every medal and ``above_median`` False and ``percentile`` None.
    * ``grading``: whose verdict this is — ``"mlebench"`` (MLE-bench's ``grade()``,
      reproduced; the default) or ``"strict"`` (the project's stricter validation).
    * ``strict_findings``: under ``"mlebench"`` grading, what strict grading would have
      flagged (its rejection message, or that it scores differently); empty otherwise.
    * ``sample_submission_score`` and ``reference_score`` anchor a normalised
      score: on Kaggle data the former comes from the leaderboard; otherwise
      both come from the task's data block for that source (either may be None).
    """

    task_id: str
    competition_id: str
    data_source: str
    score: float | None
    valid: bool
    message: str
    submission_exists: bool
    is_lower_better: bool
    gold_threshold: float | None = None
    silver_threshold: float | None = None
    bronze_threshold: float | None = None
    median_threshold: float | None = None
    gold_medal: bool | None = None
    silver_medal: bool | None = None
    bronze_medal: bool | None = None
    any_medal: bool | None = None
    above_median: bool | None = None
    percentile: float | None = None
    sample_submission_score: float | None = None
    reference_score: float | None = None
    grading: str = "strict"
    strict_findings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.message = _clip(self.message)
        self.strict_findings = [_clip(str(f)) for f in self.strict_findings]

    def to_dict(self) -> dict[str, Any]:
        """A plain dict of builtin types (str, bool, float, None), ready for ``json.dumps``."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or value is None or isinstance(value, str):
                out[f.name] = value
            elif isinstance(value, list):
                out[f.name] = [str(v) for v in value]
            elif hasattr(value, "item"):  # numpy scalar
                out[f.name] = value.item()
            else:
                out[f.name] = float(value)
        return out


def _clip(message: str) -> str:
    """``message``, or its head and tail around a marker if longer than MAX_MESSAGE_CHARS."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    half = MAX_MESSAGE_CHARS // 2
    omitted = len(message) - 2 * half
    return f"{message[:half]} [... {omitted:,} characters omitted ...] {message[-half:]}"
