"""Data of MLAgentBench/ogbn-arxiv: the OGB node-property-prediction dataset ogbn-arxiv in
OGB's raw layout (``arxiv.zip`` from http://snap.stanford.edu/ogb/data/nodeproppred/):
``arxiv/raw/{edge,node-feat,node-label,node_year,num-node-list,num-edge-list}.csv.gz``
(headerless CSV, one row per edge / node) and ``arxiv/split/time/{train,valid,test}.csv.gz``
(node indices of the time-based split).

``prepare`` copies the graph, the features, the years and the split to ``data/`` in the
same layout, and writes ``data/raw/node-label.csv.gz`` with every test node's label
replaced by -1; the test labels stay private (``test_labels.csv``: node, label).
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlagentbench.authoring import extract_any, fetch_url, find_one

URL = "http://snap.stanford.edu/ogb/data/nodeproppred/arxiv.zip"
TASK = "MLAgentBench/ogbn-arxiv"
RAW_FILES = ["edge.csv.gz", "node-feat.csv.gz", "node_year.csv.gz", "num-node-list.csv.gz",
             "num-edge-list.csv.gz"]  # fmt: skip
SPLITS = ["train", "valid", "test"]


def download(raw_dir: Path) -> None:
    fetch_url(URL, raw_dir / "arxiv.zip", task=TASK, what="ogbn-arxiv (arxiv.zip)")


def _root(raw_dir: Path) -> Path:
    found = find_one(raw_dir, ("arxiv.zip", "node-label.csv.gz"), task=TASK, what="arxiv.zip")
    if found.name == "arxiv.zip":
        extract_any(found, raw_dir / "extracted")
        found = find_one(raw_dir / "extracted", ("node-label.csv.gz",), task=TASK, what="raw/")
    return found.parent.parent  # .../arxiv


def _read_ints(path: Path) -> np.ndarray:
    return pd.read_csv(path, header=None, compression="gzip").iloc[:, 0].to_numpy(dtype=np.int64)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    root = _root(raw_dir)
    (public_dir / "raw").mkdir()
    for name in RAW_FILES:
        shutil.copyfile(root / "raw" / name, public_dir / "raw" / name)
    (public_dir / "split" / "time").mkdir(parents=True)
    for split in SPLITS:
        shutil.copyfile(
            root / "split" / "time" / f"{split}.csv.gz",
            public_dir / "split" / "time" / f"{split}.csv.gz",
        )
    labels = _read_ints(root / "raw" / "node-label.csv.gz")
    test = _read_ints(root / "split" / "time" / "test.csv.gz")
    if test.max(initial=-1) >= len(labels):
        raise ValueError(f"{TASK}: test node ids exceed the number of labelled nodes")
    hidden = labels.copy()
    hidden[test] = -1
    with gzip.open(public_dir / "raw" / "node-label.csv.gz", "wt") as handle:
        handle.write("\n".join(map(str, hidden)) + "\n")
    pd.DataFrame({"node": test, "label": labels[test]}).to_csv(
        private_dir / "test_labels.csv", index=False
    )
    mapping = root / "mapping" / "labelidx2arxivcategeory.csv.gz"
    if mapping.is_file():
        shutil.copyfile(mapping, public_dir / "labelidx2arxivcategory.csv.gz")
