"""MLE-bench "dev" split tasks: Kaggle-layout preparation, grading, and the offline replicas.

For each competition a tiny zip is built in Kaggle's layout (same file names,
nested archives, folders and columns; photos are a few random bytes since
nothing decodes them), prepared through ``sources.prepare_kaggle`` into a
temporary ``$MLE_GYM_HOME``, and compared with MLE-bench's preparation logic
recomputed here with pandas and scikit-learn. The prepared sample submission
must validate against the answers' ids and grade to the expected score; a
submission copied from the answers must get the best score.

The replica tests cover movie-review-sentiment-analysis-kernels-only and
playground-series-s3e18: byte-for-byte determinism per seed, Kaggle's schema
and MLE-bench's split sizes, and (slow) a real episode of the scripted agent
beating the sample submission.
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path

import gymnasium as gym
import numpy as np
import pandas as pd
import py7zr
import pytest
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score
from sklearn.model_selection import train_test_split

from mle_gym.agents import make_agent
from mle_gym.data.csvio import read_csv_exact
from mle_gym.data.store import PreparedData
from mle_gym.episode_runner import run_episode
from mle_gym.families.mlebench import prepare as sources
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.grading import read_submission, validate_submission_frame
from mle_gym.tasks import TaskSpec, get_task

BIG = 1 << 30


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def zip_bytes(members: dict[str, bytes | str]) -> bytes:
    """A zip archive (deflated) holding ``members`` (name -> content)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in members.items():
            zf.writestr(name, content)
    return buffer.getvalue()


def write_zip(path: Path, members: dict[str, bytes | str]) -> Path:
    path.write_bytes(zip_bytes(members))
    return path


def csv(frame: pd.DataFrame, **kwargs: object) -> str:
    return frame.to_csv(index=False, **kwargs)


def npy_bytes(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def files_below(root: Path) -> list[str]:
    """Every regular file below ``root``, as sorted relative POSIX paths."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def prepare_from(
    task_id: str, zip_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> PreparedData:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    return sources.prepare_kaggle(get_task(task_id), zip_path)


def check_grading(task: TaskSpec, data: PreparedData, sample_score: float, tmp_path: Path) -> None:
    """The sample submission validates and scores ``sample_score``; the answers score best."""
    spec = task.submission
    answers_path = data.private / task.answers_file
    sample_path = data.public / task.sample_submission_file
    answers = read_submission(answers_path, spec, max_bytes=BIG)
    ids = answers[spec.id_column].tolist()
    validate_submission_frame(read_submission(sample_path, spec, max_bytes=BIG), ids, spec)

    report = grade_submission(
        task, sample_path, answers=answers_path, expected_ids_from=sample_path, data_source="kaggle"
    )
    assert report.valid, report.message
    assert report.score == pytest.approx(sample_score, abs=1e-5)

    perfect = tmp_path / "perfect.csv"
    answers[[spec.id_column, *spec.target_columns]].to_csv(perfect, index=False)
    report = grade_submission(task, perfect, answers=answers_path, data_source="kaggle")
    assert report.valid, report.message
    assert report.score == 1.0


def write_7z(path: Path, entries: list[tuple[str, bytes | None]]) -> None:
    """A 7z archive written by py7zr; ``None`` content is a directory, ``b""`` an empty file."""
    with tempfile.TemporaryDirectory() as staging, py7zr.SevenZipFile(path, "w") as archive:
        for name, data in entries:
            source = Path(staging) / name
            if data is None:
                source.mkdir(parents=True)
            else:
                source.parent.mkdir(parents=True, exist_ok=True)
                source.write_bytes(data)
            archive.write(source, arcname=name)


# ---------------------------------------------------------------------------
# invasive-species-monitoring
# ---------------------------------------------------------------------------


def test_invasive_species_monitoring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(1)
    names = np.arange(1, 61)
    labels = pd.DataFrame({"name": names, "invasive": rng.integers(0, 2, size=len(names))})
    photos = {int(n): rng.bytes(int(rng.integers(20, 900))) for n in names}
    train_7z, test_7z = tmp_path / "train.7z", tmp_path / "test.7z"
    entries = [("train", None)] + [(f"train/{n}.jpg", photos[n]) for n in photos]
    write_7z(train_7z, entries)
    write_7z(test_7z, [("test", None), ("test/1.jpg", b"\xff\xd8x")])
    kaggle_zip = write_zip(
        tmp_path / "invasive-species-monitoring.zip",
        {
            "train.7z": train_7z.read_bytes(),
            "test.7z": test_7z.read_bytes(),
            "train_labels.csv.zip": zip_bytes({"train_labels.csv": csv(labels)}),
            "sample_submission.csv.zip": zip_bytes(
                {"sample_submission.csv": "name,invasive\n1,0.5\n"}
            ),
        },
    )

    data = prepare_from("invasive-species-monitoring", kaggle_zip, tmp_path, monkeypatch)

    raw = pd.read_csv(io.StringIO(csv(labels)))
    new_train, answers = train_test_split(raw, test_size=0.2, random_state=0)
    sample = answers.copy()
    sample["invasive"] = 0.5
    assert len(answers) == 12 and answers["invasive"].nunique() == 2
    assert (data.private / "answers.csv").read_text() == csv(answers)
    assert (data.private / "sample_submission.csv").read_text() == csv(sample)
    assert (data.public / "sample_submission.csv").read_text() == csv(sample)
    assert (data.public / "train_labels.csv").read_text() == csv(new_train)
    expected = [f"train/{n}.jpg" for n in new_train["name"]] + [
        f"test/{n}.jpg" for n in answers["name"]
    ]
    assert files_below(data.public) == sorted(
        [*expected, "sample_submission.csv", "train_labels.csv"]
    )
    assert files_below(data.private) == ["answers.csv", "sample_submission.csv"]
    for rel in expected:
        assert (data.public / rel).read_bytes() == photos[int(Path(rel).stem)]

    task = get_task("invasive-species-monitoring")
    check_grading(task, data, roc_auc_score(answers["invasive"], sample["invasive"]), tmp_path)


# ---------------------------------------------------------------------------
# ml2021spring-hw2
# ---------------------------------------------------------------------------


def test_ml2021spring_hw2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(2)
    n_train, n_test = 200, 73
    features = rng.normal(size=(n_train, 429)).astype(np.float32)
    labels = rng.integers(0, 39, size=n_train).astype(str).astype("<U2")
    unlabelled = rng.normal(size=(n_test, 429)).astype(np.float32)
    folder = "timit_11/timit_11/"
    kaggle_zip = write_zip(
        tmp_path / "ml2021spring-hw2.zip",
        {
            "sampleSubmission.csv": csv(pd.DataFrame({"Id": range(n_test), "Class": 0})),
            folder + "train_11.npy": npy_bytes(features),
            folder + "train_label_11.npy": npy_bytes(labels),
            folder + "test_11.npy": npy_bytes(unlabelled),
        },
    )
    prepare_module = get_task("ml2021spring-hw2").module("prepare")
    monkeypatch.setattr(prepare_module, "ROWS_PER_BLOCK", 16)  # exercise block-wise copying

    data = prepare_from("ml2021spring-hw2", kaggle_zip, tmp_path, monkeypatch)

    keep, held = train_test_split(
        range(n_train), test_size=n_test / (n_train + n_test), random_state=0
    )
    public = data.public / folder
    assert (public / "train_11.npy").read_bytes() == npy_bytes(features[keep])
    assert (public / "train_label_11.npy").read_bytes() == npy_bytes(labels[keep])
    assert (public / "test_11.npy").read_bytes() == npy_bytes(features[held])
    answers = pd.DataFrame({"Id": range(len(held)), "ClassId": labels[held]})
    sample = answers.copy()
    sample["ClassId"] = 0
    assert (data.private / "answers.csv").read_text() == csv(answers)
    assert (data.public / "sampleSubmission.csv").read_text() == csv(sample)
    assert files_below(data.public) == [
        "sampleSubmission.csv",
        folder + "test_11.npy",
        folder + "train_11.npy",
        folder + "train_label_11.npy",
    ]
    assert files_below(data.private) == ["answers.csv"]

    task = get_task("ml2021spring-hw2")
    expected = accuracy_score(answers["ClassId"].astype(int), sample["ClassId"])
    check_grading(task, data, expected, tmp_path)


# ---------------------------------------------------------------------------
# movie-review-sentiment-analysis-kernels-only
# ---------------------------------------------------------------------------


def read_zip_member(path: Path) -> tuple[list[str], str]:
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        return names, zf.read(names[0]).decode("utf-8")


def test_movie_review_sentiment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(4)
    words = ["a", "quiet", "film", ",", "n't", "'s", "dull", "-LRB-", 'so-called "epic"']
    phrases = [" ".join(rng.choice(words, size=int(rng.integers(1, 6)))) for _ in range(90)]
    phrases[10] = "NA"  # pandas reads this cell as missing, as MLE-bench's preparation does
    train = pd.DataFrame(
        {
            "PhraseId": range(1, 91),
            "SentenceId": np.repeat(np.arange(1, 10), 10),
            "Phrase": phrases,
            "Sentiment": rng.integers(0, 5, size=90),
        }
    )
    test = train.drop(columns=["Sentiment"]).head(5).assign(PhraseId=range(200, 205))
    tsv = csv(train, sep="\t")
    kaggle_zip = write_zip(
        tmp_path / "movie-review-sentiment-analysis-kernels-only.zip",
        {
            "train.tsv.zip": zip_bytes({"train.tsv": tsv}),
            "test.tsv.zip": zip_bytes({"test.tsv": csv(test, sep="\t")}),
            "sampleSubmission.csv": csv(test[["PhraseId"]].assign(Sentiment=2)),
        },
    )

    data = prepare_from(
        "movie-review-sentiment-analysis-kernels-only", kaggle_zip, tmp_path, monkeypatch
    )

    raw = pd.read_csv(io.StringIO(tsv), sep="\t")
    assert raw["Phrase"].isna().sum() == 1
    new_train, answers = train_test_split(raw, test_size=0.3, random_state=0)
    sample = answers[["PhraseId", "Sentiment"]].copy()
    sample["Sentiment"] = 2
    assert (data.private / "answers.csv").read_text() == csv(answers)
    assert (data.public / "sampleSubmission.csv").read_text() == csv(sample)
    assert read_zip_member(data.public / "train.tsv.zip") == (
        ["train.tsv"],
        csv(new_train, sep="\t"),
    )
    assert read_zip_member(data.public / "test.tsv.zip") == (
        ["test.tsv"],
        csv(answers.drop(columns=["Sentiment"]), sep="\t"),
    )
    assert files_below(data.public) == ["sampleSubmission.csv", "test.tsv.zip", "train.tsv.zip"]
    assert files_below(data.private) == ["answers.csv"]

    task = get_task("movie-review-sentiment-analysis-kernels-only")
    check_grading(task, data, accuracy_score(answers["Sentiment"], sample["Sentiment"]), tmp_path)


# ---------------------------------------------------------------------------
# paddy-disease-classification
# ---------------------------------------------------------------------------

PADDY_CLASSES = [
    "bacterial_leaf_blight",
    "bacterial_leaf_streak",
    "bacterial_panicle_blight",
    "blast",
    "brown_spot",
    "dead_heart",
    "downy_mildew",
    "hispa",
    "normal",
    "tungro",
]


def test_paddy_disease_classification(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(5)
    n = 41
    train = pd.DataFrame(
        {
            "image_id": [f"{100000 + 37 * i}.jpg" for i in range(n)],
            "label": rng.choice(PADDY_CLASSES, size=n),
            "variety": rng.choice(["ADT45", "IR20", "KarnatakaPonni", "Ponni"], size=n),
            "age": rng.integers(45, 83, size=n),
        }
    )
    photos = {image: rng.bytes(int(rng.integers(20, 300))) for image in train["image_id"]}
    members: dict[str, bytes | str] = {
        "train.csv": csv(train),
        "sample_submission.csv": "image_id,label\n200001.jpg,\n200002.jpg,\n",
        "test_images/200001.jpg": b"\xff\xd8a",
        "test_images/200002.jpg": b"\xff\xd8b",
    }
    for image, label in zip(train["image_id"], train["label"], strict=True):
        members[f"train_images/{label}/{image}"] = photos[image]
    kaggle_zip = write_zip(tmp_path / "paddy-disease-classification.zip", members)

    data = prepare_from("paddy-disease-classification", kaggle_zip, tmp_path, monkeypatch)

    raw = pd.read_csv(io.StringIO(csv(train)))
    new_train, new_test = train_test_split(raw, train_size=0.75, random_state=0)
    sample = new_test[["image_id", "label"]].copy()
    sample["label"] = ""
    assert (len(new_train), len(new_test)) == (30, 11)
    assert (data.public / "train.csv").read_text() == csv(new_train)
    assert (data.public / "sample_submission.csv").read_text() == csv(sample)
    assert (data.private / "test.csv").read_text() == csv(new_test)
    expected = {
        f"train_images/{label}/{image}": photos[image]
        for image, label in zip(new_train["image_id"], new_train["label"], strict=True)
    }
    expected.update({f"test_images/{image}": photos[image] for image in new_test["image_id"]})
    assert files_below(data.public) == sorted([*expected, "sample_submission.csv", "train.csv"])
    for rel, content in expected.items():
        assert (data.public / rel).read_bytes() == content
    assert files_below(data.private) == ["test.csv"]

    task = get_task("paddy-disease-classification")
    assert task.submission.allow_empty  # the sample submission leaves every label blank
    check_grading(task, data, 0.0, tmp_path)


# ---------------------------------------------------------------------------
# plant-seedlings-classification
# ---------------------------------------------------------------------------

SPECIES = [
    "Black-grass",
    "Charlock",
    "Cleavers",
    "Common Chickweed",
    "Common wheat",
    "Fat Hen",
    "Loose Silky-bent",
    "Maize",
    "Scentless Mayweed",
    "Shepherds Purse",
    "Small-flowered Cranesbill",
    "Sugar beet",
]


def test_plant_seedlings_classification(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(6)
    photos: dict[str, bytes] = {}
    members: dict[str, bytes | str] = {
        "sample_submission.csv": "file,species\n0c3f9a1b2.png,Sugar beet\n",
        "test/0c3f9a1b2.png": b"\x89PNGt",
        "train/Charlock/notes.txt": "not a photo",  # MLE-bench lists .png files only
    }
    for species in reversed(SPECIES):  # archive order must not matter
        for _ in range(int(rng.integers(3, 7))):
            name = f"{rng.integers(16**8, 16**9):09x}.png"
            photos[f"{species}/{name}"] = rng.bytes(int(rng.integers(20, 200)))
            members[f"train/{species}/{name}"] = photos[f"{species}/{name}"]
    kaggle_zip = write_zip(tmp_path / "plant-seedlings-classification.zip", members)

    data = prepare_from("plant-seedlings-classification", kaggle_zip, tmp_path, monkeypatch)

    rows = sorted(key.split("/")[::-1] for key in photos)  # (file, species)
    rows.sort(key=lambda r: (r[1], r[0]))  # species folders sorted, files sorted within
    listed = pd.DataFrame(rows, columns=["file", "species"])
    new_train, answers = train_test_split(listed, test_size=0.14, random_state=0)
    sample = answers.copy()
    sample["species"] = "Sugar beet"
    assert (data.private / "answers.csv").read_text() == csv(answers)
    assert (data.public / "sample_submission.csv").read_text() == csv(sample)
    expected = {
        f"train/{species}/{name}": photos[f"{species}/{name}"]
        for name, species in zip(new_train["file"], new_train["species"], strict=True)
    }
    expected.update(
        {
            f"test/{name}": photos[f"{species}/{name}"]
            for name, species in zip(answers["file"], answers["species"], strict=True)
        }
    )
    assert files_below(data.public) == sorted([*expected, "sample_submission.csv"])
    for rel, content in expected.items():
        assert (data.public / rel).read_bytes() == content
    assert files_below(data.private) == ["answers.csv"]

    task = get_task("plant-seedlings-classification")
    expected_score = f1_score(answers["species"], sample["species"], average="micro")
    check_grading(task, data, expected_score, tmp_path)


# ---------------------------------------------------------------------------
# playground-series-s3e18
# ---------------------------------------------------------------------------

S3E18_FEATURES = [
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
S3E18_LABELS = ["EC1", "EC2", "EC3", "EC4", "EC5", "EC6"]
S3E18_COLUMNS = ["id", *S3E18_FEATURES, *S3E18_LABELS]


def s3e18_table(rng: np.random.Generator, n: int) -> pd.DataFrame:
    """A small table in Kaggle's train.csv layout, floats at full precision."""
    table = pd.DataFrame({"id": np.arange(n)})
    for column in S3E18_FEATURES:
        if column in ("NumHeteroatoms", "fr_COO", "fr_COO2"):
            table[column] = rng.integers(0, 9, size=n)
        else:
            table[column] = rng.lognormal(1.0, 1.2, size=n) * rng.choice([1, -1], p=[0.9, 0.1])
    for column in S3E18_LABELS:
        table[column] = rng.integers(0, 2, size=n)
    return table


def test_playground_series_s3e18(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    train = s3e18_table(rng, 230)
    test = s3e18_table(rng, 20)[["id", *S3E18_FEATURES]].assign(id=range(230, 250))
    kaggle_zip = write_zip(
        tmp_path / "playground-series-s3e18.zip",
        {
            "train.csv": csv(train),
            "test.csv": csv(test),
            "sample_submission.csv": csv(test[["id"]].assign(EC1=0.5, EC2=0.5)),
        },
    )

    data = prepare_from("playground-series-s3e18", kaggle_zip, tmp_path, monkeypatch)

    raw = read_csv_exact(io.StringIO(csv(train)))
    new_train, new_test = train_test_split(raw, test_size=0.1, random_state=0)
    sample = new_test[["id"]].assign(EC1=0.5, EC2=0.5)
    assert (data.public / "train.csv").read_text() == csv(new_train)
    assert (data.public / "test.csv").read_text() == csv(new_test.drop(columns=S3E18_LABELS))
    assert (data.public / "sample_submission.csv").read_text() == csv(sample)
    assert (data.private / "test.csv").read_text() == csv(new_test)
    assert (data.public / "train.csv").read_text().splitlines()[0] == ",".join(S3E18_COLUMNS)
    assert files_below(data.public) == ["sample_submission.csv", "test.csv", "train.csv"]
    assert files_below(data.private) == ["test.csv"]

    task = get_task("playground-series-s3e18")
    truth = new_test[["EC1", "EC2"]].to_numpy()
    expected = roc_auc_score(truth, sample[["EC1", "EC2"]].to_numpy(), average="macro")
    check_grading(task, data, expected, tmp_path)

    # MLE-bench averages the two per-column AUCs (macro); scores need not be probabilities.
    scores = tmp_path / "scores.csv"
    guess = new_test[["id"]].assign(EC1=rng.normal(size=len(new_test)) * 3, EC2=new_test["EC3"])
    guess.to_csv(scores, index=False)
    report = grade_submission(task, scores, answers=data.private / "test.csv", data_source="kaggle")
    want = roc_auc_score(truth, guess[["EC1", "EC2"]].to_numpy(), average="macro")
    assert report.valid and report.score == pytest.approx(want, abs=1e-5)


# ---------------------------------------------------------------------------
# Offline replicas
# ---------------------------------------------------------------------------

MOVIE = "movie-review-sentiment-analysis-kernels-only"
S3E18 = "playground-series-s3e18"
REPLICAS = [MOVIE, S3E18]


def generate(task_id: str, root: Path, seed: int) -> Path:
    (root / "public").mkdir(parents=True)
    (root / "private").mkdir()
    get_task(task_id).module("prepare").replica(root / "public", root / "private", seed)
    return root


@pytest.mark.parametrize("task_id", REPLICAS)
def test_replica_is_deterministic_per_seed(task_id: str, tmp_path: Path) -> None:
    a = generate(task_id, tmp_path / "a", 7)
    b = generate(task_id, tmp_path / "b", 7)
    c = generate(task_id, tmp_path / "c", 8)
    listing = files_below(a)
    assert listing == files_below(b) == files_below(c)
    for rel in listing:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
        if "ample" not in rel:  # sample submissions list the same split ids for every seed
            assert (a / rel).read_bytes() != (c / rel).read_bytes(), rel


def test_movie_review_replica_schema(tmp_path: Path) -> None:
    root = generate(MOVIE, tmp_path / "r", 0)
    assert files_below(root) == [
        "private/answers.csv",
        "public/sampleSubmission.csv",
        "public/test.tsv.zip",
        "public/train.tsv.zip",
    ]
    for name, header in (
        ("train", "PhraseId\tSentenceId\tPhrase\tSentiment"),
        ("test", "PhraseId\tSentenceId\tPhrase"),
    ):
        members, text = read_zip_member(root / "public" / f"{name}.tsv.zip")
        assert members == [f"{name}.tsv"] and text.splitlines()[0] == header
    train = pd.read_csv(root / "public/train.tsv.zip", sep="\t")
    test = pd.read_csv(root / "public/test.tsv.zip", sep="\t")
    answers = pd.read_csv(root / "private/answers.csv")
    sample = pd.read_csv(root / "public/sampleSubmission.csv")
    assert (len(train), len(test), len(answers), len(sample)) == (109242, 46818, 46818, 46818)
    assert list(answers.columns) == ["PhraseId", "SentenceId", "Phrase", "Sentiment"]
    assert list(sample.columns) == ["PhraseId", "Sentiment"] and set(sample["Sentiment"]) == {2}
    assert test["PhraseId"].tolist() == answers["PhraseId"].tolist() == sample["PhraseId"].tolist()
    both = pd.concat([train, answers]).sort_values("PhraseId", ignore_index=True)
    assert both["PhraseId"].tolist() == list(range(1, 156061))
    assert both["SentenceId"].is_monotonic_increasing and both["SentenceId"].min() == 1
    assert both["Phrase"].notna().all() and both["Phrase"].is_unique
    assert set(both["Sentiment"]) == {0, 1, 2, 3, 4}
    shares = both["Sentiment"].value_counts(normalize=True)
    assert 0.45 <= shares[2] <= 0.56 and shares[0] < 0.12 and shares[4] < 0.12
    # A sentence's phrases are spans of it, listed from the whole sentence down (a phrase
    # already seen in an earlier sentence, even a whole sentence, is not repeated).
    groups = both[both["SentenceId"] <= 400].groupby("SentenceId")["Phrase"]
    first_is_sentence = [phrases.iloc[0].endswith(" .") for _, phrases in groups]
    assert np.mean(first_is_sentence) > 0.95
    for _, phrases in groups:
        longest = max(phrases, key=len)
        assert all(part in longest for part in phrases)


def test_s3e18_replica_schema(tmp_path: Path) -> None:
    root = generate(S3E18, tmp_path / "r", 0)
    assert files_below(root) == [
        "private/test.csv",
        "public/sample_submission.csv",
        "public/test.csv",
        "public/train.csv",
    ]
    train = pd.read_csv(root / "public/train.csv")
    test = pd.read_csv(root / "public/test.csv")
    answers = pd.read_csv(root / "private/test.csv")
    sample = pd.read_csv(root / "public/sample_submission.csv")
    assert list(train.columns) == list(answers.columns) == S3E18_COLUMNS
    assert list(test.columns) == ["id", *S3E18_FEATURES]
    assert list(sample.columns) == ["id", "EC1", "EC2"]
    assert (len(train), len(test), len(answers), len(sample)) == (13354, 1484, 1484, 1484)
    assert sorted(pd.concat([train["id"], answers["id"]])) == list(range(14838))
    both = pd.concat([train, answers])
    for column in ("NumHeteroatoms", "fr_COO", "fr_COO2", *S3E18_LABELS):
        assert both[column].dtype == np.int64, column
    assert set(np.unique(both[S3E18_LABELS])) == {0, 1}
    rates = both[S3E18_LABELS].mean()
    assert 0.6 < rates["EC1"] < 0.73 and 0.74 < rates["EC2"] < 0.86
    assert both[S3E18_FEATURES].notna().all().all()
    assert (both["ExactMolWt"] > both["HeavyAtomMolWt"]).mean() > 0.95
    assert (both["FpDensityMorgan3"] > both["FpDensityMorgan2"]).all()
    assert (sample[["EC1", "EC2"]] == 0.5).all().all()


@pytest.mark.slow
@pytest.mark.parametrize("task_id", REPLICAS)
def test_scripted_agent_beats_the_sample_submission(task_id: str) -> None:
    task = get_task(task_id)
    data = sources.prepare_replica(task, 0)
    sample = grade_submission(
        task,
        data.public / task.sample_submission_file,
        answers=data.private / task.answers_file,
        data_source="replica",
    )
    env = gym.make(task.env_id, data="replica", replica_seed=0, reward_mode="raw", sandbox="local")
    try:
        result = run_episode(env, make_agent("scripted"), seed=0)
    finally:
        env.close()
    grade = result.grade or {}
    assert grade.get("valid"), grade
    assert sample.valid and sample.score is not None
    assert grade["score"] > sample.score + 0.1
    assert grade["score"] < 0.9  # calibrated: clearly better than the sample, far from perfect
