"""multi-modal-gesture-recognition graded as MLE-bench grades it: summed edit distance of the
gesture sequences over the number of true gestures.

The submission needs one row per answers row and ``Id`` and ``Sequence`` columns (others
are ignored). Both files are sorted on ``Id`` and the ids must be equal position by
position (``300.0`` matches ``300``). Each sequence is the cell as text (``str()`` of what
pandas read, so a blank cell is ``"nan"`` and fails) split on whitespace, every token
through Python's ``int()`` (``"+3"``, ``"0_3"`` and ``"３"`` are numbers; ``"3.0"`` is
not). The ``Levenshtein`` package compares the integer tokens by their Python hash
(``-1`` kept apart), so ``2**61 + 1`` counts as gesture 1; that is reproduced. The score
is the sum over rows of the token edit distance divided by the number of true gestures.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, levenshtein, require

ID = "Id"
TARGET = "Sequence"


def token_keys(sequence: list[int]) -> list[int]:
    """The keys the ``Levenshtein`` package compares integer tokens by: ``hash()`` of each,
    except ``-1`` (whose hash, -2, is that of -2), which is kept as itself."""
    return [-1 if token == -1 else hash(token) for token in sequence]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Sum of the per-row token edit distances over the number of true gestures."""
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if np.asarray(sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    sub[TARGET] = sub[TARGET].astype(str)
    ans[TARGET] = ans[TARGET].astype(str)
    truth = [list(map(int, cell.split())) for cell in ans[TARGET]]
    try:
        guesses = [list(map(int, cell.split())) for cell in sub[TARGET]]
    except ValueError:
        raise InvalidSubmission(f"every {TARGET!r} must be integers separated by spaces") from None
    distances = [
        levenshtein(token_keys(t), token_keys(p)) for t, p in zip(truth, guesses, strict=False)
    ]
    total = sum(len(t) for t in truth)
    return float(np.sum(distances) / total)
