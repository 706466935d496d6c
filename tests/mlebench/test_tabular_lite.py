"""MLE-bench lite tabular tasks: Kaggle-zip preparation, grading, offline replicas.

Covers tabular-playground-series-dec-2021, tabular-playground-series-may-2022,
new-york-city-taxi-fare-prediction and nomad2018-predict-transparent-conductors.

* Preparation: a small zip in each competition's Kaggle layout goes through
  ``prepare_kaggle``; the prepared files must equal what MLE-bench's preparer
  produces, recomputed here independently with scikit-learn's
  ``train_test_split``. The sample submission must validate and grade, and a
  submission copied from the answers must get the best possible score.
* Replicas: MLE-bench's file layout and Kaggle's columns and text formats,
  byte-for-byte determinism per seed, and (slow) a scripted-agent episode whose
  reference solution beats the sample submission.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import gymnasium as gym
import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import train_test_split

import mle_gym  # noqa: F401 - registers the environments
from mle_gym.agents import make_agent
from mle_gym.data import replica_key
from mle_gym.data.store import PreparedData
from mle_gym.episode_runner import run_episode
from mle_gym.families.mlebench import prepare as sources
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.grading import read_submission, validate_submission_frame
from mle_gym.tasks import TaskSpec, get_task

DEC = "tabular-playground-series-dec-2021"
MAY = "tabular-playground-series-may-2022"
TAXI = "new-york-city-taxi-fare-prediction"
NOMAD = "nomad2018-predict-transparent-conductors"
TASK_IDS = [DEC, MAY, TAXI, NOMAD]

# Kaggle's column layouts (facts of the competitions' data files).
DEC_COLUMNS = [
    "Id",
    "Elevation",
    "Aspect",
    "Slope",
    "Horizontal_Distance_To_Hydrology",
    "Vertical_Distance_To_Hydrology",
    "Horizontal_Distance_To_Roadways",
    "Hillshade_9am",
    "Hillshade_Noon",
    "Hillshade_3pm",
    "Horizontal_Distance_To_Fire_Points",
    *[f"Wilderness_Area{i}" for i in range(1, 5)],
    *[f"Soil_Type{i}" for i in range(1, 41)],
    "Cover_Type",
]
MAY_COLUMNS = ["id", *[f"f_{i:02d}" for i in range(31)], "target"]
TAXI_COLUMNS = [
    "key",
    "fare_amount",
    "pickup_datetime",
    "pickup_longitude",
    "pickup_latitude",
    "dropoff_longitude",
    "dropoff_latitude",
    "passenger_count",
]
NOMAD_TARGETS = ["formation_energy_ev_natom", "bandgap_energy_ev"]
NOMAD_COLUMNS = [
    "id",
    "spacegroup",
    "number_of_total_atoms",
    "percent_atom_al",
    "percent_atom_ga",
    "percent_atom_in",
    "lattice_vector_1_ang",
    "lattice_vector_2_ang",
    "lattice_vector_3_ang",
    "lattice_angle_alpha_degree",
    "lattice_angle_beta_degree",
    "lattice_angle_gamma_degree",
    *NOMAD_TARGETS,
]
COUPONS = "GCP-Coupons-Instructions.rtf"


def task(task_id: str) -> TaskSpec:
    return get_task(task_id)


def generator(task_id: str):
    """The task's prepare.py module (prepare, replica and its private helpers)."""
    return task(task_id).module("prepare")


def write_zip(path: Path, members: dict[str, bytes | str]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def zipped(members: dict[str, bytes | str]) -> bytes:
    """A zip archive (as bytes) holding ``members``: Kaggle nests some files this way."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def prepare_from_zip(
    task_id: str, zip_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> PreparedData:
    monkeypatch.setenv("MLE_GYM_HOME", str(home))
    data = sources.prepare_kaggle(task(task_id), zip_path)
    assert data.manifest()["mlebench_checksums"] == "mismatch"  # synthetic zip, real checksums
    return data


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def csv_text(frame: pd.DataFrame) -> str:
    return frame.to_csv(index=False)


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def grade(task_id: str, data: PreparedData, submission: Path, source: str) -> float:
    spec = task(task_id)
    report = grade_submission(
        spec,
        submission,
        answers=data.private / spec.answers_file,
        expected_ids_from=data.public / spec.sample_submission_file,
        data_source=source,
    )
    assert report.valid, report.message
    assert report.score is not None
    return report.score


def check_sample_and_perfect(
    task_id: str, data: PreparedData, tmp_path: Path, source: str = "kaggle"
) -> tuple[float, float]:
    """The sample submission validates and grades; the answers themselves grade best."""
    spec = task(task_id)
    sub = spec.submission
    answers = pd.read_csv(data.private / spec.answers_file, dtype=str, keep_default_na=False)
    sample_path = data.public / spec.sample_submission_file
    frame = read_submission(sample_path, sub, max_bytes=2**30)
    validate_submission_frame(frame, answers[sub.id_column].tolist(), sub)
    sample_score = grade(task_id, data, sample_path, source)

    perfect = tmp_path / "perfect.csv"
    answers[[sub.id_column, *sub.target_columns]].to_csv(perfect, index=False)
    perfect_score = grade(task_id, data, perfect, source)
    return sample_score, perfect_score


def rmsle(truth: np.ndarray, prediction: np.ndarray) -> float:
    return float(np.sqrt(np.mean((np.log1p(prediction) - np.log1p(truth)) ** 2)))


# ---------------------------------------------------------------------------
# Kaggle zips through prepare_kaggle, checked against MLE-bench's split logic
# ---------------------------------------------------------------------------


def test_dec_2021_kaggle_preparation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = generator(DEC)._replica_table(3).head(3000)
    assert list(raw.columns) == DEC_COLUMNS
    unlabeled = raw.drop(columns=["Cover_Type"]).head(40).assign(Id=np.arange(4_000_000, 4_000_040))
    zip_path = write_zip(
        tmp_path / f"{DEC}.zip",
        {
            "train.csv": csv_text(raw),
            "test.csv": csv_text(unlabeled),
            "sample_submission.csv": csv_text(unlabeled[["Id"]].assign(Cover_Type=2)),
        },
    )
    data = prepare_from_zip(DEC, zip_path, tmp_path / "home", monkeypatch)

    table = pd.read_csv(io.StringIO(csv_text(raw)))
    new_train, new_test = train_test_split(table, test_size=0.1, random_state=0)
    assert len(new_train) == 2700 and len(new_test) == 300
    assert listing(data.public) == ["sample_submission.csv", "test.csv", "train.csv"]
    assert listing(data.private) == ["test.csv"]
    assert text(data.public / "train.csv") == csv_text(new_train)
    assert text(data.private / "test.csv") == csv_text(new_test)
    assert text(data.public / "test.csv") == csv_text(new_test.drop(columns=["Cover_Type"]))
    expected_sample = pd.DataFrame({"Id": new_test["Id"].to_numpy(), "Cover_Type": 2})
    assert text(data.public / "sample_submission.csv") == csv_text(expected_sample)

    sample_score, perfect_score = check_sample_and_perfect(DEC, data, tmp_path)
    assert sample_score == round(float((new_test["Cover_Type"] == 2).mean()), 5)
    assert perfect_score == 1.0


def may_kaggle_table(n: int) -> pd.DataFrame:
    """A quick stand-in for Kaggle's May 2022 train.csv (right columns and kinds of values)."""
    rng = np.random.default_rng(8)
    table = pd.DataFrame({"id": np.arange(n)})
    for i in range(31):
        name = f"f_{i:02d}"
        if i <= 6 or 19 <= i <= 26:
            table[name] = rng.normal(0.0, 1.0 if i <= 6 else 2.4, size=n).round(6)
        elif i <= 18:
            table[name] = rng.poisson(2.0, size=n)
        elif i == 27:
            letters = rng.integers(0, 20, size=(n, 10)) + ord("A")
            table[name] = letters.astype(np.uint8).view("S10").ravel().astype(str)
        elif i == 28:
            table[name] = rng.normal(0.0, 238.0, size=n).round(4)
        else:
            table[name] = rng.integers(0, 2 if i == 29 else 3, size=n)
    table["target"] = rng.integers(0, 2, size=n)
    return table


@pytest.mark.slow  # MLE-bench holds out 100,000 rows, so the zip needs more than that
def test_may_2022_kaggle_preparation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = may_kaggle_table(100_150)
    assert list(raw.columns) == MAY_COLUMNS
    unlabeled = raw.drop(columns=["target"]).head(30).assign(id=np.arange(900_000, 900_030))
    zip_path = write_zip(
        tmp_path / f"{MAY}.zip",
        {
            "train.csv": csv_text(raw),
            "test.csv": csv_text(unlabeled),
            "sample_submission.csv": csv_text(unlabeled[["id"]].assign(target=0.5)),
        },
    )
    data = prepare_from_zip(MAY, zip_path, tmp_path / "home", monkeypatch)

    table = pd.read_csv(io.StringIO(csv_text(raw)))
    new_train, new_test = train_test_split(table, test_size=100_000, random_state=0)
    new_train = new_train.assign(id=np.arange(150))
    new_test = new_test.assign(id=np.arange(150, 100_150))
    assert listing(data.public) == ["sample_submission.csv", "test.csv", "train.csv"]
    assert listing(data.private) == ["gold_submission.csv", "test.csv"]
    assert text(data.public / "train.csv") == csv_text(new_train)
    assert text(data.private / "test.csv") == csv_text(new_test)
    assert text(data.public / "test.csv") == csv_text(new_test.drop(columns=["target"]))
    assert text(data.private / "gold_submission.csv") == csv_text(new_test[["id", "target"]])
    expected_sample = new_test[["id"]].assign(target=0.5)
    assert text(data.public / "sample_submission.csv") == csv_text(expected_sample)

    sample_score, perfect_score = check_sample_and_perfect(MAY, data, tmp_path)
    assert sample_score == 0.5
    assert perfect_score == 1.0


def test_taxi_kaggle_preparation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = generator(TAXI)._replica_table(4).head(10_400)  # 9,914 rides are held out
    assert list(raw.columns) == TAXI_COLUMNS
    unlabeled = raw.drop(columns=["fare_amount"]).tail(25)
    coupons = b"{\\rtf1\\ansi coupon instructions stand-in}\n"
    zip_path = write_zip(
        tmp_path / f"{TAXI}.zip",
        {
            "train.csv": csv_text(raw),
            "test.csv": csv_text(unlabeled),
            "sample_submission.csv": csv_text(unlabeled[["key"]].assign(fare_amount=11.35)),
            COUPONS: coupons,
        },
    )
    data = prepare_from_zip(TAXI, zip_path, tmp_path / "home", monkeypatch)

    table = pd.read_csv(io.StringIO(csv_text(raw)))
    new_train, new_test = train_test_split(table, test_size=9914, random_state=0)
    assert listing(data.public) == [COUPONS, "labels.csv", "sample_submission.csv", "test.csv"]
    assert listing(data.private) == ["test.csv"]
    assert text(data.public / "labels.csv") == csv_text(new_train)
    assert text(data.private / "test.csv") == csv_text(new_test)
    assert text(data.public / "test.csv") == csv_text(new_test.drop(columns=["fare_amount"]))
    expected_sample = new_test[["key"]].assign(fare_amount=11.35)
    assert text(data.public / "sample_submission.csv") == csv_text(expected_sample)
    assert (data.public / COUPONS).read_bytes() == coupons

    sample_score, perfect_score = check_sample_and_perfect(TAXI, data, tmp_path)
    fares = new_test["fare_amount"].to_numpy()
    assert sample_score == pytest.approx(np.sqrt(np.mean((fares - 11.35) ** 2)), abs=1e-5)
    assert perfect_score == 0.0


def test_nomad_kaggle_preparation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table, geometry = generator(NOMAD)._replica_data(5)
    raw = table.head(300)  # Kaggle: 2,400 materials, id 1..2400, one geometry file each
    assert list(raw.columns) == NOMAD_COLUMNS
    unlabeled = raw.drop(columns=NOMAD_TARGETS).head(20)
    zip_path = write_zip(
        tmp_path / f"{NOMAD}.zip",
        {
            "train.csv.zip": zipped({"train.csv": csv_text(raw)}),
            "test.csv.zip": zipped({"test.csv": csv_text(unlabeled)}),
            "train.zip": zipped({f"train/{i}/geometry.xyz": geometry[i] for i in raw["id"]}),
            "test.zip": zipped({f"test/{i}/geometry.xyz": geometry[i] for i in unlabeled["id"]}),
            "sample_submission.csv.zip": zipped(
                {"sample_submission.csv": csv_text(unlabeled[["id"]].assign(x=0.1))}
            ),
        },
    )
    data = prepare_from_zip(NOMAD, zip_path, tmp_path / "home", monkeypatch)

    frame = pd.read_csv(io.StringIO(csv_text(raw)))
    new_train, new_test = train_test_split(frame, test_size=0.1, random_state=0)
    old_train_ids = new_train["id"].tolist()
    old_test_ids = new_test["id"].tolist()
    new_train = new_train.assign(id=np.arange(1, len(new_train) + 1))
    new_test = new_test.assign(id=np.arange(1, len(new_test) + 1))
    assert len(new_train) == 270 and len(new_test) == 30
    assert listing(data.public) == [
        "sample_submission.csv",
        "test",
        "test.csv",
        "train",
        "train.csv",
    ]
    assert listing(data.private) == ["test.csv"]
    assert text(data.public / "train.csv") == csv_text(new_train)
    assert text(data.private / "test.csv") == csv_text(new_test)
    assert text(data.public / "test.csv") == csv_text(new_test.drop(columns=NOMAD_TARGETS))
    expected_sample = new_test[["id"]].assign(
        formation_energy_ev_natom=0.1779, bandgap_energy_ev=1.8892
    )
    assert text(data.public / "sample_submission.csv") == csv_text(expected_sample)
    # Every material's geometry follows it to its new id; test geometries come from train.zip.
    for folder, old_ids in (("train", old_train_ids), ("test", old_test_ids)):
        assert len(list((data.public / folder).iterdir())) == len(old_ids)
        for new_id, old_id in enumerate(old_ids, start=1):
            copied = data.public / folder / str(new_id) / "geometry.xyz"
            assert text(copied) == geometry[old_id]

    sample_score, perfect_score = check_sample_and_perfect(NOMAD, data, tmp_path)
    expected = np.mean(
        [
            rmsle(new_test["formation_energy_ev_natom"].to_numpy(), np.full(30, 0.1779)),
            rmsle(new_test["bandgap_energy_ev"].to_numpy(), np.full(30, 1.8892)),
        ]
    )
    assert sample_score == pytest.approx(expected, abs=1e-5)
    assert perfect_score == 0.0


def test_nomad_missing_geometry_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, geometry = generator(NOMAD)._replica_data(6)
    raw = table.head(50)
    zip_path = write_zip(
        tmp_path / f"{NOMAD}.zip",
        {
            "train.csv.zip": zipped({"train.csv": csv_text(raw)}),
            "train.zip": zipped({f"train/{i}/geometry.xyz": geometry[i] for i in range(1, 40)}),
        },
    )
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    with pytest.raises(FileNotFoundError, match="no geometry file"):
        sources.prepare_kaggle(task(NOMAD), zip_path)


# ---------------------------------------------------------------------------
# Offline replicas
# ---------------------------------------------------------------------------

# Per task: files of the prepared folders, headers, rows (public train/answers).
LAYOUTS = {
    DEC: {
        "public": ["sample_submission.csv", "test.csv", "train.csv"],
        "private": ["test.csv"],
        "headers": {
            "public/train.csv": DEC_COLUMNS,
            "public/test.csv": DEC_COLUMNS[:-1],
            "public/sample_submission.csv": ["Id", "Cover_Type"],
            "private/test.csv": DEC_COLUMNS,
        },
        "rows": ("public/train.csv", 54_000, 6_000),
    },
    MAY: {
        "public": ["sample_submission.csv", "test.csv", "train.csv"],
        "private": ["gold_submission.csv", "test.csv"],
        "headers": {
            "public/train.csv": MAY_COLUMNS,
            "public/test.csv": MAY_COLUMNS[:-1],
            "public/sample_submission.csv": ["id", "target"],
            "private/test.csv": MAY_COLUMNS,
            "private/gold_submission.csv": ["id", "target"],
        },
        "rows": ("public/train.csv", 64_000, 8_000),
    },
    TAXI: {
        "public": [COUPONS, "labels.csv", "sample_submission.csv", "test.csv"],
        "private": ["test.csv"],
        "headers": {
            "public/labels.csv": TAXI_COLUMNS,
            "public/test.csv": [c for c in TAXI_COLUMNS if c != "fare_amount"],
            "public/sample_submission.csv": ["key", "fare_amount"],
            "private/test.csv": TAXI_COLUMNS,
        },
        "rows": ("public/labels.csv", 150_000, 9_914),
    },
    NOMAD: {
        "public": ["sample_submission.csv", "test", "test.csv", "train", "train.csv"],
        "private": ["test.csv"],
        "headers": {
            "public/train.csv": NOMAD_COLUMNS,
            "public/test.csv": NOMAD_COLUMNS[:-2],
            "public/sample_submission.csv": ["id", *NOMAD_TARGETS],
            "private/test.csv": NOMAD_COLUMNS,
        },
        "rows": ("public/train.csv", 2_160, 240),
    },
}


def raw_csv(path: Path) -> pd.DataFrame:
    """A CSV as its literal text fields."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def fingerprint(root: Path) -> dict[str, str]:
    """sha256 of every file under ``root`` (public and private), by relative path."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def generate(task_id: str, root: Path, seed: int) -> Path:
    (root / "public").mkdir(parents=True)
    (root / "private").mkdir()
    generator(task_id).replica(root / "public", root / "private", seed)
    return root


@pytest.fixture(scope="module", params=TASK_IDS)
def replica(request: pytest.FixtureRequest) -> tuple[str, PreparedData]:
    """(task id, its seed-0 replica) from the session's cache."""
    return request.param, sources.prepare_replica(task(request.param), 0)


def test_replica_layout_and_headers(replica: tuple[str, PreparedData]) -> None:
    task_id, data = replica
    layout = LAYOUTS[task_id]
    assert listing(data.public) == layout["public"]
    assert listing(data.private) == layout["private"]
    for rel, columns in layout["headers"].items():
        assert text(data.root / rel).splitlines()[0] == ",".join(columns), rel


def test_replica_split_sizes_and_ids(replica: tuple[str, PreparedData]) -> None:
    task_id, data = replica
    spec = task(task_id)
    train_file, n_train, n_test = LAYOUTS[task_id]["rows"]
    idc = spec.submission.id_column
    train = raw_csv(data.root / train_file)
    answers = raw_csv(data.private / spec.answers_file)
    public_test = raw_csv(data.public / "test.csv")
    sample = raw_csv(data.public / spec.sample_submission_file)
    assert (len(train), len(answers)) == (n_train, n_test)
    assert answers[idc].is_unique and train[idc].is_unique
    assert public_test[idc].tolist() == answers[idc].tolist() == sample[idc].tolist()
    if task_id != NOMAD:  # nomad numbers train and test separately, both from 1
        assert set(train[idc]).isdisjoint(answers[idc])
    if task_id == MAY:  # renumbered in split order: train first, then the answers
        assert train[idc].tolist() == [str(i) for i in range(n_train)]
        assert answers[idc].tolist() == [str(i) for i in range(n_train, n_train + n_test)]
        gold = raw_csv(data.private / "gold_submission.csv")
        assert gold.equals(answers[["id", "target"]])
    if task_id == NOMAD:
        assert train[idc].tolist() == [str(i) for i in range(1, n_train + 1)]
        assert answers[idc].tolist() == [str(i) for i in range(1, n_test + 1)]
        for folder, n in (("train", n_train), ("test", n_test)):
            names = sorted(int(p.name) for p in (data.public / folder).iterdir())
            assert names == list(range(1, n + 1))


def test_replica_value_formats(replica: tuple[str, PreparedData]) -> None:
    task_id, data = replica
    spec = task(task_id)
    frame = raw_csv(data.private / spec.answers_file)
    sample = raw_csv(data.public / spec.sample_submission_file)
    integer, number = r"-?\d+", r"-?\d+(\.\d+)?(e-?\d+)?"

    def all_match(column: str, pattern: str) -> bool:
        return bool(frame[column].str.fullmatch(pattern).all())

    if task_id == DEC:
        assert all(all_match(c, integer) for c in DEC_COLUMNS)
        assert set(frame["Cover_Type"]) <= set("1234567")
        assert set(sample["Cover_Type"]) == {"2"}
        flags = frame[DEC_COLUMNS[11:-1]]
        assert set(np.unique(flags.to_numpy())) == {"0", "1"}
        assert set(frame["Soil_Type7"]) == set(frame["Soil_Type15"]) == {"0"}
    elif task_id == MAY:
        for i in range(31):
            column = f"f_{i:02d}"
            if 7 <= i <= 18 or i >= 29:
                assert all_match(column, integer), column
            elif i == 27:
                assert all_match(column, r"[A-T]{10}")
            else:
                assert all_match(column, number), column
                assert frame[column].str.contains(r"\.").all(), column
        assert set(frame["f_29"]) == {"0", "1"} and set(frame["f_30"]) == {"0", "1", "2"}
        assert set(frame["target"]) == {"0", "1"} and set(sample["target"]) == {"0.5"}
    elif task_id == TAXI:
        stamp = r"20(09|1[0-5])-\d\d-\d\d \d\d:\d\d:\d\d"
        assert all_match("key", stamp + r"\.0{6}\d+")
        assert all_match("pickup_datetime", stamp + " UTC")
        assert (frame["key"].str[:19] == frame["pickup_datetime"].str[:19]).all()
        assert all_match("fare_amount", number) and all_match("passenger_count", r"[0-9]")
        for column in TAXI_COLUMNS[3:7]:
            known = frame.loc[frame[column] != "", column]
            assert known.str.fullmatch(r"-?\d+\.\d{1,6}").all(), column
        assert set(sample["fare_amount"]) == {"11.35"}
    else:
        assert set(frame["spacegroup"]) <= {"12", "33", "167", "194", "206", "227"}
        assert all_match("number_of_total_atoms", r"(10|20|30|40|60|80)\.0")
        for column in NOMAD_COLUMNS[3:]:
            assert all_match(column, number), column
        shares = frame[NOMAD_COLUMNS[3:6]].astype(float).sum(axis=1)
        assert np.allclose(shares, 1.0, atol=2e-4)
        assert (frame[NOMAD_TARGETS].astype(float) >= 0).all().all()
        assert set(sample["formation_energy_ev_natom"]) == {"0.1779"}
        assert set(sample["bandgap_energy_ev"]) == {"1.8892"}
        lines = text(data.public / "test" / "1" / "geometry.xyz").splitlines()
        assert [line.split()[0] for line in lines[3:6]] == ["lattice_vector"] * 3
        atoms = [line.split() for line in lines[6:]]
        assert all(a[0] == "atom" and a[4] in {"Al", "Ga", "In", "O"} for a in atoms)
        n_atoms = float(raw_csv(data.public / "test.csv")["number_of_total_atoms"].iloc[0])
        assert len(atoms) == n_atoms


def test_replica_is_deterministic_per_seed(
    replica: tuple[str, PreparedData], tmp_path: Path
) -> None:
    task_id, data = replica
    # The cache's seed 0 is generated from the seed derived with the replica key.
    again = generate(task_id, tmp_path / "again", replica_key.derive_seed(task(task_id).key, 0))
    cached = {k: v for k, v in fingerprint(data.root).items() if k != "MANIFEST.json"}
    assert fingerprint(again) == cached
    other = generate(task_id, tmp_path / "other", 1)
    answers = f"private/{task(task_id).answers_file}"
    assert fingerprint(other)[answers] != cached[answers]


def test_replica_sample_submission_grades_as_recorded(
    replica: tuple[str, PreparedData], tmp_path: Path
) -> None:
    task_id, data = replica
    sample_score, perfect_score = check_sample_and_perfect(task_id, data, tmp_path, "replica")
    figures = task(task_id).data["replica"]
    assert sample_score == figures["sample_submission_score"]
    best = 0.0 if task(task_id).lower_is_better else 1.0
    assert perfect_score == best


@pytest.mark.slow
@pytest.mark.parametrize("task_id", TASK_IDS)
def test_scripted_episode_on_replica_beats_sample(task_id: str) -> None:
    spec = task(task_id)
    sources.prepare_replica(spec, 0)
    env = gym.make(spec.env_id, data="replica", replica_seed=0, reward_mode="raw", sandbox="local")
    try:
        result = run_episode(env, make_agent("scripted"), seed=0)
    finally:
        env.close()
    grade_info = result.grade
    assert grade_info is not None and grade_info["valid"], grade_info
    score = grade_info["score"]
    figures = spec.data["replica"]
    sample = figures["sample_submission_score"]
    if spec.lower_is_better:
        assert score < sample
    else:
        assert score > sample
    assert score == pytest.approx(figures["reference_score"], rel=0.05)
