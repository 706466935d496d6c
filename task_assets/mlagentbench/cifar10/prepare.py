"""Data of MLAgentBench/cifar10: CIFAR-10 in its "python version" (the pickled batches
torchvision downloads from https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz).

``prepare`` keeps the five training batches and ``batches.meta`` as they are
(``data/cifar-10-batches-py/``), turns the test batch into ``data/test_images.npy``
(10,000 x 32 x 32 x 3 uint8, in the test batch's order) and keeps the test labels
private (``test_labels.csv``). Unlike MLAgentBench, where the test labels sit in the
workspace, the agent never sees them.
"""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlagentbench.authoring import extract_tar, fetch_url, find_one

URL = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
TASK = "MLAgentBench/cifar10"
TRAIN_BATCHES = [f"data_batch_{i}" for i in range(1, 6)]


def download(raw_dir: Path) -> None:
    fetch_url(URL, raw_dir / "cifar-10-python.tar.gz", task=TASK, what="CIFAR-10 (python version)")


def _batches_dir(raw_dir: Path) -> Path:
    found = find_one(
        raw_dir,
        ("cifar-10-batches-py", "cifar-10-python.tar.gz"),
        task=TASK,
        what="cifar-10-python.tar.gz or its cifar-10-batches-py folder",
    )
    if found.is_dir():
        return found
    extract_tar(found, raw_dir / "extracted")
    return find_one(raw_dir / "extracted", ("cifar-10-batches-py",), task=TASK, what="batches")


def load_batch(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """(images N x 32 x 32 x 3 uint8, labels N) of one pickled batch."""
    with open(path, "rb") as handle:
        batch = pickle.load(handle, encoding="bytes")
    data = np.asarray(batch[b"data"], dtype=np.uint8).reshape(-1, 3, 32, 32)
    labels = np.asarray(batch.get(b"labels", batch.get(b"fine_labels")), dtype=np.int64)
    return data.transpose(0, 2, 3, 1), labels


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    source = _batches_dir(raw_dir)
    target = public_dir / "cifar-10-batches-py"
    target.mkdir()
    for name in [*TRAIN_BATCHES, "batches.meta"]:
        if not (source / name).is_file():
            raise FileNotFoundError(f"{TASK}: {name} is missing from {source}")
        shutil.copyfile(source / name, target / name)
    images, labels = load_batch(source / "test_batch")
    np.save(public_dir / "test_images.npy", images)
    pd.DataFrame({"idx": np.arange(len(labels)), "label": labels}).to_csv(
        private_dir / "test_labels.csv", index=False
    )
