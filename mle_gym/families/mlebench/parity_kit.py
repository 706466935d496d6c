"""Building blocks of the task folders' ``mlebench_grade.py`` modules.

Each function behaves as the helper of the same purpose in MLE-bench's
``mlebench/competitions/utils.py`` at the pinned commit does — the same checks in the
same order, the same pandas and numpy operations, so the same submissions pass, fail
or crash — written for this project. Where MLE-bench's code has an ``assert`` (an
"unexpected error": its grader returns no score) these raise :class:`GraderFailure`;
where it raises ``InvalidSubmissionError`` they raise :class:`InvalidSubmission`.
Messages never quote answer values.

Also re-exported for those modules (which import only this kit and
:mod:`mle_gym.authoring`): the project's :func:`levenshtein` (in place of the
``Levenshtein`` package MLE-bench uses), :func:`convex_intersection_area` (in place of
``shapely``) and :func:`load_folder_module` (a sibling file of the folder).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity import GraderFailure
from mle_gym.grading.errors import InvalidSubmission
from mle_gym.grading.metrics.detection_lyft import convex_intersection_area
from mle_gym.grading.metrics.text import levenshtein
from mle_gym.task_spec import load_folder_module

__all__ = [
    "GraderFailure",
    "InvalidSubmission",
    "accuracy_inputs",
    "auroc_inputs",
    "convex_intersection_area",
    "is_one_hot",
    "levenshtein",
    "load_folder_module",
    "one_hot",
    "one_hot_log_loss_inputs",
    "require",
    "rle_decode",
    "rles_to_masks",
]


def require(condition: Any, message: str) -> None:
    """Where MLE-bench's grader asserts ``condition``: GraderFailure(message) if false."""
    if not bool(condition):
        raise GraderFailure(message)


def accuracy_inputs(
    submission: pd.DataFrame, answers: pd.DataFrame, *, target_column: str, id_column: str
) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_pred)`` as MLE-bench's accuracy preparation gives them: same length as
    the answers, both columns present, both frames sorted by id (pandas' default sort)
    and the ids equal position by position (``!=`` of the two arrays, so ``122.0``
    matches ``122``); other columns are ignored."""
    require(target_column in answers.columns, f"answers lack {target_column!r}")
    require(id_column in answers.columns, f"answers lack {id_column!r}")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    for column in (target_column, id_column):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    sub = submission.sort_values(id_column)
    ans = answers.sort_values(id_column)
    if _ids_differ(sub[id_column], ans[id_column]):
        raise InvalidSubmission(f"the submission's {id_column!r} values are not the test ids")
    return ans[target_column].to_numpy(), sub[target_column].to_numpy()


def auroc_inputs(
    submission: pd.DataFrame, answers: pd.DataFrame, *, id_column: str, target_column: str
) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_score)`` as MLE-bench's ROC-AUC preparation gives them: both columns
    present, same length, the target numeric (``pandas.to_numeric``) with values in
    [0, 1] (NaN passes that check), sorted by id and ids equal position by position."""
    require(id_column in answers.columns, f"answers lack {id_column!r}")
    require(target_column in answers.columns, f"answers lack {target_column!r}")
    for column in (id_column, target_column):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    try:
        pd.to_numeric(submission[target_column])
    except ValueError:
        raise InvalidSubmission(f"{target_column!r} must hold numbers") from None
    column = submission[target_column]
    if column.min() < 0 or column.max() > 1:
        raise InvalidSubmission(f"{target_column!r} must hold probabilities in [0, 1]")
    sub = submission.sort_values(id_column)
    ans = answers.sort_values(id_column)
    if _ids_differ(sub[id_column], ans[id_column]):
        raise InvalidSubmission(f"the submission's {id_column!r} values are not the test ids")
    return ans[target_column].to_numpy(), sub[target_column].to_numpy()


def _ids_differ(submitted: pd.Series, expected: pd.Series) -> bool:
    """MLE-bench's ``(a.values != b.values).any()`` on two equally long id columns."""
    return bool(np.asarray(submitted.values != expected.values).any())


def one_hot(
    df: pd.DataFrame, *, id_column: str, target_column: str, classes: list[str]
) -> pd.DataFrame:
    """A frame with ``id_column`` and one 0/1 column per class, row ``i`` having 1 in the
    column named by its ``target_column`` value (a value that is no class adds a column,
    as assigning with ``.loc`` does)."""
    out = pd.DataFrame(0, index=df.index, columns=[id_column, *classes])
    out[id_column] = df[id_column]
    for i, row in df.iterrows():
        out.loc[i, row[target_column]] = 1
    return out


def one_hot_log_loss_inputs(
    submission: pd.DataFrame,
    answers: pd.DataFrame,
    *,
    id_column: str = "id",
    apply_softmax: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_pred)`` from one-hot answers and a submission of class columns, as
    MLE-bench's log-loss preparation gives them: every answers column present in the
    submission (extra ones dropped, columns taken in the answers' order), both sorted by
    id, ids equal as lists (else a failure, not a rejection); the predictions softmaxed
    unless ``apply_softmax`` is false or they are already one-hot."""
    required = set(answers.columns)
    present = set(submission.columns)
    if not present.issuperset(required):
        raise InvalidSubmission(
            f"the submission lacks {len(required - present)} of the required columns"
        )
    if id_column not in submission.columns:
        raise InvalidSubmission(f"the submission has no {id_column!r} column")
    require(id_column in answers.columns, f"answers lack {id_column!r}")
    kept = submission[[c for c in answers.columns if c in present]]
    sub = kept.sort_values(by=id_column).reset_index(drop=True)
    ans = answers.sort_values(by=id_column).reset_index(drop=True)
    require(
        sub[id_column].tolist() == ans[id_column].tolist(),
        f"the submission's {id_column!r} values are not the test ids",
    )
    require(list(sub.columns) == list(ans.columns), "column order differs")
    y_true = ans.drop(columns=[id_column]).to_numpy()
    y_pred = sub.drop(columns=[id_column]).to_numpy()
    if apply_softmax and not is_one_hot(y_pred):
        from scipy.special import softmax

        y_pred = softmax(y_pred, axis=-1)
    return y_true, y_pred


def is_one_hot(xs: np.ndarray) -> bool:
    """Whether a 2-D array is all 0/1 with rows summing to 1 (``np.allclose``)."""
    require(isinstance(xs, np.ndarray), "expected an array")
    require(xs.ndim == 2, "expected a 2-D array")
    binary = np.bitwise_or(xs == 0, xs == 1).all()
    normalised = np.allclose(xs.sum(axis=-1), 1)
    return bool(binary and normalised)


def rle_decode(rle: Any, height: Any, width: Any) -> np.ndarray:
    """A run-length encoding (1-based starts, column-major: down, then right) as a
    ``(height, width)`` boolean mask, checked as MLE-bench checks it: a string, integer
    sizes, starts sorted and positive, lengths positive, no run overlapping another
    (GraderFailure otherwise); a blank string is an empty mask. A run past the end of
    the image is cut at the end (numpy slicing)."""
    require(isinstance(rle, str), "an encoding must be text")
    require(isinstance(height, int), "the height must be an integer")
    require(isinstance(width, int), "the width must be an integer")
    if not rle.strip():
        return np.zeros((height, width), dtype=bool)
    try:
        numbers = list(map(int, rle.split()))
    except ValueError:
        raise GraderFailure("an encoding holds something that is not an integer") from None
    starts, lengths = numbers[0::2], numbers[1::2]
    require(starts == sorted(starts), "the runs of an encoding must be sorted")
    require(all(x > 0 for x in starts), "run starts must be positive")
    require(all(x > 0 for x in lengths), "run lengths must be positive")
    first = np.array(starts) - 1
    ends = first + lengths
    flat = np.zeros(height * width, dtype=bool)
    for lo, hi in zip(first, ends, strict=False):
        require(not flat[lo:hi].any(), "runs of an encoding overlap")
        flat[lo:hi] = True
    return flat.reshape((width, height)).T


def rles_to_masks(encodings: list[Any], heights: list[Any], widths: list[Any]) -> list[np.ndarray]:
    """:func:`rle_decode` of each encoding with its image size (pairs up to the shortest)."""
    return [
        rle_decode(rle, height, width)
        for rle, height, width in zip(encodings, heights, widths, strict=False)
    ]
