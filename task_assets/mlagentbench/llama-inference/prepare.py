"""Data of MLAgentBench/llama-inference: the LLaMA-7B weights and tokenizer in Hugging Face
format (``huggyllama/llama-7b``; MLAgentBench used a copy since removed from the Hub) and
the WikiText-103 test split (``Salesforce/wikitext``,
``wikitext-103-v1/test-00000-of-00001.parquet``).

``download`` fetches the configuration and tokenizer files, the safetensors index and
every shard it lists. ``prepare`` checks them (each shard must have a safetensors
header) and copies them to ``data/llama-7b/``, with the test text as
``data/wikitext-103-test.parquet``. Nothing is private: the task is timed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd

from mle_gym.families.mlagentbench.authoring import check_safetensors, fetch_hf_files, find_one

TASK = "MLAgentBench/llama-inference"
MODEL = "huggyllama/llama-7b"
MODEL_FILES = [
    "config.json",
    "generation_config.json",
    "special_tokens_map.json",
    "tokenizer.model",
    "tokenizer_config.json",
    "model.safetensors.index.json",
]
DATASET = "Salesforce/wikitext"
TEST_FILE = "wikitext-103-v1/test-00000-of-00001.parquet"


def download(raw_dir: Path) -> None:
    model_dir = raw_dir / "llama-7b"
    fetch_hf_files(MODEL, MODEL_FILES, model_dir, task=TASK, repo_type="model")
    index = json.loads((model_dir / "model.safetensors.index.json").read_text())
    shards = sorted(set(index["weight_map"].values()))
    fetch_hf_files(MODEL, shards, model_dir, task=TASK, repo_type="model")
    fetch_hf_files(DATASET, [TEST_FILE], raw_dir, task=TASK)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    model_dir = find_one(raw_dir, ("llama-7b",), task=TASK, what="the llama-7b folder")
    missing = [f for f in MODEL_FILES if not (model_dir / f).is_file()]
    if missing:
        raise FileNotFoundError(f"{TASK}: the llama-7b folder lacks {missing}")
    index = json.loads((model_dir / "model.safetensors.index.json").read_text())
    shards = sorted(set(index.get("weight_map", {}).values()))
    if not shards:
        raise ValueError(f"{TASK}: model.safetensors.index.json lists no shards")
    for shard in shards:
        if not (model_dir / shard).is_file():
            raise FileNotFoundError(f"{TASK}: shard {shard} is missing")
        check_safetensors(model_dir / shard)
    shutil.copytree(model_dir, public_dir / "llama-7b")
    test = find_one(raw_dir, ("test-*.parquet",), task=TASK, what="the WikiText-103 test file")
    frame = pd.read_parquet(test)
    if "text" not in frame.columns:
        raise ValueError(f"{TASK}: {test.name} has no 'text' column")
    frame[["text"]].to_parquet(public_dir / "wikitext-103-test.parquet", index=False)
