"""Data of MLAgentBench/babylm: the BabyLM Challenge 2023 corpus (``babylm_data.zip`` from
https://github.com/babylm/babylm.github.io) and the GPT-2 tokenizer and configuration the
starter code trains from (the sandbox has no network).

The zip holds ``babylm_data/babylm_10M/*.train``, ``babylm_100M/*.train``,
``babylm_dev/*.dev`` and ``babylm_test/*.test`` (plain text, one sentence or utterance
per line, from ten sources: aochildes, bnc_spoken, cbt, children_stories, gutenberg,
open_subtitles, qed, simple_wikipedia, switchboard, wikipedia). ``data/`` gets the 10M
training files and the dev files; the test files stay private (the evaluator computes the
model's perplexity on them).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mle_gym.families.mlagentbench.authoring import extract_zip, fetch_hf_files, fetch_url, find_one

TASK = "MLAgentBench/babylm"
URL = "https://github.com/babylm/babylm.github.io/raw/main/babylm_data.zip"
TOKENIZER = "openai-community/gpt2"
TOKENIZER_FILES = ["config.json", "vocab.json", "merges.txt", "tokenizer.json",
                   "tokenizer_config.json"]  # fmt: skip


def download(raw_dir: Path) -> None:
    fetch_url(URL, raw_dir / "babylm_data.zip", task=TASK, what="the BabyLM corpus")
    fetch_hf_files(TOKENIZER, TOKENIZER_FILES, raw_dir / "gpt2", task=TASK, repo_type="model")


def _corpus(raw_dir: Path) -> Path:
    found = find_one(raw_dir, ("babylm_10M", "babylm_data.zip"), task=TASK, what="babylm_10M/")
    if found.suffix == ".zip":
        extract_zip(found, raw_dir / "extracted")
        found = find_one(raw_dir / "extracted", ("babylm_10M",), task=TASK, what="babylm_10M/")
    return found.parent


def _copy_texts(source: Path, suffix: str, dest: Path) -> None:
    files = sorted(source.glob(f"*{suffix}"))
    if not files:
        raise FileNotFoundError(f"{TASK}: no *{suffix} files in {source}")
    dest.mkdir(parents=True)
    for path in files:
        shutil.copyfile(path, dest / path.name)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    corpus = _corpus(raw_dir)
    _copy_texts(corpus / "babylm_10M", ".train", public_dir / "babylm_10M")
    _copy_texts(corpus / "babylm_dev", ".dev", public_dir / "babylm_dev")
    _copy_texts(corpus / "babylm_test", ".test", private_dir / "babylm_test")
    tokenizer = find_one(raw_dir, ("gpt2",), task=TASK, what="the gpt2 tokenizer folder")
    missing = [f for f in TOKENIZER_FILES if not (tokenizer / f).is_file()]
    if missing:
        raise FileNotFoundError(f"{TASK}: the gpt2 folder lacks {missing}")
    shutil.copytree(tokenizer, public_dir / "gpt2")
