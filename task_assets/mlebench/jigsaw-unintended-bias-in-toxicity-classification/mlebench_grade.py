"""jigsaw-unintended-bias-in-toxicity-classification graded as MLE-bench grades it.

MLE-bench's grader wants ``id`` and ``prediction`` columns (a ``toxicity`` column is
accepted in place of ``prediction``; other columns are ignored). Both files are sorted by
``id`` and the id arrays compared element by element (``7.0`` matches ``7``; a
different number of rows makes numpy fail). The predictions are then cut at 0.5 (1 if
``x >= 0.5`` else 0: a blank cell is 0, text makes the comparison fail), as are the
answers' ``toxicity`` and the nine identity shares (blank is 0). The score is
``0.25 * AUC(all) + 0.25 * (M(subgroup AUCs) + M(BPSN AUCs) + M(BNSP AUCs))`` with
scikit-learn's ``roc_auc_score`` on those 0/1 values and ``M`` the power mean with
``p = -5`` over the identities; a subset with one class only makes scikit-learn fail,
an AUC of 0 makes the power mean divide by zero.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

IDENTITIES = [
    "male",
    "female",
    "homosexual_gay_or_lesbian",
    "christian",
    "jewish",
    "muslim",
    "black",
    "white",
    "psychiatric_or_mental_illness",
]
POWER = -5
WEIGHT = 0.25


def _cut(value: Any) -> int:
    return 1 if value >= 0.5 else 0


def _power_mean(aucs: list[Any]) -> Any:
    return (sum([auc**POWER for auc in aucs]) / len(IDENTITIES)) ** (1 / POWER)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """The competition's bias-weighted AUC of the thresholded predictions."""
    from sklearn.metrics import roc_auc_score

    if "id" not in submission.columns:
        raise InvalidSubmission("the submission has no 'id' column")
    if "prediction" not in submission.columns and "toxicity" not in submission.columns:
        raise InvalidSubmission("the submission has no 'prediction' column")
    require("id" in answers.columns, "answers lack 'id'")
    require("toxicity" in answers.columns, "answers lack 'toxicity'")
    guess = submission.sort_values("id")
    truth = answers.sort_values("id")
    if (guess["id"].values != truth["id"].values).any():
        raise InvalidSubmission("the submission's 'id' values are not the test ids")
    for column in IDENTITIES:
        require(column in truth.columns, f"answers lack {column!r}")
    guess = guess.rename(columns={"prediction": "toxicity"})
    guess["toxicity"] = guess["toxicity"].apply(_cut)
    truth["toxicity"] = truth["toxicity"].apply(_cut)
    for column in IDENTITIES:
        truth[column] = truth[column].apply(_cut)

    def scored(rows: pd.Series) -> Any:
        kept = truth[rows]
        picked = guess[guess["id"].isin(kept["id"])]
        return roc_auc_score(kept["toxicity"], picked["toxicity"])

    overall = roc_auc_score(truth["toxicity"], guess["toxicity"])
    kinds: list[list[Any]] = [[], [], []]
    for column in IDENTITIES:
        member = truth[column] == 1
        toxic = truth["toxicity"] == 1
        harmless = truth["toxicity"] == 0
        kinds[0].append(scored(member))
        kinds[1].append(scored((harmless & member) | (toxic & (truth[column] != 1))))
        kinds[2].append(scored((toxic & member) | (harmless & (truth[column] != 1))))
    means = [_power_mean(aucs) for aucs in kinds]
    return float(WEIGHT * overall + sum([WEIGHT * mean for mean in means]))
