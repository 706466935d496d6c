"""Data of MLAgentBench/imdb: the IMDb movie-review dataset as Hugging Face stores it
(``stanfordnlp/imdb``: ``plain_text/{train,test}-00000-of-00001.parquet`` with columns
``text`` and ``label``), plus the ``distilbert-base-uncased`` weights and tokenizer the
starter code fine-tunes (the sandbox has no network).

``prepare`` writes ``data/train.parquet`` (text, label), ``data/test.parquet`` (idx,
text — no labels) and ``data/distilbert-base-uncased/``; the test labels stay private.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlagentbench.authoring import check_safetensors, fetch_hf_files, find_one

TASK = "MLAgentBench/imdb"
DATASET = "stanfordnlp/imdb"
SPLITS = ["plain_text/train-00000-of-00001.parquet", "plain_text/test-00000-of-00001.parquet"]
MODEL = "distilbert/distilbert-base-uncased"
MODEL_FILES = [
    "config.json",
    "model.safetensors",
    "tokenizer.json",
    "tokenizer_config.json",
    "vocab.txt",
]


def download(raw_dir: Path) -> None:
    fetch_hf_files(DATASET, SPLITS, raw_dir, task=TASK)
    fetch_hf_files(
        MODEL, MODEL_FILES, raw_dir / "distilbert-base-uncased", task=TASK, repo_type="model"
    )


def _split(raw_dir: Path, name: str) -> pd.DataFrame:
    path = find_one(raw_dir, (f"{name}-*.parquet",), task=TASK, what=f"the {name} parquet file")
    frame = pd.read_parquet(path)
    missing = {"text", "label"} - set(frame.columns)
    if missing:
        raise ValueError(f"{path.name} lacks the columns {sorted(missing)}")
    return frame[["text", "label"]]


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    train, test = _split(raw_dir, "train"), _split(raw_dir, "test")
    train.to_parquet(public_dir / "train.parquet", index=False)
    idx = np.arange(len(test))
    pd.DataFrame({"idx": idx, "text": test["text"]}).to_parquet(
        public_dir / "test.parquet", index=False
    )
    pd.DataFrame({"idx": idx, "label": test["label"].astype(int)}).to_csv(
        private_dir / "test_labels.csv", index=False
    )
    model = find_one(
        raw_dir, ("distilbert-base-uncased",), task=TASK, what="the distilbert-base-uncased folder"
    )
    for name in MODEL_FILES:
        if not (model / name).is_file():
            raise FileNotFoundError(f"{TASK}: {name} is missing from {model}")
    check_safetensors(model / "model.safetensors")
    shutil.copytree(model, public_dir / "distilbert-base-uncased")
