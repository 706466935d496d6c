"""Classification metrics on predicted labels: accuracy, F-scores, MCC, weighted kappa.

Labels are compared as values (``1 == 1.0``; text exactly). Where MLE-bench uses
scikit-learn (``accuracy_score``, ``f1_score``, ``matthews_corrcoef``,
``cohen_kappa_score``) the definitions below reproduce scikit-learn's, including
its conventions for empty denominators.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from mle_gym.grading.metrics._common import floats
from mle_gym.grading.metrics.registry import register


def _codes(y_true: np.ndarray, y_pred: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray, int]:
    """Both label arrays as integer codes into their sorted union of labels."""
    both = np.concatenate([np.ravel(y_true), np.ravel(y_pred)])
    try:
        labels, codes = np.unique(both, return_inverse=True)
    except TypeError as exc:  # e.g. text mixed with numbers
        raise ValueError(f"{name}: labels cannot be compared ({exc})") from None
    n = np.size(y_true)
    return codes[:n], codes[n:], len(labels)


def _confusion(t: np.ndarray, p: np.ndarray, k: int) -> np.ndarray:
    """k x k confusion counts, rows = truth, columns = prediction."""
    return np.bincount(t * k + p, minlength=k * k).reshape(k, k).astype(np.float64)


@register("accuracy", lower_is_better=False, aliases=("multi-class-classification-accuracy",))
def accuracy(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Share of rows predicted exactly: ``mean(y_true == y_pred)``.

    With several columns a row counts only if every column matches (subset
    accuracy, as scikit-learn's ``accuracy_score`` on a label matrix).
    """
    hits = np.asarray(y_true == y_pred, dtype=bool)
    if hits.ndim > 1:
        return float(np.mean(hits.all(axis=tuple(range(1, hits.ndim)))))
    return float(hits.mean())


def _class_id(value: object, name: str) -> int:
    """An integer class id; text gives its first space-separated token (MLE-bench's rule)."""
    try:
        if isinstance(value, str):
            tokens = value.split()
            if not tokens:
                raise ValueError("empty prediction")
            return int(tokens[0])
        as_float = float(value)  # type: ignore[arg-type]
        if not as_float.is_integer():
            raise ValueError(f"{value!r} is not a whole number")
        return int(as_float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: class ids must be integers ({exc})") from None


@register("top-1-classification-error", lower_is_better=True)
def top1_error(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """``1 - accuracy`` on integer class ids (iNaturalist 2019).

    ``y_true``: 1-D class ids; ``y_pred``: 1-D class ids, or text whose first
    space-separated token is the top-1 class id (``"12 7 3"`` counts as 12), as
    MLE-bench's grader reads a ranked prediction.
    """
    name = "top-1-classification-error"
    truth = np.array([_class_id(v, name) for v in np.ravel(y_true)], dtype=np.int64)
    pred = np.array([_class_id(v, name) for v in np.ravel(y_pred)], dtype=np.int64)
    return 1.0 - float(np.mean(truth == pred))


def _f_beta(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, beta: float) -> np.ndarray:
    """``(1+b^2) tp / ((1+b^2) tp + b^2 fn + fp)``, 0 where the denominator is 0."""
    b2 = beta * beta
    num = (1 + b2) * tp
    den = (1 + b2) * tp + b2 * fn + fp
    out = np.zeros(np.shape(num), dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def f_beta_binary(y_true: ArrayLike, y_pred: ArrayLike, beta: float = 1.0) -> float:
    """F-beta of the positive class on boolean arrays (any shape, flattened).

    ``(1 + beta^2) tp / ((1 + beta^2) tp + beta^2 fn + fp)``; 0.0 when there is
    no true and no predicted positive (scikit-learn's ``zero_division`` default).
    """
    t = np.ravel(np.asarray(y_true, dtype=bool))
    p = np.ravel(np.asarray(y_pred, dtype=bool))
    tp = np.count_nonzero(t & p)
    fp = np.count_nonzero(~t & p)
    fn = np.count_nonzero(t & ~p)
    return float(_f_beta(np.array(tp), np.array(fp), np.array(fn), beta))


def multilabel_micro_f1(
    actual: Sequence[Iterable[str]], predicted: Sequence[Iterable[str]]
) -> float:
    """Micro-averaged F1 of label sets, with the vocabulary taken from the answers.

    ``actual[i]`` / ``predicted[i]``: the labels of row ``i`` (e.g. ``text.split()``).
    As MLE-bench binarises both with the answers' labels only, a predicted label
    that appears in no answer row is ignored (it is not a false positive).
    ``F1 = 2 TP / (2 TP + FP + FN)`` summed over rows and labels; 0.0 if nothing
    is true or predicted.
    """
    if len(actual) != len(predicted):
        raise ValueError("micro-f1: actual and predicted have different lengths")
    truth = [set(a) for a in actual]
    vocabulary: set[str] = set().union(*truth) if truth else set()
    tp = fp = fn = 0
    for t, p in zip(truth, predicted, strict=True):
        guessed = set(p) & vocabulary
        hit = len(t & guessed)
        tp += hit
        fp += len(guessed) - hit
        fn += len(t) - hit
    den = 2 * tp + fp + fn
    return 2 * tp / den if den else 0.0


@register("micro-f1-score", lower_is_better=False)
def micro_f1(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Micro-averaged F1.

    * 1-D arrays: one label per row (multi-class, e.g. plant species names,
      kept whole even if they contain spaces). Every row has one true and one
      predicted label, so micro-F1 equals accuracy.
    * 2-D arrays: a 0/1 label-indicator matrix (rows x labels):
      ``2 TP / (2 TP + FP + FN)`` over all cells, 0.0 if nothing is positive.

    Tasks whose cells hold space-separated label lists (iMet, Facebook keywords,
    Plant Pathology 2021) split them and call :func:`multilabel_micro_f1`.
    """
    if y_true.ndim == 1:
        return float(np.mean(y_true == y_pred))
    t = floats("micro-f1-score", y_true, what="answers") != 0
    p = floats("micro-f1-score", y_pred) != 0
    tp = np.count_nonzero(t & p)
    fp = np.count_nonzero(~t & p)
    fn = np.count_nonzero(t & ~p)
    return float(_f_beta(np.array(tp), np.array(fp), np.array(fn), 1.0))


@register("macro-f1-score", lower_is_better=False)
def macro_f1(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Macro-averaged F1 over every label seen in the answers or the predictions.

    For each label ``F1 = 2 tp / (2 tp + fp + fn)``; the score is their plain
    mean (scikit-learn ``f1_score(average="macro")``: a label that is only
    predicted, or only true, contributes 0). ``y_true``/``y_pred``: 1-D labels.
    """
    t, p, k = _codes(y_true, y_pred, "macro-f1-score")
    tp = np.bincount(t[t == p], minlength=k).astype(np.float64)
    true_count = np.bincount(t, minlength=k)
    pred_count = np.bincount(p, minlength=k)
    fp = pred_count - tp
    fn = true_count - tp
    return float(np.mean(_f_beta(tp, fp, fn, 1.0)))


@register("probabilistic-f1-score", lower_is_better=False)
def probabilistic_f1(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Probabilistic F1 (RSNA breast cancer): F-beta with beta = 1 on soft counts.

    Predictions are clipped to ``[0, 1]``; ``ctp = sum(p over positives)``,
    ``cfp = sum(p over negatives)``; precision ``ctp / (ctp + cfp)``, recall
    ``ctp / #positives``; ``F = 2 P R / (P + R)``, 0.0 if P or R is 0.
    ``y_true``: 1-D 0/1 labels; ``y_pred``: 1-D scores.
    """
    return probabilistic_f_beta(y_true, y_pred, beta=1.0)


def probabilistic_f_beta(y_true: np.ndarray, y_pred: np.ndarray, beta: float = 1.0) -> float:
    """Probabilistic F-beta; see :func:`probabilistic_f1` (``beta`` weighs recall)."""
    name = "probabilistic-f1-score"
    labels = floats(name, y_true, what="answers").ravel() != 0
    scores = np.clip(floats(name, y_pred).ravel(), 0.0, 1.0)
    positives = int(np.count_nonzero(labels))
    if positives == 0:
        raise ValueError(f"{name}: the answers contain no positive label; recall is undefined")
    ctp = float(scores[labels].sum())
    cfp = float(scores[~labels].sum())
    if ctp + cfp == 0:
        return 0.0
    precision = ctp / (ctp + cfp)
    recall = ctp / positives
    if precision <= 0 or recall <= 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


@register("matthews-correlation-coefficient", lower_is_better=False)
def matthews_corrcoef(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Matthews correlation coefficient (multi-class form, as scikit-learn).

    With confusion matrix ``C`` (``s`` rows, ``c = trace C``, ``t_k``/``p_k`` true
    and predicted counts of label ``k``):
    ``(c s - sum t_k p_k) / sqrt((s^2 - sum p_k^2)(s^2 - sum t_k^2))``, 0.0 when
    the denominator is 0 (constant answers or predictions). Binary labels give
    the usual ``(tp tn - fp fn) / sqrt(...)``. ``y_true``/``y_pred``: 1-D labels.
    """
    t, p, k = _codes(y_true, y_pred, "matthews-correlation-coefficient")
    cm = _confusion(t, p, k)
    s = cm.sum()
    c = np.trace(cm)
    t_k = cm.sum(axis=1)
    p_k = cm.sum(axis=0)
    cov_tp = c * s - float(np.dot(t_k, p_k))
    cov_pp = s * s - float(np.dot(p_k, p_k))
    cov_tt = s * s - float(np.dot(t_k, t_k))
    if cov_pp * cov_tt == 0:
        return 0.0
    return float(cov_tp / math.sqrt(cov_tt * cov_pp))


@register("quadratic-weighted-kappa", lower_is_better=False)
def quadratic_weighted_kappa(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Cohen's kappa with quadratic weights (scikit-learn ``cohen_kappa_score``).

    Labels are the sorted union of both arrays; the weight of cell ``(i, j)`` is
    ``(i - j)^2`` on label POSITIONS (not values). With observed counts ``O`` and
    expected counts ``E = outer(row sums, column sums) / n``:
    ``kappa = 1 - sum(w O) / sum(w E)``. ``ValueError`` when ``sum(w E) = 0``
    (a single label everywhere), where scikit-learn returns NaN.
    """
    t, p, k = _codes(y_true, y_pred, "quadratic-weighted-kappa")
    observed = _confusion(t, p, k)
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    idx = np.arange(k, dtype=np.float64)
    weights = (idx[:, None] - idx[None, :]) ** 2
    den = float((weights * expected).sum())
    if den == 0:
        raise ValueError(
            "quadratic-weighted-kappa: undefined when answers and predictions use one label only"
        )
    return 1.0 - float((weights * observed).sum()) / den
