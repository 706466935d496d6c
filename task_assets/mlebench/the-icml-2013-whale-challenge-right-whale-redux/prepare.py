"""Data preparation for the-icml-2013-whale-challenge-right-whale-redux.

Kaggle's zip holds ``train2.zip`` (``train2/`` with two-second AIFF clips named
``<YYYYMMDD>_<HHMMSS>_<offset>_TRAIN<n>_<label>.aif``, label 1 if a right-whale
up-call is audible, recorded on four days), ``test2.zip`` (unlabelled clips, not
used here) and ``sampleSubmission.csv``.

MLE-bench splits the training clips by recording day: the clips of the first two
days (in date order) stay for training, those of the last two become the test
set. Each part is sorted by file name (that is, by time) and renumbered from 0:
training clips keep their name with ``TRAIN<n>`` replaced by the new index,
test clips lose the index and the label and are named
``<YYYYMMDD>_<HHMMSS>_<offset>_Test<i>.aif``. The agent gets them as
``train2.zip`` and ``test2.zip`` (clips under ``train2/`` and ``test2/``, as in
Kaggle's archives; the audio is copied, not decoded) and ``sampleSubmission.csv``
with probability 0 for every test clip. The private ``test.csv`` lists each test
clip with its 0/1 label, in the same order.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pandas as pd

from mle_gym.authoring import extract_zip

_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # reproducible archive bytes


def _write_zip(archive: Path, folder: str, members: list[tuple[Path, str]]) -> None:
    """A deflated zip with ``folder/`` and ``folder/<name>`` for each (source, name)."""
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        top = zipfile.ZipInfo(f"{folder}/", date_time=_FIXED_TIME)
        top.external_attr = (0o40755 << 16) | 0x10
        zf.writestr(top, b"")
        for source, name in members:
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(source, "rb") as src, zf.open(info, "w") as dst:
                while block := src.read(1 << 20):
                    dst.write(block)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    if not (raw_dir / "train2").is_dir():
        extract_zip(raw_dir / "train2.zip", raw_dir)

    by_day: dict[str, list[Path]] = {}
    for clip in (raw_dir / "train2").iterdir():
        by_day.setdefault(clip.name.split("_")[0], []).append(clip)
    days = sorted(by_day)
    if len(days) != 4:
        raise ValueError(f"expected training clips from 4 days, found {len(days)}: {days}")
    train = sorted(by_day[days[0]] + by_day[days[1]])
    test = sorted(by_day[days[2]] + by_day[days[3]])

    train_members = [
        (clip, re.sub(r"TRAIN\d+", f"TRAIN{i}", clip.name)) for i, clip in enumerate(train)
    ]
    test_members = [
        (clip, clip.name.split("TRAIN")[0] + f"Test{i}.aif") for i, clip in enumerate(test)
    ]
    _write_zip(public_dir / "train2.zip", "train2", train_members)
    _write_zip(public_dir / "test2.zip", "test2", test_members)

    answers = pd.DataFrame(
        {
            "clip": [name for _, name in test_members],
            "probability": [1 if clip.stem.endswith("_1") else 0 for clip in test],
        }
    )
    answers.to_csv(private_dir / "test.csv", index=False)
    sample = answers.copy()
    sample["probability"] = 0
    sample.to_csv(public_dir / "sampleSubmission.csv", index=False)
