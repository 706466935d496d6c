"""Data of MLAgentBench/identify-contrails (Kaggle's
"google-research-identify-contrails-reduce-global-warming").

The competition zip holds one folder per record in ``train/``, ``validation/`` and
``test/``: ``band_08.npy`` .. ``band_16.npy`` (GOES-16 infrared bands, each
H x W x T float32, T = 8 frames, the labelled one at index 4) and, for train and
validation, ``human_pixel_masks.npy`` (H x W x 1, 0/1) and
``human_individual_masks.npy``; plus ``{train,validation}_metadata.json``.

As in MLAgentBench, the validation records become the test set: ``data/test/<id>/``
keeps only their bands and their pixel masks stay private. Files are hard-linked when
the raw data is on the same file system (the dataset is hundreds of GB).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from mle_gym.families.mlagentbench.authoring import extract_zip, fetch_kaggle, find_one

COMPETITION = "google-research-identify-contrails-reduce-global-warming"
TASK = "MLAgentBench/identify-contrails"
BANDS = [f"band_{i:02d}.npy" for i in range(8, 17)]
MASK = "human_pixel_masks.npy"


def download(raw_dir: Path) -> None:
    fetch_kaggle(COMPETITION, raw_dir, task=TASK)


def _link(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def _root(raw_dir: Path) -> Path:
    found = find_one(raw_dir, ("validation", "*.zip"), task=TASK, what="the validation/ folder")
    if found.suffix == ".zip":
        extract_zip(found, raw_dir / "extracted")
        found = find_one(raw_dir / "extracted", ("validation",), task=TASK, what="validation/")
    return found.parent


def _records(folder: Path, need_mask: bool) -> list[Path]:
    records = sorted(p for p in folder.iterdir() if p.is_dir())
    if not records:
        raise FileNotFoundError(f"{TASK}: {folder} holds no records")
    for record in records:
        missing = [b for b in BANDS if not (record / b).is_file()]
        if need_mask and not (record / MASK).is_file():
            missing.append(MASK)
        if missing:
            raise FileNotFoundError(f"{TASK}: record {record.name} lacks {missing}")
    return records


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    root = _root(raw_dir)
    for record in _records(root / "train", need_mask=True):
        for item in record.iterdir():
            if item.is_file():
                _link(item, public_dir / "train" / record.name / item.name)
    for record in _records(root / "validation", need_mask=True):
        for band in BANDS:
            _link(record / band, public_dir / "test" / record.name / band)
        _link(record / MASK, private_dir / "answers" / record.name / MASK)
    metadata = root / "train_metadata.json"
    if metadata.is_file():
        shutil.copyfile(metadata, public_dir / "train_metadata.json")
