"""Data of MLAgentBench/tomato-yield (made up: the worked example of
docs/adding-an-mlagentbench-task.md).

There is no real data to download, only ``replica(public_dir, private_dir, seed)``: it
generates 2,000 greenhouse beds and splits them like the real tasks do — the first 80%
of the rows are training data, the last 20% the test set, whose yields stay private.

The yield follows the variety, light, CO2 and water, has an optimum temperature (too
cold or too hot both hurt) and drops in very humid air: signal a linear model on the
numeric columns alone mostly misses.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

ID, TARGET = "bed_id", "yield_kg"
ROWS = 2000
TRAIN_FRACTION = 0.8
#: variety -> (share of beds, typical yield in kg)
VARIETIES = {"Cherry": (0.3, 14.0), "Roma": (0.3, 22.0), "Beefsteak": (0.25, 30.0),
             "Heirloom": (0.15, 18.0)}  # fmt: skip


def split_and_write(table: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """The first 80% of the rows train (public), the rest test (inputs public, yields
    private in ``answers.csv``)."""
    cut = int(len(table) * TRAIN_FRACTION)
    train, test = table.iloc[:cut], table.iloc[cut:]
    train.to_csv(public_dir / "train.csv", index=False)
    test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)
    test[[ID]].assign(**{TARGET: 20.0}).to_csv(public_dir / "sample_submission.csv", index=False)
    test[[ID, TARGET]].to_csv(private_dir / "answers.csv", index=False)


def replica_table(seed: int) -> pd.DataFrame:
    """The generated beds; every draw comes from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    names = list(VARIETIES)
    share = np.array([VARIETIES[v][0] for v in names])
    pick = rng.choice(len(names), size=ROWS, p=share / share.sum())
    typical = np.array([VARIETIES[v][1] for v in names])[pick]
    light = rng.uniform(8, 16, ROWS)
    temperature = rng.uniform(15, 33, ROWS)
    humidity = rng.uniform(50, 95, ROWS)
    co2 = rng.uniform(400, 1200, ROWS)
    water = rng.uniform(0.5, 6.0, ROWS)
    yield_kg = typical * (1 + 0.05 * (light - 12)) * np.exp(-(((temperature - 24) / 5) ** 2)) * (
        1 - 0.04 * np.clip(humidity - 85, 0, None)
    ) * (1 + 0.2 * np.log(co2 / 400)) * (1 - np.exp(-water / 1.5)) + rng.normal(0, 0.8, ROWS)
    return pd.DataFrame(
        {
            ID: np.arange(1, ROWS + 1),
            "variety": np.asarray(names, dtype=object)[pick],
            "light_hours": light.round(1),
            "temperature_c": temperature.round(1),
            "humidity_pct": humidity.round(0).astype(int),
            "co2_ppm": co2.round(-1).astype(int),
            "water_l": water.round(2),
            TARGET: np.clip(yield_kg, 0, None).round(2),
        }
    )


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate the beds and split them (the same seed gives byte-identical files)."""
    split_and_write(replica_table(seed), public_dir, private_dir)
