"""Grading for tensorflow2-question-answering (MLE-bench semantics).

Every question has two rows, ``<example_id>_long`` and ``<example_id>_short``.
A prediction is a token span ``start:end``, ``YES``, ``NO`` or blank (no answer).

MLE-bench's answers are ``private/test.jsonl`` (the raw annotations), which the
CSV-based grader cannot read. This grader reads ``private/answers.csv`` instead,
derived from the same annotations by the preparation: one row per submission id,
``PredictionString`` holding every accepted answer separated by spaces (the long
answer span if any; for the short row, every short answer span plus ``YES``/``NO``
when the yes/no answer is not ``NONE``), blank when nothing is accepted.

As in MLE-bench, each row yields a binary pair: predicted = "has an answer";
true = 1 if a given answer is among the accepted ones, or if no answer is given
while one exists, else 0. The score is scikit-learn's micro-averaged F1 of these
pairs, which for a single binary label equals the share of rows where the two
agree: a correct answer, or a blank where nothing is accepted.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.authoring import PANDAS_NA_STRINGS, InvalidSubmission

Answer = tuple[int, int] | str


def _answer(text: str) -> Answer:
    """``(start, end)`` for a span, the text itself for YES/NO/blank; ValueError otherwise."""
    parts = text.split(":")
    if ":" in text and len(parts) == 2:
        return int(parts[0]), int(parts[1])
    if text in ("YES", "NO", ""):
        return text
    raise ValueError(text)


def _prediction(cell: str, example_id: str) -> Answer:
    text = "" if cell in PANDAS_NA_STRINGS else cell.strip()
    try:
        return _answer(text)
    except ValueError:
        raise InvalidSubmission(
            f"PredictionString of {example_id!r} must be 'start:end' (two whole numbers), "
            f"YES, NO or blank, got {cell[:80]!r}"
        ) from None


def _accepted(cell: str) -> set[Answer]:
    text = "" if cell in PANDAS_NA_STRINGS else cell
    return {_answer(token) for token in text.split()}


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Share of rows whose prediction agrees with the accepted answers."""
    bad = [i for i in answers["example_id"] if not i.endswith(("_long", "_short"))]
    if bad:
        raise RuntimeError(f"answers example_id must end with _long or _short: {bad[0]!r}")
    hits = 0
    rows = zip(
        submission["example_id"].tolist(),
        submission["PredictionString"].tolist(),
        answers["PredictionString"].tolist(),
        strict=True,
    )
    for example_id, cell, accepted_cell in rows:
        predicted = _prediction(cell, example_id)
        accepted = _accepted(accepted_cell)
        if predicted != "":
            hits += predicted in accepted
        else:
            hits += not accepted
    return hits / len(submission)
