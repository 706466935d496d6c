"""Data of MLAgentBench/fathomnet (Kaggle's "fathomnet-out-of-sample-detection").

The competition zip holds ``multilabel_classification/train.csv`` (``id``: an image id,
``categories``: the list of categories present, e.g. ``[1.0, 9.0]``),
``object_detection/train.json`` and ``eval.json`` (COCO format: ``images`` with
``id, file_name, coco_url, width, height``, ``annotations`` with ``image_id,
category_id, bbox``, ``categories``) and ``category_key.csv``. The images themselves are
not in the zip: they are fetched from each image's ``coco_url``.

``prepare`` shuffles train.csv (seed 42) and holds out 2% of the images as MLAgentBench
does; their categories stay private. ``data/`` gets the rest of train.csv, the COCO file
restricted to the training images, ``category_key.csv``, ``test_ids.csv`` and
``images/`` for training and test images (taken from an ``images/`` folder next to the
raw files when present, else downloaded).
"""

from __future__ import annotations

import ast
import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlagentbench.authoring import extract_zip, fetch_kaggle, fetch_url, find_one

COMPETITION = "fathomnet-out-of-sample-detection"
TASK = "MLAgentBench/fathomnet"
TEST_FRACTION = 0.02
SEED = 42
WORKERS = 8


def download(raw_dir: Path) -> None:
    fetch_kaggle(COMPETITION, raw_dir, task=TASK)


def _competition_root(raw_dir: Path) -> Path:
    found = find_one(
        raw_dir, ("category_key.csv", "*.zip"), task=TASK, what="the competition files"
    )
    if found.suffix == ".zip":
        target = raw_dir / "extracted"
        extract_zip(found, target)
        found = find_one(target, ("category_key.csv",), task=TASK, what="category_key.csv")
    return found.parent


def _category_list(text: str) -> list[int]:
    value = ast.literal_eval(text) if text.strip() else []
    return [int(float(v)) for v in value]


def _fetch_images(images: list[dict], raw_dir: Path, dest: Path) -> None:
    local = [p for p in raw_dir.rglob("images") if p.is_dir()]
    dest.mkdir()

    def one(image: dict) -> None:
        name = image["file_name"]
        for folder in local:
            if (folder / name).is_file():
                shutil.copyfile(folder / name, dest / name)
                return
        url = image.get("coco_url") or image.get("flickr_url")
        if not url:
            raise FileNotFoundError(f"{TASK}: image {name} has no URL and no local copy")
        fetch_url(url, dest / name, task=TASK, what=f"image {name}")

    with ThreadPoolExecutor(WORKERS) as pool:
        list(pool.map(one, images))


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    root = _competition_root(raw_dir)
    table = pd.read_csv(root / "multilabel_classification" / "train.csv", dtype=str)
    order = np.random.default_rng(SEED).permutation(len(table))
    table = table.iloc[order].reset_index(drop=True)
    cut = int(len(table) * (1 - TEST_FRACTION))
    train, test = table.iloc[:cut], table.iloc[cut:]
    (public_dir / "multilabel_classification").mkdir()
    train.to_csv(public_dir / "multilabel_classification" / "train.csv", index=False)
    test[["id"]].to_csv(public_dir / "test_ids.csv", index=False)
    shutil.copyfile(root / "category_key.csv", public_dir / "category_key.csv")
    answers = pd.DataFrame(
        {
            "id": test["id"],
            "categories": [" ".join(map(str, _category_list(c))) for c in test["categories"]],
        }
    )
    answers.to_csv(private_dir / "answers.csv", index=False)

    coco = json.loads((root / "object_detection" / "train.json").read_text())
    test_ids = set(test["id"])
    by_stem = {Path(img["file_name"]).stem: img for img in coco["images"]}
    missing = sorted(set(table["id"]) - set(by_stem))
    if missing:
        raise ValueError(f"{TASK}: {len(missing)} image ids have no COCO entry, e.g. {missing[0]}")
    train_images = [img for img in coco["images"] if Path(img["file_name"]).stem not in test_ids]
    kept = {img["id"] for img in train_images}
    subset = dict(coco)
    subset["images"] = train_images
    subset["annotations"] = [a for a in coco["annotations"] if a["image_id"] in kept]
    (public_dir / "object_detection").mkdir()
    (public_dir / "object_detection" / "train.json").write_text(json.dumps(subset))
    wanted = [by_stem[i] for i in table["id"]]
    _fetch_images(wanted, raw_dir, public_dir / "images")
