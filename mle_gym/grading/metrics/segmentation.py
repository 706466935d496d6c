"""Segmentation metrics and run-length-encoding (RLE) helpers.

RLE text is ``"start length start length ..."`` with 1-based starts, as in the
Kaggle competitions. MLE-bench decodes it column by column ("top-down, then
left-right": pixel 2 is row 2 of column 1), i.e. Fortran order; Vesuvius uses
row-major order. Functions taking an ``order`` argument accept ``"F"`` (the
default, MLE-bench's ``rle_decode``) or ``"C"``.

Rules for valid RLE, following MLE-bench's decoder (a violation raises
``ValueError``): whole-number tokens, an even count, starts non-decreasing and
positive, lengths positive, runs not overlapping. Runs extending past the image
are cut at its end, as MLE-bench's decoder does silently. Blank text, ``None``
and NaN mean an empty mask.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from mle_gym.grading.metrics._common import is_missing
from mle_gym.grading.metrics.classification import f_beta_binary
from mle_gym.grading.metrics.registry import register

Order = Literal["F", "C"]


def rle_runs(rle: Any, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Validated runs of an RLE string as 0-based ``(starts, ends)``, ends exclusive.

    Runs are clipped to ``[0, size)`` (empty runs dropped). ``ValueError`` for
    malformed text (see the module docstring).
    """
    empty = np.zeros(0, dtype=np.int64)
    if is_missing(rle):
        return empty, empty
    if not isinstance(rle, str):
        raise ValueError(f"RLE must be text, got {type(rle).__name__}")
    tokens = rle.split()
    try:
        numbers = np.array([int(t) for t in tokens], dtype=np.int64)
    except ValueError:
        raise ValueError("RLE tokens must be whole numbers") from None
    if len(numbers) % 2:
        raise ValueError("RLE must hold start/length pairs (an even number of tokens)")
    starts, lengths = numbers[0::2], numbers[1::2]
    if (np.diff(starts) < 0).any():
        raise ValueError("RLE runs must be sorted by start")
    if (starts <= 0).any() or (lengths <= 0).any():
        raise ValueError("RLE starts and lengths must be positive integers")
    lo = np.minimum(starts - 1, size)
    hi = np.minimum(starts - 1 + lengths, size)
    if len(lo) > 1:
        covered = np.maximum.accumulate(hi)[:-1]
        if ((hi[1:] > lo[1:]) & (lo[1:] < covered)).any():
            raise ValueError("RLE runs must not overlap")
    keep = hi > lo
    return lo[keep], hi[keep]


def rle_decode(rle: Any, shape: tuple[int, int], *, order: Order = "F") -> np.ndarray:
    """Boolean mask of ``shape = (height, width)`` from RLE text (see module docstring)."""
    height, width = int(shape[0]), int(shape[1])
    size = height * width
    lo, hi = rle_runs(rle, size)
    flat = np.zeros(size, dtype=bool)
    for start, end in zip(lo.tolist(), hi.tolist(), strict=True):
        flat[start:end] = True
    return flat.reshape((height, width), order=order)


def rle_encode(mask: ArrayLike, *, order: Order = "F") -> str:
    """RLE text of a 2-D mask (nonzero = foreground); ``""`` for an empty mask."""
    flat = np.asarray(mask).ravel(order=order) != 0
    edges = np.diff(np.r_[0, flat.astype(np.int8), 0])
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    return " ".join(f"{s + 1} {e - s}" for s, e in zip(starts, ends, strict=True))


def _run_length(lo: np.ndarray, hi: np.ndarray) -> int:
    return int((hi - lo).sum())


def _runs_overlap(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> int:
    """Number of pixels covered by both run sets (each sorted and non-overlapping)."""
    lo = np.r_[a[0], b[0]]
    hi = np.r_[a[1], b[1]]
    if len(lo) == 0:
        return 0
    order = np.argsort(lo, kind="mergesort")
    lo, hi = lo[order], hi[order]
    reach = np.r_[lo[0], np.maximum.accumulate(hi)[:-1]]
    union = int(np.maximum(0, hi - np.maximum(lo, reach)).sum())
    return _run_length(*a) + _run_length(*b) - union


def _mask_pair(
    name: str, true_mask: ArrayLike, pred_mask: ArrayLike
) -> tuple[np.ndarray, np.ndarray]:
    """Both masks as boolean arrays; ``ValueError`` naming the metric if their shapes differ."""
    t = np.asarray(true_mask, dtype=bool)
    p = np.asarray(pred_mask, dtype=bool)
    if t.shape != p.shape:
        raise ValueError(f"{name}: mask shapes differ: {t.shape} vs {p.shape}")
    return t, p


def dice(true_mask: ArrayLike, pred_mask: ArrayLike, both_empty: float = math.nan) -> float:
    """Dice coefficient ``2 |T & P| / (|T| + |P|)`` of two boolean masks (any shape).

    ``both_empty`` is returned when neither mask has a pixel (MLE-bench: NaN by
    default, 1.0 for HuBMAP).
    """
    t, p = _mask_pair("dice", true_mask, pred_mask)
    total = int(np.count_nonzero(t)) + int(np.count_nonzero(p))
    if total == 0:
        return both_empty
    return 2.0 * np.count_nonzero(t & p) / total


def rle_dice(rle_true: Any, rle_pred: Any, size: int, both_empty: float = 1.0) -> float:
    """Dice of two RLE masks of ``size`` pixels, computed on the runs without decoding.

    Same value as decoding both (in the same pixel order) and calling :func:`dice`;
    meant for very large images (HuBMAP).
    """
    a = rle_runs(rle_true, size)
    b = rle_runs(rle_pred, size)
    total = _run_length(*a) + _run_length(*b)
    if total == 0:
        return both_empty
    return 2.0 * _runs_overlap(a, b) / total


def rle_f_beta(rle_true: Any, rle_pred: Any, size: int, beta: float = 0.5) -> float:
    """Pixel F-beta of two RLE masks of ``size`` pixels, on the runs without decoding.

    ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)``, 0.0 if both masks are empty
    (scikit-learn's ``fbeta_score`` default).
    """
    a = rle_runs(rle_true, size)
    b = rle_runs(rle_pred, size)
    tp = _runs_overlap(a, b)
    fn = _run_length(*a) - tp
    fp = _run_length(*b) - tp
    b2 = beta * beta
    den = (1 + b2) * tp + b2 * fn + fp
    return (1 + b2) * tp / den if den else 0.0


def _masks(name: str, values: np.ndarray, *, min_ndim: int = 2) -> np.ndarray:
    try:
        out = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected arrays of 0/1 mask pixels") from None
    if out.ndim < min_ndim:
        raise ValueError(f"{name}: expected at least {min_ndim} dimensions, got shape {out.shape}")
    if not np.isin(out, (0.0, 1.0)).all():
        raise ValueError(f"{name}: mask pixels must be 0 or 1 (True or False)")
    return out.astype(bool)


@register("dice-coefficient", lower_is_better=False)
def mean_dice(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Mean over images of the Dice coefficient, 1.0 for an image empty in both (HuBMAP).

    ``y_true``/``y_pred``: 0/1 masks stacked on the first axis (``n x H x W``, or
    ``n x pixels``). Task graders working on RLE text use :func:`rle_dice`.
    """
    t = _masks("dice-coefficient", y_true)
    p = _masks("dice-coefficient", y_pred)
    return float(np.mean([dice(t[i], p[i], both_empty=1.0) for i in range(len(t))]))


def global_dice(true_masks: Sequence[ArrayLike], pred_masks: Sequence[ArrayLike]) -> float:
    """Dice of all pixels of all images pooled: ``2 sum|T & P| / (sum|T| + sum|P|)``.

    ``ValueError`` if no image has a foreground pixel in either set (MLE-bench
    returns NaN there).
    """
    inter = total = 0
    for t, p in zip(true_masks, pred_masks, strict=True):
        tb, pb = _mask_pair("global-dice", t, p)
        inter += int(np.count_nonzero(tb & pb))
        total += int(np.count_nonzero(tb)) + int(np.count_nonzero(pb))
    if total == 0:
        raise ValueError(
            "global-dice: undefined when every mask is empty in answers and predictions"
        )
    return 2.0 * inter / total


@register("global-dice", lower_is_better=False)
def global_dice_metric(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Global Dice (contrails): :func:`global_dice` of 0/1 masks stacked on the first axis."""
    t = _masks("global-dice", y_true, min_ndim=1)
    p = _masks("global-dice", y_pred, min_ndim=1)
    return global_dice([t], [p])


TGS_THRESHOLDS = np.arange(0.5, 1.0, 0.05)
"""IoU thresholds 0.5, 0.55, ..., 0.95 (as ``numpy.arange`` produces them)."""


def tgs_image_score(true_mask: ArrayLike, pred_mask: ArrayLike) -> float:
    """TGS salt score of one image: share of thresholds ``t`` in 0.5..0.95 with ``IoU > t``.

    1.0 if both masks are empty, 0.0 if only the answer is empty. Otherwise the
    image is one object and ``IoU = |T & P| / |T | P|``, except that an EMPTY
    prediction gets ``IoU = |T| / (number of pixels)``: MLE-bench builds the IoU
    from 2-bin histograms and a constant all-zero prediction falls in the
    foreground bin, so an empty prediction on an image more than half salt still
    scores. Reproduced on purpose.
    """
    t, p = _mask_pair("tgs", true_mask, pred_mask)
    n_true = int(np.count_nonzero(t))
    n_pred = int(np.count_nonzero(p))
    if n_true == 0:
        return 1.0 if n_pred == 0 else 0.0
    inter = n_true if n_pred == 0 else np.count_nonzero(t & p)
    union = t.size if n_pred == 0 else np.count_nonzero(t | p)
    iou = inter / union
    return float(np.mean(iou > TGS_THRESHOLDS))


TGS_SHAPE = (101, 101)
"""Image size of the TGS salt competition."""


@register("mean-precision-intersection-over-union-at-different-thresholds", lower_is_better=False)
def tgs_mean_precision(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Mean over images of :func:`tgs_image_score` (TGS salt identification).

    ``y_true``/``y_pred``: either 1-D object arrays of RLE text for 101 x 101
    images (blank = empty mask), or 0/1 masks stacked on the first axis.
    """
    name = "mean-precision-intersection-over-union-at-different-thresholds"
    if y_true.dtype == object or y_true.dtype.kind in "US":
        if y_true.ndim != 1:
            raise ValueError(f"{name}: expected one RLE string per row")
        truth = [rle_decode(r, TGS_SHAPE) for r in y_true]
        try:
            pred = [rle_decode(r, TGS_SHAPE) for r in y_pred]
        except ValueError as exc:
            raise ValueError(f"{name}: invalid RLE in the predictions: {exc}") from None
    else:
        truth = list(_masks(name, y_true))
        pred = list(_masks(name, y_pred))
    return float(np.mean([tgs_image_score(t, p) for t, p in zip(truth, pred, strict=True)]))


@register("f0.5-score", lower_is_better=False)
def f05_pixels(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Pixel F0.5 (Vesuvius ink detection): mean over masks of :func:`f_beta_binary` (beta 0.5).

    ``y_true``/``y_pred``: 0/1 pixels. A 1-D array is one mask; otherwise the
    first axis indexes masks (pass one 2-D image as shape ``(1, H, W)``). Task
    graders on RLE text use :func:`rle_f_beta`.
    """
    t = _masks("f0.5-score", y_true, min_ndim=1)
    p = _masks("f0.5-score", y_pred, min_ndim=1)
    if t.ndim == 1:
        return f_beta_binary(t, p, beta=0.5)
    return float(np.mean([f_beta_binary(t[i], p[i], beta=0.5) for i in range(len(t))]))


def _boundary(mask: np.ndarray) -> np.ndarray:
    """Foreground voxels with at least one face neighbour outside the mask (or the array)."""
    inner = mask.copy()
    for axis in range(mask.ndim):
        n = mask.shape[axis]
        if n < 3:
            return mask.copy()
        front = [slice(None)] * mask.ndim
        back = [slice(None)] * mask.ndim
        front[axis] = slice(1, None)
        back[axis] = slice(None, -1)
        shifted_fwd = np.zeros_like(mask)
        shifted_bwd = np.zeros_like(mask)
        shifted_fwd[tuple(back)] = mask[tuple(front)]
        shifted_bwd[tuple(front)] = mask[tuple(back)]
        inner &= shifted_fwd & shifted_bwd
    return mask & ~inner


def _line_bound_sq(sources: np.ndarray, targets: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Upper bounds of each source's squared distance to the targets.

    For every axis, the nearest target on the same axis-parallel line (found by
    binary search in the targets sorted along that line) bounds the distance from
    above; the smallest of these bounds is returned (``inf`` if no line has one).
    """
    bound = np.full(len(sources), np.inf)
    ndim = sources.shape[1]
    radix = np.maximum(sources.max(axis=0), targets.max(axis=0)) + 1
    for axis in range(ndim):
        columns = [i for i in range(ndim) if i != axis] + [axis]

        def encode(points: np.ndarray, cols: list[int] = columns) -> np.ndarray:
            key = np.zeros(len(points), dtype=np.int64)
            for c in cols:
                key = key * int(radix[c]) + points[:, c]
            return key

        t_keys = encode(targets)
        order = np.argsort(t_keys, kind="mergesort")
        t_sorted, t_keys = targets[order], t_keys[order]
        pos = np.searchsorted(t_keys, encode(sources))
        others = columns[:-1]
        for cand in (pos - 1, pos):
            ok = (cand >= 0) & (cand < len(t_sorted))
            c = np.where(ok, cand, 0)
            same = ok & (t_sorted[c][:, others] == sources[:, others]).all(axis=1)
            d = weights[axis] * (t_sorted[c, axis] - sources[:, axis]).astype(np.float64) ** 2
            np.minimum(bound, np.where(same, d, np.inf), out=bound)
    return bound


def _nearest_sq(sources: np.ndarray, targets: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Exact squared weighted distance from each source to its nearest target."""
    a = sources.astype(np.float64)
    b = targets.astype(np.float64)
    out = np.full(len(a), np.inf)
    step = max(1, 4_000_000 // max(1, len(a)))
    for s in range(0, len(b), step):
        block = b[s : s + step]
        d = np.zeros((len(a), len(block)))
        for i, w in enumerate(weights):
            d += w * (a[:, i : i + 1] - block[None, :, i]) ** 2
        np.minimum(out, d.min(axis=1), out=out)
    return out


def _directed_hausdorff_sq(sources: np.ndarray, targets: np.ndarray, weights: np.ndarray) -> float:
    """``max_a min_b sum_i w_i (a_i - b_i)^2`` over integer coordinates, exact.

    Sources are visited by decreasing upper bound (:func:`_line_bound_sq`); once
    the bound of the next source is not above the largest exact distance found,
    no remaining source can change the maximum.
    """
    if len(sources) == 0:
        return 0.0
    bound = _line_bound_sq(sources, targets, weights)
    order = np.argsort(-bound, kind="mergesort")
    best = 0.0
    for start in range(0, len(order), 1024):
        chunk = order[start : start + 1024]
        chunk = chunk[bound[chunk] > best]
        if len(chunk) == 0:
            break
        best = max(best, float(_nearest_sq(sources[chunk], targets, weights).max()))
    return best


def hausdorff_distance(true_mask: ArrayLike, pred_mask: ArrayLike) -> float:
    """Normalised symmetric Hausdorff distance of two masks, as MLE-bench's UW-Madison grader.

    NaN if both are empty; 0.0 if identical; 1.0 if exactly one is empty or the
    prediction has more than 10 times the true voxels. Otherwise voxel
    coordinates are divided by the mask shape (per axis, into the unit cube) and
    ``max(h(T, P), h(P, T)) / sqrt(ndim)`` is returned, ``h(A, B) = max_a min_b |a - b|``.
    """
    t, p = _mask_pair("hausdorff", true_mask, pred_mask)
    n_true = int(np.count_nonzero(t))
    n_pred = int(np.count_nonzero(p))
    if n_true == 0 and n_pred == 0:
        return math.nan
    if np.array_equal(t, p):
        return 0.0
    if n_true == 0 or n_pred == 0 or n_pred > 10 * n_true:
        return 1.0
    try:  # exact and linear-time with a Euclidean distance transform, when scipy is there
        from scipy.ndimage import distance_transform_edt
    except ImportError:
        distance_transform_edt = None
    if distance_transform_edt is not None:
        spacing = 1.0 / np.asarray(t.shape, dtype=np.float64)
        h_tp = float(distance_transform_edt(~p, sampling=spacing)[t].max())
        h_pt = float(distance_transform_edt(~t, sampling=spacing)[p].max())
        return max(h_tp, h_pt) / math.sqrt(t.ndim)
    weights = 1.0 / np.asarray(t.shape, dtype=np.float64) ** 2
    # points of one mask inside the other are at distance 0; a nearest point lies on the boundary
    h_tp = _directed_hausdorff_sq(np.argwhere(t & ~p), np.argwhere(_boundary(p)), weights)
    h_pt = _directed_hausdorff_sq(np.argwhere(p & ~t), np.argwhere(_boundary(t)), weights)
    return math.sqrt(max(h_tp, h_pt)) / math.sqrt(t.ndim)


def _group_volumes(masks: Sequence[np.ndarray], slice_ids: Sequence[str]) -> dict[str, np.ndarray]:
    """Masks OR-ed per slice id and stacked per ``<case>_<day>`` (the part before ``_slice_``)."""
    order = sorted(range(len(slice_ids)), key=lambda i: slice_ids[i])
    per_slice: dict[str, np.ndarray] = {}
    for i in order:
        key = slice_ids[i]
        m = np.asarray(masks[i], dtype=bool)
        per_slice[key] = per_slice[key] | m if key in per_slice else m
    volumes: dict[str, list[np.ndarray]] = {}
    for key, m in per_slice.items():
        volumes.setdefault(key.split("_slice_")[0], []).append(m)
    return {k: np.stack(v, axis=0) for k, v in volumes.items()}


def dice_hausdorff_combo(
    true_masks: Sequence[np.ndarray],
    pred_masks: Sequence[np.ndarray],
    slice_ids: Sequence[str],
    *,
    dice_weight: float = 0.4,
    hausdorff_weight: float = 0.6,
) -> float:
    """UW-Madison GI tract score: ``0.4 * mean Dice + 0.6 * (1 - mean Hausdorff)``.

    ``true_masks[i]``/``pred_masks[i]``: the 2-D masks of row ``i`` (one organ of
    one slice); ``slice_ids[i]``: its ``case<N>_day<M>_slice_<K>`` id. Dice is
    averaged over rows skipping rows empty in both. For Hausdorff the rows of a
    slice are OR-ed, slices (sorted by id) stacked into one volume per
    ``case_day``, and :func:`hausdorff_distance` averaged over volumes, again
    skipping volumes empty in both. ``ValueError`` if everything is empty.
    """
    name = "dice-hausdorff-combo"
    if not len(true_masks) == len(pred_masks) == len(slice_ids):
        raise ValueError(f"{name}: masks and slice ids differ in length")
    dices = [dice(t, p) for t, p in zip(true_masks, pred_masks, strict=True)]
    truth = _group_volumes(true_masks, slice_ids)
    pred = _group_volumes(pred_masks, slice_ids)
    distances = [hausdorff_distance(truth[k], pred[k]) for k in truth]
    dice_values = [d for d in dices if not math.isnan(d)]
    hd_values = [d for d in distances if not math.isnan(d)]
    if not dice_values or not hd_values:
        raise ValueError(f"{name}: undefined when every mask is empty in answers and predictions")
    return dice_weight * float(np.mean(dice_values)) + hausdorff_weight * (
        1.0 - float(np.mean(hd_values))
    )


@register("dice-hausdorff-combo", lower_is_better=False)
def dice_hausdorff_metric(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """:func:`dice_hausdorff_combo` of one volume given as 0/1 masks ``n_slices x H x W``.

    Each slice is one Dice row; the stacked slices form the single Hausdorff
    volume. The UW-Madison task grader decodes its RLE rows and passes their
    slice ids to :func:`dice_hausdorff_combo` instead.
    """
    name = "dice-hausdorff-combo"
    t = _masks(name, y_true, min_ndim=3)
    p = _masks(name, y_pred, min_ndim=3)
    ids = [f"volume_slice_{i:06d}" for i in range(len(t))]
    return dice_hausdorff_combo(list(t), list(p), ids)
