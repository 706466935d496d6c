"""Data preparation for spaceship-titanic.

``prepare(raw_dir, public_dir, private_dir)`` turns Kaggle's competition files
into MLE-bench's split: Kaggle's labelled ``train.csv`` (8,693 rows) is split
90/10 with scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``
semantics; the 870 held-out rows become the private answers. The agent sees the
new train, the new test without ``Transported``, and an all-False sample
submission.

``replica(public_dir, private_dir, seed)`` builds an offline stand-in with the
same schema and the same split, from a seeded generator.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring import read_csv_exact, train_test_split_like_sklearn

ID = "PassengerId"
TARGET = "Transported"


def split_and_write(train: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """Split a labelled table as MLE-bench does and write public/private files."""
    new_train, new_test = train_test_split_like_sklearn(train, test_size=0.1, random_state=0)
    sample = new_test[[ID, TARGET]].copy()
    sample[TARGET] = False
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)
    new_train.to_csv(public_dir / "train.csv", index=False)
    new_test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    train = read_csv_exact(raw_dir / "train.csv")
    split_and_write(train, public_dir, private_dir)


# ---------------------------------------------------------------------------
# Offline replica
# ---------------------------------------------------------------------------
#
# A generative "world" with Kaggle's schema. Passengers travel in groups that
# share a home planet, usually a cabin and often a surname; cabins follow the
# planet (Europa high decks, Earth low decks); cryosleepers and children spend
# nothing; spending is zero-inflated and log-normal with planet-specific tastes.
# ``Transported`` is drawn from a logistic model of the complete (pre-missing)
# record plus a per-group effect, so some of the signal is irreducible. Missing
# values are punched in afterwards, independently per feature column.


N_ROWS = 8693
COLUMNS = [
    ID,
    "HomePlanet",
    "CryoSleep",
    "Cabin",
    "Destination",
    "Age",
    "VIP",
    "RoomService",
    "FoodCourt",
    "ShoppingMall",
    "Spa",
    "VRDeck",
    "Name",
    TARGET,
]
FEATURES = COLUMNS[1:-1]
AMENITIES = ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]
PLANETS = ["Earth", "Europa", "Mars"]
DESTINATIONS = ["TRAPPIST-1e", "55 Cancri e", "PSO J318.5-22"]
DECKS = ["A", "B", "C", "D", "E", "F", "G", "T"]
MISSING_RATE = 0.022
TRANSPORTED_RATE = 0.504

# Group sizes 1..8, weighted like the real passenger manifest (mostly singles).
_GROUP_SIZE_WEIGHTS = np.array([4805, 841, 340, 103, 53, 29, 33, 13], dtype=float)
_PLANET_P = np.array([0.54, 0.25, 0.21])
# Destination given home planet (rows follow PLANETS, columns DESTINATIONS).
_DESTINATION_P = np.array([[0.69, 0.15, 0.16], [0.565, 0.42, 0.015], [0.855, 0.11, 0.035]])
# Deck given home planet (rows follow PLANETS, columns DECKS).
_DECK_P = np.array(
    [
        [0.0, 0.0, 0.0, 0.0, 0.10, 0.35, 0.55, 0.0],
        [0.12, 0.36, 0.34, 0.09, 0.085, 0.0, 0.0, 0.005],
        [0.0, 0.0, 0.0, 0.17, 0.19, 0.64, 0.0, 0.0],
    ]
)
_CRYO_P = np.array([0.32, 0.42, 0.38])
_VIP_P = np.array([0.0, 0.065, 0.035])
_AGE_SHIFT = np.array([-2.5, 4.0, 1.0])
# Log-scale mean spend per (planet, amenity): Europa favours food, spa and VR,
# Mars room service and shopping, Earth spends little everywhere.
_SPEND_MU = np.array(
    [
        [5.0, 5.1, 4.9, 5.0, 4.9],
        [5.2, 6.9, 4.9, 6.4, 6.5],
        [6.4, 5.0, 6.2, 4.9, 4.5],
    ]
)
_SPEND_CAP = np.array([16000.0, 36000.0, 26000.0, 26000.0, 28000.0])

# Transported logit contributions.
_CRYO_EFFECT = 0.8
_PLANET_EFFECT = np.array([-0.5, 0.8, 0.2])
_DESTINATION_EFFECT = np.array([0.0, 0.25, -0.05])
_DECK_EFFECT = np.array([0.0, 1.0, 0.8, -0.2, -0.8, -0.1, 0.35, -1.0])
_SIDE_S_EFFECT = 0.7
_AGE_BOUNDS = np.array([5, 13, 18, 26, 40])  # age bands [0,5), [5,13), ..., [40, 80)
_AGE_EFFECT = np.array([0.3, 0.1, 0.05, -0.15, 0.0, -0.05])
_SPEND_EFFECT = np.array([-0.36, 0.12, 0.08, -0.36, -0.36])  # per log1p(amount)
_NUM_BAND_EFFECT = np.array([0.3, 0.05, -0.25, 0.1, -0.3, 0.2, -0.1])  # per 300 cabin numbers
_GROUP_EFFECT_SD = 0.85
_SIGNAL_SCALE = 1.03

_FIRST_NAMES: dict[str, str] = {
    "Earth": (
        "Ada Ben Clara Dorian Elsie Finn Greta Hollis Ida Jonah Kit Leona Milo Nell Otis "
        "Petra Quinn Rosa Silas Tess Umar Vera Wade Yara Zeke Abel Bree Cyrus Della Emmett"
    ),
    "Europa": (
        "Aldorin Belnix Caspior Dravelle Esquor Faldric Galathor Hexira Ithorne Jovander "
        "Kaelith Lumivar Morathis Nexelle Oribane Pellinor Quorvath Rhadamis Sestrine Tavorin "
        "Ulvarek Vesparin Wyndoral Xanthic Yselmar Zerathon Astrivel Brenthor Corvalis Delphire"
    ),
    "Mars": (
        "Brak Dost Krell Vusk Tarn Grix Holt Jask Murk Pell Rusk Skad Tork Vrin Zolt "
        "Arn Bex Cor Dax Fenk Gort Harn Kel Lurk Morv Nax Prak Rolk Sark Tav"
    ),
}
_LAST_NAMES: dict[str, str] = {
    "Earth": (
        "Ashford Barlow Calder Dunmore Everly Fairweather Gaskell Harrow Ingram Jessop "
        "Kettering Lowry Marsh Northcott Oakes Pembroke Quill Radley Stanton Thorne Upton "
        "Vickers Whitlock Yardley Abbott Brennan Colfax Drummond Ellery Fletcher"
    ),
    "Europa": (
        "Aurelianth Brightspire Celestrand Dawnhollow Emberglass Frostveil Glimmerdawn "
        "Halcyrion Ivorymere Jadecrest Kestralune Lumenhart Moonwhistle Nightquill Opalwind "
        "Prismvale Quillsilver Radiantor Starbrook Thistlelight Umbralis Valemist Wintercrest "
        "Zephyrine Amberlock Brightwater Crystalline Duskmantle Everbloom Fernshadow"
    ),
    "Mars": (
        "Kradd Vorsk Tullo Brann Hessk Grude Mokk Pask Rudd Skell Tarsk Vend Zukk Drok "
        "Fesk Gann Hurl Jekk Lusk Narr Orsk Prell Quonk Rask Stig Trell Ulk Vask Wegg Yark"
    ),
}


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _group_sizes(rng: np.random.Generator, n_rows: int) -> np.ndarray:
    """Group sizes (1..8) summing to exactly ``n_rows``; the last group is trimmed."""
    p = _GROUP_SIZE_WEIGHTS / _GROUP_SIZE_WEIGHTS.sum()
    mean = float(np.dot(np.arange(1, 9), p))
    draws = rng.choice(np.arange(1, 9), size=int(n_rows / mean * 1.2) + 16, p=p)
    cum = np.cumsum(draws)
    n_groups = int(np.searchsorted(cum, n_rows)) + 1
    sizes = draws[:n_groups].copy()
    sizes[-1] -= int(cum[n_groups - 1]) - n_rows
    return sizes


def _group_numbers(rng: np.random.Generator, n_groups: int) -> np.ndarray:
    """Increasing group numbers in 1..9999 with gaps (the Kaggle test groups sit in them)."""
    steps = 1 + rng.poisson(0.5, size=n_groups)
    numbers = np.cumsum(steps)
    if numbers[-1] > 9999:  # practically never; fall back to consecutive numbers
        numbers = np.arange(1, n_groups + 1)
    return numbers


def _pick_row(rng: np.random.Generator, probs: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """For each entry of ``rows`` draw a column index from ``probs[row]``."""
    cum = np.cumsum(probs[rows], axis=1)
    u = rng.random(len(rows))[:, None]
    return np.minimum((u > cum).sum(axis=1), probs.shape[1] - 1)


def _cabins(
    rng: np.random.Generator, planet: np.ndarray, group: np.ndarray, first: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deck index, cabin number and side (0=P, 1=S) per passenger, in file order.

    A group's side is shared; its lead opens a cabin and each further member
    joins it with probability 0.82, otherwise opens a cabin of their own (same
    deck two times in three). Cabin numbers run upwards through the file per
    deck and side, skipping numbers now and then.
    """
    n = len(planet)
    group_side = rng.integers(0, 2, size=group.max() + 1)
    planet_deck = _pick_row(rng, _DECK_P, planet)
    joins = rng.random(n) < 0.82
    keep_deck = rng.random(n) < 2 / 3
    skips = 1 + rng.poisson(0.6, size=n)
    counters = np.zeros((len(DECKS), 2), dtype=np.int64)
    deck = np.empty(n, dtype=np.int64)
    num = np.empty(n, dtype=np.int64)
    side = group_side[group]
    for i in range(n):
        if not first[i] and joins[i]:
            deck[i], num[i] = deck[i - 1], num[i - 1]
            continue
        d = deck[i - 1] if (not first[i] and keep_deck[i]) else planet_deck[i]
        s = side[i]
        deck[i], num[i] = d, counters[d, s]
        counters[d, s] += skips[i]
    return deck, num, side


def _ages(rng: np.random.Generator, planet: np.ndarray) -> np.ndarray:
    """Whole-year ages in 0..79: ~9% children (with a bump at 0), adults skewed young."""
    n = len(planet)
    child = rng.random(n) < 0.09
    child_age = np.where(rng.random(n) < 0.2, 0, rng.integers(0, 13, size=n))
    adult_age = 13 + rng.gamma(2.2, 8.5, size=n) + _AGE_SHIFT[planet]
    adult_age = np.clip(np.round(adult_age), 13, 79)
    return np.where(child, child_age, adult_age).astype(float)


def _spending(
    rng: np.random.Generator,
    planet: np.ndarray,
    cryo: np.ndarray,
    age: np.ndarray,
    vip: np.ndarray,
) -> np.ndarray:
    """Amounts per amenity (n x 5), whole numbers; zero for cryosleepers and children."""
    n = len(planet)
    awake_adult = ~cryo & (age >= 13)
    teen = (age >= 13) & (age < 18)
    propensity = rng.normal(0.0, 0.8, size=n)  # a passenger's general appetite to spend
    p_any = _sigmoid(0.45 + propensity[:, None] - 1.0 * teen[:, None] + 1.5 * vip[:, None])
    buys = (rng.random((n, 5)) < p_any) & awake_adult[:, None]
    log_amount = (
        _SPEND_MU[planet]
        + 0.6 * propensity[:, None]
        + 0.8 * vip[:, None]
        - 0.7 * teen[:, None]
        + rng.normal(0.0, 1.25, size=(n, 5))
    )
    raw = np.exp(log_amount)
    amount = np.round(raw / (1.0 + raw / _SPEND_CAP))  # soft ceiling: tails bend, never pile up
    return np.where(buys, np.maximum(amount, 1.0), 0.0)


def _names(
    rng: np.random.Generator, planet: np.ndarray, group: np.ndarray, first: np.ndarray
) -> np.ndarray:
    """Names "First Last" per passenger; group members share the lead's surname 4 times in 5."""
    n = len(planet)
    out = np.empty(n, dtype=object)
    share = rng.random(n) < 0.8
    u_first = rng.random(n)
    u_last = rng.random(n)
    firsts_by_planet = [_FIRST_NAMES[home].split() for home in PLANETS]
    lasts_by_planet = [_LAST_NAMES[home].split() for home in PLANETS]
    surname = ""
    for i in range(n):
        firsts, lasts = firsts_by_planet[planet[i]], lasts_by_planet[planet[i]]
        if first[i] or not share[i]:
            own = lasts[int(u_last[i] * len(lasts))]
            if first[i]:
                surname = own
        else:
            own = surname
        out[i] = f"{firsts[int(u_first[i] * len(firsts))]} {own}"
    return out


def _transported(
    rng: np.random.Generator,
    planet: np.ndarray,
    cryo: np.ndarray,
    destination: np.ndarray,
    deck: np.ndarray,
    num: np.ndarray,
    side: np.ndarray,
    age: np.ndarray,
    spend: np.ndarray,
    group: np.ndarray,
) -> np.ndarray:
    """Draw the label from a logistic model of the full record plus a group effect.

    The intercept is solved so that the expected transported share is
    ``TRANSPORTED_RATE``.
    """
    age_effect = _AGE_EFFECT[np.searchsorted(_AGE_BOUNDS, age, side="right")]
    band = np.minimum(num // 300, len(_NUM_BAND_EFFECT) - 1)
    z = (
        _CRYO_EFFECT * cryo
        + _PLANET_EFFECT[planet]
        + _DESTINATION_EFFECT[destination]
        + _DECK_EFFECT[deck]
        + _SIDE_S_EFFECT * side
        + _NUM_BAND_EFFECT[band]
        + age_effect
        + np.log1p(spend) @ _SPEND_EFFECT
    )
    group_effect = rng.normal(0.0, _GROUP_EFFECT_SD, size=group.max() + 1)[group]
    z = _SIGNAL_SCALE * z + group_effect
    lo, hi = -20.0, 20.0
    for _ in range(60):  # bisection on the intercept
        mid = (lo + hi) / 2
        if _sigmoid(z + mid).mean() < TRANSPORTED_RATE:
            lo = mid
        else:
            hi = mid
    return rng.random(len(z)) < _sigmoid(z + (lo + hi) / 2)


def _bool_column(values: np.ndarray) -> pd.Series:
    """Booleans as an object column, so missing entries can be None (written empty)."""
    return pd.Series([bool(v) for v in values], dtype=object)


def _replica_table(seed: int) -> pd.DataFrame:
    """The full labelled replica (``N_ROWS`` rows, Kaggle's train.csv columns)."""
    rng = np.random.default_rng(seed)
    sizes = _group_sizes(rng, N_ROWS)
    n_groups = len(sizes)
    numbers = _group_numbers(rng, n_groups)
    group = np.repeat(np.arange(n_groups), sizes)
    position = np.arange(N_ROWS) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    first = position == 0

    group_planet = rng.choice(3, size=n_groups, p=_PLANET_P)
    planet = group_planet[group]

    # Destination: a group usually travels together.
    group_dest = _pick_row(rng, _DESTINATION_P, group_planet)[group]
    own_dest = _pick_row(rng, _DESTINATION_P, planet)
    destination = np.where(rng.random(N_ROWS) < 0.75, group_dest, own_dest)

    age = _ages(rng, planet)
    # Cryosleep: planet base rate, a shared group inclination, fewer teens and VIPs.
    group_cryo = rng.normal(0.0, 0.9, size=n_groups)[group]
    base = np.log(_CRYO_P / (1 - _CRYO_P))[planet]
    vip = (rng.random(N_ROWS) < _VIP_P[planet]) & (age >= 18)
    cryo_logit = base + group_cryo - 0.4 * ((age >= 13) & (age < 18)) - 1.2 * vip
    cryo = rng.random(N_ROWS) < _sigmoid(cryo_logit)

    deck, num, side = _cabins(rng, planet, group, first)
    spend = _spending(rng, planet, cryo, age, vip)
    names = _names(rng, planet, group, first)
    label = _transported(rng, planet, cryo, destination, deck, num, side, age, spend, group)

    table = pd.DataFrame(
        {
            ID: [f"{g:04d}_{p + 1:02d}" for g, p in zip(numbers[group], position, strict=True)],
            "HomePlanet": pd.Series(np.array(PLANETS, dtype=object)[planet], dtype=object),
            "CryoSleep": _bool_column(cryo),
            "Cabin": pd.Series(
                [f"{DECKS[d]}/{k}/{'PS'[s]}" for d, k, s in zip(deck, num, side, strict=True)],
                dtype=object,
            ),
            "Destination": pd.Series(
                np.array(DESTINATIONS, dtype=object)[destination], dtype=object
            ),
            "Age": age,
            "VIP": _bool_column(vip),
            **{col: spend[:, j] for j, col in enumerate(AMENITIES)},
            "Name": pd.Series(names, dtype=object),
            TARGET: label.astype(bool),
        }
    )
    for col in FEATURES:
        missing = rng.random(N_ROWS) < MISSING_RATE
        if table[col].dtype == object:
            table[col] = table[col].astype(object).where(~missing, None)
        else:
            table.loc[missing, col] = np.nan
    return table[COLUMNS]


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate a synthetic Spaceship Titanic and write it like :func:`prepare` does.

    The labelled table has exactly 8,693 rows with Kaggle's ``train.csv``
    columns and value conventions (bools ``True``/``False``, amounts and ages as
    floats, missing values as empty fields, about 2% per feature column), rows
    sorted by ``PassengerId``. It then goes through :func:`split_and_write`, so
    the files and their sizes match MLE-bench's preparation. Deterministic:
    the same ``seed`` yields byte-identical files, a different seed other data.
    """
    split_and_write(_replica_table(seed), public_dir, private_dir)
