"""Submission checks for task graders: header, numbers, whole numbers, row pairing.

Every check raises :class:`~mle_gym.grading.InvalidSubmission` with a message
meant for the agent (what is wrong, the first offending row, never an answer),
or :class:`RuntimeError` when the file at fault is not the submission but one
the task ships (the sample submission, the answers): that is a bug of the task,
not of the agent. Data rows are numbered from 1, the header not counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from mle_gym.grading.errors import InvalidSubmission

SUBMISSION = "submission"

# pandas.read_csv's default missing-value strings (pandas 2.x and 3.x): a cell
# holding exactly one of these (case and spaces included) is read as NaN.
PANDAS_NA_STRINGS = frozenset(
    {
        "",
        "#N/A",
        "#N/A N/A",
        "#NA",
        "-1.#IND",
        "-1.#QNAN",
        "-NaN",
        "-nan",
        "1.#IND",
        "1.#QNAN",
        "<NA>",
        "N/A",
        "NA",
        "NULL",
        "NaN",
        "None",
        "n/a",
        "nan",
        "null",
    }
)


def label_sets(values: pd.Series) -> list[set[str]]:
    """Whitespace-separated labels of each cell, as sets; a cell pandas reads as missing is empty.

    MLE-bench's multi-label graders read the CSV with pandas and split each cell
    on whitespace, so a cell in :data:`PANDAS_NA_STRINGS` is no label at all.
    """
    return [set() if v in PANDAS_NA_STRINGS else set(str(v).split()) for v in values]


def check_columns(frame: pd.DataFrame, columns: Sequence[str]) -> None:
    """The header holds exactly ``columns`` (any order), each once; else InvalidSubmission.

    The message lists the missing, unexpected and repeated names.
    """
    names = [str(c) for c in frame.columns]
    problems = []
    missing = [c for c in columns if c not in names]
    extra = [c for c in names if c not in columns]
    repeated = sorted({c for c in names if names.count(c) > 1})
    if missing:
        problems.append(f"missing {', '.join(missing)}")
    if extra:
        problems.append(f"unexpected {', '.join(extra)}")
    if repeated:
        problems.append(f"repeated {', '.join(repeated)}")
    if problems:
        raise InvalidSubmission(
            f"the header must hold exactly the columns {','.join(columns)}; "
            f"columns {'; '.join(problems)}"
        )


def require_answer_columns(answers: pd.DataFrame, columns: Sequence[str]) -> None:
    """RuntimeError naming the ``columns`` the answers file lacks (a bug of the task)."""
    missing = [c for c in columns if c not in answers.columns]
    if missing:
        raise RuntimeError(f"the answers lack the column(s) {', '.join(missing)}")


def check_row_count(submission: pd.DataFrame, answers: pd.DataFrame) -> None:
    """InvalidSubmission unless the submission has one row per answers row."""
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission):,} rows but {len(answers):,} are expected "
            "(one per row of sample_submission.csv)"
        )


def numbers(frame: pd.DataFrame, column: str) -> np.ndarray:
    """``frame[column]`` as finite float64 values (cells stripped of spaces first).

    InvalidSubmission naming the count of bad cells and the first one when a
    cell is not a finite number (empty, text, NaN or infinite).
    """
    text = frame[column].astype(str)
    values = pd.to_numeric(text.str.strip(), errors="coerce").to_numpy(dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        raise InvalidSubmission(
            f"{column} must be a number in every row; {len(bad):,} row(s) are not, e.g. data "
            f"row {bad[0] + 1} holds {text.iloc[bad[0]]!r}"
        )
    return values


def integers(frame: pd.DataFrame, column: str, owner: str = SUBMISSION) -> np.ndarray:
    """``frame[column]`` as int64, every cell a finite whole number.

    ``owner`` names the file: for ``"submission"`` a bad cell raises
    InvalidSubmission; for any other file (``"sample"``, ``"answers"``) it
    raises RuntimeError("the <owner> file is unusable: ...").
    """
    try:
        values = numbers(frame, column)
    except InvalidSubmission as exc:
        if owner == SUBMISSION:
            raise
        raise RuntimeError(f"the {owner} file is unusable: {exc}") from None
    bad = np.flatnonzero(values != np.round(values))
    if len(bad):
        message = f"{column} must be a whole number; data row {bad[0] + 1} holds {values[bad[0]]}"
        if owner == SUBMISSION:
            raise InvalidSubmission(message)
        raise RuntimeError(f"the {owner} file is unusable: {message}")
    return values.astype(np.int64)


def answer_numbers(answers: pd.DataFrame, column: str) -> np.ndarray:
    """:func:`numbers` for a file the task ships: a bad cell raises RuntimeError."""
    try:
        return numbers(answers, column)
    except InvalidSubmission as exc:
        raise RuntimeError(f"the answers file is unusable: {exc}") from None


def pair_rows(
    submitted: pd.DataFrame,
    expected: pd.DataFrame,
    describe: Callable[[tuple[object, ...]], str],
    pair_name: str,
) -> np.ndarray:
    """For each expected row, the position of the submission row with the same key.

    ``submitted`` and ``expected`` hold only the key columns (same names, e.g.
    ``(id, class)``). A key listed n times in ``expected`` must appear n times in
    ``submitted``; its occurrences are matched in file order. Otherwise
    InvalidSubmission names the first missing, unknown or miscounted key, using
    ``describe(key)`` for one key and ``pair_name`` (e.g. ``"(id, class)"``) for
    the key columns.
    """
    columns = list(expected.columns)
    sub = submitted.assign(_rank=submitted.groupby(columns, sort=False).cumcount())
    exp = expected.assign(_rank=expected.groupby(columns, sort=False).cumcount())
    positions = pd.MultiIndex.from_frame(sub).get_indexer(pd.MultiIndex.from_frame(exp))
    if len(submitted) == len(expected) and (positions >= 0).all():
        return positions
    have = submitted.value_counts(sort=False)
    want = expected.value_counts(sort=False)
    absent = want.index.difference(have.index)
    if len(absent):
        raise InvalidSubmission(
            f"{len(absent):,} row(s) of sample_submission.csv are missing from the submission, "
            f"e.g. {describe(absent[0])}"
        )
    unknown = have.index.difference(want.index)
    if len(unknown):
        raise InvalidSubmission(
            f"{len(unknown):,} row(s) are not in sample_submission.csv, e.g. {describe(unknown[0])}"
        )
    diff = (have - want.reindex(have.index)).loc[lambda d: d != 0]
    key = diff.index[0]
    raise InvalidSubmission(
        f"each {pair_name} pair must appear as often as in sample_submission.csv "
        f"(once, normally); {describe(key)} appears {have[key]} time(s) instead of {want[key]}"
    )
