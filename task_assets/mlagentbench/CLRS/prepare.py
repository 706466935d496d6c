"""Data of MLAgentBench/CLRS: the CLRS-30 algorithmic reasoning benchmark
(``CLRS30_v1.0.0.tar.gz`` from https://storage.googleapis.com/dm-clrs/), of which the task
uses the Floyd-Warshall algorithm.

The archive holds TensorFlow Datasets builder folders, one per algorithm and split
(``.../clrs_dataset/floyd_warshall_{train,val,test}/1.0.0/`` with ``dataset_info.json``,
``features.json`` and TFRecord shards). ``prepare`` copies the train and val folders to
``data/CLRS30/clrs_dataset/`` (the layout ``clrs.create_dataset`` reads) and keeps the
test folder private: the evaluator scores the agent's model on it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mle_gym.families.mlagentbench.authoring import extract_tar, fetch_url, find_one

TASK = "MLAgentBench/CLRS"
URL = "https://storage.googleapis.com/dm-clrs/CLRS30_v1.0.0.tar.gz"
ALGORITHM = "floyd_warshall"


def download(raw_dir: Path) -> None:
    fetch_url(URL, raw_dir / "CLRS30_v1.0.0.tar.gz", task=TASK, what="the CLRS-30 dataset")


def _builders(raw_dir: Path) -> Path:
    """The ``clrs_dataset`` folder holding the algorithm's split folders."""
    found = find_one(
        raw_dir,
        (f"{ALGORITHM}_train", "CLRS30*.tar.gz"),
        task=TASK,
        what=f"CLRS30_v1.0.0.tar.gz or its {ALGORITHM}_train folder",
    )
    if found.name.endswith(".tar.gz"):
        extract_tar(found, raw_dir / "extracted")
        found = find_one(
            raw_dir / "extracted", (f"{ALGORITHM}_train",), task=TASK, what="the train split"
        )
    return found.parent


def _copy_split(builders: Path, split: str, dest_root: Path) -> None:
    source = builders / f"{ALGORITHM}_{split}"
    if not source.is_dir() or not any(source.rglob("*.tfrecord*")):
        raise FileNotFoundError(f"{TASK}: {source} holds no TFRecord shards")
    shutil.copytree(source, dest_root / "CLRS30" / "clrs_dataset" / source.name)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    builders = _builders(raw_dir)
    _copy_split(builders, "train", public_dir)
    _copy_split(builders, "val", public_dir)
    _copy_split(builders, "test", private_dir)
