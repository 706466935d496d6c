"""Placing raw files (images, audio...) into the prepared folders, and label tables.

Preparation often moves thousands of files named after a row id from Kaggle's
training folder into ``public/train`` and ``public/test``. :func:`copy_images`
does it with hard links when source and destination share a filesystem (no
bytes copied) and plain copies otherwise; the prepared files are byte-identical
to the raw ones either way.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["copy_images", "one_hot", "place_file"]


def place_file(src: Path, dst: Path) -> None:
    """Hard-link ``src`` as ``dst`` when both are on one filesystem, else copy the bytes."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def copy_images(ids: Iterable[object], src_dir: Path, dst_dir: Path, suffix: str) -> None:
    """Place ``src_dir/<id><suffix>`` as ``dst_dir/<id><suffix>`` for every id, in order.

    ``dst_dir`` is created if absent (its parent must exist); ``suffix`` includes
    the dot (``".jpg"``). A missing source file raises FileNotFoundError.
    """
    dst_dir.mkdir(exist_ok=True)
    for image_id in ids:
        place_file(src_dir / f"{image_id}{suffix}", dst_dir / f"{image_id}{suffix}")


def one_hot(
    rows: pd.DataFrame, id_column: str, label_column: str, classes: Sequence[str], source: str
) -> pd.DataFrame:
    """``id_column`` plus one 0/1 int64 column per class (in ``classes`` order), rows kept.

    ValueError naming ``source`` (e.g. ``"labels.csv has breeds"``) when a label
    is not one of ``classes``.
    """
    unknown = sorted(set(rows[label_column]) - set(classes))
    if unknown:
        raise ValueError(f"{source} outside the known {len(classes)}: {unknown[:5]}")
    hits = rows[label_column].to_numpy()[:, None] == np.array(classes, dtype=object)[None, :]
    table = pd.DataFrame(hits.astype(np.int64), columns=list(classes), index=rows.index)
    table.insert(0, id_column, rows[id_column])
    return table
