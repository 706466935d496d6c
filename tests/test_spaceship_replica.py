"""The offline spaceship-titanic replica: schema, split, determinism, realism, calibration.

``prepare.replica(public_dir, private_dir, seed)`` must write MLE-bench's four
files with Kaggle's exact columns and value conventions, be byte-for-byte
deterministic per seed, reproduce the real data's structure (groups, missing
values, cryosleepers spending nothing, ~50% transported), and be calibrated so
that the reference ``solution.py`` scores 0.78-0.82 accuracy.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]
TASK_DIR = REPO / "task_assets" / "mlebench" / "spaceship-titanic"
ID = "PassengerId"
TARGET = "Transported"
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
FILES = ("public/train.csv", "public/test.csv", "public/sample_submission.csv", "private/test.csv")
SEEDS = [0, 1, 2]


def load_prepare() -> ModuleType:
    """Import the task's prepare.py by file path (task folders are not packages)."""
    if str(REPO) not in sys.path:  # prepare.py imports mle_gym
        sys.path.insert(0, str(REPO))
    spec = importlib.util.spec_from_file_location(
        "spaceship_replica_prepare", TASK_DIR / "prepare.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PREPARE = load_prepare()


def generate(root: Path, seed: int) -> Path:
    """Write the replica for ``seed`` under ``root/public`` and ``root/private``."""
    (root / "public").mkdir(parents=True)
    (root / "private").mkdir(parents=True)
    PREPARE.replica(root / "public", root / "private", seed)
    return root


def read_raw(path: Path) -> pd.DataFrame:
    """A CSV as its literal text fields (no type or NA conversion)."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def accuracy(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Share of answer rows whose Transported matches the submission's (merged on id)."""
    merged = answers[[ID, TARGET]].merge(submission, on=ID, how="left", suffixes=("", "_pred"))
    truth = merged[TARGET].astype(str).str.lower()
    pred = merged[f"{TARGET}_pred"].astype(str).str.lower()
    return float((truth == pred).mean())


@pytest.fixture(scope="module", params=SEEDS)
def replica_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp(f"replica{request.param}"), request.param)


@pytest.fixture(scope="module")
def labelled(replica_dir: Path) -> pd.DataFrame:
    """Public train + private test as raw text: all 8,693 generated passengers, by id."""
    both = pd.concat(
        [read_raw(replica_dir / "public/train.csv"), read_raw(replica_dir / "private/test.csv")]
    )
    return both.sort_values(ID, ignore_index=True)


def test_headers_are_kaggles_in_order(replica_dir: Path) -> None:
    def header(rel: str) -> str:
        return (replica_dir / rel).read_text(encoding="utf-8").splitlines()[0]

    assert header("public/train.csv") == ",".join(COLUMNS)
    assert header("private/test.csv") == ",".join(COLUMNS)
    assert header("public/test.csv") == ",".join(COLUMNS[:-1])
    assert header("public/sample_submission.csv") == f"{ID},{TARGET}"


def test_row_counts_follow_mlebench_split(replica_dir: Path) -> None:
    counts = {rel: len(read_raw(replica_dir / rel)) for rel in FILES}
    assert counts == {
        "public/train.csv": 7823,
        "public/test.csv": 870,
        "public/sample_submission.csv": 870,
        "private/test.csv": 870,
    }
    assert TARGET not in read_raw(replica_dir / "public/test.csv").columns


def test_split_partitions_the_generated_ids(
    replica_dir: Path, request: pytest.FixtureRequest
) -> None:
    seed = request.node.callspec.params["replica_dir"]
    train_ids = set(read_raw(replica_dir / "public/train.csv")[ID])
    private = read_raw(replica_dir / "private/test.csv")
    assert train_ids.isdisjoint(private[ID])
    generated = PREPARE._replica_table(seed)[ID]
    assert generated.is_unique and len(generated) == 8693
    assert generated.tolist() == sorted(generated), "rows must be sorted by PassengerId"
    assert train_ids | set(private[ID]) == set(generated)
    # The public test and the sample submission list the private ids in the same order.
    public_test = read_raw(replica_dir / "public/test.csv")
    sample = read_raw(replica_dir / "public/sample_submission.csv")
    assert public_test[ID].tolist() == private[ID].tolist() == sample[ID].tolist()


def test_passenger_ids_and_groups(labelled: pd.DataFrame) -> None:
    ids = labelled[ID]
    assert ids.str.fullmatch(r"\d{4}_\d{2}").all()
    group, member = ids.str[:4], ids.str[5:].astype(int)
    for _, members in member.groupby(group):
        assert members.tolist() == list(range(1, len(members) + 1))
    sizes = group.value_counts()
    assert 5800 <= len(sizes) <= 6600
    assert sizes.max() <= 8 and (sizes == 1).mean() > 0.7
    # Members of a group share their home planet (where it is known).
    planets = labelled.loc[labelled["HomePlanet"] != "", "HomePlanet"].groupby(group)
    assert (planets.nunique() <= 1).all()


def test_missing_values(labelled: pd.DataFrame) -> None:
    rates = (labelled == "").mean()
    for col in FEATURES:
        assert 0.01 <= rates[col] <= 0.035, (col, rates[col])
    assert rates[ID] == 0 and rates[TARGET] == 0


def test_value_sets_and_formats(labelled: pd.DataFrame) -> None:
    def values(col: str) -> set[str]:
        return set(labelled[col]) - {""}

    assert values("HomePlanet") == {"Earth", "Europa", "Mars"}
    assert values("Destination") == {"TRAPPIST-1e", "55 Cancri e", "PSO J318.5-22"}
    assert values("CryoSleep") == values("VIP") == {"True", "False"}
    assert values(TARGET) == {"True", "False"}
    cabin = labelled.loc[labelled["Cabin"] != "", "Cabin"]
    assert cabin.str.fullmatch(r"[A-GT]/\d+/[PS]").all()
    assert set(cabin.str[0]) == set("ABCDEFGT")
    assert set(cabin.str[-1]) == {"P", "S"}
    names = labelled.loc[labelled["Name"] != "", "Name"]
    assert names.str.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+").all()
    for col in ["Age", *AMENITIES]:
        known = labelled.loc[labelled[col] != "", col]
        assert known.str.fullmatch(r"\d+\.0").all(), col
    age = pd.to_numeric(labelled["Age"])
    assert age.min() == 0 and age.max() <= 79 and 26 <= age.mean() <= 32


def test_marginals_look_like_kaggles(labelled: pd.DataFrame) -> None:
    def share(col: str, value: str) -> float:
        known = labelled.loc[labelled[col] != "", col]
        return float((known == value).mean())

    assert 0.50 <= share("HomePlanet", "Earth") <= 0.58
    assert 0.32 <= share("CryoSleep", "True") <= 0.40
    assert 0.65 <= share("Destination", "TRAPPIST-1e") <= 0.73
    assert 0.01 <= share("VIP", "True") <= 0.04
    earth = labelled[labelled["HomePlanet"] == "Earth"]
    assert (earth["VIP"] != "True").all()
    for col in AMENITIES:
        spend = pd.to_numeric(labelled[col])
        assert 0.55 <= (spend.dropna() == 0).mean() <= 0.70, col
        assert spend.max() >= 5000, col


def test_cryosleepers_and_children_spend_nothing(labelled: pd.DataFrame) -> None:
    spend = labelled[AMENITIES].apply(pd.to_numeric)
    cryo = labelled["CryoSleep"] == "True"
    child = pd.to_numeric(labelled["Age"]) < 13
    assert cryo.sum() > 2000 and child.sum() > 400
    assert (spend[cryo].fillna(0) == 0).all().all()
    assert (spend[child].fillna(0) == 0).all().all()


def test_target_rate_and_signal(labelled: pd.DataFrame) -> None:
    transported = labelled[TARGET] == "True"
    assert 0.47 <= transported.mean() <= 0.54
    rate = transported.groupby(labelled["CryoSleep"]).mean()
    assert rate["True"] >= 0.75 and rate["False"] <= 0.40
    side = transported.groupby(labelled["Cabin"].str[-1]).mean()
    assert side["S"] > side["P"]
    planet = transported.groupby(labelled["HomePlanet"]).mean()
    assert planet["Europa"] > planet["Mars"] > planet["Earth"]


def test_sample_submission_scores_about_half(replica_dir: Path) -> None:
    sample = read_raw(replica_dir / "public/sample_submission.csv")
    assert set(sample[TARGET]) == {"False"}
    score = accuracy(sample, read_raw(replica_dir / "private/test.csv"))
    assert 0.45 <= score <= 0.55


def test_same_seed_same_bytes_other_seed_other_data(tmp_path: Path) -> None:
    a = generate(tmp_path / "a", 7)
    b = generate(tmp_path / "b", 7)
    c = generate(tmp_path / "c", 8)
    for rel in FILES:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
        assert (a / rel).read_bytes() != (c / rel).read_bytes(), rel


@pytest.mark.slow
def test_reference_solution_scores_in_calibrated_range(tmp_path: Path) -> None:
    root = generate(tmp_path / "replica", 0)
    workspace = tmp_path / "workspace"
    (workspace / "data").mkdir(parents=True)
    for name in ("train.csv", "test.csv", "sample_submission.csv"):
        shutil.copy(root / "public" / name, workspace / "data" / name)
    shutil.copy(TASK_DIR / "solution.py", workspace / "solution.py")
    run = subprocess.run(
        [sys.executable, "solution.py"],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    submission = read_raw(workspace / "submission.csv")
    answers = read_raw(root / "private/test.csv")
    assert list(submission.columns) == [ID, TARGET]
    assert submission[ID].tolist() == answers[ID].tolist()
    assert set(submission[TARGET]) <= {"True", "False"}
    assert 0.78 <= accuracy(submission, answers) <= 0.82
