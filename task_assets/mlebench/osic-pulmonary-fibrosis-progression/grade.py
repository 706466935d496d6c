"""Grading for osic-pulmonary-fibrosis-progression (MLE-bench semantics).

The answers hold one row per patient and week of the test range; only rows with
a measured ``FVC`` are real, and of those only each patient's three latest weeks
are scored, with the modified Laplace log likelihood
(``probabilistic.laplace_log_likelihood``: ``sigma = max(Confidence, 70)``,
``delta = min(|FVC_true - FVC|, 1000)``, mean of
``-sqrt(2) delta / sigma - ln(sqrt(2) sigma)``; higher is better).

The submission's two columns are declared as ``label`` in task.yaml because the
answers leave ``FVC`` blank on the unmeasured weeks; the numbers are parsed here.
As in MLE-bench, every value must be a number or blank, a blank ``Confidence``
counts as 0 (so the floor of 70 applies) and a blank ``FVC`` is harmless on a
row that is not scored. A blank ``FVC`` on a scored row would make MLE-bench's
score NaN; here it makes the submission invalid.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import PANDAS_NA_STRINGS, InvalidSubmission
from mle_gym.authoring.metrics import laplace_log_likelihood


def _is_blank(cell: str) -> bool:
    return cell in PANDAS_NA_STRINGS or not cell.strip()


def _numbers(column: pd.Series, name: str) -> np.ndarray:
    """Floats of a text column, NaN for blank cells; InvalidSubmission for other text."""
    out = np.full(len(column), np.nan)
    bad: list[str] = []
    for i, cell in enumerate(column.tolist()):
        if _is_blank(cell):
            continue
        try:
            out[i] = float(cell)
        except ValueError:
            bad.append(cell)
    if bad:
        shown = ", ".join(repr(b[:40]) for b in bad[:5])
        raise InvalidSubmission(
            f"column {name!r} must hold numbers (or be blank) but {len(bad)} value(s) are "
            f"not, e.g. {shown}"
        )
    return out


def scored_rows(answers: pd.DataFrame) -> np.ndarray:
    """Mask of the rows MLE-bench scores: each patient's three latest measured weeks."""
    measured = ~answers["FVC"].map(_is_blank).to_numpy(dtype=bool)
    weeks = pd.DataFrame(
        {
            "patient": answers["Patient"],
            "week": answers["Patient_Week"].map(lambda pw: int(pw.split("_")[-1])),
        }
    )[measured]
    latest = weeks.sort_values("week", kind="stable").groupby("patient").tail(3)
    mask = np.zeros(len(answers), dtype=bool)
    mask[latest.index.to_numpy()] = True
    return mask


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean modified Laplace log likelihood over the scored rows."""
    fvc = _numbers(submission["FVC"], "FVC")
    confidence = _numbers(submission["Confidence"], "Confidence")
    scored = scored_rows(answers)
    if not scored.any():
        raise RuntimeError("the answers have no measured FVC to score")
    missing = scored & np.isnan(fvc)
    if missing.any():
        raise InvalidSubmission(
            f"FVC is blank on {int(missing.sum())} scored row(s); predict an FVC for every "
            "Patient_Week"
        )
    truth = answers["FVC"][scored].astype(float).to_numpy()
    return laplace_log_likelihood(truth, fvc[scored], confidence[scored])
