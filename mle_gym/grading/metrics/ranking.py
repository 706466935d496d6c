"""Ranking metrics: ROC AUC variants, label-ranking average precision, MAP@k."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from mle_gym.grading.metrics._common import as_2d, floats, mean_of, probabilities, text
from mle_gym.grading.metrics.registry import register


def _binary_labels(name: str, y_true: np.ndarray) -> np.ndarray:
    """Boolean positives of a two-valued label array (the larger value is positive)."""
    values = floats(name, y_true, what="answers").ravel()
    classes = np.unique(values)
    if len(classes) != 2:
        raise ValueError(
            f"{name}: ROC AUC needs exactly two classes in the answers; found {len(classes)}"
        )
    return values == classes[1]


def roc_auc(y_true: np.ndarray, y_score: np.ndarray, *, name: str = "auc-roc") -> float:
    """Area under the ROC curve of one binary column.

    ``y_true``: two distinct values (the larger is the positive class, as
    scikit-learn); ``y_score``: finite scores. Computed as the Mann-Whitney
    statistic ``(sum of positive ranks - P (P + 1) / 2) / (P N)`` with tied
    scores sharing their mean rank, which equals scikit-learn's trapezoidal
    ``roc_auc_score``. ``ValueError`` if the answers hold a single class.
    """
    positive = _binary_labels(name, y_true)
    scores = floats(name, y_score).ravel()
    if len(scores) != len(positive):
        raise ValueError(f"{name}: {len(positive)} answers but {len(scores)} scores")
    n_pos = int(np.count_nonzero(positive))
    n_neg = len(positive) - n_pos
    order = np.argsort(scores, kind="mergesort")
    ordered = scores[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], len(ordered)]
    ranks = np.empty(len(scores))
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    u = float(ranks[positive].sum()) - n_pos * (n_pos + 1) / 2.0
    return u / (n_pos * n_neg)


def roc_curve(y_true: np.ndarray, y_score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ROC points ``(fpr, tpr)``: one per distinct score (highest first) after ``(0, 0)``.

    Unlike scikit-learn's default, collinear points are kept (they do not change
    any area computed from the curve).
    """
    positive = _binary_labels("roc-curve", y_true)
    scores = floats("roc-curve", y_score).ravel()
    order = np.argsort(-scores, kind="mergesort")
    hits = positive[order].astype(np.float64)
    ordered = scores[order]
    last_of_group = np.r_[np.flatnonzero(ordered[1:] != ordered[:-1]), len(ordered) - 1]
    tps = np.cumsum(hits)[last_of_group]
    fps = (last_of_group + 1) - tps
    tpr = np.r_[0.0, tps / tps[-1]]
    fpr = np.r_[0.0, fps / fps[-1]]
    return fpr, tpr


def _column_aucs(name: str, y_true: np.ndarray, y_score: np.ndarray) -> list[float]:
    truth = as_2d(name, y_true)
    scores = as_2d(name, y_score)
    out = []
    for j in range(truth.shape[1]):
        try:
            out.append(roc_auc(truth[:, j], scores[:, j], name=name))
        except ValueError as exc:
            if truth.shape[1] == 1:
                raise
            raise ValueError(f"column {j + 1}: {exc}") from None
    return out


@register("auc-roc", lower_is_better=False)
def auc_roc(y_true: np.ndarray, y_score: np.ndarray) -> float:
    """ROC AUC; with several columns the mean of the per-column AUCs (RANZCR).

    Predictions must be probabilities in ``[0, 1]`` (MLE-bench rejects other
    values for these competitions). ``y_true``: 0/1 (or two-valued) labels.
    """
    probabilities("auc-roc", y_score)
    return mean_of("auc-roc", _column_aucs("auc-roc", y_true, y_score))


@register(
    "mean-column-wise-roc-auc",
    lower_is_better=False,
    aliases=("column-wise ROC AUC", "auroc-multi-label"),
)
def column_wise_roc_auc(y_true: np.ndarray, y_score: np.ndarray) -> float:
    """Mean over target columns of the binary ROC AUC (scikit-learn ``average="macro"``).

    ``y_true``/``y_score``: rows x columns (a 1-D array is one column). Rows whose
    answers sum to a negative number are skipped: the Jigsaw toxic-comment
    answers mark unscored rows with ``-1`` in every column. Scores may be any
    finite numbers. ``ValueError`` if a column's answers hold a single class.
    """
    name = "mean-column-wise-roc-auc"
    truth = as_2d(name, floats(name, y_true, what="answers"))
    scores = as_2d(name, floats(name, y_score))
    keep = truth.sum(axis=1) >= 0
    if not keep.any():
        raise ValueError(f"{name}: every row is marked as unscored (-1)")
    return mean_of(name, _column_aucs(name, truth[keep], scores[keep]))


def _insert_tpr_points(
    fpr: np.ndarray, tpr: np.ndarray, levels: Sequence[float]
) -> tuple[np.ndarray, np.ndarray]:
    """Add a point at each TPR level missing from the curve, FPR interpolated linearly."""
    xs = fpr.tolist()
    ys = tpr.tolist()
    for level in levels:
        if level in ys:
            continue
        for i, y in enumerate(ys):
            if y > level:
                x = xs[i - 1] + (xs[i] - xs[i - 1]) * (level - ys[i - 1]) / (y - ys[i - 1])
                xs.insert(i, x)
                ys.insert(i, level)
                break
    return np.array(xs), np.array(ys)


@register("weighted-auroc", lower_is_better=False)
def weighted_auroc(y_true: np.ndarray, y_score: np.ndarray) -> float:
    """ALASKA2 weighted AUC: ROC area with TPR band [0, 0.4] weighted 2, [0.4, 1] weighted 1.

    Points at TPR 0.4 (and 0, 1) are inserted into the ROC curve by linear
    interpolation; for each band the area between the curve (points with TPR in
    the band, closed by ``(1, top)``) and the band's floor is taken with the
    trapezoidal rule. Score = ``(2 * area_low + 1 * area_high) / (2 * 0.4 + 1 * 0.6)``,
    so a perfect ranking gives 1. ``y_true``: 0/1 labels; ``y_score``: 1-D scores.
    """
    levels = [0.0, 0.4, 1.0]
    weights = [2.0, 1.0]
    fpr, tpr = roc_curve(y_true, y_score)
    fpr, tpr = _insert_tpr_points(fpr, tpr, levels)
    total = 0.0
    for low, high, weight in zip(levels[:-1], levels[1:], weights, strict=True):
        band = (tpr >= low) & (tpr <= high)
        if not band.any():
            continue
        xs = np.r_[fpr[band], 1.0]
        ys = np.r_[tpr[band], high] - low
        total += weight * float(np.sum(np.diff(xs) * (ys[1:] + ys[:-1]) / 2.0))
    norm = sum(w * (b - a) for a, b, w in zip(levels[:-1], levels[1:], weights, strict=True))
    return total / norm


@register("label-ranking-average-precision", lower_is_better=False)
def label_weighted_lrap(y_true: np.ndarray, y_score: np.ndarray) -> float:
    """Label-weighted label-ranking average precision (lwlrap, Freesound 2019).

    ``y_true``: rows x labels, nonzero = relevant; ``y_score``: rows x labels.
    For a row with relevant set ``L`` and a relevant label ``j``:
    ``prec(j) = #{k in L: s_k >= s_j} / #{k: s_k >= s_j}``; the row's LRAP is the
    mean of ``prec`` over ``L`` (1.0 if every label is relevant). Rows are averaged
    with weight ``|L|`` and rows without relevant labels are skipped, which is
    scikit-learn's ``label_ranking_average_precision_score`` with
    ``sample_weight = |L|`` as in the Freesound reference code.
    """
    name = "label-ranking-average-precision"
    truth = as_2d(name, floats(name, y_true, what="answers")) > 0
    scores = as_2d(name, floats(name, y_score))
    n_rel = truth.sum(axis=1)
    rows = np.flatnonzero(n_rel > 0)
    if len(rows) == 0:
        raise ValueError(f"{name}: no row of the answers has a relevant label")
    n_labels = truth.shape[1]
    per_row = np.ones(len(rows))
    chunk = max(1, 2_000_000 // max(1, n_labels * n_labels))
    for start in range(0, len(rows), chunk):
        idx = rows[start : start + chunk]
        s = scores[idx]
        rel = truth[idx]
        at_least = s[:, None, :] >= s[:, :, None]  # [r, j, k]: s_k >= s_j
        rank_all = at_least.sum(axis=2)
        rank_rel = (at_least & rel[:, None, :]).sum(axis=2)
        ratio = np.where(rel, rank_rel / rank_all, 0.0).sum(axis=1) / rel.sum(axis=1)
        full = rel.sum(axis=1) == n_labels
        per_row[start : start + len(idx)] = np.where(full, 1.0, ratio)
    weights = n_rel[rows].astype(np.float64)
    return float(np.sum(per_row * weights) / weights.sum())


def average_precision_at_k(actual: Collection[str], predicted: Sequence[str], k: int) -> float:
    """AP@k of one ranked prediction list against a set of correct items.

    Walk the first ``k`` predictions; at each position ``i`` (1-based) holding a
    correct item not already predicted earlier, add ``hits_so_far / i``. Divide
    by ``min(len(actual), k)``; 0.0 if ``actual`` is empty.
    """
    if not actual:
        return 0.0
    seen: set[str] = set()
    hits = 0
    total = 0.0
    for i, item in enumerate(list(predicted)[:k], start=1):
        if item in actual and item not in seen:
            hits += 1
            total += hits / i
        seen.add(item)
    return total / min(len(actual), k)


def map_at_k(
    actual: Sequence[Collection[str]], predicted: Sequence[Sequence[str]], k: int
) -> float:
    """MAP@k: the mean over rows of :func:`average_precision_at_k`.

    ``actual[i]``: the correct items of row ``i``; ``predicted[i]``: its ranked list.
    """
    if len(actual) != len(predicted):
        raise ValueError(f"MAP@{k}: {len(actual)} answer rows but {len(predicted)} predictions")
    return mean_of(
        f"MAP@{k}",
        [average_precision_at_k(a, p, k) for a, p in zip(actual, predicted, strict=True)],
    )


def _map_from_text(y_true: np.ndarray, y_pred: np.ndarray, k: int) -> float:
    """MAP@k of cells holding space-separated items, split on single spaces as MLE-bench."""
    actual = [set(text(v).split(" ")) for v in np.ravel(y_true)]
    predicted = [text(v).split(" ") for v in np.ravel(y_pred)]
    return map_at_k(actual, predicted, k)


@register("map-at-5", lower_is_better=False, aliases=("MAP@5",))
def map_at_5(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """MAP@5 (whale and hotel identification).

    ``y_true``/``y_pred``: 1-D object arrays of space-separated ids (answers are
    read as a set, predictions as a ranked list); see :func:`map_at_k`.
    """
    return _map_from_text(y_true, y_pred, 5)


@register("MAP@12", lower_is_better=False)
def map_at_12(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """MAP@12 (H&M recommendations); same contract as :func:`map_at_5` with ``k = 12``."""
    return _map_from_text(y_true, y_pred, 12)
