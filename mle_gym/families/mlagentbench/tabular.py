"""Helpers for evaluators whose output is a CSV of predictions keyed by an id column.

Reading and format checks reuse :mod:`mle_gym.grading` (size limits, UTF-8, one
row per expected id, typed target values), so MLAgentBench submissions get the
same clear messages as MLE-bench ones. Predictions are aligned with the answers
by id — never by row position.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlagentbench.evaluation import EvaluationFailed
from mle_gym.grading.csvread import read_submission, read_table
from mle_gym.grading.errors import InvalidSubmission
from mle_gym.grading.submission import SubmissionSpec
from mle_gym.grading.validation import validate_submission_frame

MAX_BYTES = 512 * 2**20
_TRUSTED = 2**40


def spec(file: str, id_column: str, targets: list[str], kind: str) -> SubmissionSpec:
    """A submission spec for the shared reader and validator."""
    return SubmissionSpec(
        file=file, id_column=id_column, target_columns=tuple(targets), target_kind=kind
    )


def read_answers(path: Path, id_column: str) -> pd.DataFrame:
    """A trusted answers CSV (every cell text), sorted by id."""
    frame = read_table(path, max_bytes=_TRUSTED)
    return frame.sort_values(id_column, kind="stable").reset_index(drop=True)


def read_predictions(outputs: Path, sub: SubmissionSpec, expected_ids: list[str]) -> pd.DataFrame:
    """The agent's predictions, checked and sorted by id; EvaluationFailed if malformed."""
    path = outputs / sub.file
    if not path.is_file():
        raise EvaluationFailed(
            f"{sub.file} was not found in the workspace; the code must write it with the "
            f"columns {','.join((sub.id_column, *sub.target_columns))}"
        )
    try:
        frame = read_submission(path, sub, max_bytes=MAX_BYTES)
        return validate_submission_frame(frame, expected_ids, sub)
    except InvalidSubmission as exc:
        raise EvaluationFailed(f"{sub.file}: {exc}") from None


def check_file(outputs: Path, sub: SubmissionSpec, public_ids: list[str]) -> str:
    """The ``validate_submission`` message for a format-correct file (raises otherwise)."""
    read_predictions(outputs, sub, public_ids)
    return (
        f"{sub.file} is well-formed: columns {','.join((sub.id_column, *sub.target_columns))}, "
        f"one row per test id ({len(public_ids):,} rows). This check never reveals a score."
    )
