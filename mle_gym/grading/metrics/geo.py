"""Geometric metrics: haversine distances on Earth and angles between directions."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from mle_gym.grading.metrics._common import floats, mean_of, need_columns
from mle_gym.grading.metrics.registry import register

EARTH_RADIUS_M = 6_371_000.0
"""Sphere radius (metres) of the haversine formula used by the smartphone GNSS notebook."""


def haversine_m(
    lat1_deg: np.ndarray, lon1_deg: np.ndarray, lat2_deg: np.ndarray, lon2_deg: np.ndarray
) -> np.ndarray:
    """Great-circle distances in metres between points given in degrees.

    ``2 R asin(sqrt(sin^2(dlat/2) + cos(lat1) cos(lat2) sin^2(dlon/2)))``, ``R = 6,371 km``.
    """
    lat1, lon1, lat2, lon2 = (np.deg2rad(v) for v in (lat1_deg, lon1_deg, lat2_deg, lon2_deg))
    a = (
        np.sin((lat2 - lat1) / 2) ** 2
        + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(a))


def trip_error(distances: np.ndarray) -> float:
    """Mean of the 50th and 95th percentiles (linear interpolation) of one trip's errors."""
    return float(np.mean([np.quantile(distances, 0.50), np.quantile(distances, 0.95)]))


def smartphone_score(
    truth_lat_lon: np.ndarray, pred_lat_lon: np.ndarray, trips: Sequence[Hashable]
) -> float:
    """Google smartphone decimeter score: mean over trips of :func:`trip_error`.

    ``truth_lat_lon``/``pred_lat_lon``: rows x 2 = ``(latitude, longitude)`` in
    degrees, aligned row by row; ``trips``: the trip id of every row.
    """
    name = "average-haversine-distance"
    t = floats(name, truth_lat_lon, what="answers")
    p = floats(name, pred_lat_lon)
    need_columns(name, t, 2, "latitude, longitude")
    need_columns(name, p, 2, "latitude, longitude")
    keys = np.asarray(list(trips), dtype=object)
    if len(keys) != len(t):
        raise ValueError(f"{name}: {len(t)} rows but {len(keys)} trip ids")
    d = haversine_m(t[:, 0], t[:, 1], p[:, 0], p[:, 1])
    return mean_of(name, [trip_error(d[keys == k]) for k in dict.fromkeys(keys.tolist())])


@register("average-haversine-distance", lower_is_better=True)
def average_haversine(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """:func:`smartphone_score` of a single trip: ``y_true``/``y_pred`` rows x ``(lat, lon)``."""
    return smartphone_score(y_true, y_pred, [0] * len(y_true))


def angular_distance(
    az_true: np.ndarray, zen_true: np.ndarray, az_pred: np.ndarray, zen_pred: np.ndarray
) -> np.ndarray:
    """Angle (radians) between directions given as azimuth/zenith in radians.

    Unit vectors ``(sin z cos a, sin z sin a, cos z)``; the angle is the arccos of
    their dot product clipped to ``[-1, 1]``.
    """
    dot = np.sin(zen_true) * np.sin(zen_pred) * (
        np.cos(az_true) * np.cos(az_pred) + np.sin(az_true) * np.sin(az_pred)
    ) + np.cos(zen_true) * np.cos(zen_pred)
    return np.abs(np.arccos(np.clip(dot, -1.0, 1.0)))


@register("mean-angular-error", lower_is_better=True)
def mean_angular_error(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Mean :func:`angular_distance` (IceCube neutrinos).

    ``y_true``/``y_pred``: rows x 2 = ``(azimuth, zenith)`` in radians.
    """
    name = "mean-angular-error"
    t = floats(name, y_true, what="answers")
    p = floats(name, y_pred)
    need_columns(name, t, 2, "azimuth, zenith")
    need_columns(name, p, 2, "azimuth, zenith")
    return float(np.mean(angular_distance(t[:, 0], t[:, 1], p[:, 0], p[:, 1])))
