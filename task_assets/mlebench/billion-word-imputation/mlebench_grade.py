"""billion-word-imputation graded as MLE-bench grades it: mean Levenshtein distance of the
sentences.

The submission needs ``id`` and ``sentence`` columns (others are ignored) and one row
per answers row. Both files are sorted on ``id`` and the ids must be equal position by
position (``7.0`` matches ``7``). The character-level edit distance of the ``Levenshtein``
package (here computed bit-parallel in this module, or by
:func:`mle_gym.grading.metrics.text.levenshtein` for very long texts) is taken row by row
and averaged. A sentence that pandas does not read as text — a blank cell (or ``NA``,
``null``...), or a whole column of numbers or True/False — makes that package fail, so
the grader fails; a cell of spaces is scored as that text.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import (
    GraderFailure,
    InvalidSubmission,
    levenshtein,
    require,
)

ID = "id"
TARGET = "sentence"


_LONG = 1 << 13  # past this length, the bit vectors are kept over the shorter text


def edit_distance(truth: object, guess: object) -> int:
    """Levenshtein distance of two texts; GraderFailure unless both are ``str`` (the
    ``Levenshtein`` package takes no numbers or missing values)."""
    if not isinstance(truth, str) or not isinstance(guess, str):
        raise GraderFailure("every sentence must be text (a blank cell is a missing value)")
    # a shared prefix and suffix do not change the distance; most rows share almost all
    limit = min(len(truth), len(guess))
    start = 0
    while start < limit and truth[start] == guess[start]:
        start += 1
    end = 0
    while end < limit - start and truth[-1 - end] == guess[-1 - end]:
        end += 1
    a, b = truth[start : len(truth) - end], guess[start : len(guess) - end]
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    if len(a) > _LONG:
        return levenshtein(a, b)
    return _distance_over(a, b)


def _distance_over(pattern: str, text: str) -> int:
    """Levenshtein distance by Hyyro's bit-parallel form of Myers' algorithm with one bit
    per character of ``pattern`` (the longer text), scanning ``text``: as many steps as
    the shorter text has characters."""
    needed = set(text)
    masks: dict[str, int] = {}
    for i, char in enumerate(pattern):
        if char in needed:
            masks[char] = masks.get(char, 0) | (1 << i)
    width = len(pattern)
    full = (1 << width) - 1
    top = 1 << (width - 1)
    up, down = full, 0  # vertical steps of +1 and -1 in the current column
    score = width
    for char in text:
        match = masks.get(char, 0)
        diagonal = match | down
        horizontal = (((match & up) + up) ^ up) | match
        right_up = down | (~(horizontal | up) & full)
        right_down = up & horizontal
        if right_up & top:
            score += 1
        elif right_down & top:
            score -= 1
        right_up = ((right_up << 1) | 1) & full
        right_down = (right_down << 1) & full
        up = right_down | (~(diagonal | right_up) & full)
        down = right_up & diagonal
    return score


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean edit distance between the submitted and the true sentences."""
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    sub = submission.sort_values(ID).reset_index(drop=True)
    ans = answers.sort_values(ID).reset_index(drop=True)
    if np.asarray(sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    distances = [edit_distance(t, p) for t, p in zip(ans[TARGET], sub[TARGET], strict=False)]
    return float(np.mean(distances))
