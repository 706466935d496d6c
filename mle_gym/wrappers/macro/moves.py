"""The macro actions ("moves"): the fit candidates and ``submit-best``, plus the
validation metric and skill scale the wrapper observes them with.

Pure data and arithmetic: nothing here touches an env, a sandbox or the disk.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

FEATURE_SETS: dict[str, str] = {
    "num": "numeric columns",
    "cat": "numeric + categorical codes",
    "eng": "numeric + categorical codes + engineered features",
}
#: Model families a fit move can use (formerly ``FAMILIES``; not task families).
MODEL_FAMILIES: dict[str, str] = {
    "linear": "logistic/ridge regression",
    "rf": "random forest",
    "hgb": "histogram gradient boosting",
}
SETTINGS: dict[str, str] = {"small": "small", "large": "large"}
SUBMIT_NAME = "submit-best"
#: Observation value of a fit move not tried yet (and of "best skill" before any fit).
NOT_TRIED = -1.0
#: Validation metrics where a lower score is better.
LOWER_IS_BETTER = ("rmse", "rmsle", "mae")


@dataclass(frozen=True)
class Move:
    """One action of the macro library.

    ``kind`` is "fit" (then ``features``, ``family`` (a model family) and ``setting``
    name the candidate) or "submit" (submit the best validated candidate).
    """

    index: int
    name: str
    kind: str
    features: str | None = None
    family: str | None = None
    setting: str | None = None

    @property
    def description(self) -> str:
        """A readable one-line description."""
        if self.kind == "submit":
            return "submit the best validated candidate (sample submission if none)"
        assert self.features and self.family and self.setting
        return f"{MODEL_FAMILIES[self.family]} ({self.setting}) on {FEATURE_SETS[self.features]}"


def build_moves(
    feature_sets: tuple[str, ...] = tuple(FEATURE_SETS),
    model_families: tuple[str, ...] = tuple(MODEL_FAMILIES),
    settings: tuple[str, ...] = tuple(SETTINGS),
    *,
    families: tuple[str, ...] | None = None,
) -> tuple[Move, ...]:
    """The move library: every feature set x model family x setting fit, then ``submit-best``.

    ``model_families`` are keys of :data:`MODEL_FAMILIES` (``families=`` is its deprecated
    old name). Raises ``ValueError`` for an empty, unknown or repeated value.
    """
    model_families = deprecated_families(model_families, families)
    for values, known, what in (
        (feature_sets, FEATURE_SETS, "feature set"),
        (model_families, MODEL_FAMILIES, "model family"),
        (settings, SETTINGS, "setting"),
    ):
        if not values:
            raise ValueError(f"at least one {what} is needed")
        unknown = [v for v in values if v not in known]
        if unknown or len(set(values)) != len(values):
            raise ValueError(f"{what}s must be distinct values of {sorted(known)}, got {values}")
    moves: list[Move] = []
    for feats in feature_sets:
        for family in model_families:
            for setting in settings:
                name = f"fit-{feats}-{family}-{setting}"
                moves.append(Move(len(moves), name, "fit", feats, family, setting))
    moves.append(Move(len(moves), SUBMIT_NAME, "submit"))
    return tuple(moves)


def deprecated_families(
    model_families: tuple[str, ...], families: tuple[str, ...] | None
) -> tuple[str, ...]:
    """``model_families``, or the value given under the deprecated keyword ``families``
    (with a ``DeprecationWarning``)."""
    if families is None:
        return tuple(model_families)
    warnings.warn(
        "the keyword 'families' is deprecated; use 'model_families' (model families, "
        "not task families)",
        DeprecationWarning,
        stacklevel=3,
    )
    return tuple(families)


def describe_moves(moves: tuple[Move, ...]) -> str:
    """The move table as plain text (index, name, description)."""
    width = max(len(m.name) for m in moves)
    return "\n".join(f"{m.index:>3}  {m.name:<{width}}  {m.description}" for m in moves)


def validation_metric(metric: str, target_kind: str) -> str:
    """The metric the solution program validates with, for a task metric and target kind.

    One of "accuracy", "auc", "rmse", "rmsle", "mae".
    """
    name = metric.lower()
    if "accuracy" in name:
        return "accuracy"
    if "auc" in name or "auroc" in name:
        return "auc"
    if "rmsle" in name or "squared-log" in name:
        return "rmsle"
    if "absolute" in name or name == "mae":
        return "mae"
    if "squared" in name or "rmse" in name:
        return "rmse"
    return {"binary": "accuracy", "integer": "accuracy", "label": "accuracy"}.get(
        target_kind, "auc" if target_kind == "probability" else "rmse"
    )


def skill(score: float, baseline: float, metric: str) -> float:
    """Validation score as a fraction of the way from the constant predictor (0) to perfect (1),
    clipped to [0, 1]."""
    ideal = 0.0 if metric in LOWER_IS_BETTER else 1.0
    if not math.isfinite(score) or ideal == baseline:
        return 0.0
    return float(min(1.0, max(0.0, (score - baseline) / (ideal - baseline))))
