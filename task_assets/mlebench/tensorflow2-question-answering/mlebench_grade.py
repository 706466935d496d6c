"""tensorflow2-question-answering graded as MLE-bench grades it: micro F1 of answer/no answer.

MLE-bench's answers are ``private/test.jsonl`` (one annotated question a line); ours are
``answers.csv``, derived from the same annotations: one row per ``<example_id>_long`` and
``<example_id>_short``, ``PredictionString`` listing every accepted answer separated by
spaces (the long answer's ``start:end`` if it has one; for the short row every short
answer's ``start:end``, plus ``YES``/``NO`` when the yes/no answer is not ``NONE``), blank
if none. MLE-bench's verdict is reproduced from it:

* the submission must have exactly two rows per question (checked first, so an empty
  file fails there); blanks become empty text (``fillna("", inplace=True)``, which
  pandas 2 also does in a column read as numbers, such as a ``PredictionString`` column
  left entirely blank: the column becomes one of objects, its numbers staying numbers,
  so a lone ``5`` among blanks is then the text ``"5.0"``) and every cell is turned to
  text (pandas ``astype(str)``); the columns ``example_id`` and ``PredictionString``
  must be present (others are ignored), the set of ``example_id`` values must be the
  expected one, and no id may repeat;
* each prediction, stripped of surrounding whitespace, must be ``a:b`` with both parts
  accepted by Python's ``int()`` (so ``" 5 : 7"`` or ``+5:1_0`` pass; other text around
  one colon makes ``int()`` fail), ``YES``, ``NO`` or empty, else the file is rejected;
* a row is predicted positive when its prediction is not empty; it is truly positive
  when the prediction is among the accepted answers (``YES`` on a long row never is), or
  when it is empty and some answer is accepted; the score is scikit-learn's
  ``f1_score(average="micro")`` of these pairs (the share of rows where they agree).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "example_id"
TARGET = "PredictionString"
SUFFIXES = ("_long", "_short")


def _accepted(cell: Any) -> set[Any]:
    """The accepted answers of one answers cell: ``(start, end)`` spans and YES/NO."""
    if pd.isna(cell):
        return set()
    found: set[Any] = set()
    for token in str(cell).split():
        if token in ("YES", "NO"):
            found.add(token)
        else:
            start, end = token.split(":")
            found.add((int(start), int(end)))
    return found


def _parsed(text: str) -> Any:
    """A stripped prediction as MLE-bench parses it (ValueError from ``int()``)."""
    pieces = text.split(":")
    if ":" in text and len(pieces) == 2:
        return int(pieces[0]), int(pieces[1])
    if text in ("YES", "NO", ""):
        return text
    raise InvalidSubmission(
        "a PredictionString must be 'start:end', YES, NO or blank; one of them is not"
    )


def _fill_blanks(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame.fillna("", inplace=True)`` as pandas 2 does it: a column of numbers (or
    any other non-object column) holding a missing cell is first made a column of
    objects (pandas 2 upcasts it with a warning; pandas 3 would raise)."""
    out = frame.copy()
    for i in range(out.shape[1]):
        column = out.iloc[:, i]
        if column.dtype != object and bool(column.isna().any()):
            out.isetitem(i, column.astype(object))
    return out.fillna("")


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Micro F1 of "has an answer" against "the answer is accepted / one exists"."""
    from sklearn.metrics import f1_score

    require(ID in answers.columns and TARGET in answers.columns, "answers lack columns")
    expected = [str(x) for x in answers[ID]]
    require(all(x.endswith(SUFFIXES) for x in expected), "answers ids lack _long/_short")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have two per question "
            f"({len(answers)})"
        )
    submission = _fill_blanks(submission).astype(str)
    if not {ID, TARGET}.issubset(submission.columns):
        raise InvalidSubmission(f"the submission needs the columns {ID!r} and {TARGET!r}")
    if set(submission[ID]) != set(expected):
        raise InvalidSubmission(
            f"the submission's {ID!r} values are not the expected <id>_long and <id>_short"
        )
    if len(set(submission[ID])) != len(submission):
        raise InvalidSubmission(f"the submission repeats some {ID!r} values")
    accepted = {key: _accepted(cell) for key, cell in zip(expected, answers[TARGET], strict=True)}

    y_pred = [1 if text.strip() else 0 for text in submission[TARGET]]
    y_true = []
    for key, text in zip(submission[ID], submission[TARGET], strict=True):
        prediction = _parsed(text.strip())
        valid = accepted[key]
        y_true.append(int(prediction in valid) if prediction else int(bool(valid)))
    return float(f1_score(y_true=y_true, y_pred=y_pred, average="micro"))
