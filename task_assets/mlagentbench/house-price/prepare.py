# ruff: noqa: E501 - the generator tables read best one column per line
"""Data of MLAgentBench/house-price (Kaggle's "home-data-for-ml-course": Ames, Iowa homes).

``download(raw_dir)`` fetches the competition zip through the Kaggle API;
``prepare(raw_dir, public_dir, private_dir)`` splits Kaggle's labelled ``train.csv``
as MLAgentBench does — the first 80% of the rows (in file order) stay training data,
the last 20% become the test set, whose ``SalePrice`` is kept private.

``replica(public_dir, private_dir, seed)`` generates an offline stand-in with the
same 81 columns, value conventions (``NA`` for "no such feature") and a realistic
price signal: the log price is driven by living area, overall quality, location,
age, basement, garage and finish quality, with noise; most columns that MLAgentBench's
starter code ignores (neighbourhood, basement, garage, quality grades) carry real
signal, as they do in the real data.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlagentbench.authoring import fetch_kaggle, read_raw_csv

COMPETITION = "home-data-for-ml-course"
ID, TARGET = "Id", "SalePrice"
N_ROWS = 1460
TRAIN_FRACTION = 0.8

COLUMNS = [
    "Id", "MSSubClass", "MSZoning", "LotFrontage", "LotArea", "Street", "Alley", "LotShape",
    "LandContour", "Utilities", "LotConfig", "LandSlope", "Neighborhood", "Condition1",
    "Condition2", "BldgType", "HouseStyle", "OverallQual", "OverallCond", "YearBuilt",
    "YearRemodAdd", "RoofStyle", "RoofMatl", "Exterior1st", "Exterior2nd", "MasVnrType",
    "MasVnrArea", "ExterQual", "ExterCond", "Foundation", "BsmtQual", "BsmtCond",
    "BsmtExposure", "BsmtFinType1", "BsmtFinSF1", "BsmtFinType2", "BsmtFinSF2", "BsmtUnfSF",
    "TotalBsmtSF", "Heating", "HeatingQC", "CentralAir", "Electrical", "1stFlrSF", "2ndFlrSF",
    "LowQualFinSF", "GrLivArea", "BsmtFullBath", "BsmtHalfBath", "FullBath", "HalfBath",
    "BedroomAbvGr", "KitchenAbvGr", "KitchenQual", "TotRmsAbvGrd", "Functional", "Fireplaces",
    "FireplaceQu", "GarageType", "GarageYrBlt", "GarageFinish", "GarageCars", "GarageArea",
    "GarageQual", "GarageCond", "PavedDrive", "WoodDeckSF", "OpenPorchSF", "EnclosedPorch",
    "3SsnPorch", "ScreenPorch", "PoolArea", "PoolQC", "Fence", "MiscFeature", "MiscVal",
    "MoSold", "YrSold", "SaleType", "SaleCondition", "SalePrice",
]  # fmt: skip

# Neighbourhoods: (share of homes, price effect on the log scale, typical build year)
NEIGHBORHOODS = {
    "NAmes": (0.154, -0.10, 1960), "CollgCr": (0.103, 0.10, 1998), "OldTown": (0.077, -0.30, 1925),
    "Edwards": (0.068, -0.22, 1955), "Somerst": (0.059, 0.22, 2004), "Gilbert": (0.054, 0.08, 2000),
    "NridgHt": (0.053, 0.45, 2005), "Sawyer": (0.051, -0.14, 1965), "NWAmes": (0.050, 0.04, 1975),
    "SawyerW": (0.041, 0.06, 1993), "BrkSide": (0.040, -0.28, 1930), "Crawfor": (0.035, 0.12, 1935),
    "Mitchel": (0.034, -0.05, 1975), "NoRidge": (0.028, 0.48, 1995), "Timber": (0.026, 0.25, 2000),
    "IDOTRR": (0.025, -0.45, 1925), "ClearCr": (0.019, 0.18, 1968), "SWISU": (0.017, -0.20, 1925),
    "StoneBr": (0.017, 0.50, 1998), "MeadowV": (0.012, -0.40, 1972), "Blmngtn": (0.012, 0.15, 2005),
    "BrDale": (0.011, -0.35, 1971), "Veenker": (0.008, 0.22, 1977), "NPkVill": (0.006, -0.02, 1977),
    "Blueste": (0.003, -0.10, 1980),
}  # fmt: skip
QUALITY = ["Po", "Fa", "TA", "Gd", "Ex"]


def download(raw_dir: Path) -> None:
    """Fetch the competition zip (Kaggle credentials and accepted rules needed)."""
    fetch_kaggle(COMPETITION, raw_dir, task="MLAgentBench/house-price")


def split_and_write(table: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """MLAgentBench's split: the first 80% of the rows train, the rest test."""
    if ID not in table or TARGET not in table:
        raise ValueError(f"the table needs {ID} and {TARGET} columns")
    cut = int(len(table) * TRAIN_FRACTION)
    train, test = table.iloc[:cut], table.iloc[cut:]
    train.to_csv(public_dir / "train.csv", index=False)
    test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)
    sample = pd.DataFrame({ID: test[ID], TARGET: "180000"})
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    test[[ID, TARGET]].to_csv(private_dir / "answers.csv", index=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Split Kaggle's labelled train.csv (in ``raw_dir``, or inside the zip there)."""
    split_and_write(
        read_raw_csv(raw_dir, "train.csv", task="MLAgentBench/house-price"), public_dir, private_dir
    )


# -- offline replica ---------------------------------------------------------------------


def _choice(rng: np.random.Generator, options: list[str], p: list[float], n: int) -> np.ndarray:
    prob = np.asarray(p, dtype=float)
    return np.asarray(options, dtype=object)[rng.choice(len(options), size=n, p=prob / prob.sum())]


def _grade(rng: np.random.Generator, latent: np.ndarray, spread: float = 0.8) -> np.ndarray:
    """A Po..Ex grade that follows ``latent`` (roughly centred on TA..Gd)."""
    level = np.clip(np.round(2.3 + latent + rng.normal(0, spread, latent.shape)), 0, 4)
    return np.asarray(QUALITY, dtype=object)[level.astype(int)]


def _replica_table(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = N_ROWS
    names = list(NEIGHBORHOODS)
    share = np.array([NEIGHBORHOODS[k][0] for k in names])
    hood_idx = rng.choice(len(names), size=n, p=share / share.sum())
    hood = np.asarray(names, dtype=object)[hood_idx]
    hood_effect = np.array([NEIGHBORHOODS[k][1] for k in names])[hood_idx]
    hood_year = np.array([NEIGHBORHOODS[k][2] for k in names])[hood_idx]

    year_sold = rng.choice([2006, 2007, 2008, 2009, 2010], size=n, p=[0.22, 0.22, 0.21, 0.23, 0.12])
    year_built = np.clip(np.round(hood_year + rng.normal(0, 12, n)), 1872, year_sold).astype(int)
    remodel = np.where(
        rng.random(n) < 0.45,
        np.minimum(year_sold, year_built + rng.integers(0, 60, n)),
        np.maximum(year_built, 1950),
    )
    latent_quality = 0.9 * hood_effect + 0.012 * (year_built - 1970) + rng.normal(0, 0.55, n)
    overall_qual = np.clip(np.round(6.1 + 1.6 * latent_quality), 1, 10).astype(int)
    overall_cond = np.clip(np.round(rng.normal(5.6, 1.0, n)), 1, 9).astype(int)

    style = _choice(
        rng, ["1Story", "2Story", "1.5Fin", "SLvl", "SFoyer", "1.5Unf", "2.5Unf", "2.5Fin"],
        [0.50, 0.30, 0.105, 0.045, 0.025, 0.01, 0.01, 0.005], n,
    )  # fmt: skip
    two_floors = np.isin(style, ["2Story", "1.5Fin", "2.5Fin", "2.5Unf"])
    living = np.exp(rng.normal(7.2 + 0.09 * (overall_qual - 6) + 0.25 * two_floors, 0.22))
    living = np.clip(np.round(living), 334, 5642).astype(int)
    second = np.where(two_floors, np.round(living * rng.uniform(0.35, 0.5, n)), 0).astype(int)
    low_qual = np.where(rng.random(n) < 0.02, rng.integers(50, 500, n), 0)
    first = (living - second - low_qual).clip(334)
    living = first + second + low_qual

    has_bsmt = rng.random(n) > 0.025
    total_bsmt = np.where(has_bsmt, np.round(first * rng.uniform(0.75, 1.05, n)), 0).astype(int)
    fin1 = np.where(has_bsmt, np.round(total_bsmt * rng.beta(2, 2, n)), 0).astype(int)
    fin2 = np.where(has_bsmt & (rng.random(n) < 0.11), np.round((total_bsmt - fin1) * 0.4), 0)
    fin2 = fin2.astype(int)
    unf = total_bsmt - fin1 - fin2
    has_garage = rng.random(n) > 0.055
    cars = np.where(
        has_garage,
        np.clip(np.round(1.6 + 0.35 * (overall_qual - 6) + rng.normal(0, 0.5, n)), 1, 4),
        0,
    ).astype(int)
    garage_area = np.where(has_garage, np.round(cars * rng.normal(250, 35, n)), 0).astype(int)
    garage_year = np.where(
        has_garage, np.maximum(year_built, year_built + rng.integers(-2, 3, n)), -1
    )
    garage_year = np.minimum(garage_year, year_sold)

    exter_q = _grade(rng, 0.5 * (overall_qual - 6))
    kitchen_q = _grade(rng, 0.5 * (overall_qual - 6))
    bsmt_q = np.where(has_bsmt, _grade(rng, 0.5 * (overall_qual - 6) + 0.4), "NA")
    q_score = {q: i for i, q in enumerate(QUALITY)}
    kitchen_score = np.array([q_score[q] for q in kitchen_q]) - 2
    exter_score = np.array([q_score[q] for q in exter_q]) - 2
    fireplaces = np.clip(rng.poisson(0.35 + 0.12 * (overall_qual - 5).clip(0)), 0, 3)
    full_bath = np.clip(np.round(living / 900 + rng.normal(0, 0.4, n)), 0, 3).astype(int)
    half_bath = (rng.random(n) < 0.38 * two_floors + 0.1).astype(int)
    bedrooms = np.clip(np.round(living / 550 + rng.normal(0, 0.6, n)), 0, 8).astype(int)
    rooms = np.clip(bedrooms + 3 + rng.integers(0, 3, n), 2, 14)
    lot_frontage = np.round(np.exp(rng.normal(4.2, 0.3, n))).astype(float)
    lot_frontage[rng.random(n) < 0.18] = np.nan
    lot_area = np.round(np.exp(rng.normal(9.1, 0.45, n))).astype(int)
    pool_area = np.where(rng.random(n) < 0.005, rng.integers(400, 800, n), 0)
    wood_deck = np.where(rng.random(n) < 0.48, np.round(rng.gamma(2.5, 70, n)), 0).astype(int)
    open_porch = np.where(rng.random(n) < 0.55, np.round(rng.gamma(2, 30, n)), 0).astype(int)
    sale_condition = _choice(
        rng, ["Normal", "Partial", "Abnorml", "Family", "Alloca", "AdjLand"],
        [0.82, 0.086, 0.069, 0.014, 0.008, 0.003], n,
    )  # fmt: skip
    central_air = np.where(year_built < 1950, _choice(rng, ["Y", "N"], [0.75, 0.25], n), "Y")
    mas_type = _choice(rng, ["None", "BrkFace", "Stone", "BrkCmn"], [0.6, 0.3, 0.09, 0.01], n)
    mas_area = np.where(mas_type == "None", 0, np.round(rng.gamma(2, 90, n))).astype(float)

    age = year_sold - year_built
    log_price = (
        12.0
        + 0.55 * np.log(living / 1500)
        + 0.085 * (overall_qual - 6)
        + 0.04 * (overall_cond - 5)
        + 0.55 * hood_effect
        - 0.0030 * age
        + 0.00018 * (total_bsmt - 1000)
        + 0.06 * (cars - 2)
        + 0.05 * kitchen_score
        + 0.04 * exter_score
        + 0.03 * fireplaces
        + 0.04 * (central_air == "Y")
        - 0.12 * (sale_condition == "Abnorml")
        + 0.08 * (sale_condition == "Partial")
        + 0.07 * np.log1p(lot_area / 10000)
        + rng.normal(0, 0.09, n)
    )
    price = np.round(np.exp(log_price) / 100) * 100

    def pick(options: list[str], p: list[float]) -> np.ndarray:
        return _choice(rng, options, p, n)

    no_garage = ~has_garage
    no_bsmt = ~has_bsmt
    table = pd.DataFrame(
        {
            "Id": np.arange(1, n + 1),
            "MSSubClass": np.where(two_floors, 60, 20) + np.where(rng.random(n) < 0.15, 30, 0),
            "MSZoning": pick(["RL", "RM", "FV", "RH", "C (all)"], [0.79, 0.15, 0.044, 0.011, 0.007]),
            "LotFrontage": lot_frontage,
            "LotArea": lot_area,
            "Street": pick(["Pave", "Grvl"], [0.996, 0.004]),
            "Alley": pick(["NA", "Grvl", "Pave"], [0.938, 0.034, 0.028]),
            "LotShape": pick(["Reg", "IR1", "IR2", "IR3"], [0.634, 0.332, 0.028, 0.006]),
            "LandContour": pick(["Lvl", "Bnk", "HLS", "Low"], [0.898, 0.043, 0.034, 0.025]),
            "Utilities": pick(["AllPub", "NoSeWa"], [0.999, 0.001]),
            "LotConfig": pick(["Inside", "Corner", "CulDSac", "FR2", "FR3"], [0.72, 0.18, 0.064, 0.032, 0.004]),
            "LandSlope": pick(["Gtl", "Mod", "Sev"], [0.947, 0.045, 0.008]),
            "Neighborhood": hood,
            "Condition1": pick(["Norm", "Feedr", "Artery", "RRAn", "PosN"], [0.863, 0.055, 0.033, 0.018, 0.031]),
            "Condition2": pick(["Norm", "Feedr", "Artery"], [0.99, 0.004, 0.006]),
            "BldgType": pick(["1Fam", "TwnhsE", "Duplex", "Twnhs", "2fmCon"], [0.836, 0.078, 0.036, 0.03, 0.02]),
            "HouseStyle": style,
            "OverallQual": overall_qual,
            "OverallCond": overall_cond,
            "YearBuilt": year_built,
            "YearRemodAdd": remodel,
            "RoofStyle": pick(["Gable", "Hip", "Flat", "Gambrel", "Mansard", "Shed"], [0.78, 0.196, 0.009, 0.008, 0.005, 0.002]),
            "RoofMatl": pick(["CompShg", "Tar&Grv", "WdShngl", "WdShake"], [0.982, 0.008, 0.005, 0.005]),
            "Exterior1st": pick(["VinylSd", "HdBoard", "MetalSd", "Wd Sdng", "Plywood", "CemntBd", "BrkFace"], [0.35, 0.15, 0.15, 0.14, 0.07, 0.04, 0.1]),
            "Exterior2nd": pick(["VinylSd", "HdBoard", "MetalSd", "Wd Sdng", "Plywood", "CmentBd", "Wd Shng"], [0.35, 0.14, 0.15, 0.14, 0.1, 0.04, 0.08]),
            "MasVnrType": mas_type,
            "MasVnrArea": mas_area,
            "ExterQual": exter_q,
            "ExterCond": pick(["TA", "Gd", "Fa", "Ex", "Po"], [0.878, 0.1, 0.019, 0.002, 0.001]),
            "Foundation": np.where(year_built >= 1990, "PConc", pick(["CBlock", "BrkTil", "PConc", "Slab", "Stone"], [0.55, 0.2, 0.2, 0.03, 0.02])),
            "BsmtQual": bsmt_q,
            "BsmtCond": np.where(no_bsmt, "NA", pick(["TA", "Gd", "Fa", "Po"], [0.92, 0.045, 0.032, 0.003])),
            "BsmtExposure": np.where(no_bsmt, "NA", pick(["No", "Av", "Gd", "Mn"], [0.67, 0.155, 0.093, 0.082])),
            "BsmtFinType1": np.where(no_bsmt, "NA", pick(["Unf", "GLQ", "ALQ", "BLQ", "Rec", "LwQ"], [0.3, 0.29, 0.155, 0.1, 0.095, 0.06])),
            "BsmtFinSF1": fin1,
            "BsmtFinType2": np.where(no_bsmt, "NA", np.where(fin2 > 0, pick(["Rec", "LwQ", "BLQ", "ALQ", "GLQ"], [0.3, 0.3, 0.2, 0.12, 0.08]), "Unf")),
            "BsmtFinSF2": fin2,
            "BsmtUnfSF": unf,
            "TotalBsmtSF": total_bsmt,
            "Heating": pick(["GasA", "GasW", "Grav", "Wall", "OthW"], [0.978, 0.012, 0.005, 0.003, 0.002]),
            "HeatingQC": pick(["Ex", "TA", "Gd", "Fa", "Po"], [0.51, 0.29, 0.165, 0.034, 0.001]),
            "CentralAir": central_air,
            "Electrical": pick(["SBrkr", "FuseA", "FuseF", "FuseP"], [0.914, 0.064, 0.019, 0.003]),
            "1stFlrSF": first,
            "2ndFlrSF": second,
            "LowQualFinSF": low_qual,
            "GrLivArea": living,
            "BsmtFullBath": np.where(has_bsmt, (rng.random(n) < 0.42).astype(int), 0),
            "BsmtHalfBath": np.where(has_bsmt, (rng.random(n) < 0.055).astype(int), 0),
            "FullBath": full_bath,
            "HalfBath": half_bath,
            "BedroomAbvGr": bedrooms,
            "KitchenAbvGr": np.where(rng.random(n) < 0.95, 1, 2),
            "KitchenQual": kitchen_q,
            "TotRmsAbvGrd": rooms,
            "Functional": pick(["Typ", "Min2", "Min1", "Mod", "Maj1"], [0.93, 0.024, 0.021, 0.01, 0.015]),
            "Fireplaces": fireplaces,
            "FireplaceQu": np.where(fireplaces == 0, "NA", pick(["Gd", "TA", "Fa", "Ex", "Po"], [0.48, 0.4, 0.04, 0.04, 0.04])),
            "GarageType": np.where(no_garage, "NA", pick(["Attchd", "Detchd", "BuiltIn", "Basment", "CarPort", "2Types"], [0.63, 0.28, 0.064, 0.014, 0.006, 0.006])),
            "GarageYrBlt": pd.Series(garage_year, dtype=float).where(has_garage),
            "GarageFinish": np.where(no_garage, "NA", pick(["Unf", "RFn", "Fin"], [0.44, 0.3, 0.26])),
            "GarageCars": cars,
            "GarageArea": garage_area,
            "GarageQual": np.where(no_garage, "NA", pick(["TA", "Fa", "Gd", "Ex", "Po"], [0.95, 0.035, 0.01, 0.002, 0.003])),
            "GarageCond": np.where(no_garage, "NA", pick(["TA", "Fa", "Gd", "Po", "Ex"], [0.96, 0.025, 0.007, 0.006, 0.002])),
            "PavedDrive": pick(["Y", "N", "P"], [0.918, 0.062, 0.02]),
            "WoodDeckSF": wood_deck,
            "OpenPorchSF": open_porch,
            "EnclosedPorch": np.where(year_built < 1940, np.round(rng.gamma(2, 60, n)), 0).astype(int),
            "3SsnPorch": np.where(rng.random(n) < 0.016, rng.integers(100, 400, n), 0),
            "ScreenPorch": np.where(rng.random(n) < 0.08, rng.integers(60, 300, n), 0),
            "PoolArea": pool_area,
            "PoolQC": np.where(pool_area > 0, pick(["Gd", "Ex", "Fa"], [0.4, 0.4, 0.2]), "NA"),
            "Fence": pick(["NA", "MnPrv", "GdPrv", "GdWo", "MnWw"], [0.807, 0.108, 0.04, 0.037, 0.008]),
            "MiscFeature": pick(["NA", "Shed", "Gar2", "Othr"], [0.963, 0.033, 0.002, 0.002]),
            "MiscVal": np.zeros(n, dtype=int),
            "MoSold": rng.choice(np.arange(1, 13), size=n, p=np.array([4, 4, 7, 10, 14, 17, 16, 8, 4, 6, 5, 5]) / 100),
            "YrSold": year_sold,
            "SaleType": np.where(sale_condition == "Partial", "New", pick(["WD", "COD", "ConLD", "ConLw", "CWD", "Oth"], [0.94, 0.033, 0.009, 0.006, 0.006, 0.006])),
            "SaleCondition": sale_condition,
            "SalePrice": price.astype(int),
        }
    )  # fmt: skip
    table.loc[table["MiscFeature"] == "Shed", "MiscVal"] = rng.integers(
        200, 2000, (table["MiscFeature"] == "Shed").sum()
    )
    mas_missing = rng.random(n) < 0.005
    table["MasVnrType"] = table["MasVnrType"].where(~mas_missing, "NA")
    table["MasVnrArea"] = table["MasVnrArea"].where(~mas_missing)
    table["Electrical"] = table["Electrical"].where(rng.random(n) > 0.001, "NA")
    return table[COLUMNS]


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate the offline stand-in (1,460 homes) and split it like :func:`prepare`.
    Deterministic: the same seed gives byte-identical files."""
    table = _replica_table(seed)
    text = table.astype(object).where(table.notna(), "NA")
    split_and_write(text, public_dir, private_dir)
