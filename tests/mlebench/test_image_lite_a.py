"""Kaggle-zip preparation and grading of seven image competitions of MLE-bench lite.

For each competition a tiny zip is built in Kaggle's real layout (same file
names, inner archives and CSV columns; image bytes are arbitrary unless the
preparation decodes them), prepared through ``sources.prepare_kaggle``, and the
result is compared with MLE-bench's preparation recomputed here independently
with scikit-learn and pandas. The sample submission must validate against the
answers' ids and grade to its expected score; a submission copied from the
answers must grade to the metric's best value.
"""

from __future__ import annotations

import io
import math
import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, log_loss, roc_auc_score
from sklearn.model_selection import train_test_split

from mle_gym.data.csvio import read_csv_exact
from mle_gym.data.store import PreparedData
from mle_gym.families.mlebench import prepare as sources
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.grading import read_submission, validate_submission_frame
from mle_gym.grading.metrics import get_metric
from mle_gym.tasks import TaskSpec, get_task

BIG = 2**30


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def hex_ids(rng: np.random.Generator, n: int, width: int = 32) -> list[str]:
    return [rng.bytes(width // 2).hex() for _ in range(n)]


def fake_image(name: str) -> bytes:
    """A few distinctive bytes standing in for an image file."""
    return b"IMG\x00" + name.encode()


def csv_text(df: pd.DataFrame) -> str:
    return df.to_csv(index=False)


def build_zip(path: Path, members: dict[str, bytes | str]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)


def zip_bytes(members: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def listing(root: Path) -> set[str]:
    """Relative paths below ``root``; directories end with '/'."""
    return {p.relative_to(root).as_posix() + ("/" if p.is_dir() else "") for p in root.rglob("*")}


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def zip_contents(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def prepare(
    task_id: str, zip_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[TaskSpec, PreparedData]:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    task = get_task(task_id)
    assert task.kaggle_supported
    return task, sources.prepare_kaggle(task, zip_path)


def check_grading(
    task: TaskSpec,
    data: PreparedData,
    tmp_path: Path,
    score: Callable[[pd.DataFrame, pd.DataFrame], float],
    best: float,
    spoil: Callable[[pd.DataFrame], None] | None = None,
) -> None:
    """Sample submission: valid and scored as MLE-bench would; answers copied: ``best``.

    ``spoil`` edits a copy of the sample submission (as text cells) into one that
    MLE-bench's grader rejects; it must grade as invalid here too.
    """
    spec = task.submission
    answers = data.private / task.answers_file
    sample = data.public / task.sample_submission_file
    answer_ids = read_submission(answers, spec, max_bytes=BIG)[spec.id_column].tolist()
    checked = validate_submission_frame(
        read_submission(sample, spec, max_bytes=BIG), answer_ids, spec
    )
    assert len(checked) == len(answer_ids)

    get_metric(task.metric)

    def graded(path: Path) -> float:
        report = grade_submission(
            task, path, answers=answers, expected_ids_from=sample, data_source="kaggle"
        )
        assert report.valid, report.message
        assert report.score is not None
        return report.score

    as_text = {spec.id_column: str}
    expected = score(pd.read_csv(sample, dtype=as_text), pd.read_csv(answers, dtype=as_text))
    assert graded(sample) == pytest.approx(round(expected, 5), abs=1e-5)

    perfect = tmp_path / "perfect.csv"
    full = read_submission(answers, spec, max_bytes=BIG)
    full[[spec.id_column, *spec.target_columns]].to_csv(perfect, index=False)
    assert graded(perfect) == pytest.approx(best, abs=1e-5)

    if spoil is not None:
        bad = read_submission(sample, spec, max_bytes=BIG)
        spoil(bad)
        spoiled = tmp_path / "spoiled.csv"
        bad.to_csv(spoiled, index=False)
        report = grade_submission(task, spoiled, answers=answers, data_source="kaggle")
        assert not report.valid and report.score is None


def aligned(sub: pd.DataFrame, ans: pd.DataFrame, key: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    return (
        sub.sort_values(key).reset_index(drop=True),
        ans.sort_values(key).reset_index(drop=True),
    )


def mlebench_one_hot(df: pd.DataFrame, id_col: str, label: str, classes: list[str]) -> pd.DataFrame:
    """MLE-bench's one-hot answers, row by row as its helper builds them."""
    out = pd.DataFrame(0, index=df.index, columns=[id_col, *classes])
    out[id_col] = df[id_col]
    for i, row in df.iterrows():
        out.loc[i, row[label]] = 1
    return out


# ---------------------------------------------------------------------------
# aerial-cactus-identification
# ---------------------------------------------------------------------------


def test_aerial_cactus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(1)
    ids = [f"{h}.jpg" for h in hex_ids(rng, 60)]
    train = pd.DataFrame({"id": ids, "has_cactus": rng.integers(0, 2, len(ids))})
    kaggle_test = [f"{h}.jpg" for h in hex_ids(rng, 5)]
    zip_path = tmp_path / "aerial-cactus-identification.zip"
    build_zip(
        zip_path,
        {
            "train.csv": csv_text(train),
            "sample_submission.csv": csv_text(pd.DataFrame({"id": kaggle_test, "has_cactus": 0.5})),
            "train.zip": zip_bytes({f"train/{i}": fake_image(i) for i in ids}),
            "test.zip": zip_bytes({f"test/{i}": fake_image(i) for i in kaggle_test}),
        },
    )
    task, data = prepare("aerial-cactus-identification", zip_path, tmp_path, monkeypatch)

    raw = read_csv_exact(io.StringIO(csv_text(train)))
    new_train, new_test = train_test_split(raw, test_size=0.19, random_state=0)
    assert len(new_test) == math.ceil(0.19 * 60) and new_test["has_cactus"].nunique() == 2
    assert listing(data.public) == {"train.csv", "sample_submission.csv", "train.zip", "test.zip"}
    assert listing(data.private) == {"test.csv"}
    assert (data.public / "train.csv").read_text() == csv_text(new_train)
    assert (data.private / "test.csv").read_text() == csv_text(new_test)
    assert (data.public / "sample_submission.csv").read_text() == csv_text(
        new_test.assign(has_cactus=0.5)
    )
    assert zip_contents(data.public / "train.zip") == {i: fake_image(i) for i in new_train["id"]}
    assert zip_contents(data.public / "test.zip") == {i: fake_image(i) for i in new_test["id"]}

    def auc(sub: pd.DataFrame, ans: pd.DataFrame) -> float:
        sub, ans = aligned(sub, ans, "id")
        return roc_auc_score(ans["has_cactus"], sub["has_cactus"])

    def out_of_range(frame: pd.DataFrame) -> None:
        frame.loc[0, "has_cactus"] = "1.5"

    check_grading(task, data, tmp_path, auc, best=1.0, spoil=out_of_range)


# ---------------------------------------------------------------------------
# aptos2019-blindness-detection
# ---------------------------------------------------------------------------


def test_aptos2019(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(2)
    ids = hex_ids(rng, 50, width=12)
    train = pd.DataFrame({"id_code": ids, "diagnosis": rng.integers(0, 5, len(ids))})
    kaggle_test = hex_ids(rng, 4, width=12)
    zip_path = tmp_path / "aptos2019-blindness-detection.zip"
    members: dict[str, bytes | str] = {
        "train.csv": csv_text(train),
        "test.csv": csv_text(pd.DataFrame({"id_code": kaggle_test})),
        "sample_submission.csv": csv_text(pd.DataFrame({"id_code": kaggle_test, "diagnosis": 0})),
    }
    members.update({f"train_images/{i}.png": fake_image(i) for i in ids})
    members.update({f"test_images/{i}.png": fake_image(i) for i in kaggle_test})
    build_zip(zip_path, members)
    task, data = prepare("aptos2019-blindness-detection", zip_path, tmp_path, monkeypatch)

    raw = read_csv_exact(io.StringIO(csv_text(train)))
    new_train, new_test = train_test_split(raw, test_size=0.1, random_state=0)
    assert new_test["diagnosis"].nunique() > 1
    expected_public = {"train.csv", "test.csv", "sample_submission.csv"}
    expected_public |= {"train_images/", "test_images/"}
    expected_public |= {f"train_images/{i}.png" for i in new_train["id_code"]}
    expected_public |= {f"test_images/{i}.png" for i in new_test["id_code"]}
    assert listing(data.public) == expected_public
    assert listing(data.private) == {"test.csv"}
    assert (data.public / "train.csv").read_text() == csv_text(new_train)
    assert (data.public / "test.csv").read_text() == csv_text(new_test[["id_code"]])
    assert (data.private / "test.csv").read_text() == csv_text(new_test)
    assert (data.public / "sample_submission.csv").read_text() == csv_text(
        new_test.assign(diagnosis=0)
    )
    assert files_in(data.public / "test_images") == {
        f"{i}.png": fake_image(i) for i in new_test["id_code"]
    }

    def kappa(sub: pd.DataFrame, ans: pd.DataFrame) -> float:
        sub, ans = aligned(sub, ans, "id_code")
        return cohen_kappa_score(sub["diagnosis"], ans["diagnosis"], weights="quadratic")

    check_grading(task, data, tmp_path, kappa, best=1.0)


# ---------------------------------------------------------------------------
# denoising-dirty-documents (the only one whose preparation decodes images)
# ---------------------------------------------------------------------------


def _paeth(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def encode_png(
    samples: np.ndarray,
    colour: int,
    depth: int = 8,
    palette: np.ndarray | None = None,
    filters: tuple[int, ...] = (0, 1, 2, 3, 4),
    interlace: int = 0,
) -> bytes:
    """A PNG from (height, width[, channels]) samples; row y uses filters[y % len(filters)]."""
    if samples.ndim == 2:
        samples = samples[:, :, None]
    height, width, channels = samples.shape
    if depth == 16:
        rows = samples.astype(">u2").reshape(height, -1).view(np.uint8).reshape(height, -1)
    elif depth == 8:
        rows = samples.astype(np.uint8).reshape(height, -1)
    else:  # pack several samples per byte, most significant first
        per_byte = 8 // depth
        padded = np.zeros((height, -(-width // per_byte) * per_byte), dtype=np.int64)
        padded[:, :width] = samples[:, :, 0]
        groups = padded.reshape(height, -1, per_byte)
        shifts = np.arange(8 - depth, -1, -depth)
        rows = (groups << shifts).sum(axis=2).astype(np.uint8)
    bpp = max(1, channels * depth // 8)
    raw = bytearray()
    prior = np.zeros(rows.shape[1], dtype=np.int64)
    for y in range(height):
        line = rows[y].astype(np.int64)
        left = np.concatenate([np.zeros(bpp, np.int64), line[:-bpp]])
        upleft = np.concatenate([np.zeros(bpp, np.int64), prior[:-bpp]])
        kind = filters[y % len(filters)]
        predictor = [
            np.zeros_like(line),
            left,
            prior,
            (left + prior) // 2,
            _paeth(left, prior, upleft),
        ][kind]
        raw.append(kind)
        raw.extend(((line - predictor) % 256).astype(np.uint8).tobytes())
        prior = line

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
    if palette is not None:
        out += chunk(b"PLTE", palette.astype(np.uint8).tobytes())
    data = zlib.compress(bytes(raw))
    return out + chunk(b"IDAT", data[:7]) + chunk(b"IDAT", data[7:]) + chunk(b"IEND", b"")


def pillow_luma(rgb: np.ndarray) -> np.ndarray:
    """Pillow's documented RGB -> L integer conversion (ITU-R 601-2 in 16-bit fixed point)."""
    r, g, b = (rgb[..., k].astype(np.int64) for k in range(3))
    return ((r * 19595 + g * 38470 + b * 7471 + 32768) >> 16).astype(np.uint8)


def png_cases(rng: np.random.Generator) -> list[tuple[str, bytes, np.ndarray]]:
    """(label, PNG bytes, expected 8-bit grayscale) for each supported kind of PNG."""
    gray = rng.integers(0, 256, (6, 9))
    rgb = rng.integers(0, 256, (5, 7, 3))
    rgba = rng.integers(0, 256, (4, 6, 4))
    gray_alpha = rng.integers(0, 256, (3, 5, 2))
    palette = rng.integers(0, 256, (16, 3))
    index = rng.integers(0, 16, (5, 11))
    cases = [
        ("gray8", encode_png(gray, 0), gray.astype(np.uint8)),
        ("rgb8", encode_png(rgb, 2), pillow_luma(rgb)),
        ("rgba8", encode_png(rgba, 6, filters=(4, 3)), pillow_luma(rgba)),
        ("gray+alpha", encode_png(gray_alpha, 4), gray_alpha[..., 0].astype(np.uint8)),
        ("palette8", encode_png(index, 3, palette=palette), pillow_luma(palette[index])),
        ("palette4", encode_png(index, 3, 4, palette=palette), pillow_luma(palette[index])),
    ]
    for depth in (1, 2, 4):
        low = rng.integers(0, 2**depth, (4, 13))
        scaled = (low * (255 // (2**depth - 1))).astype(np.uint8)
        cases.append((f"gray{depth}", encode_png(low, 0, depth), scaled))
    return cases


def test_png_reader_matches_pillow_grayscale_conversion(tmp_path: Path) -> None:
    reader = get_task("denoising-dirty-documents").module("prepare")
    for label, blob, expected in png_cases(np.random.default_rng(3)):
        path = tmp_path / f"{label}.png"
        path.write_bytes(blob)
        np.testing.assert_array_equal(reader.read_png_gray(path), expected, err_msg=label)
    odd = {
        "sixteen": encode_png(np.zeros((2, 2), np.int64), 0, 16),
        "interlaced": encode_png(np.zeros((2, 2), np.int64), 0, interlace=1),
        "not-png": b"GIF89a",
    }
    for label, blob in odd.items():
        path = tmp_path / f"{label}.png"
        path.write_bytes(blob)
        with pytest.raises(reader.PNGError):
            reader.read_png_gray(path)


def test_denoising_dirty_documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(4)
    numbers = [2, 3, 5, 8, 9, 11, 14, 15, 17, 20, 23, 101]  # sorted as text, not as numbers
    noisy: dict[str, bytes] = {}
    clean: dict[str, bytes] = {}
    truth: dict[str, np.ndarray] = {}
    cases = png_cases(rng)
    for k, n in enumerate(numbers):
        shape = (int(rng.integers(2, 6)), int(rng.integers(3, 7)))
        noisy[f"{n}.png"] = encode_png(rng.integers(0, 256, shape), 0)
        if k % 3 == 0:  # most real pages are plain grayscale; mix in other encodings
            _, blob, expected = cases[k % len(cases)]
            clean[f"{n}.png"], truth[f"{n}.png"] = blob, expected
        else:
            pixels = rng.integers(0, 256, shape)
            clean[f"{n}.png"] = encode_png(pixels, 0, filters=(k % 5,))
            truth[f"{n}.png"] = pixels.astype(np.uint8)
    kaggle_test = {"1.png": encode_png(np.full((2, 3), 200), 0)}
    zip_path = tmp_path / "denoising-dirty-documents.zip"
    build_zip(
        zip_path,
        {
            "train.zip": zip_bytes({f"train/{k}": v for k, v in noisy.items()}),
            "train_cleaned.zip": zip_bytes({f"train_cleaned/{k}": v for k, v in clean.items()}),
            "test.zip": zip_bytes({f"test/{k}": v for k, v in kaggle_test.items()}),
            "sampleSubmission.csv.zip": zip_bytes({"sampleSubmission.csv": "id,value\n1_1_1,1\n"}),
        },
    )
    task, data = prepare("denoising-dirty-documents", zip_path, tmp_path, monkeypatch)

    ordered = sorted(noisy)  # MLE-bench sorts the paths of one folder: text order of names
    train_names, test_names = train_test_split(ordered, test_size=0.2, random_state=0)
    assert len(test_names) == 3
    frames = []
    for name in sorted(test_names):
        image = truth[name] / 255.0
        stem = name.removesuffix(".png")
        ids = [
            f"{stem}_{r + 1}_{c + 1}" for r in range(image.shape[0]) for c in range(image.shape[1])
        ]
        frames.append(pd.DataFrame({"id": ids, "value": image.reshape(-1)}))
    answers = pd.concat(frames)
    assert (data.private / "answers.csv").read_text() == csv_text(answers)
    assert (data.public / "sampleSubmission.csv").read_text() == csv_text(answers.assign(value=1))
    assert listing(data.private) == {"answers.csv"}
    expected_public = {"sampleSubmission.csv", "train/", "test/", "train_cleaned/"}
    expected_public |= {f"train/{n}" for n in train_names}
    expected_public |= {f"test/{n}" for n in test_names}
    expected_public |= {f"train_cleaned/{n}" for n in train_names}
    assert listing(data.public) == expected_public
    assert files_in(data.public / "test") == {n: noisy[n] for n in test_names}
    assert files_in(data.public / "train_cleaned") == {n: clean[n] for n in train_names}

    def rmse(sub: pd.DataFrame, ans: pd.DataFrame) -> float:
        sub, ans = aligned(sub, ans, "id")
        return float(np.sqrt(np.mean((sub["value"] - ans["value"]) ** 2)))

    def not_a_number(frame: pd.DataFrame) -> None:
        frame.loc[0, "value"] = "white"

    check_grading(task, data, tmp_path, rmse, best=0.0, spoil=not_a_number)


# ---------------------------------------------------------------------------
# dog-breed-identification
# ---------------------------------------------------------------------------


def test_dog_breed_identification(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    task = get_task("dog-breed-identification")
    breeds = list(task.submission.target_columns)
    assert len(breeds) == 120 == len(set(breeds)) and breeds == sorted(breeds)
    assert breeds == list(task.module("prepare").BREEDS)
    rng = np.random.default_rng(5)
    ids = hex_ids(rng, 60)
    labels = pd.DataFrame({"id": ids, "breed": rng.choice(breeds, len(ids))})
    kaggle_test = hex_ids(rng, 3)
    kaggle_sample = pd.DataFrame({"id": kaggle_test, **dict.fromkeys(breeds, 1 / 120)})
    members: dict[str, bytes | str] = {
        "labels.csv": csv_text(labels),
        "sample_submission.csv": csv_text(kaggle_sample),
    }
    members.update({f"train/{i}.jpg": fake_image(i) for i in ids})
    members.update({f"test/{i}.jpg": fake_image(i) for i in kaggle_test})
    zip_path = tmp_path / "dog-breed-identification.zip"
    build_zip(zip_path, members)
    task, data = prepare("dog-breed-identification", zip_path, tmp_path, monkeypatch)

    raw = read_csv_exact(io.StringIO(csv_text(labels)))
    new_train, new_test = train_test_split(raw, test_size=0.1, random_state=0)
    answers = mlebench_one_hot(new_test, "id", "breed", breeds)
    sample = answers.copy()
    for column in breeds:
        sample[column] = sample[column].astype("float64")
    sample.iloc[:, 1:] = 1 / 120
    assert (data.public / "labels.csv").read_text() == csv_text(new_train)
    assert (data.private / "test.csv").read_text() == csv_text(answers)
    assert (data.public / "sample_submission.csv").read_text() == csv_text(sample)
    expected_public = {"labels.csv", "sample_submission.csv", "train/", "test/"}
    expected_public |= {f"train/{i}.jpg" for i in new_train["id"]}
    expected_public |= {f"test/{i}.jpg" for i in new_test["id"]}
    assert listing(data.public) == expected_public
    assert listing(data.private) == {"test.csv"}
    assert files_in(data.public / "test") == {f"{i}.jpg": fake_image(i) for i in new_test["id"]}

    def multi_log_loss(sub: pd.DataFrame, ans: pd.DataFrame) -> float:
        sub, ans = aligned(sub, ans, "id")
        return log_loss(ans[breeds].to_numpy(), sub[breeds].to_numpy())

    def rows_not_summing_to_one(frame: pd.DataFrame) -> None:
        frame.loc[0, breeds[0]] = "0.5"

    check_grading(task, data, tmp_path, multi_log_loss, best=0.0, spoil=rows_not_summing_to_one)


# ---------------------------------------------------------------------------
# dogs-vs-cats-redux-kernels-edition
# ---------------------------------------------------------------------------


def test_dogs_vs_cats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(6)
    names = [f"cat.{k}.jpg" for k in range(23)] + [f"dog.{k}.jpg" for k in range(21)]
    contents = {n: fake_image(n) + rng.bytes(4) for n in names}
    zip_path = tmp_path / "dogs-vs-cats-redux-kernels-edition.zip"
    build_zip(
        zip_path,
        {
            "train.zip": zip_bytes({f"train/{n}": b for n, b in contents.items()}),
            "test.zip": zip_bytes({f"test/{k}.jpg": fake_image(str(k)) for k in (1, 2, 3)}),
            "sample_submission.csv": "id,label\n1,0.5\n2,0.5\n3,0.5\n",
        },
    )
    task, data = prepare("dogs-vs-cats-redux-kernels-edition", zip_path, tmp_path, monkeypatch)

    train_names, test_names = train_test_split(sorted(names), test_size=0.1, random_state=0)
    expected_train: dict[str, bytes] = {}
    seen = {"cat": 0, "dog": 0}
    for name in train_names:
        kind = "cat" if "cat" in name else "dog"
        expected_train[f"{kind}.{seen[kind]}.jpg"] = contents[name]
        seen[kind] += 1
    expected_test = {f"{k}.jpg": contents[n] for k, n in enumerate(test_names, start=1)}
    assert files_in(data.public / "train") == expected_train
    assert files_in(data.public / "test") == expected_test
    assert zip_contents(data.public / "train.zip") == expected_train
    assert zip_contents(data.public / "test.zip") == expected_test
    ids = list(range(1, len(test_names) + 1))
    answers = pd.DataFrame({"id": ids, "label": [int("dog" in n) for n in test_names]})
    assert answers["label"].nunique() == 2
    assert (data.private / "answers.csv").read_text() == csv_text(answers)
    assert (data.public / "sample_submission.csv").read_text() == csv_text(
        pd.DataFrame({"id": ids, "label": [0.5] * len(ids)})
    )
    assert {p for p in listing(data.public) if "/" not in p.rstrip("/")} == {
        "train/",
        "test/",
        "train.zip",
        "test.zip",
        "sample_submission.csv",
    }
    assert listing(data.private) == {"answers.csv"}

    def binary_log_loss(sub: pd.DataFrame, ans: pd.DataFrame) -> float:
        sub, ans = aligned(sub, ans, "id")
        return log_loss(ans["label"], sub["label"], labels=[0, 1])

    def out_of_range(frame: pd.DataFrame) -> None:
        frame.loc[2, "label"] = "-0.1"

    check_grading(task, data, tmp_path, binary_log_loss, best=0.0, spoil=out_of_range)


# ---------------------------------------------------------------------------
# histopathologic-cancer-detection
# ---------------------------------------------------------------------------


def test_histopathologic_cancer_detection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    ids = hex_ids(rng, 45, width=40)
    labels = pd.DataFrame({"id": ids, "label": rng.integers(0, 2, len(ids))})
    kaggle_test = hex_ids(rng, 12, width=40)
    members: dict[str, bytes | str] = {
        "train_labels.csv": csv_text(labels),
        "sample_submission.csv": csv_text(pd.DataFrame({"id": kaggle_test, "label": 0})),
    }
    members.update({f"train/{i}.tif": fake_image(i) for i in ids})
    members.update({f"test/{i}.tif": fake_image(i) for i in kaggle_test})
    zip_path = tmp_path / "histopathologic-cancer-detection.zip"
    build_zip(zip_path, members)
    task, data = prepare("histopathologic-cancer-detection", zip_path, tmp_path, monkeypatch)

    raw = pd.read_csv(io.StringIO(csv_text(labels)))
    share = len(kaggle_test) / (len(raw) + len(kaggle_test))
    train_ids, test_ids = train_test_split(raw["id"], test_size=share, random_state=0)
    new_train = raw[raw["id"].isin(train_ids)]
    new_test = raw[raw["id"].isin(test_ids)]
    assert len(new_test) == math.ceil(share * 45) and new_test["label"].nunique() == 2
    assert (data.public / "train_labels.csv").read_text() == csv_text(new_train)
    assert (data.private / "answers.csv").read_text() == csv_text(new_test)
    assert (data.public / "sample_submission.csv").read_text() == csv_text(new_test.assign(label=0))
    expected_public = {"train_labels.csv", "sample_submission.csv", "train/", "test/"}
    expected_public |= {f"train/{i}.tif" for i in train_ids}
    expected_public |= {f"test/{i}.tif" for i in test_ids}
    assert listing(data.public) == expected_public
    assert listing(data.private) == {"answers.csv"}
    assert files_in(data.public / "train") == {f"{i}.tif": fake_image(i) for i in train_ids}

    def auc(sub: pd.DataFrame, ans: pd.DataFrame) -> float:
        sub, ans = aligned(sub, ans, "id")
        return roc_auc_score(ans["label"], sub["label"])

    check_grading(task, data, tmp_path, auc, best=1.0)


# ---------------------------------------------------------------------------
# leaf-classification
# ---------------------------------------------------------------------------


def test_leaf_classification(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    task = get_task("leaf-classification")
    species = list(task.submission.target_columns)
    assert len(species) == 99 == len(set(species)) and species == sorted(species)
    assert species == list(task.module("prepare").SPECIES)
    rng = np.random.default_rng(8)
    all_ids = rng.permutation(np.arange(1, 80))
    train_ids, kaggle_test_ids = sorted(all_ids[:60]), sorted(all_ids[60:])
    features = [f"{kind}{k}" for kind in ("margin", "shape", "texture") for k in range(1, 65)]

    def table(row_ids: list[int]) -> pd.DataFrame:
        values = np.round(rng.random((len(row_ids), len(features))) / 10, 6)
        return pd.DataFrame(values, columns=features).assign(id=row_ids)

    train = table(train_ids)
    train.insert(1, "species", rng.choice(species, len(train_ids)))
    train = train[["id", "species", *features]]
    kaggle_test = table(kaggle_test_ids)[["id", *features]]
    kaggle_sample = pd.DataFrame({"id": kaggle_test_ids, **dict.fromkeys(species, 1 / 99)})
    images = {f"images/{i}.jpg": fake_image(str(i)) for i in all_ids}
    zip_path = tmp_path / "leaf-classification.zip"
    build_zip(
        zip_path,
        {
            "train.csv.zip": zip_bytes({"train.csv": csv_text(train)}),
            "test.csv.zip": zip_bytes({"test.csv": csv_text(kaggle_test)}),
            "sample_submission.csv.zip": zip_bytes(
                {"sample_submission.csv": csv_text(kaggle_sample)}
            ),
            "images.zip": zip_bytes(images),
        },
    )
    task, data = prepare("leaf-classification", zip_path, tmp_path, monkeypatch)

    raw = read_csv_exact(io.StringIO(csv_text(train)))
    new_train, new_test = train_test_split(raw, test_size=0.1, random_state=0)
    public_test = new_test.drop(columns=["species"])
    answers = mlebench_one_hot(new_test[["id", "species"]], "id", "species", species)
    sample = answers.copy()
    sample[species] = 1 / len(species)
    assert (data.public / "train.csv").read_text() == csv_text(new_train)
    assert (data.public / "test.csv").read_text() == csv_text(public_test)
    assert (data.private / "test.csv").read_text() == csv_text(answers)
    assert (data.public / "sample_submission.csv").read_text() == csv_text(sample)
    expected_public = {"train.csv", "test.csv", "sample_submission.csv", "images/"}
    expected_public |= {f"images/{i}.jpg" for i in raw["id"]}
    assert listing(data.public) == expected_public
    assert listing(data.private) == {"test.csv", "images/"}  # MLE-bench's empty folder
    assert files_in(data.public / "images") == {f"{i}.jpg": fake_image(str(i)) for i in raw["id"]}

    def multi_log_loss(sub: pd.DataFrame, ans: pd.DataFrame) -> float:
        sub, ans = aligned(sub, ans, "id")
        return log_loss(ans[species].to_numpy(), sub[species].to_numpy())

    def rows_not_summing_to_one(frame: pd.DataFrame) -> None:
        frame.loc[1, species[-1]] = "0.2"

    check_grading(task, data, tmp_path, multi_log_loss, best=0.0, spoil=rows_not_summing_to_one)
