"""Data preparation for new-york-city-taxi-fare-prediction.

``prepare(raw_dir, public_dir, private_dir)`` reproduces MLE-bench's split of
Kaggle's files: the whole labelled ``train.csv`` (55,423,857 rows, about 5.7 GB)
is read and split with scikit-learn's ``train_test_split(test_size=9914,
random_state=0)`` semantics; 9,914 is the size of Kaggle's own test set. The
9,914 held-out rides become the private answers. The agent's folder holds

* ``labels.csv`` - the remaining 55,413,943 labelled rides (MLE-bench's name
  for the new training file; there is no ``train.csv``),
* ``test.csv`` - the held-out rides without ``fare_amount``,
* ``sample_submission.csv`` - ``key`` with a constant fare of 11.35,
* ``GCP-Coupons-Instructions.rtf`` - copied unchanged from the Kaggle zip.

Like MLE-bench's preparer this loads the full table into memory (plan on 16 GB
of RAM or more). Kaggle's own ``test.csv`` and ``sample_submission.csv``
are not used.

``replica(public_dir, private_dir, seed)`` writes an offline stand-in with the
same files and columns and the same 9,914-ride held-out set, from a seeded
generator.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring import read_csv_exact, train_test_split_like_sklearn

ID = "key"
TARGET = "fare_amount"
COLUMNS = [
    ID,
    TARGET,
    "pickup_datetime",
    "pickup_longitude",
    "pickup_latitude",
    "dropoff_longitude",
    "dropoff_latitude",
    "passenger_count",
]
TEST_ROWS = 9914
SAMPLE_FARE = 11.35
COUPONS = "GCP-Coupons-Instructions.rtf"


def split_and_write(train: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """Split a labelled table as MLE-bench does and write the CSV files."""
    new_train, new_test = train_test_split_like_sklearn(train, test_size=TEST_ROWS, random_state=0)
    sample = new_test[[ID]].copy()
    sample[TARGET] = SAMPLE_FARE
    new_train.to_csv(public_dir / "labels.csv", index=False)
    new_test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (the extracted competition zip in ``raw_dir``)."""
    split_and_write(read_csv_exact(raw_dir / "train.csv"), public_dir, private_dir)
    shutil.copy(raw_dir / COUPONS, public_dir / COUPONS)


# ---------------------------------------------------------------------------
# Offline replica
# ---------------------------------------------------------------------------
#
# Yellow-cab rides from January 2009 to June 2015. Most start and end in
# Manhattan (scattered along the island's tilted axis), some come from or go
# to the three airports or the outer boroughs. The fare follows the metered
# tariff of the time - flag drop, a rate per mile of the driven route (longer
# than the straight line by a random detour factor), waiting time in slow
# traffic, night and rush-hour surcharges - with the September 2012 fare rise,
# flat JFK-Manhattan fares, occasional tolls, and rounding to the meter's
# steps. The data's well-known blemishes are included: rides with (0, 0)
# coordinates or with identical pickup and dropoff (the fare still reflects
# the hidden trip), a few absurd or negative fares, and rare missing dropoffs.

N_LABELLED = 150_000 + TEST_ROWS
_START = np.datetime64("2009-01-01T00:00:00")
_END = np.datetime64("2015-07-01T00:00:00")
_FARE_RISE = np.datetime64("2012-09-04T00:00:00")
_MIDTOWN = np.array([-73.9800, 40.7540])
_AXIS = np.array([0.075, 0.106]) / np.hypot(0.075, 0.106)  # along Manhattan, south to north
_ACROSS = np.array([-_AXIS[1], _AXIS[0]])
_AIRPORTS = np.array([[-73.7781, 40.6413], [-73.8740, 40.7769], [-74.1745, 40.6895]])  # JFK LGA EWR
_BOROUGHS = np.array([[-73.9500, 40.6800], [-73.8600, 40.7350]])  # Brooklyn, Queens
_HOUR_WEIGHTS = np.array(  # pickups per hour of the day: 0h-11h, then 12h-23h
    [
        *[4.0, 3.0, 2.2, 1.6, 1.2, 1.0, 2.0, 3.5, 4.3, 4.4, 4.2, 4.3],
        *[4.5, 4.5, 4.6, 4.4, 3.9, 4.6, 5.7, 6.1, 5.8, 5.5, 5.4, 4.8],
    ]
)
_PASSENGER_P = np.array([0.0035, 0.69, 0.148, 0.044, 0.021, 0.0705, 0.0225])  # 0..6
COUPON_NOTE = (
    "{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Helvetica;}}\n"
    "\\f0\\fs24 Offline replica of the competition data. The Kaggle download ships a note "
    "about cloud-computing credits here; it has no bearing on the task.\\par\n}\n"
)


def _miles(lon1, lat1, lon2, lat2) -> np.ndarray:
    """Great-circle distance in miles."""
    lon1, lat1, lon2, lat2 = (np.radians(a) for a in (lon1, lat1, lon2, lat2))
    a = (
        np.sin((lat2 - lat1) / 2) ** 2
        + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * 3958.8 * np.arcsin(np.sqrt(np.clip(a, 0.0, 1.0)))


def _manhattan_points(rng: np.random.Generator, n: int) -> np.ndarray:
    """Points scattered along Manhattan's axis, denser around midtown."""
    along = rng.normal(0.0, 0.028, size=n)
    across = rng.normal(0.0, 0.0065, size=n)
    return _MIDTOWN + along[:, None] * _AXIS + across[:, None] * _ACROSS


def _times(rng: np.random.Generator, n: int) -> np.ndarray:
    """Pickup times (datetime64[s]): uniform days, realistic hours, whole minutes half the time."""
    days = int((_END - _START) // np.timedelta64(1, "D"))
    day = rng.integers(0, days, size=n)
    hour = rng.choice(24, size=n, p=_HOUR_WEIGHTS / _HOUR_WEIGHTS.sum())
    minute = rng.integers(0, 60, size=n)
    second = np.where(rng.random(n) < 0.5, 0, rng.integers(0, 60, size=n))
    offset = ((day * 24 + hour) * 60 + minute) * 60 + second
    return _START + offset.astype("timedelta64[s]")


def _keys(rng: np.random.Generator, stamps: np.ndarray) -> np.ndarray:
    """Kaggle-style keys: the pickup time plus a fraction that is unique per time."""
    steps = rng.geometric(0.6, size=len(stamps))
    order = np.argsort(stamps, kind="stable")
    frame = pd.DataFrame({"t": stamps[order], "s": steps[order]})
    counter = np.empty(len(stamps), dtype=np.int64)
    counter[order] = frame.groupby("t")["s"].cumsum().to_numpy()
    text = np.char.replace(stamps.astype(str), "T", " ")
    return np.char.add(np.char.add(text, ".000000"), counter.astype(str))


def _replica_table(seed: int) -> pd.DataFrame:
    """The full labelled replica (Kaggle's train.csv columns, rides in random order)."""
    rng = np.random.default_rng(seed)
    n = N_LABELLED
    stamps = _times(rng, n)
    after_rise = stamps >= _FARE_RISE
    year = stamps.astype("datetime64[Y]").astype(int) + 1970
    hour = (stamps.astype("datetime64[h]").astype(np.int64) % 24).astype(int)
    weekday = (stamps.astype("datetime64[D]").astype(np.int64) + 3) % 7  # 0 = Monday

    # Trip geometry: Manhattan rides, airport rides (either direction), borough rides.
    kind = rng.choice(3, size=n, p=[0.90, 0.035, 0.065])
    start = _manhattan_points(rng, n)
    angle = rng.normal(0.0, 0.9, size=n) + np.where(rng.random(n) < 0.5, 0.0, np.pi)
    hop = rng.lognormal(np.log(0.021), 0.75, size=n)  # straight-line hop in degrees
    direction = np.cos(angle)[:, None] * _AXIS + np.sin(angle)[:, None] * _ACROSS
    end = start + hop[:, None] * direction * np.array([1.0, 0.76])
    airport = rng.choice(3, size=n, p=[0.55, 0.38, 0.07])
    end = np.where((kind == 1)[:, None], _AIRPORTS[airport], end)
    borough = rng.choice(2, size=n)
    spread = rng.normal(0.0, 0.025, size=(n, 2))
    end = np.where((kind == 2)[:, None], _BOROUGHS[borough] + spread, end)
    swap = ((rng.random(n) < 0.5) & (kind > 0))[:, None]
    pickup = np.where(swap, end, start)
    dropoff = np.where(swap, start, end)

    # The metered fare of the driven route.
    straight = _miles(pickup[:, 0], pickup[:, 1], dropoff[:, 0], dropoff[:, 1])
    route = straight * rng.lognormal(np.log(1.28), 0.12, size=n) + 0.05
    rush = (weekday < 5) & (hour >= 7) & (hour < 20)
    speed = np.where(rush, 9.5, 14.0) * rng.lognormal(0.0, 0.25, size=n) + route / 3.0
    slow_minutes = route / speed * 60.0 * rng.uniform(0.15, 0.45, size=n)
    per_mile = np.where(after_rise, 2.5, 2.0)
    per_minute = np.where(after_rise, 0.5, 0.4)
    fare = 2.5 + per_mile * route + per_minute * slow_minutes
    fare += 0.5 * ((hour >= 20) | (hour < 6))
    fare += 1.0 * ((weekday < 5) & (hour >= 16) & (hour < 20))
    step = np.where(after_rise, 0.5, 0.1)
    fare = np.round(fare / step) * step
    jfk_flat = (kind == 1) & (airport == 0) & (rng.random(n) < 0.8)
    fare = np.where(jfk_flat, np.where(after_rise, 52.0, 45.0), fare)
    fare += np.where((kind == 2) & (rng.random(n) < 0.25), np.where(year >= 2012, 5.33, 4.8), 0.0)
    fare += np.where((kind == 1) & (airport == 2), np.where(after_rise, 17.5, 15.0), 0.0)
    odd = rng.random(n)
    fare = np.where(odd < 0.0001, rng.uniform(60.0, 180.0, size=n), fare)
    fare = np.where((odd >= 0.0001) & (odd < 0.00015), -rng.choice([2.5, 3.0, 5.0], size=n), fare)
    fare = np.round(fare, 2)

    # Blemishes of the recorded coordinates.
    pickup = np.round(pickup + rng.normal(0.0, 0.0004, size=(n, 2)), 6)
    dropoff = np.round(dropoff + rng.normal(0.0, 0.0004, size=(n, 2)), 6)
    blemish = rng.random(n)
    zero = blemish < 0.02
    pickup[zero] = 0.0
    dropoff[zero] = 0.0
    same = (blemish >= 0.02) & (blemish < 0.025)
    dropoff[same] = pickup[same]
    drop_missing = (blemish >= 0.025) & (blemish < 0.02508)
    dropoff[drop_missing] = np.nan

    keys = _keys(rng, stamps)
    passengers = rng.choice(7, size=n, p=_PASSENGER_P / _PASSENGER_P.sum())
    return pd.DataFrame(
        {
            ID: pd.Series(keys, dtype=object),
            TARGET: fare,
            "pickup_datetime": pd.Series(
                np.char.add(np.char.replace(stamps.astype(str), "T", " "), " UTC"), dtype=object
            ),
            "pickup_longitude": pickup[:, 0],
            "pickup_latitude": pickup[:, 1],
            "dropoff_longitude": dropoff[:, 0],
            "dropoff_latitude": dropoff[:, 1],
            "passenger_count": passengers.astype(np.int64),
        }
    )[COLUMNS]


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate synthetic taxi rides and write them like :func:`prepare` does.

    The labelled table has 159,914 rides (Kaggle's train.csv has 55.4 million;
    the replica keeps 150,000 for ``labels.csv`` so that it is generated in a
    couple of seconds and a boosted-tree solution fits in well under half a
    minute on one core) with Kaggle's columns and text formats (keys like
    ``2011-08-18 00:35:00.00000049``, times like ``2011-08-18 00:35:00 UTC``,
    coordinates with up to six decimals). It goes through
    :func:`split_and_write`, so the held-out set has MLE-bench's 9,914 rides
    and the files are MLE-bench's; a short stand-in
    ``GCP-Coupons-Instructions.rtf`` completes the folder. Deterministic: the
    same ``seed`` gives byte-identical files.
    """
    split_and_write(_replica_table(seed), public_dir, private_dir)
    (public_dir / COUPONS).write_text(COUPON_NOTE, encoding="utf-8")
