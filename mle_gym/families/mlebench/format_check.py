"""The agent-facing format check (the ``validate_submission`` tool): never a score.

:class:`FormatChecker` compares a submission with the task's PUBLIC sample
submission only (its ids and columns); it never reads the answers. For
``grader: raw`` tasks it calls the task's ``grade.py`` ``validate(submission,
sample)`` if defined, else checks the header against the sample's.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.grading.csvread import read_submission, read_table
from mle_gym.grading.errors import InvalidSubmission
from mle_gym.grading.validation import validate_submission_frame

_TRUSTED = 2**40


class FormatChecker:
    """Checks submission files of one task against its public sample submission."""

    def __init__(self, task: MLEBenchTask, sample_submission: Path) -> None:
        self.task = task
        self.sample_path = sample_submission
        self._sample: pd.DataFrame | None = None
        self._ids: list[str] | None = None

    def _sample_frame(self) -> pd.DataFrame:
        if self._sample is None:
            self._sample = read_table(self.sample_path, max_bytes=_TRUSTED)
        return self._sample

    def check(self, submission: Path, shown_as: str) -> str:
        """A one-line confirmation, or InvalidSubmission saying what is wrong."""
        spec = self.task.submission
        limit = spec.max_mb * 2**20
        if self.task.grader == "raw":
            frame = read_table(submission, max_bytes=limit)
            sample = self._sample_frame()
            module = self.task.module("grade")
            validate = getattr(module, "validate", None) if module is not None else None
            if callable(validate):
                validate(frame, sample)
            elif list(frame.columns) != list(sample.columns):
                raise InvalidSubmission(
                    f"the header must be {','.join(map(str, sample.columns))}, got "
                    f"{','.join(map(str, frame.columns))}"
                )
            return (
                f"valid: {shown_as} has the expected format ({len(frame):,} rows). "
                "(Validation checks the format only; it does not score.)"
            )
        if self._ids is None:
            sample = read_submission(self.sample_path, spec, max_bytes=_TRUSTED)
            self._ids = sample[spec.id_column].tolist()
        frame = validate_submission_frame(
            read_submission(submission, spec, max_bytes=limit, max_rows=2 * len(self._ids) + 1000),
            self._ids,
            spec,
        )
        return (
            f"valid: {shown_as} has the expected columns ({', '.join(frame.columns)}) and one "
            f"row for each of the {len(frame):,} test ids. (Validation checks the format "
            "only; it does not score.)"
        )
