"""Reference solution for new-york-city-taxi-fare-prediction (run by the scripted agent).

Contract: run with the workspace as the current directory; reads only
``data/labels.csv`` (the labelled rides) and ``data/test.csv``; writes
``submission.csv`` with the columns ``key,fare_amount``, one row per test ride
in test order. Needs pandas, numpy and scikit-learn; no network, one CPU core.

Approach: the labelled file can be enormous, so only its first rows are read
(the rides are in random order). Rides with implausible fares or coordinates
outside the New York area are dropped from training. Features: straight-line
and axis-aligned trip distances, direction, the coordinates themselves,
distances to the airports and to midtown, and the pickup time split into year,
month, weekday and hour. A gradient-boosted tree regressor does the rest.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor

ID = "key"
TARGET = "fare_amount"
SEED = 0
MAX_TRAIN_ROWS = 500_000
COORDS = ["pickup_longitude", "pickup_latitude", "dropoff_longitude", "dropoff_latitude"]
PLACES = {
    "jfk": (-73.7781, 40.6413),
    "lga": (-73.8740, 40.7769),
    "ewr": (-74.1745, 40.6895),
    "midtown": (-73.9855, 40.7580),
}


def miles(lon1, lat1, lon2, lat2):
    """Great-circle distance in miles (works on arrays)."""
    lon1, lat1, lon2, lat2 = (np.radians(a) for a in (lon1, lat1, lon2, lat2))
    a = (
        np.sin((lat2 - lat1) / 2) ** 2
        + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * 3958.8 * np.arcsin(np.sqrt(np.clip(a, 0.0, 1.0)))


def build_features(frame: pd.DataFrame) -> pd.DataFrame:
    """Model inputs for labelled or test rides."""
    plon, plat, dlon, dlat = (frame[c].astype(float) for c in COORDS)
    when = pd.to_datetime(frame["pickup_datetime"].str.replace(" UTC", "", regex=False))
    out = pd.DataFrame(index=frame.index)
    for c in COORDS:
        out[c] = frame[c].astype(float)
    out["distance"] = miles(plon, plat, dlon, dlat)
    out["dx"] = (dlon - plon) * 52.5  # miles per degree of longitude at New York's latitude
    out["dy"] = (dlat - plat) * 69.0
    out["manhattan"] = out["dx"].abs() + out["dy"].abs()
    out["bearing"] = np.arctan2(out["dy"], out["dx"])
    for name, (lon, lat) in PLACES.items():
        out[f"pickup_{name}"] = miles(plon, plat, lon, lat)
        out[f"dropoff_{name}"] = miles(dlon, dlat, lon, lat)
    out["year"] = when.dt.year + (when.dt.day_of_year - 1) / 366.0
    out["month"] = when.dt.month
    out["weekday"] = when.dt.day_of_week
    out["hour"] = when.dt.hour + when.dt.minute / 60.0
    out["passenger_count"] = frame["passenger_count"].astype(float)
    out["no_location"] = ((plon == 0) | (plat == 0) | (dlon == 0) | (dlat == 0)).astype(float)
    return out


def plausible(frame: pd.DataFrame) -> pd.Series:
    """Training rows worth learning from: a positive, bounded fare and NYC-area coordinates."""
    ok = frame[TARGET].between(2.5, 250.0)
    for c in ("pickup_longitude", "dropoff_longitude"):
        ok &= frame[c].between(-74.5, -72.8)
    for c in ("pickup_latitude", "dropoff_latitude"):
        ok &= frame[c].between(40.4, 41.2)
    return ok


def main() -> None:
    """Train on data/labels.csv, predict data/test.csv, write submission.csv."""
    labelled = pd.read_csv(Path("data") / "labels.csv", nrows=MAX_TRAIN_ROWS)
    test = pd.read_csv(Path("data") / "test.csv")
    labelled = labelled[plausible(labelled)]

    model = HistGradientBoostingRegressor(
        learning_rate=0.1,
        max_iter=300,
        max_leaf_nodes=63,
        min_samples_leaf=40,
        l2_regularization=1.0,
        early_stopping=False,
        random_state=SEED,
    )
    model.fit(build_features(labelled), labelled[TARGET].to_numpy())
    prediction = np.clip(model.predict(build_features(test)), 2.5, None)
    submission = pd.DataFrame({ID: test[ID], TARGET: np.round(prediction, 4)})
    submission.to_csv("submission.csv", index=False)
    print(f"wrote submission.csv ({len(submission)} rows)")


if __name__ == "__main__":
    main()
