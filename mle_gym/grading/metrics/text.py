"""Text metrics: Levenshtein edit distance and word-set Jaccard similarity."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from mle_gym.grading.metrics._common import blank_to_empty, mean_of, text
from mle_gym.grading.metrics.registry import register


def levenshtein(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Levenshtein distance (insertions, deletions, substitutions, each costing 1).

    Works on strings (characters) and on any sequences of hashable tokens. Uses
    the bit-parallel algorithm of Myers as reformulated by Hyyrö: one column of
    the dynamic-programming table is held as bit vectors of vertical +1/-1 steps,
    so the cost is ``O(len(a))`` big-integer operations per pair.
    """
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    if a == b:
        return 0
    m = len(b)  # bit i stands for position i of the shorter sequence b
    masks: dict[Hashable, int] = {}
    for i, item in enumerate(b):
        masks[item] = masks.get(item, 0) | (1 << i)
    full = (1 << m) - 1
    top = 1 << (m - 1)
    plus = full  # vertical +1 steps: D[i][j] - D[i-1][j] == +1
    minus = 0  # vertical -1 steps
    score = m
    for item in a:
        eq = masks.get(item, 0)
        xv = eq | minus
        xh = (((eq & plus) + plus) ^ plus) | eq
        h_plus = minus | (~(xh | plus) & full)
        h_minus = plus & xh
        if h_plus & top:
            score += 1
        elif h_minus & top:
            score -= 1
        h_plus = ((h_plus << 1) | 1) & full
        h_minus = (h_minus << 1) & full
        plus = h_minus | (~(xv | h_plus) & full)
        minus = h_plus & xv
    return score


@register("levenshtein-distance", lower_is_better=True)
def mean_levenshtein(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Mean over rows of the character-level Levenshtein distance (BMS InChI, billion words).

    ``y_true``/``y_pred``: 1-D arrays of text. Missing cells are read as the text
    ``"nan"``, as MLE-bench's ``astype(str)`` does.
    """
    return mean_of(
        "levenshtein-distance",
        [
            levenshtein(text(t), text(p))
            for t, p in zip(np.ravel(y_true), np.ravel(y_pred), strict=True)
        ],
    )


def _int_tokens(cell: object, what: str) -> list[int]:
    try:
        return [int(tok) for tok in text(cell).split()]
    except ValueError:
        raise ValueError(f"{what}: sequences must be integers separated by spaces") from None


def sequence_edit_rate(
    truth: Sequence[Sequence[int]], predictions: Sequence[Sequence[int]]
) -> float:
    """Sum of token-level Levenshtein distances over rows divided by the number of true tokens."""
    total = sum(len(t) for t in truth)
    if total == 0:
        raise ValueError("levenhstein-distance: the answers contain no token")
    distance = sum(levenshtein(t, p) for t, p in zip(truth, predictions, strict=True))
    return distance / total


@register("levenhstein-distance", lower_is_better=True)
def gesture_edit_distance(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Multi-modal gesture recognition score: :func:`sequence_edit_rate` of gesture ids.

    ``y_true``/``y_pred``: 1-D arrays of space-separated integer gesture ids per
    row. Unlike ``levenshtein-distance`` this is normalised by the number of true
    gestures (an error rate that can exceed 1); the misspelt name is the CSV's.
    """
    truth = [_int_tokens(v, "answers") for v in np.ravel(y_true)]
    pred = [_int_tokens(v, "levenhstein-distance") for v in np.ravel(y_pred)]
    return sequence_edit_rate(truth, pred)


def word_jaccard(a: str, b: str, *, both_empty: float = 0.0) -> float:
    """``|A & B| / |A | B|`` of the lower-cased whitespace-separated word sets."""
    sa = set(a.lower().split())
    sb = set(b.lower().split())
    union = len(sa | sb)
    return len(sa & sb) / union if union else both_empty


@register("word-level-jaccard-score", lower_is_better=False, aliases=("jaccard-similarity",))
def mean_word_jaccard(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Mean over rows of :func:`word_jaccard` (chaii QA, tweet sentiment extraction).

    ``y_true``/``y_pred``: 1-D arrays of text; missing cells are empty text. A row
    whose answer and prediction are both empty scores 0.0 (scikit-learn's
    ``jaccard_score`` convention used for chaii; MLE-bench's tweet grader divides
    by zero there).
    """
    return mean_of(
        "word-level-jaccard-score",
        [
            word_jaccard(blank_to_empty(t), blank_to_empty(p))
            for t, p in zip(np.ravel(y_true), np.ravel(y_pred), strict=True)
        ],
    )
