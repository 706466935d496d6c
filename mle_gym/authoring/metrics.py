"""The metric library, under the names task graders use.

:func:`get_metric` looks a metric up by the name a ``task.yaml`` gives; the
functions below are the building blocks a ``grade.py`` combines when the
task's score is more than one registered metric (per-image Dice averaged over
images, a metric on a subset of rows...). Each is documented in its module of
:mod:`mle_gym.grading.metrics`; this module only gives them one stable import
path.
"""

from __future__ import annotations

from mle_gym.grading.metrics import get_metric
from mle_gym.grading.metrics.classification import multilabel_micro_f1
from mle_gym.grading.metrics.detection import LYFT_IOU_THRESHOLDS, Box3D, lyft_sample_map
from mle_gym.grading.metrics.geo import smartphone_score
from mle_gym.grading.metrics.jigsaw import JIGSAW_IDENTITIES, jigsaw_bias_score
from mle_gym.grading.metrics.probabilistic import kl_divergence, laplace_log_likelihood
from mle_gym.grading.metrics.ranking import map_at_k
from mle_gym.grading.metrics.regression import (
    grouped_log_mae,
    mean_absolute_error,
    root_mean_squared_error,
)
from mle_gym.grading.metrics.segmentation import (
    dice,
    dice_hausdorff_combo,
    global_dice,
    hausdorff_distance,
    rle_decode,
    rle_dice,
    rle_f_beta,
    rle_runs,
)
from mle_gym.grading.metrics.text import word_jaccard

__all__ = [
    "JIGSAW_IDENTITIES",
    "LYFT_IOU_THRESHOLDS",
    "Box3D",
    "dice",
    "dice_hausdorff_combo",
    "get_metric",
    "global_dice",
    "grouped_log_mae",
    "hausdorff_distance",
    "jigsaw_bias_score",
    "kl_divergence",
    "laplace_log_likelihood",
    "lyft_sample_map",
    "map_at_k",
    "mean_absolute_error",
    "multilabel_micro_f1",
    "rle_decode",
    "rle_dice",
    "rle_f_beta",
    "rle_runs",
    "root_mean_squared_error",
    "smartphone_score",
    "word_jaccard",
]
