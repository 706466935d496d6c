"""Tests of the metric library (mle_gym.grading.metrics).

Every metric name of MLE-bench's competition list must resolve with the CSV's
direction; each metric is checked on tiny inputs whose expected value is worked
out in the comments, and against scikit-learn / SciPy wherever they implement
the same quantity.
"""

from __future__ import annotations

import csv
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn import metrics as skm
from sklearn.preprocessing import MultiLabelBinarizer

from mle_gym.grading.metrics import METRICS, Metric, UnknownMetric, get_metric
from mle_gym.grading.metrics.classification import multilabel_micro_f1
from mle_gym.grading.metrics.detection import (
    Box3D,
    CocoBox,
    box3d_iou,
    box_iou,
    coco_map,
    kuzushiji_f1,
    lyft_3d_map,
    parse_labelled_boxes,
    parse_lyft_boxes,
    siim_covid_map,
    step_average_precision,
    vinbigdata_map,
)
from mle_gym.grading.metrics.geo import haversine_m, smartphone_score
from mle_gym.grading.metrics.jigsaw import jigsaw_bias_score
from mle_gym.grading.metrics.ranking import map_at_k, roc_curve
from mle_gym.grading.metrics.regression import grouped_log_mae, kendall_tau_orders
from mle_gym.grading.metrics.segmentation import (
    dice,
    dice_hausdorff_combo,
    global_dice,
    hausdorff_distance,
    rle_decode,
    rle_dice,
    rle_encode,
    rle_f_beta,
    rle_runs,
    tgs_image_score,
)
from mle_gym.grading.metrics.text import levenshtein

REPO = Path(__file__).resolve().parent.parent
CSV_PATH = REPO / "scripts" / "mlebench_reference" / "mlebench_competitions.csv"
ROWS = list(csv.DictReader(CSV_PATH.open()))
CSV_NAMES = sorted({r["metric"] for r in ROWS})


def score(name: str, y_true: Any, y_pred: Any) -> float:
    return get_metric(name).score(np.asarray(y_true), np.asarray(y_pred))


def obj(*values: Any) -> np.ndarray:
    """A 1-D object array (how the grader passes text columns)."""
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


# --------------------------------------------------------------------------- registry


def test_csv_has_45_metric_names_and_all_resolve() -> None:
    assert len(CSV_NAMES) == 45
    for name in CSV_NAMES:
        metric = get_metric(name)
        assert isinstance(metric, Metric) and metric.name == name


def test_every_registered_name_comes_from_the_csv() -> None:
    assert sorted(METRICS) == CSV_NAMES


@pytest.mark.parametrize("name", CSV_NAMES)
def test_direction_matches_csv(name: str) -> None:
    # blank cells (ventilator-pressure-prediction has no leaderboard figures) carry no direction
    directions = {r["lower_is_better"] for r in ROWS if r["metric"] == name} - {""}
    assert directions, name
    assert directions == {str(get_metric(name).lower_is_better)}


def test_aliases_share_one_implementation() -> None:
    pairs = {
        "multi-class-classification-accuracy": "accuracy",
        "root_mean_squared_error": "root-mean-squared-error",
        "MAP@5": "map-at-5",
        "column-wise ROC AUC": "mean-column-wise-roc-auc",
        "auroc-multi-label": "mean-column-wise-roc-auc",
        "multi-class-log-loss": "log-loss",
        "jaccard-similarity": "word-level-jaccard-score",
    }
    for alias, canonical in pairs.items():
        a, c = get_metric(alias), get_metric(canonical)
        assert a.fn is c.fn and a.canonical == canonical and alias in c.aliases
    # same letters, different metric: the misspelt name is the gesture error rate
    assert get_metric("levenhstein-distance").fn is not get_metric("levenshtein-distance").fn


def test_unknown_metric_lists_known_names() -> None:
    with pytest.raises(UnknownMetric, match=r"known metrics: .*kendall-tau"):
        get_metric("nope")


def test_register_rejects_taken_alias() -> None:
    from mle_gym.grading.metrics import register

    with pytest.raises(ValueError, match="twice"):
        register("test-only-x", lower_is_better=True, aliases=("accuracy",))(lambda t, p: 0.0)
    assert "test-only-x" not in METRICS


# --------------------------------------------------------------------------- perfect scores

BOX_A = "opacity 1 0 0 10 10"
LYFT_B = "1.0 10 10 0 2 2 2 0 bus"
KUZ_T = "U+1 0 0 10 10 U+2 20 20 5 5"
VOL_T = np.zeros((2, 4, 4), dtype=bool)
VOL_T[0, 1:3, 1:3] = True
VOL_T[1, 1, 1] = True
VOL_P = np.zeros_like(VOL_T)
VOL_P[0, 0, 0] = True

# name -> (answers, perfect prediction, worse prediction, best value)
PERFECT: dict[str, tuple[Any, Any, Any, float]] = {
    "accuracy": ([1, 0, 2], [1, 0, 2], [1, 1, 2], 1.0),
    "top-1-classification-error": ([3, 5], obj("3 1", "5"), obj("1 3", "5"), 0.0),
    "micro-f1-score": (obj("a", "b c"), obj("a", "b c"), obj("a", "b"), 1.0),
    "macro-f1-score": ([0, 1, 1], [0, 1, 1], [1, 1, 1], 1.0),
    "probabilistic-f1-score": ([1, 0, 1], [1.0, 0.0, 1.0], [0.5, 0.5, 0.5], 1.0),
    "matthews-correlation-coefficient": ([1, 0, 1, 0], [1, 0, 1, 0], [1, 1, 1, 0], 1.0),
    "quadratic-weighted-kappa": ([0, 1, 2, 2], [0, 1, 2, 2], [0, 2, 1, 2], 1.0),
    "auc-roc": ([0, 1, 1], [0.1, 0.9, 0.8], [0.9, 0.1, 0.8], 1.0),
    "mean-column-wise-roc-auc": (
        [[0, 1], [1, 0], [1, 1]],
        [[0.1, 0.9], [0.9, 0.2], [0.8, 0.7]],
        [[0.9, 0.1], [0.1, 0.9], [0.8, 0.7]],
        1.0,
    ),
    "weighted-auroc": ([0, 1, 0, 1], [0.1, 0.7, 0.2, 0.9], [0.1, 0.2, 0.3, 0.4], 1.0),
    "label-ranking-average-precision": (
        [[1, 0, 0], [0, 1, 1]],
        [[0.9, 0.1, 0.2], [0.1, 0.8, 0.7]],
        [[0.1, 0.9, 0.2], [0.9, 0.8, 0.1]],
        1.0,
    ),
    "map-at-5": (obj("w1", "w2"), obj("w1 w3", "w2"), obj("w3 w1", "w2"), 1.0),
    "MAP@12": (obj("a b", "c"), obj("b a", "c x"), obj("x a b", "c"), 1.0),
    "root-mean-squared-error": ([1.0, 2.0], [1.0, 2.0], [1.0, 3.0], 0.0),
    "mean-column-wise-rmsle": ([[1.0, 2.0]], [[1.0, 2.0]], [[2.0, 2.0]], 0.0),
    "mean-absolute-error": ([10.0, 20.0], [10.0, 20.0], [12.0, 20.0], 0.0),
    "log-mean-absolute-error": ([1.0, 2.0], [1.0, 2.0], [1.5, 2.0], math.log(1e-9)),
    "pearson-correlation-coefficient": ([1.0, 2.0, 4.0], [1.0, 2.0, 4.0], [1, 3, 2], 1.0),
    "column-wise-spearman": (
        [[1, 3], [2, 2], [3, 1]],
        [[5, 9], [6, 8], [7, 1]],
        [[5, 9], [7, 8], [6, 1]],
        1.0,
    ),
    "kendall-tau": (obj("a b c", "x y"), obj("a b c", "x y"), obj("b a c", "x y"), 1.0),
    "log-loss": ([1, 0], [1.0, 0.0], [0.6, 0.3], 0.0),
    "weighted-multi-label-log-loss": ([[1, 0] * 4], [[1.0, 0.0] * 4], [[0.6, 0.3] * 4], 0.0),
    "KL-divergence": ([[2, 2], [0, 5]], [[0.5, 0.5], [0.0, 1.0]], [[0.9, 0.1], [0.5, 0.5]], 0.0),
    "modified-laplace-log-likelihood": (
        [[2000.0, 0.0]],
        [[2000.0, 70.0]],
        [[2100.0, 70.0]],
        -math.log(math.sqrt(2) * 70),
    ),
    "dice-coefficient": (
        [[[1, 0], [0, 0]], [[0, 0], [0, 0]]],
        [[[1, 0], [0, 0]], [[0, 0], [0, 0]]],
        [[[1, 1], [0, 0]], [[0, 0], [0, 0]]],
        1.0,
    ),
    "global-dice": ([[1, 0, 1]], [[1, 0, 1]], [[1, 1, 1]], 1.0),
    "dice-hausdorff-combo": (VOL_T, VOL_T, VOL_T | VOL_P, 1.0),
    "mean-precision-intersection-over-union-at-different-thresholds": (
        obj("1 5", ""),
        obj("1 5", ""),
        obj("1 4", ""),
        1.0,
    ),
    "f0.5-score": ([1, 1, 0], [1, 1, 0], [1, 0, 0], 1.0),
    "mean-average-precision": (obj(BOX_A, ""), obj(BOX_A, ""), obj("", ""), 1.0),
    "f1-score": (obj(KUZ_T, ""), obj("U+1 5 5 U+2 22 22", ""), obj("U+1 5 5", "U+2 1 1"), 1.0),
    "levenshtein-distance": (obj("abc", "x"), obj("abc", "x"), obj("abd", "x"), 0.0),
    "levenhstein-distance": (obj("1 2 3", "4"), obj("1 2 3", "4"), obj("1 3", "4"), 0.0),
    "word-level-jaccard-score": (obj("A b", "c"), obj("a B", "c"), obj("a", "c"), 1.0),
    "average-haversine-distance": (
        [[10.0, 20.0], [10.1, 20.1]],
        [[10.0, 20.0], [10.1, 20.1]],
        [[10.0, 20.0], [10.2, 20.1]],
        0.0,
    ),
    "mean-angular-error": (
        [[0.5, 1.0], [2.0, 0.3]],
        [[0.5, 1.0], [2.0, 0.3]],
        [[0.4, 1.0], [2.0, 0.3]],
        0.0,
    ),
}
_J = np.array(
    # toxicity, then 9 identities: rows cover every subgroup/BPSN/BNSP subset with both classes
    [[1] + [1] * 9, [0] + [1] * 9, [1] + [0] * 9, [0] + [0] * 9],
    dtype=float,
)
# pycocotools counts a match with annotation id 0 as a miss, so three exact boxes score
# 67 * (2/3) / 101 at best (see test_vinbigdata_perfect_submission_is_capped_by_the_id_zero_quirk)
_V = obj("0 1 0 0 10 10", "0 1 0 0 10 10", "0 1 0 0 10 10")
PERFECT["mAP-at-IoU>0.4"] = (_V, _V, obj("0 1 0 0 10 10", "0 1 5 5 10 10", ""), 67 * (2 / 3) / 101)
PERFECT["jigsaw-unintended-bias-in-toxicity-classification-score"] = (
    _J,
    _J.copy(),
    np.c_[[0.0, 1.0, 1.0, 0.0], _J[:, 1:]],
    1.0,
)


def test_perfect_table_covers_every_canonical_metric() -> None:
    canonical = {m.canonical for m in METRICS.values()}
    assert canonical <= set(PERFECT)


@pytest.mark.parametrize("name", CSV_NAMES)
def test_perfect_predictions_score_best(name: str) -> None:
    metric = get_metric(name)
    truth, perfect, worse, best = PERFECT[metric.canonical]
    got = metric.score(np.asarray(truth), np.asarray(perfect))
    bad = metric.score(np.asarray(truth), np.asarray(worse))
    assert got == pytest.approx(best, abs=1e-7)  # arccos near 1 is only good to ~1e-8
    assert (bad > got) if metric.lower_is_better else (bad < got)


# --------------------------------------------------------------------------- classification


def test_accuracy_and_alias() -> None:
    # 2 of 4 rows right
    assert score("accuracy", [1, 0, 1, 1], [1, 1, 1, 0]) == 0.5
    assert score("multi-class-classification-accuracy", obj("a", "b"), obj("a", "c")) == 0.5


def test_top1_error_reads_first_token() -> None:
    # predictions 3, 4, 7 (first tokens) against 3, 5, 7: one miss in three
    got = score("top-1-classification-error", [3, 5, 7], obj("3 1 2", "4 5", "7"))
    assert got == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="integers"):
        score("top-1-classification-error", [3], obj("cat"))


def test_micro_f1_hand_computed() -> None:
    # one label per row, kept whole: 2 of 3 right -> 2/3
    assert score("micro-f1-score", obj("a b", "c", "d"), obj("a b", "x", "d")) == pytest.approx(
        2 / 3
    )
    # indicator matrix: TP 2, FP 1, FN 1 -> 2*2 / (2*2 + 1 + 1) = 2/3
    got = score("micro-f1-score", [[1, 0, 1], [0, 1, 0]], [[1, 1, 0], [0, 1, 0]])
    assert got == pytest.approx(2 / 3)


def test_multilabel_micro_f1_ignores_labels_outside_the_answers() -> None:
    # vocabulary {a, b, c}; row 1: {a} right, z ignored, b missed; row 2: c right, b wrong
    # TP 2, FP 1, FN 1 -> 4/6
    actual = [["a", "b"], ["c"]]
    predicted = [["a", "z"], ["c", "b"]]
    assert multilabel_micro_f1(actual, predicted) == pytest.approx(2 / 3)
    mlb = MultiLabelBinarizer(classes=["a", "b", "c"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = skm.f1_score(mlb.fit_transform(actual), mlb.transform(predicted), average="micro")
    assert multilabel_micro_f1(actual, predicted) == pytest.approx(ref)
    assert multilabel_micro_f1([[]], [[]]) == 0.0


def test_macro_f1_hand_computed() -> None:
    # label 0: tp1 fp0 fn1 -> 2/3; label 1: tp1 fp2 fn0 -> 1/2; label 2: tp0 fn1 -> 0; mean 7/18
    assert score("macro-f1-score", [0, 0, 1, 2], [0, 1, 1, 1]) == pytest.approx(7 / 18)


def test_probabilistic_f1_hand_computed() -> None:
    # 1.5 is clipped to 1: ctp = 0.8 + 0.6 = 1.4, cfp = 0.4 + 1.0 = 1.4
    # P = 0.5, R = 1.4 / 2 = 0.7, F1 = 2 * 0.35 / 1.2
    got = score("probabilistic-f1-score", [1, 0, 1, 0], [0.8, 0.4, 0.6, 1.5])
    assert got == pytest.approx(0.7 / 1.2)
    assert score("probabilistic-f1-score", [1, 0], [0.0, 0.0]) == 0.0
    with pytest.raises(ValueError, match="no positive"):
        score("probabilistic-f1-score", [0, 0], [0.5, 0.5])


def test_mcc_hand_computed() -> None:
    # tp 1, fn 1, tn 2, fp 0: (1*2 - 0*1) / sqrt(1 * 2 * 2 * 3) = 2 / sqrt(12)
    got = score("matthews-correlation-coefficient", [1, 1, 0, 0], [1, 0, 0, 0])
    assert got == pytest.approx(2 / math.sqrt(12))
    # constant predictions: denominator 0 -> 0.0 as scikit-learn
    assert score("matthews-correlation-coefficient", [1, 0], [1, 1]) == 0.0


def test_qwk_hand_computed_on_label_positions() -> None:
    # O = permutation swapping labels 1 and 2; E = 1/3 everywhere
    # sum w*O = 1 + 1 = 2, sum w*E = (0+1+4+1+0+1+4+1+0)/3 = 4 -> 1 - 2/4 = 0.5
    assert score("quadratic-weighted-kappa", [0, 1, 2], [0, 2, 1]) == pytest.approx(0.5)
    # weights use positions in the sorted labels, so values 0, 1, 4 behave like 0, 1, 2
    assert score("quadratic-weighted-kappa", [0, 1, 4], [0, 4, 1]) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="undefined"):
        score("quadratic-weighted-kappa", [2, 2], [2, 2])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=50),
)
def test_label_metrics_match_sklearn(pairs: list[tuple[int, int]]) -> None:
    t = np.array([a for a, _ in pairs])
    p = np.array([b for _, b in pairs])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert score("accuracy", t, p) == pytest.approx(skm.accuracy_score(t, p))
        assert score("micro-f1-score", t, p) == pytest.approx(skm.f1_score(t, p, average="micro"))
        assert score("macro-f1-score", t, p) == pytest.approx(skm.f1_score(t, p, average="macro"))
        assert score("matthews-correlation-coefficient", t, p) == pytest.approx(
            skm.matthews_corrcoef(t, p), abs=1e-12
        )
        kappa = skm.cohen_kappa_score(t, p, weights="quadratic")
    if math.isnan(kappa):
        with pytest.raises(ValueError):
            score("quadratic-weighted-kappa", t, p)
    else:
        assert score("quadratic-weighted-kappa", t, p) == pytest.approx(kappa, abs=1e-12)


# --------------------------------------------------------------------------- ranking


def test_auc_hand_computed_with_ties() -> None:
    # positives 0.35, 0.8 vs negatives 0.1, 0.4: 3 of 4 pairs ordered -> 0.75
    assert score("auc-roc", [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == pytest.approx(0.75)
    # a tie counts one half
    assert score("auc-roc", [0, 1], [0.5, 0.5]) == 0.5
    # several columns: mean of column AUCs (1.0 and 0.0)
    assert score("auc-roc", [[0, 0], [1, 1]], [[0.1, 0.9], [0.9, 0.1]]) == 0.5


def test_auc_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="two classes"):
        score("auc-roc", [1, 1], [0.2, 0.3])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        score("auc-roc", [0, 1], [0.2, 1.3])
    with pytest.raises(ValueError, match="NaN"):
        score("auc-roc", [0, 1], [0.2, float("nan")])


def test_column_wise_auc_skips_rows_marked_minus_one() -> None:
    # the -1 row would break column 1's ordering if it were scored
    truth = [[1, 0], [0, 1], [-1, -1], [1, 1], [0, 0]]
    pred = [[0.9, 0.1], [0.1, 0.9], [0.0, 0.0], [0.8, 0.7], [0.2, 0.3]]
    assert score("column-wise ROC AUC", truth, pred) == 1.0
    # scores need not be probabilities here: column 1 ordered (1.0), column 2 reversed (0.0)
    assert score("auroc-multi-label", [[0, 1], [1, 0]], [[0.3, -2.0], [0.7, 5.0]]) == 0.5


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_auc_variants_match_sklearn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 60))
    truth = rng.integers(0, 2, size=(n, 3))
    truth[0], truth[1] = 0, 1  # both classes in every column
    scores = np.round(rng.random((n, 3)), 1)  # coarse, so ties happen
    assert score("auc-roc", truth[:, 0], scores[:, 0]) == pytest.approx(
        skm.roc_auc_score(truth[:, 0], scores[:, 0])
    )
    assert score("mean-column-wise-roc-auc", truth, scores) == pytest.approx(
        skm.roc_auc_score(truth, scores, average="macro")
    )
    fpr, tpr = roc_curve(truth[:, 0], scores[:, 0])
    ref_fpr, ref_tpr, _ = skm.roc_curve(truth[:, 0], scores[:, 0], drop_intermediate=False)
    np.testing.assert_allclose(fpr, ref_fpr)
    np.testing.assert_allclose(tpr, ref_tpr)


def test_weighted_auroc_hand_computed() -> None:
    # scores desc: pos, neg, pos, neg -> ROC (0,0) (0,.5) (.5,.5) (.5,1) (1,1); (0,.4) inserted
    # band [0,.4]: (0,0) (0,.4) closed by (1,.4) -> area 0.4
    # band [.4,1]: heights-.4 0 .1 .1 .6 .6 (+(1,.6)) -> .5*.1 + .5*.6 = 0.35
    # (2*0.4 + 1*0.35) / (2*0.4 + 1*0.6) = 1.15 / 1.4
    got = score("weighted-auroc", [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    assert got == pytest.approx(1.15 / 1.4)
    assert score("weighted-auroc", [0, 1], [0.9, 0.1]) == 0.0


def test_lwlrap_hand_computed() -> None:
    # row 1: relevant labels 0 (rank 1 -> 1/1) and 2 (rank 3, 2 relevant at or above -> 2/3)
    #        LRAP 5/6, weight 2; row 2: no relevant label, skipped
    # row 3: relevant label 1 scores lowest (rank 3) -> 1/3, weight 1
    # (2 * 5/6 + 1/3) / 3 = 2/3
    truth = [[1, 0, 1], [0, 0, 0], [0, 1, 0]]
    scores = [[0.9, 0.8, 0.1], [0.3, 0.2, 0.1], [0.5, 0.2, 0.7]]
    assert score("label-ranking-average-precision", truth, scores) == pytest.approx(2 / 3)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_lwlrap_matches_sklearn_weighted_lrap(seed: int) -> None:
    rng = np.random.default_rng(seed)
    truth = (rng.random((12, 5)) < 0.35).astype(int)
    truth[0, 0] = 1
    scores = rng.integers(0, 4, size=(12, 5)) / 3  # ties
    weight = truth.sum(axis=1)
    rows = weight > 0
    ref = skm.label_ranking_average_precision_score(
        truth[rows] > 0, scores[rows], sample_weight=weight[rows]
    )
    assert score("label-ranking-average-precision", truth, scores) == pytest.approx(ref)


def test_map_at_k_hand_computed() -> None:
    # row 1: w1 found at position 2 -> 1/2 (the repeated w1 is not counted again); row 2: 1
    assert score("MAP@5", obj("w1", "new_whale"), obj("w2 w1 w1 w3", "new_whale")) == 0.75
    # {a, b, c} vs [x, a, b]: (1/2 + 2/3) / min(3, 12) = 7/18
    assert score("MAP@12", obj("a b c"), obj("x a b")) == pytest.approx(7 / 18)
    # only the first k predictions count
    assert map_at_k([{"f"}], [["a", "b", "c", "d", "e", "f"]], 5) == 0.0
    assert map_at_k([set()], [["a"]], 5) == 0.0


# --------------------------------------------------------------------------- regression


def test_rmse_family_hand_computed() -> None:
    # one error of 2 over 3 rows: sqrt(4/3)
    assert score("root_mean_squared_error", [1, 2, 3], [1, 2, 5]) == pytest.approx(math.sqrt(4 / 3))
    # per-column RMSE 1 and sqrt(5), averaged (MCRMSE)
    got = score("root-mean-squared-error", [[0, 0], [0, 0]], [[1, 3], [1, 1]])
    assert got == pytest.approx((1 + math.sqrt(5)) / 2)
    # log1p: [0, 1] vs [1, 1] -> sqrt(1/2)
    e1 = math.e - 1
    assert score("mean-column-wise-rmsle", [0.0, e1], [e1, e1]) == pytest.approx(math.sqrt(0.5))
    with pytest.raises(ValueError, match="-1"):
        score("mean-column-wise-rmsle", [1.0], [-1.0])


def test_mae_is_rounded_like_the_volcano_grader() -> None:
    # MAE 2.5 rounds half to even -> 2; MAE 3.5 -> 4
    assert score("mean-absolute-error", [0.0, 0.0], [2.5, 2.5]) == 2.0
    assert score("mean-absolute-error", [0.0], [3.5]) == 4.0


def test_log_mae_hand_computed() -> None:
    # MAE (1 + 3) / 2 = 2 -> log 2
    assert score("log-mean-absolute-error", [0.0, 0.0], [1.0, 3.0]) == pytest.approx(math.log(2))
    # type A: MAE 1 -> 0; type B: MAE e -> 1; mean 0.5
    assert grouped_log_mae([0.0, 0.0], [1.0, math.e], ["A", "B"]) == pytest.approx(0.5)


def test_correlations_hand_computed() -> None:
    # dx = (-1, 0, 1), dy = (-4/3, -1/3, 5/3): r = 3 / sqrt(2 * 42/9) = 9 / sqrt(84)
    assert score("pearson-correlation-coefficient", [1, 2, 3], [1, 2, 4]) == pytest.approx(
        9 / math.sqrt(84)
    )
    # ranks (1, 2, 3) vs (1, 3, 2): r = 1 / 2
    assert score("column-wise-spearman", [1, 2, 3], [10, 30, 20]) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="constant"):
        score("column-wise-spearman", [[1, 1], [2, 2]], [[1, 5], [2, 5]])
    with pytest.raises(ValueError, match="constant"):
        score("pearson-correlation-coefficient", [1, 1], [1, 2])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_regression_metrics_match_sklearn_and_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = np.round(rng.random((20, 3)) * 5, 1)
    p = np.round(rng.random((20, 3)) * 5, 1)
    assert score("root-mean-squared-error", t, p) == pytest.approx(
        skm.root_mean_squared_error(t, p)
    )
    assert score("mean-column-wise-rmsle", t, p) == pytest.approx(
        skm.root_mean_squared_log_error(t, p)
    )
    assert score("mean-absolute-error", t[:, 0] * 1000, p[:, 0] * 1000) == round(
        skm.mean_absolute_error(t[:, 0] * 1000, p[:, 0] * 1000)
    )
    assert score("pearson-correlation-coefficient", t[:, 0], p[:, 0]) == pytest.approx(
        stats.pearsonr(t[:, 0], p[:, 0])[0]
    )
    rhos = [stats.spearmanr(p[:, j], t[:, j]).correlation for j in range(3)]
    assert score("column-wise-spearman", t, p) == pytest.approx(np.mean(rhos))


def test_kendall_tau_hand_computed_and_pooled() -> None:
    # b a c d: one inversion of 4*3 ordered pairs -> 1 - 4/12
    assert score("kendall-tau", obj("a b c d"), obj("b a c d")) == pytest.approx(2 / 3)
    # pooled with (x y -> y x): inversions 1 + 1, n(n-1) 12 + 2 -> 1 - 8/14
    got = score("kendall-tau", obj("a b c d", "x y"), obj("b a c d", "y x"))
    assert got == pytest.approx(3 / 7)
    with pytest.raises(ValueError, match="exactly once"):
        score("kendall-tau", obj("a b"), obj("a a"))


@settings(max_examples=40, deadline=None)
@given(st.permutations(list(range(40))))
def test_kendall_tau_matches_scipy_on_one_ordering(perm: list[int]) -> None:
    truth = [f"c{i}" for i in range(40)]
    pred = [f"c{i}" for i in perm]
    ref = stats.kendalltau(np.arange(40), np.array(perm)).statistic
    assert kendall_tau_orders([truth], [pred]) == pytest.approx(ref)


def test_kendall_tau_long_orders_use_the_bisect_path() -> None:
    rng = np.random.default_rng(0)
    perm = rng.permutation(3000)
    truth = [str(i) for i in range(3000)]
    ref = stats.kendalltau(np.arange(3000), perm).statistic
    assert kendall_tau_orders([truth], [[str(i) for i in perm]]) == pytest.approx(ref)


# --------------------------------------------------------------------------- probabilistic


def test_log_loss_hand_computed() -> None:
    assert score("log-loss", [1, 0], [0.8, 0.4]) == pytest.approx(
        -(math.log(0.8) + math.log(0.6)) / 2
    )
    truth = [[1, 0, 0], [0, 1, 0]]
    pred = [[0.7, 0.2, 0.1], [0.5, 0.25, 0.25]]
    assert score("multi-class-log-loss", truth, pred) == pytest.approx(
        -(math.log(0.7) + math.log(0.25)) / 2
    )


def test_log_loss_validation() -> None:
    with pytest.raises(ValueError, match="sum to 1"):
        score("multi-class-log-loss", [[1, 0]], [[0.9, 0.9]])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        score("log-loss", [1, 0], [1.2, 0.0])
    with pytest.raises(ValueError, match="0 or 1"):
        score("log-loss", [2, 0], [0.5, 0.5])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_log_losses_match_sklearn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 4, 25)
    labels[:4] = [0, 1, 2, 3]
    onehot = np.eye(4)[labels]
    raw = rng.random((25, 4)) ** 3
    raw[0, labels[0]] = 0.0  # a zero probability on the true class is clipped
    pred = raw / raw.sum(axis=1, keepdims=True)
    assert score("multi-class-log-loss", onehot, pred) == pytest.approx(skm.log_loss(labels, pred))
    binary = labels % 2
    assert score("log-loss", binary, pred[:, 0]) == pytest.approx(skm.log_loss(binary, pred[:, 0]))


def test_weighted_multi_label_log_loss_hand_computed() -> None:
    # row 1: every p = 0.5 -> each cell loses ln 2, so the weighted mean is ln 2
    # row 2: all negative, p = 0.5 for patient_overall (weight 7) and 0.9 for C1..C7 (weight 1)
    #        (7 ln 2 + 7 * -ln 0.1) / 14
    truth = [[1, 0, 0, 0, 0, 0, 0, 0], [0] * 8]
    pred = [[0.5] * 8, [0.5] + [0.9] * 7]
    row2 = (7 * math.log(2) - 7 * math.log(0.1)) / 14
    got = score("weighted-multi-label-log-loss", truth, pred)
    assert got == pytest.approx((math.log(2) + row2) / 2)
    with pytest.raises(ValueError, match="8 columns"):
        score("weighted-multi-label-log-loss", [[1, 0]], [[0.5, 0.5]])


def test_kl_divergence_hand_computed_and_against_scipy() -> None:
    # votes (1,1) -> q (.5,.5) equal to p: 0; votes (0,3) -> q (0,1): 1 * ln(1/0.75)
    got = score("KL-divergence", [[1, 1], [0, 3]], [[0.5, 0.5], [0.25, 0.75]])
    assert got == pytest.approx(math.log(4 / 3) / 2)
    rng = np.random.default_rng(3)
    votes = rng.integers(0, 5, size=(10, 6)).astype(float)
    votes[:, 0] += 1
    p = rng.random((10, 6))
    p /= p.sum(axis=1, keepdims=True)
    q = votes / votes.sum(axis=1, keepdims=True)
    ref = np.mean(stats.entropy(q.T, p.T))  # column-wise sum q log(q / p)
    assert score("KL-divergence", votes, p) == pytest.approx(ref)
    with pytest.raises(ValueError, match="sum to 1"):
        score("KL-divergence", [[1, 1]], [[0.6, 0.5]])


def test_laplace_log_likelihood_hand_computed() -> None:
    # sigma = max(50, 70) = 70, delta = 100: -sqrt2*100/70 - ln(sqrt2*70)
    # delta capped at 1000 with sigma 200: -sqrt2*1000/200 - ln(sqrt2*200)
    r1 = -math.sqrt(2) * 100 / 70 - math.log(math.sqrt(2) * 70)
    r2 = -math.sqrt(2) * 1000 / 200 - math.log(math.sqrt(2) * 200)
    got = score("modified-laplace-log-likelihood", [[2000, 0], [0, 0]], [[2100, 50], [5000, 200]])
    assert got == pytest.approx((r1 + r2) / 2)


# --------------------------------------------------------------------------- segmentation


def test_rle_decode_follows_mlebench_orientation() -> None:
    # "1 3 10 2" on 4 rows x 3 columns, column-major: pixels 0,1,2 and 9,10
    mask = rle_decode("1 3 10 2", (4, 3))
    expected = np.zeros((4, 3), dtype=bool)
    expected[0:3, 0] = True
    expected[1:3, 2] = True
    np.testing.assert_array_equal(mask, expected)
    # row-major (Vesuvius): pixels 0,1,2 are the first row
    assert rle_decode("1 3", (2, 3), order="C")[0].all()
    assert not rle_decode("", (2, 2)).any() and not rle_decode(None, (2, 2)).any()
    # a run past the end is cut, as MLE-bench's decoder does
    assert rle_decode("3 10", (2, 2)).sum() == 2


@pytest.mark.parametrize(
    ("rle", "message"),
    [
        ("1 2 3", "even"),
        ("5 1 2 1", "sorted"),
        ("0 2", "positive"),
        ("1 0", "positive"),
        ("1 3 2 2", "overlap"),
        ("1 x", "whole numbers"),
        ("1.5 2", "whole numbers"),
    ],
)
def test_rle_rejects_malformed_text(rle: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rle_runs(rle, 100)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_rle_round_trip_and_run_based_scores(seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.random((7, 5)) < 0.4
    b = rng.random((7, 5)) < 0.4
    for order in ("F", "C"):
        np.testing.assert_array_equal(
            rle_decode(rle_encode(a, order=order), (7, 5), order=order), a
        )
    ra, rb = rle_encode(a), rle_encode(b)
    expected = dice(a, b, both_empty=1.0)
    assert rle_dice(ra, rb, 35) == pytest.approx(expected)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = skm.fbeta_score(a.ravel(), b.ravel(), beta=0.5, zero_division=0.0)
    assert rle_f_beta(ra, rb, 35) == pytest.approx(ref)
    assert score("f0.5-score", a[None], b[None]) == pytest.approx(ref)


def test_dice_family_hand_computed() -> None:
    # image 1: 2*1 / (2 + 2) = 0.5; image 2 empty in both -> 1.0; mean 0.75
    truth = [[1, 1, 0, 0], [0, 0, 0, 0]]
    pred = [[1, 0, 1, 0], [0, 0, 0, 0]]
    assert score("dice-coefficient", truth, pred) == 0.75
    # pooled: intersection 1, sizes 2 + 1 + 0 + 1 -> 2/4
    assert global_dice([[1, 1, 0], [0, 0, 0]], [[1, 0, 0], [0, 0, 1]]) == 0.5
    with pytest.raises(ValueError, match="empty"):
        score("global-dice", [[0, 0]], [[0, 0]])
    assert math.isnan(dice([0, 0], [0, 0]))


def test_f05_pixels_hand_computed() -> None:
    # tp 1, fn 1, fp 2: 1.25 / (1.25 + 0.25 + 2)
    assert score("f0.5-score", [1, 1, 0, 0], [1, 0, 1, 1]) == pytest.approx(1.25 / 3.5)


def test_tgs_score_including_the_empty_prediction_quirk() -> None:
    truth = np.zeros((10, 10), dtype=bool)
    truth[:8, :8] = True  # 64 pixels
    pred = np.zeros_like(truth)
    pred[:7, :8] = True  # IoU 56/64 = 0.875 > 0.5 .. 0.85: 8 of 10 thresholds
    assert tgs_image_score(truth, pred) == pytest.approx(0.8)
    # empty prediction: MLE-bench's histogram IoU is |T| / 100 = 0.64 -> 3 of 10 thresholds
    assert tgs_image_score(truth, np.zeros_like(truth)) == pytest.approx(0.3)
    assert tgs_image_score(np.zeros_like(truth), np.zeros_like(truth)) == 1.0
    assert tgs_image_score(np.zeros_like(truth), pred) == 0.0
    name = "mean-precision-intersection-over-union-at-different-thresholds"
    assert score(name, obj("1 10201", ""), obj("1 10201", "5 5")) == 0.5
    with pytest.raises(ValueError, match="invalid RLE"):
        score(name, obj("1 5"), obj("1 5 9"))


def _brute_hausdorff(t: np.ndarray, p: np.ndarray) -> float:
    a = np.argwhere(t) / t.shape
    b = np.argwhere(p) / t.shape
    d = np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))
    return max(d.min(axis=1).max(), d.min(axis=0).max()) / math.sqrt(t.ndim)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_hausdorff_matches_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shape = tuple(int(v) for v in rng.integers(2, 9, 3))
    t = rng.random(shape) < 0.3
    p = rng.random(shape) < 0.3
    t.flat[0] = p.flat[-1] = True
    got = hausdorff_distance(t, p)
    if np.array_equal(t, p):
        assert got == 0.0
    elif p.sum() > 10 * t.sum():
        assert got == 1.0
    else:
        assert got == pytest.approx(_brute_hausdorff(t, p))


def test_dice_hausdorff_combo_hand_computed() -> None:
    # one slice: truth voxel (0,0,0); prediction (0,0,0) and (0,0,2) in shape (1, 4, 4)
    # Dice 2*1/(1+2) = 2/3; Hausdorff: (0,0,2)/shape = (0,0,.5) -> 0.5 / sqrt(3)
    t = np.zeros((1, 4, 4), dtype=bool)
    t[0, 0, 0] = True
    p = t.copy()
    p[0, 0, 2] = True
    expected = 0.4 * (2 / 3) + 0.6 * (1 - 0.5 / math.sqrt(3))
    assert score("dice-hausdorff-combo", t, p) == pytest.approx(expected)
    # rows of one slice are OR-ed; ids group slices into case_day volumes
    ids = ["case1_day1_slice_0001", "case1_day1_slice_0001"]
    m1 = np.zeros((4, 4), dtype=bool)
    m1[0, 0] = True
    empty = np.zeros((4, 4), dtype=bool)
    # row 2 is empty in both -> skipped by the Dice mean; volumes identical -> Hausdorff 0
    assert dice_hausdorff_combo([m1, empty], [m1, empty], ids) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="empty"):
        dice_hausdorff_combo([empty], [empty], ids[:1])


# --------------------------------------------------------------------------- detection


def test_box_iou_and_step_ap() -> None:
    # overlap 5x10 = 50, union 100 + 100 - 50 -> 1/3
    assert box_iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(1 / 3)
    assert box_iou((0, 0, 0, 0), (0, 0, 0, 0)) == 0.0
    rng = np.random.default_rng(0)
    for _ in range(20):
        y = rng.integers(0, 2, 15)
        y[0] = 1
        s = rng.integers(0, 5, 15) / 4
        assert step_average_precision(y, s) == pytest.approx(skm.average_precision_score(y, s))


def test_siim_covid_map_hand_computed() -> None:
    # image 1: hit (1, .9) and a miss (0, .8); image 2: its box is not found -> (1, 0)
    # by score: .9 hit P 1 R .5; .8 miss P .5; 0 hit P 2/3 R 1 -> .5*1 + .5*2/3 = 5/6
    truth = obj(BOX_A, BOX_A)
    pred = obj("opacity 0.9 0 0 10 10 opacity 0.8 20 20 30 30", "")
    assert score("mean-average-precision", truth, pred) == pytest.approx(5 / 6)
    # a label-only-true image adds (1, 0); a row empty in both adds (0, 0)
    answers = [parse_labelled_boxes("none 1 0 0 1 1"), []]
    preds = [parse_labelled_boxes("none 0.5 0 0 1 1"), []]
    assert siim_covid_map(preds, answers) == 1.0
    with pytest.raises(ValueError, match="6 values"):
        parse_labelled_boxes("opacity 0.5 0 0 1")


def test_lyft_iou_and_map_hand_computed() -> None:
    box = Box3D(1.0, (0, 0, 0), (2, 2, 2), 0.0, "car")  # volume 8
    shifted = Box3D(0.9, (0.2, 0, 0), (2, 2, 2), 0.0, "car")
    # overlap 1.8 x 2 x 2 = 7.2, union 8.8
    assert box3d_iou(box, shifted) == pytest.approx(7.2 / 8.8)
    # a 2 x 4 box turned by 90 degrees covers the same ground as a 4 x 2 box
    turned = Box3D(1.0, (0, 0, 0), (2, 4, 1), math.pi / 2, "car")
    assert box3d_iou(turned, Box3D(1.0, (0, 0, 0), (4, 2, 1), 0.0, "car")) == pytest.approx(1.0)
    # IoU 0.818 beats thresholds .5 .. .8 (7 of 10): AP 1 there, 0 above -> 0.7
    truth = "1.0 0 0 0 2 2 2 0 car"
    pred = "0.9 0.2 0 0 2 2 2 0 car"
    assert lyft_3d_map([truth], [pred]) == pytest.approx(0.7)
    # a class never predicted scores 0 and halves the sample's mAP
    assert score("mean-average-precision", obj(f"{truth} {LYFT_B}"), obj(truth)) == 0.5
    with pytest.raises(ValueError, match="positive"):
        parse_lyft_boxes("1 0 0 0 0 1 1 0 car")


def test_coco_map_hand_computed_and_the_id_zero_quirk() -> None:
    # ids: truth 0, 1, 2 (one box per image), predictions 0, 1, 2, all exact hits
    # pycocotools reads the id 0 match as "unmatched": order FP, TP, TP
    # recall (0, 1/3, 2/3), precision envelope 2/3 -> levels 0..0.66 (67 of 101) get 2/3
    truth = [CocoBox(i, 0, (0, 0, 10, 10), 100) for i in range(3)]
    preds = [CocoBox(i, 0, (0, 0, 10, 10), 100, score=0.9) for i in range(3)]
    assert coco_map(truth, preds) == pytest.approx(67 * (2 / 3) / 101)
    # a decoy first truth box (id 0) in another category leaves category 0 perfect,
    # while the decoy's category scores 0: (1 + 0) / 2
    decoy = CocoBox(0, 1, (50, 50, 5, 5), 25)
    assert coco_map([decoy, *truth], preds) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="no answer"):
        coco_map(truth, [CocoBox("other", 0, (0, 0, 1, 1), 1)])


def test_vinbigdata_perfect_submission_is_capped_by_the_id_zero_quirk() -> None:
    # one box, predicted exactly: pycocotools (and so MLE-bench) scores 0.0
    assert vinbigdata_map([("a", 0, 0, 0, 10, 10)], [("a", "0 0.9 0 0 10 10")]) == 0.0
    # registered form: one row per image; boxes given as x_min y_min x_max y_max, read by
    # pycocotools as x y w h: (0,0,10,10) and (2,2,10,10) -> [0,10]^2 vs [2,12]^2 IoU 64/136
    truth = obj("0 1 0 0 10 10", "0 1 0 0 10 10", "0 1 0 0 10 10")
    perfect = obj("0 1 0 0 10 10", "0 1 0 0 10 10", "0 1 0 0 10 10")
    shifted = obj("0 1 0 0 10 10", "0 1 2 2 10 10", "0 1 0 0 10 10")
    best = score("mAP-at-IoU>0.4", truth, perfect)
    assert best == pytest.approx(67 * (2 / 3) / 101)
    # IoU 64/136 = 0.47 still passes 0.4; (5,5) shift fails it: FP, FP, TP -> 1/3 at 34 levels
    assert score("mAP-at-IoU>0.4", truth, shifted) == pytest.approx(best)
    worse = obj("0 1 0 0 10 10", "0 1 5 5 10 10", "0 1 0 0 10 10")
    assert score("mAP-at-IoU>0.4", truth, worse) == pytest.approx(34 * (1 / 3) / 101)


def test_kuzushiji_f1_hand_computed() -> None:
    # page 1: U+1 point inside box 1 (tp), U+2 at (30, 30) outside box 2 (fp + fn)
    # page 2: no truth, one prediction (fp); page 3: truth only (fn)
    # tp 1, fp 2, fn 2 -> P 1/3, R 1/3, F1 1/3
    truth = [KUZ_T, None, "U+3 0 0 4 4"]
    pred = ["U+1 5 5 U+2 30 30", "U+9 1 1", ""]
    assert kuzushiji_f1(truth, pred) == pytest.approx(1 / 3)
    # a point on the box edge is not inside
    assert kuzushiji_f1(["U+1 0 0 10 10"], ["U+1 10 5"]) == 0.0
    with pytest.raises(ValueError, match="3 values"):
        score("f1-score", obj(KUZ_T), obj("U+1 5"))


# --------------------------------------------------------------------------- text


def _dp_levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        cur = [i]
        for j, cb in enumerate(b, start=1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


@settings(max_examples=150, deadline=None)
@given(st.text("abcd", max_size=70), st.text("abcd", max_size=70))
def test_levenshtein_matches_dynamic_programming(a: str, b: str) -> None:
    assert levenshtein(a, b) == _dp_levenshtein(a, b)


def test_levenshtein_metrics_hand_computed() -> None:
    # kitten -> sitting: 3 edits; "" -> "ab": 2; mean 2.5
    assert score("levenshtein-distance", obj("kitten", ""), obj("sitting", "ab")) == 2.5
    # gesture ids: (1 2 3 -> 1 3) one deletion, (4 -> 4 5) one insertion; 4 true ids -> 2/4
    assert score("levenhstein-distance", obj("1 2 3", "4"), obj("1 3", "4 5")) == 0.5
    with pytest.raises(ValueError, match="integers"):
        score("levenhstein-distance", obj("1 2"), obj("1 x"))


def test_word_jaccard_hand_computed_and_against_sklearn() -> None:
    # {the, cat} vs {the, dog}: 1/3; identical after lower-casing: 1; both empty: 0
    got = score("jaccard-similarity", obj("The cat", "Hi", ""), obj("the dog", "hi", ""))
    assert got == pytest.approx((1 / 3 + 1 + 0) / 3)
    truth = [{"a", "b"}, {"c"}, {"d", "e"}]
    pred = [{"a"}, {"c", "x"}, {"e", "d"}]
    mlb = MultiLabelBinarizer(classes=sorted(set().union(*truth, *pred)))
    ref = skm.jaccard_score(mlb.fit_transform(truth), mlb.transform(pred), average="samples")
    got = score(
        "word-level-jaccard-score",
        obj(*(" ".join(sorted(s)) for s in truth)),
        obj(*(" ".join(sorted(s)) for s in pred)),
    )
    assert got == pytest.approx(ref)


# --------------------------------------------------------------------------- geo and jigsaw


def test_haversine_hand_computed() -> None:
    # a quarter of a great circle: pi/2 * R
    assert haversine_m(np.array([0.0]), np.array([0.0]), np.array([0.0]), np.array([90.0]))[
        0
    ] == pytest.approx(math.pi / 2 * 6_371_000)
    # one trip, errors 0 and 1 degree of latitude (d): p50 = d/2, p95 = 0.95 d; mean 0.725 d
    d = math.pi / 180 * 6_371_000
    truth = [[0.0, 0.0], [0.0, 0.0]]
    pred = [[0.0, 0.0], [1.0, 0.0]]
    assert score("average-haversine-distance", truth, pred) == pytest.approx(0.725 * d)
    # two trips are averaged trip by trip
    both = smartphone_score(np.array(truth * 2), np.array(pred + truth), ["t1", "t1", "t2", "t2"])
    assert both == pytest.approx(0.725 * d / 2)


def test_mean_angular_error_hand_computed() -> None:
    # zenith 0 (up) vs zenith pi/2 (horizon): pi/2; same direction: 0
    got = score("mean-angular-error", [[0.0, 0.0], [1.0, 1.0]], [[2.0, math.pi / 2], [1.0, 1.0]])
    assert got == pytest.approx(math.pi / 4)


def test_jigsaw_score_binarises_predictions_like_mlebench() -> None:
    rng = np.random.default_rng(5)
    n = 400
    tox = rng.random(n)
    pred = np.clip(tox + rng.normal(0, 0.3, n), 0, 1)
    ids = rng.random((n, 9))
    ids[rng.random((n, 9)) < 0.3] = np.nan  # missing identity = not mentioned
    y = tox >= 0.5
    s = (pred >= 0.5).astype(float)
    g = np.nan_to_num(ids) >= 0.5

    def auc(mask: np.ndarray) -> float:
        return skm.roc_auc_score(y[mask], s[mask])

    def power_mean(values: list[float]) -> float:
        return (sum(v**-5 for v in values) / len(values)) ** (-1 / 5)

    sub = [auc(g[:, j]) for j in range(9)]
    bpsn = [auc((~y & g[:, j]) | (y & ~g[:, j])) for j in range(9)]
    bnsp = [auc((y & g[:, j]) | (~y & ~g[:, j])) for j in range(9)]
    expected = 0.25 * auc(np.ones(n, bool)) + 0.25 * sum(map(power_mean, (sub, bpsn, bnsp)))
    assert jigsaw_bias_score(tox, pred, ids) == pytest.approx(expected)
    # only the side of 0.5 matters
    assert jigsaw_bias_score(tox, np.where(pred >= 0.5, 0.99, 0.01), ids) == pytest.approx(expected)
    with pytest.raises(ValueError, match="subgroup"):
        jigsaw_bias_score([1, 0], [0.9, 0.1], [[1], [0]])


# --------------------------------------------------------------------------- contract


NUMERIC_NAMES = [
    "root-mean-squared-error",
    "mean-absolute-error",
    "log-mean-absolute-error",
    "pearson-correlation-coefficient",
    "auc-roc",
    "log-loss",
]


@pytest.mark.parametrize("name", NUMERIC_NAMES)
def test_text_and_nan_predictions_are_value_errors(name: str) -> None:
    with pytest.raises(ValueError):
        score(name, [0.0, 1.0], obj("a", "b"))
    with pytest.raises(ValueError, match="NaN"):
        score(name, [0.0, 1.0], [0.5, float("nan")])


def test_metric_score_checks_shapes() -> None:
    with pytest.raises(ValueError, match="shapes differ"):
        score("kendall-tau", obj("a b"), obj("a b", "c"))
    with pytest.raises(ValueError, match="no rows"):
        score("MAP@12", obj(), obj())


def test_every_metric_returns_a_python_float() -> None:
    for name in CSV_NAMES:
        metric = get_metric(name)
        truth, perfect, _, _ = PERFECT[metric.canonical]
        assert type(metric.score(np.asarray(truth), np.asarray(perfect))) is float
