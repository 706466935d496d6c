"""COCO box AP at one IoU threshold (pycocotools' evaluation, reproduced in numpy) and
VinBigData's score built on it (see :mod:`.detection`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

import numpy as np

from mle_gym.grading.metrics._prediction_strings import _number, _tokens


class CocoBox(NamedTuple):
    """A box for :func:`coco_map`: ``box`` in COCO ``(x, y, width, height)`` order.

    ``area`` (used only to ignore boxes outside the ``[0, 1e10]`` area range) and
    ``score`` (predictions only) as pycocotools reads them.
    """

    image: Hashable
    category: Hashable
    box: tuple[float, float, float, float]
    area: float
    score: float = 0.0


COCO_RECALL_LEVELS = np.linspace(0.0, 1.0, 101)
"""The 101 recall levels at which COCO samples the precision envelope."""
_AREA_ALL = (0.0, 1e10)


def _coco_ious(dts: Sequence[CocoBox], gts: Sequence[CocoBox]) -> np.ndarray:
    """pycocotools' bbox IoU matrix (detections x ground truths), boxes as ``x, y, w, h``."""
    d = np.array([b.box for b in dts], dtype=np.float64).reshape(-1, 4)
    g = np.array([b.box for b in gts], dtype=np.float64).reshape(-1, 4)
    w = np.minimum(d[:, None, 0] + d[:, None, 2], g[None, :, 0] + g[None, :, 2]) - np.maximum(
        d[:, None, 0], g[None, :, 0]
    )
    h = np.minimum(d[:, None, 1] + d[:, None, 3], g[None, :, 1] + g[None, :, 3]) - np.maximum(
        d[:, None, 1], g[None, :, 1]
    )
    inter = np.where((w > 0) & (h > 0), w * h, 0.0)
    union = (d[:, 2] * d[:, 3])[:, None] + (g[:, 2] * g[:, 3])[None, :] - inter
    out = np.zeros_like(inter)
    np.divide(inter, union, out=out, where=inter > 0)
    return out


def coco_map(
    truth: Sequence[CocoBox],
    predictions: Sequence[CocoBox],
    *,
    iou_threshold: float = 0.4,
    max_detections: int = 100,
) -> float:
    """COCO box AP at one IoU threshold (pycocotools ``stats[0]`` with ``iouThrs=[t]``).

    Per category of the answers and image, up to ``max_detections`` predictions
    (by decreasing score) are matched greedily to true boxes with
    ``IoU >= t``; over all images the precision envelope is sampled at 101 recall
    levels and the result is the mean over categories and levels.

    Annotation ids are the positions in ``truth`` and ``predictions`` (0-based), and
    pycocotools reads an id of 0 as "no match": the first true box can never
    count as matched and the first prediction never marks its true box as taken.
    This is reproduced because MLE-bench's VinBigData grader numbers boxes from 0.
    ``ValueError`` for a prediction on an image absent from the answers.
    """
    images = list(dict.fromkeys(b.image for b in truth))
    known = set(images)
    try:
        categories = sorted({b.category for b in truth})  # type: ignore[type-var]
    except TypeError:
        raise ValueError("mAP: category ids cannot be ordered (mixed types)") from None
    wanted = set(categories)
    gt_index: dict[tuple[Hashable, Hashable], list[int]] = defaultdict(list)
    dt_index: dict[tuple[Hashable, Hashable], list[int]] = defaultdict(list)
    for i, b in enumerate(truth):
        gt_index[b.image, b.category].append(i)
    for i, b in enumerate(predictions):
        if b.image not in known:
            raise ValueError(f"mAP: prediction for image {b.image!r}, which has no answer row")
        if b.category in wanted:
            dt_index[b.image, b.category].append(i)
    curves: list[np.ndarray] = []
    for category in categories:
        scores: list[float] = []
        matched: list[np.ndarray] = []
        ignored: list[np.ndarray] = []
        gt_ignored: list[np.ndarray] = []
        for image in images:
            g_ids = gt_index.get((image, category), [])
            d_ids = dt_index.get((image, category), [])
            if not g_ids and not d_ids:
                continue
            d_scores, dt_match, dt_ignore, g_ignore = _evaluate_image(
                truth, predictions, g_ids, d_ids, iou_threshold, max_detections
            )
            scores.extend(d_scores)
            matched.append(dt_match)
            ignored.append(dt_ignore)
            gt_ignored.append(g_ignore)
        if not gt_ignored:
            continue
        n_true = int(np.count_nonzero(~np.concatenate(gt_ignored)))
        if n_true == 0:
            continue
        curves.append(_sampled_precision(scores, matched, ignored, n_true))
    if not curves:
        raise ValueError("mAP: the answers contain no box")
    return float(np.mean(np.concatenate(curves)))


def _evaluate_image(
    truth: Sequence[CocoBox],
    predictions: Sequence[CocoBox],
    g_ids: list[int],
    d_ids: list[int],
    iou_threshold: float,
    max_detections: int,
) -> tuple[list[float], np.ndarray, np.ndarray, np.ndarray]:
    """pycocotools' ``evaluateImg`` for one image and category (area range "all"): the
    kept detections' scores, their matched true-box ids (0 = none), whether each is
    ignored, and whether each true box is ignored."""
    low, high = _AREA_ALL
    g_ignore = np.array([not (low <= truth[i].area <= high) for i in g_ids], dtype=bool)
    g_order = np.argsort(g_ignore, kind="mergesort")
    g_ids = [g_ids[i] for i in g_order]
    g_ignore = g_ignore[g_order]
    d_order = np.argsort([-predictions[i].score for i in d_ids], kind="mergesort")
    d_ids = [d_ids[i] for i in d_order[:max_detections]]
    ious = _coco_ious([predictions[i] for i in d_ids], [truth[i] for i in g_ids])
    dt_match, dt_ignore = _greedy_match(ious, g_ids, d_ids, g_ignore, iou_threshold)
    outside = np.array([not (low <= predictions[i].area <= high) for i in d_ids], dtype=bool)
    dt_ignore |= (dt_match == 0) & outside
    return [predictions[i].score for i in d_ids], dt_match, dt_ignore, g_ignore


def _greedy_match(
    ious: np.ndarray,
    g_ids: list[int],
    d_ids: list[int],
    g_ignore: np.ndarray,
    iou_threshold: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Each detection, by decreasing score, takes the free true box of highest IoU (at
    least the threshold; non-ignored boxes first): (matched true-box id per detection, 0 =
    none; whether the detection matched an ignored box). Ids of 0 read as "no match", as
    in pycocotools."""
    gt_taken = np.zeros(len(g_ids))  # id of the matching detection, 0 = free
    dt_match = np.zeros(len(d_ids))  # id of the matched true box, 0 = none
    dt_ignore = np.zeros(len(d_ids), dtype=bool)
    if len(g_ids) and len(d_ids):
        for di in range(len(d_ids)):
            best_iou = min(iou_threshold, 1 - 1e-10)
            m = -1
            for gi in range(len(g_ids)):
                if gt_taken[gi] > 0:
                    continue
                if m > -1 and not g_ignore[m] and g_ignore[gi]:
                    break
                if ious[di, gi] < best_iou:
                    continue
                best_iou = ious[di, gi]
                m = gi
            if m == -1:
                continue
            dt_ignore[di] = g_ignore[m]
            dt_match[di] = g_ids[m]
            gt_taken[m] = d_ids[di]
    return dt_match, dt_ignore


def _sampled_precision(
    scores: list[float], matched: list[np.ndarray], ignored: list[np.ndarray], n_true: int
) -> np.ndarray:
    """One category's precision envelope over all its images, sampled at
    :data:`COCO_RECALL_LEVELS` (0 past the highest recall reached)."""
    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="mergesort")
    hit = np.concatenate(matched)[order] != 0
    skip = np.concatenate(ignored)[order]
    tp = np.cumsum(hit & ~skip).astype(np.float64)
    fp = np.cumsum(~hit & ~skip).astype(np.float64)
    q = np.zeros(len(COCO_RECALL_LEVELS))
    if len(tp):
        recall = tp / n_true
        precision = tp / (tp + fp + np.spacing(1))
        precision = np.maximum.accumulate(precision[::-1])[::-1]
        idx = np.searchsorted(recall, COCO_RECALL_LEVELS, side="left")
        inside = idx < len(tp)
        q[inside] = precision[idx[inside]]
    return q


def vinbigdata_map(
    truth_rows: Sequence[tuple[Hashable, Any, float, float, float, float]],
    prediction_rows: Sequence[tuple[Hashable, Any]],
    *,
    iou_threshold: float = 0.4,
) -> float:
    """VinBigData score: :func:`coco_map` at IoU 0.4 fed the way MLE-bench's grader feeds it.

    ``truth_rows``: ``(image_id, class_id, x_min, y_min, x_max, y_max)`` per true
    box, in answers-file order; ``prediction_rows``: ``(image_id,
    PredictionString)`` per submission row in file order, the string holding
    ``class_id score x_min y_min x_max y_max`` per box (blank = no box).

    The reference grader hands ``[x_min, y_min, x_max, y_max]`` to pycocotools,
    which reads it as ``[x, y, width, height]``; boxes are passed the same way
    here so that scores agree. Areas are ``(x_max - x_min) * (y_max - y_min)``.
    """
    truth = [
        CocoBox(img, int(cls), (x0, y0, x1, y1), (x1 - x0) * (y1 - y0))
        for img, cls, x0, y0, x1, y1 in (
            (r[0], r[1], *(float(v) for v in r[2:6])) for r in truth_rows
        )
    ]
    predictions = []
    for image, cell in prediction_rows:
        for cls, score, *coords in _tokens(cell, 6, "PredictionString"):
            x0, y0, x1, y1 = (_number(v, "PredictionString") for v in coords)
            predictions.append(
                CocoBox(
                    image,
                    int(_number(cls, "PredictionString")),
                    (x0, y0, x1, y1),
                    (x1 - x0) * (y1 - y0),
                    _number(score, "PredictionString"),
                )
            )
    return coco_map(truth, predictions, iou_threshold=iou_threshold)
