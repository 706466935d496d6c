"""Data preparation for playground-series-s3e18 (enzyme substrate multi-label classification).

Kaggle's zip holds ``train.csv`` (14,838 molecules: ``id``, 31 RDKit-style
descriptors and six binary labels ``EC1``..``EC6``), ``test.csv`` (unlabelled,
unused here) and ``sample_submission.csv``. MLE-bench splits ``train.csv``
with scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``:
13,354 rows stay for training (all 38 columns), 1,484 become the test set.
Written files:

* ``public/train.csv`` — the kept rows, all columns;
* ``public/test.csv`` — the held-out rows without the six labels (32 columns);
* ``public/sample_submission.csv`` — ``id,EC1,EC2`` with 0.5 everywhere;
* ``private/test.csv`` — the held-out rows with every column.

Only ``EC1`` and ``EC2`` are predicted and scored (the mean of their two ROC
AUCs).

``replica(public_dir, private_dir, seed)`` builds an offline stand-in with the
same columns and the same split from a seeded generator (see below).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring import read_csv_exact, train_test_split_like_sklearn

ID = "id"
FEATURES = [
    "BertzCT",
    "Chi1",
    "Chi1n",
    "Chi1v",
    "Chi2n",
    "Chi2v",
    "Chi3v",
    "Chi4n",
    "EState_VSA1",
    "EState_VSA2",
    "ExactMolWt",
    "FpDensityMorgan1",
    "FpDensityMorgan2",
    "FpDensityMorgan3",
    "HallKierAlpha",
    "HeavyAtomMolWt",
    "Kappa3",
    "MaxAbsEStateIndex",
    "MinEStateIndex",
    "NumHeteroatoms",
    "PEOE_VSA10",
    "PEOE_VSA14",
    "PEOE_VSA6",
    "PEOE_VSA7",
    "PEOE_VSA8",
    "SMR_VSA10",
    "SMR_VSA5",
    "SlogP_VSA3",
    "VSA_EState9",
    "fr_COO",
    "fr_COO2",
]
LABELS = ["EC1", "EC2", "EC3", "EC4", "EC5", "EC6"]
TARGETS = ["EC1", "EC2"]
COLUMNS = [ID, *FEATURES, *LABELS]


def split_and_write(train: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """Split a labelled table as MLE-bench does and write public/private files."""
    # scikit-learn's count for a fractional test_size (train gets the rest)
    n_test = math.ceil(0.1 * len(train))
    new_train, new_test = train_test_split_like_sklearn(train, test_size=n_test, random_state=0)
    sample = new_test[[ID]].copy()
    for column in TARGETS:
        sample[column] = 0.5
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)
    new_train.to_csv(public_dir / "train.csv", index=False)
    new_test.drop(columns=LABELS).to_csv(public_dir / "test.csv", index=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    train = read_csv_exact(raw_dir / "train.csv")
    split_and_write(train, public_dir, private_dir)


# ---------------------------------------------------------------------------
# Offline replica
# ---------------------------------------------------------------------------
#
# Each molecule gets a few latent traits: size (heavy-atom count, log-normal),
# aromatic share, heteroatom share and a count of carboxylic acid groups. The
# 31 descriptors are noisy functions of these traits with roughly the scales
# of Kaggle's columns (connectivity indices grow with size, surface-area
# descriptors are zero-inflated, the Morgan densities are nested, a few
# integer counts). The six labels come from logistic models of the traits
# plus a shared per-molecule effect and a lot of irreducible noise: as on
# Kaggle, the best achievable mean AUC of EC1 and EC2 is modest (~0.7).

N_ROWS = 14838
_RATES = {"EC1": 0.667, "EC2": 0.798, "EC3": 0.264, "EC4": 0.128, "EC5": 0.138, "EC6": 0.106}
# Label logit weights on standardised traits:
# (log size, aromatic, hetero, acid groups, Morgan density, branching, shared effect)
_WEIGHTS = {
    "EC1": (0.35, 0.30, -0.45, 0.35, -0.20, 0.00, 0.5),
    "EC2": (-0.20, -0.15, 0.30, 0.10, 0.35, 0.25, -0.3),
    "EC3": (0.30, -0.25, 0.20, -0.20, 0.00, 0.30, 0.4),
    "EC4": (-0.30, 0.35, 0.00, 0.25, -0.25, 0.00, 0.3),
    "EC5": (0.20, 0.00, -0.30, 0.00, 0.30, -0.25, 0.2),
    "EC6": (0.00, 0.30, 0.30, -0.30, 0.00, 0.20, 0.2),
}
_NONLINEAR = {"EC1": 0.45, "EC2": 0.35, "EC3": 0.25, "EC4": 0.2, "EC5": 0.2, "EC6": 0.2}


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _lognormal(rng: np.random.Generator, sd: float, n: int) -> np.ndarray:
    return np.exp(rng.normal(0.0, sd, size=n))


def _zero_inflated(
    rng: np.random.Generator, scale: np.ndarray, p_zero: float | np.ndarray, sd: float
) -> np.ndarray:
    """A surface-area style descriptor: zero with probability ``p_zero``, else positive."""
    n = len(scale)
    value = scale * _lognormal(rng, sd, n)
    return np.where(rng.random(n) < p_zero, 0.0, value)


def _standardise(x: np.ndarray) -> np.ndarray:
    return (x - x.mean()) / x.std()


def _replica_table(seed: int) -> pd.DataFrame:
    """The full labelled replica (``N_ROWS`` rows, Kaggle's train.csv columns)."""
    rng = np.random.default_rng(seed)
    n = N_ROWS
    size = np.clip(np.round(np.exp(rng.normal(2.95, 0.6, size=n))), 2, 160)
    aromatic = rng.beta(1.6, 2.6, size=n) * (size > 5)
    hetero = np.clip(rng.beta(2.2, 5.0, size=n), 0.02, 0.9)
    branching = rng.normal(0.0, 1.0, size=n)
    acids = np.minimum(rng.poisson(0.18 + 0.9 * hetero * (size / 25.0) ** 0.5), 8)
    morgan1 = np.clip(1.1 + 0.2 * rng.normal(size=n) - 0.08 * np.log(size / 20.0), 0.1, 2.2)

    hetero_count = rng.binomial(size.astype(int), hetero)
    heavy_wt = size * (12.0 + 5.5 * hetero) * (1.0 + 0.02 * rng.normal(size=n))
    hydrogens = np.maximum(size * (1.05 - 0.55 * aromatic - 0.4 * hetero), 0.0)
    exact_wt = heavy_wt + 1.007825 * np.round(hydrogens) + 0.3 * rng.normal(size=n)
    chi1 = 0.47 * size * (1.0 + 0.05 * rng.normal(size=n) + 0.03 * branching)
    chi1n = chi1 * np.clip(
        0.64 + 0.12 * aromatic - 0.15 * hetero + 0.03 * rng.normal(size=n), 0.3, 1
    )
    chi1v = chi1n * (1.08 + 0.35 * hetero) * (1.0 + 0.03 * rng.normal(size=n))
    chi2n = chi1n * np.clip(0.76 + 0.08 * branching + 0.05 * rng.normal(size=n), 0.3, 1.4)
    chi2v = chi2n * (1.1 + 0.4 * hetero) * (1.0 + 0.04 * rng.normal(size=n))
    chi3v = chi2v * np.clip(0.62 + 0.1 * aromatic + 0.08 * rng.normal(size=n), 0.1, 1.2)
    chi4n = chi2n * np.clip(0.3 + 0.3 * aromatic + 0.08 * rng.normal(size=n), 0.0, 1.0)
    bertz = 3.2 * size**1.45 * (0.55 + aromatic) * _lognormal(rng, 0.22, n)
    kappa3 = (size / 5.5) * (1.6 - aromatic) * np.exp(0.25 * branching) * _lognormal(rng, 0.3, n)
    spikes = rng.random(n) < 0.004  # a few degenerate shapes with huge Kappa3
    kappa3 = np.where(spikes, kappa3 * rng.uniform(20, 200, size=n), kappa3)
    hall_kier = -0.12 * size * (aromatic + 0.35 * hetero) + 0.25 * rng.normal(size=n)
    morgan2 = morgan1 + np.clip(rng.normal(0.66, 0.12, size=n), 0.05, None)
    morgan3 = morgan2 + np.clip(rng.normal(0.57, 0.12, size=n), 0.05, None)
    max_estate = np.clip(5.5 + 5.0 * hetero + 2.2 * rng.normal(size=n) + 0.6 * acids, 0.0, 18.0)
    min_estate = np.clip(-0.4 - 2.5 * hetero - 0.5 * acids + 1.1 * rng.normal(size=n), -10, 2.5)

    table = pd.DataFrame(
        {
            ID: np.arange(n),
            "BertzCT": bertz,
            "Chi1": chi1,
            "Chi1n": chi1n,
            "Chi1v": chi1v,
            "Chi2n": chi2n,
            "Chi2v": chi2v,
            "Chi3v": chi3v,
            "Chi4n": chi4n,
            "EState_VSA1": _zero_inflated(rng, 1.3 * size * hetero + 6.0 * acids, 0.25, 0.5),
            "EState_VSA2": _zero_inflated(rng, 0.5 * size * (1 - aromatic), 0.35, 0.6),
            "ExactMolWt": exact_wt,
            "FpDensityMorgan1": morgan1,
            "FpDensityMorgan2": morgan2,
            "FpDensityMorgan3": morgan3,
            "HallKierAlpha": hall_kier,
            "HeavyAtomMolWt": heavy_wt,
            "Kappa3": kappa3,
            "MaxAbsEStateIndex": max_estate,
            "MinEStateIndex": min_estate,
            "NumHeteroatoms": hetero_count,
            "PEOE_VSA10": _zero_inflated(rng, 0.25 * size * hetero + 5.0 * acids, 0.45, 0.5),
            "PEOE_VSA14": _zero_inflated(
                rng, 5.9 * np.maximum(acids, 0.4), 0.5 - 0.3 * (acids > 0), 0.3
            ),
            "PEOE_VSA6": _zero_inflated(rng, 1.5 * size * aromatic + 4.0, 0.3, 0.5),
            "PEOE_VSA7": _zero_inflated(rng, 1.9 * size * (1 - hetero), 0.1, 0.4),
            "PEOE_VSA8": _zero_inflated(rng, 0.9 * size * (0.3 + aromatic), 0.2, 0.5),
            "SMR_VSA10": _zero_inflated(rng, 0.6 * size * hetero + 4.0, 0.3, 0.5),
            "SMR_VSA5": _zero_inflated(rng, 1.7 * size * (1 - aromatic), 0.15, 0.5),
            "SlogP_VSA3": _zero_inflated(rng, 0.5 * size * hetero + 4.8 * acids + 3.0, 0.25, 0.4),
            "VSA_EState9": 2.2 * size * (0.5 + hetero) * _lognormal(rng, 0.3, n),
            "fr_COO": acids,
            "fr_COO2": np.where(rng.random(n) < 0.03, np.maximum(acids - 1, 0), acids),
        }
    )
    continuous = [c for c in FEATURES if c not in ("NumHeteroatoms", "fr_COO", "fr_COO2")]
    table[continuous] = table[continuous].round(6)
    for column in ("NumHeteroatoms", "fr_COO", "fr_COO2"):
        table[column] = table[column].astype(np.int64)

    traits = np.column_stack(
        [
            _standardise(np.log(size)),
            _standardise(aromatic),
            _standardise(hetero),
            _standardise(np.minimum(acids, 3).astype(float)),
            _standardise(morgan1),
            branching,
        ]
    )
    shared = rng.normal(0.0, 1.0, size=n)
    band = np.abs(traits[:, 0] - 0.4) < 0.6  # mid-sized molecules behave differently
    for label, weights in _WEIGHTS.items():
        z = traits @ np.array(weights[:6]) + weights[6] * shared
        z = z + _NONLINEAR[label] * np.where(band, 1.0, -0.5) * np.sign(weights[0] or 1.0)
        z = z + rng.normal(0.0, 1.0, size=n)  # what the descriptors cannot tell
        lo, hi = -20.0, 20.0
        for _ in range(60):  # intercept giving the target positive rate
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _sigmoid(z + mid).mean() < _RATES[label] else (lo, mid)
        table[label] = (rng.random(n) < _sigmoid(z + (lo + hi) / 2)).astype(np.int64)
    return table[COLUMNS]


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate a synthetic enzyme-substrate table and write it like :func:`prepare` does.

    14,838 rows with Kaggle's 38 ``train.csv`` columns (ids 0..N-1, descriptors
    rounded to 6 decimals, integer counts, 0/1 labels), then MLE-bench's split.
    Same ``seed``, same bytes.
    """
    split_and_write(_replica_table(seed), public_dir, private_dir)
