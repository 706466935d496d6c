"""Forecast Parkinson's disease progression (UPDRS scores) and write submission.csv.

This first model uses only the month of each visit: for every UPDRS part and forecast
horizon it fits a random forest that maps the month to the rating observed that many
months later. Cross-validation by patient reports its SMAPE+1 (lower is better).
"""

import os

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import GroupKFold

SEED = int(os.environ.get("SEED", "0"))
HORIZONS = [0, 6, 12, 24]


def smape_plus_one(truth, predicted):
    t, p = np.asarray(truth) + 1.0, np.asarray(predicted) + 1.0
    denominator = (np.abs(t) + np.abs(p)) / 2.0
    return 100.0 * np.mean(np.where(denominator == 0, 0.0, np.abs(p - t) / denominator))


clinical = pd.concat(
    [
        pd.read_csv("data/train_clinical_data.csv"),
        pd.read_csv("data/supplemental_clinical_data.csv"),
    ]
)
by_visit = clinical.set_index(["patient_id", "visit_month"])


def examples(part, plus):
    """(month, later rating, patient) for every visit whose rating `plus` months later is known."""
    rows = []
    for patient, month in by_visit.index:
        key = (patient, month + plus)
        if key in by_visit.index:
            rating = by_visit.loc[key, f"updrs_{part}"]
            rating = rating.iloc[0] if isinstance(rating, pd.Series) else rating
            if not pd.isna(rating):
                rows.append((month, rating, patient))
    return pd.DataFrame(rows, columns=["month", "rating", "patient"])


models = {}
scores = []
for part in range(1, 5):
    for plus in HORIZONS:
        data = examples(part, plus)
        model = RandomForestRegressor(n_estimators=20, max_depth=4, random_state=SEED)
        for fit, held in GroupKFold(n_splits=5).split(data, groups=data["patient"]):
            model.fit(data.iloc[fit][["month"]], data.iloc[fit]["rating"])
            scores.append(
                smape_plus_one(data.iloc[held]["rating"], model.predict(data.iloc[held][["month"]]))
            )
        models[(part, plus)] = model.fit(data[["month"]], data["rating"])
print(f"Cross-validation SMAPE+1: {np.mean(scores):.2f}")

wanted = pd.read_csv("data/sample_submission.csv")
parts = wanted["prediction_id"].str.extract(
    r"^(?P<patient>\d+)_(?P<month>\d+)_updrs_(?P<part>\d)_plus_(?P<plus>\d+)_months$"
)
ratings = []
for row in parts.itertuples(index=False):
    model = models[(int(row.part), int(row.plus))]
    ratings.append(model.predict(pd.DataFrame({"month": [int(row.month)]}))[0])
wanted["rating"] = np.round(ratings, 2)
wanted[["prediction_id", "rating"]].to_csv("submission.csv", index=False)
