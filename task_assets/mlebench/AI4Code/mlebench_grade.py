"""AI4Code graded as MLE-bench grades it: Kendall tau of the cell orders, pooled over
notebooks.

MLE-bench's grader checks, in this order: as many rows as the answers, ``id`` and
``cell_order`` columns, the same *set* of ids; then ``cell_order`` is converted with
``astype(str)`` (under pandas 2's text handling, which the default grading uses, a
blank cell becomes the single cell ``"nan"``), both files are sorted by ``id`` and
paired row by row.
Each pair must have the same number of whitespace-separated cells; the answer's
cells are then looked up in the submitted list (MLE-bench names the two lists the
other way round, which does not change the score), so a submitted list that is not
a permutation of the notebook's cells makes the grader fail. The score is
``1 - 4 * inversions / sum(n * (n - 1))`` over all notebooks (failing when every
notebook has a single cell). Other columns are ignored.
"""

from __future__ import annotations

from bisect import bisect
from typing import Any

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission

ID = "id"
ORDER = "cell_order"


def _inversions(ranks: list[int]) -> int:
    """Pairs out of order in ``ranks`` (insertion into a sorted list)."""
    seen: list[int] = []
    count = 0
    for position, rank in enumerate(ranks):
        place = bisect(seen, rank)
        count += position - place
        seen.insert(place, rank)
    return count


def _pooled_tau(references: list[list[Any]], orders: list[list[Any]]) -> float:
    inversions = 0
    pairs = 0
    for reference, order in zip(references, orders, strict=False):
        inversions += _inversions([reference.index(cell) for cell in order])
        n = len(reference)
        pairs += n * (n - 1)
    return 1 - 4 * inversions / pairs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Kendall tau of the submitted cell orders."""
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per notebook "
            f"({len(answers)})"
        )
    if ID not in submission.columns or ORDER not in submission.columns:
        raise InvalidSubmission(f"the submission needs the columns {ID!r} and {ORDER!r}")
    if set(submission[ID]) != set(answers[ID]):
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    submission[ORDER] = submission[ORDER].astype(str)
    answers[ORDER] = answers[ORDER].astype(str)
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    submitted_lists: list[list[str]] = []
    true_lists: list[list[str]] = []
    for (_, sub_row), (_, ans_row) in zip(sub.iterrows(), ans.iterrows(), strict=False):
        submitted = sub_row[ORDER].split()
        true = ans_row[ORDER].split()
        if len(submitted) != len(true):
            raise InvalidSubmission(
                "each notebook's cell_order must list as many cells as the notebook has"
            )
        submitted_lists.append(submitted)
        true_lists.append(true)
    return _pooled_tau(submitted_lists, true_lists)
