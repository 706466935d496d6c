"""Independent reference computations for MLE-bench grading cases (:mod:`.testing`).

Each function recomputes a score the slow, obvious way (or with the library MLE-bench's own
``grade.py`` calls), never through the project's grader or metric library, so that a grading
case compares two independent computations. An oracle that finds its inputs do not test what
they should raises ``AssertionError`` explicitly (never with ``assert``, which ``python -O``
removes). Re-exported by :mod:`mle_gym.families.mlebench.testing`; import them from there.

scikit-learn (an optional dependency: the ``runtime`` extra) is imported inside the functions
that need it, so importing this module needs numpy only.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

__all__ = ["ap_at_k", "dense_mask", "levenshtein", "macro_f1", "micro_f1_like_mlebench"]


def levenshtein(a: str, b: str) -> int:
    """The edit distance of ``a`` and ``b`` (insertions, deletions, substitutions: cost 1),
    by plain dynamic programming."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def ap_at_k(actual: set[str], ranked: list[str], k: int) -> float:
    """Average precision at ``k`` of a ranked list against the set of right items.

    A repeated item counts at its first rank only; the sum is divided by
    ``min(len(actual), k)`` (``actual`` must not be empty).
    """
    hits, total = 0, 0.0
    for i, item in enumerate(ranked[:k]):
        if item in actual and item not in ranked[:i]:
            hits += 1
            total += hits / (i + 1)
    return total / min(len(actual), k)


def dense_mask(rle: str, height: int, width: int) -> np.ndarray:
    """A ``height x width`` boolean mask from a run-length encoding decoded pixel by pixel.

    ``rle`` holds ``start length`` pairs, starts 1-based in column-major order (down the
    first column, then the next); ``""`` is the empty mask.
    """
    flat = np.zeros(height * width, dtype=bool)
    numbers = [int(v) for v in rle.split()]
    for start, length in zip(numbers[0::2], numbers[1::2], strict=True):
        flat[start - 1 : start - 1 + length] = True
    return flat.reshape((width, height)).T


def micro_f1_like_mlebench(truth: Sequence[str], predicted: Sequence[str]) -> float:
    """Micro F1 over space-separated label lists, as MLE-bench computes it with scikit-learn.

    The classes are the labels of ``truth``; a predicted label outside them is ignored (with
    scikit-learn's warning, which this function requires to see: ``AssertionError`` if no
    predicted label is unknown, since then the case does not test what it says).
    """
    from sklearn.metrics import f1_score
    from sklearn.preprocessing import MultiLabelBinarizer

    classes = sorted({tag for cell in truth for tag in cell.split()})
    binarizer = MultiLabelBinarizer(classes=classes)
    y_true = binarizer.fit_transform([cell.split() for cell in truth])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y_pred = binarizer.transform([cell.split() for cell in predicted])
    if not any(issubclass(w.category, UserWarning) for w in caught):
        # raised, not asserted: the check must fail under ``python -O`` too
        raise AssertionError(
            "no predicted label is unknown: scikit-learn gave no warning, so the case does "
            f"not test what it says (truth {list(truth)!r}, predicted {list(predicted)!r})"
        )
    return float(f1_score(y_true, y_pred, average="micro"))


def macro_f1(truth: Sequence[int], guess: Sequence[int]) -> float:
    """Macro-averaged F1 of class labels (scikit-learn's ``f1_score(average="macro")``)."""
    from sklearn.metrics import f1_score

    return float(f1_score(truth, guess, average="macro"))
