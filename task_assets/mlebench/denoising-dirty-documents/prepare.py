"""Data preparation for denoising-dirty-documents.

Kaggle's zip holds inner archives: ``train.zip`` (``train/<n>.png``, 144 noisy
scans), ``train_cleaned.zip`` (``train_cleaned/<n>.png``, their clean versions),
``test.zip`` (unlabelled scans, unused here) and a zipped sample submission.

MLE-bench unpacks ``train.zip`` into the public folder, sorts the noisy images by
path and splits that list with scikit-learn's ``train_test_split(test_size=0.2,
random_state=0)`` (115 / 29 images). The held-out noisy images move to
``public/test/``; ``train_cleaned.zip`` is unpacked into the public folder too and
the clean versions of the held-out images are taken out of it. Those clean
images, read as 8-bit grayscale (Pillow's ``convert("L")``) and divided by 255,
become the private ``answers.csv``: one row per pixel, ``id`` =
``<image>_<row>_<col>`` (1-based), images in sorted order, pixels row by row.
``sampleSubmission.csv`` repeats those ids with ``value`` 1.

The PNG reader below (numpy + zlib) covers the non-interlaced 1/2/4/8-bit
grayscale, grayscale+alpha, RGB, RGBA and palette images and converts them to
grayscale with Pillow's integer formula, so Pillow is not needed.
"""

from __future__ import annotations

import shutil
import struct
import tempfile
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring import extract_zip, train_test_split_like_sklearn

TEST_SIZE = 0.2

# ---------------------------------------------------------------------------
# PNG decoding
# ---------------------------------------------------------------------------

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # samples per pixel by PNG colour type


class PNGError(ValueError):
    """A PNG file this reader cannot decode."""


def _chunks(data: bytes, name: str) -> dict[bytes, list[bytes]]:
    if not data.startswith(_SIGNATURE):
        raise PNGError(f"{name}: not a PNG file")
    found: dict[bytes, list[bytes]] = {}
    pos = len(_SIGNATURE)
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if len(body) != length:
            raise PNGError(f"{name}: truncated {kind!r} chunk")
        found.setdefault(kind, []).append(body)
        pos += 12 + length  # length, type, body, CRC
        if kind == b"IEND":
            break
    if b"IHDR" not in found or b"IDAT" not in found:
        raise PNGError(f"{name}: IHDR or IDAT chunk missing")
    return found


def _unfilter(raw: bytes, height: int, stride: int, bpp: int, name: str) -> np.ndarray:
    """Undo the per-scanline PNG filters; returns (height, stride) uint8."""
    if len(raw) < height * (stride + 1):
        raise PNGError(f"{name}: image data is shorter than the header promises")
    out = np.zeros((height, stride), dtype=np.uint8)
    prior = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        if kind == 1:  # Sub
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:  # Up
            summed = np.frombuffer(line, np.uint8) + np.frombuffer(prior, np.uint8)  # wraps
            line = bytearray(summed.tobytes())
        elif kind == 3:  # Average
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prior[i]) >> 1)) & 0xFF
        elif kind == 4:  # Paeth
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prior[i]
                c = prior[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        elif kind != 0:
            raise PNGError(f"{name}: unknown filter type {kind} on row {y}")
        out[y] = np.frombuffer(line, np.uint8)
        prior = line
    return out


def _samples(rows: np.ndarray, width: int, channels: int, depth: int) -> np.ndarray:
    """(height, width, channels) integer samples from unfiltered scanlines."""
    height = rows.shape[0]
    if depth == 8:
        return rows[:, : width * channels].reshape(height, width, channels)
    if depth == 16:
        wide = rows[:, : width * channels * 2].reshape(height, width * channels, 2)
        values = wide[..., 0].astype(np.uint16) << 8 | wide[..., 1]
        return values.reshape(height, width, channels)
    # 1, 2 or 4 bits per sample (one channel only), most significant bits first
    shifts = np.arange(8 - depth, -1, -depth, dtype=np.uint8)
    unpacked = (rows[:, :, None] >> shifts) & ((1 << depth) - 1)
    return unpacked.reshape(height, -1)[:, :width].reshape(height, width, 1)


def _luma(rgb: np.ndarray) -> np.ndarray:
    """Pillow's RGB to L conversion: (19595 R + 38470 G + 7471 B + 32768) >> 16."""
    r, g, b = (rgb[..., k].astype(np.uint32) for k in range(3))
    return ((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16).astype(np.uint8)


def read_png_gray(path: Path) -> np.ndarray:
    """A PNG as a (height, width) uint8 array, as Pillow's ``Image.open(p).convert("L")``."""
    name = str(path)
    chunks = _chunks(path.read_bytes(), name)
    header = chunks[b"IHDR"][0]
    width, height, depth, colour, method, filtering, interlace = struct.unpack(">IIBBBBB", header)
    if colour not in _CHANNELS or method != 0 or filtering != 0:
        raise PNGError(f"{name}: unsupported PNG header (colour type {colour})")
    if interlace != 0:
        raise PNGError(f"{name}: interlaced PNGs are not supported")
    channels = _CHANNELS[colour]
    allowed = {0: (1, 2, 4, 8), 3: (1, 2, 4, 8)}.get(colour, (8,))
    if depth not in allowed:
        raise PNGError(f"{name}: bit depth {depth} with colour type {colour} is not supported")
    bits_per_pixel = channels * depth
    stride = (width * bits_per_pixel + 7) // 8
    bpp = max(1, bits_per_pixel // 8)
    try:
        raw = zlib.decompress(b"".join(chunks[b"IDAT"]))
    except zlib.error as exc:
        raise PNGError(f"{name}: corrupt image data ({exc})") from exc
    samples = _samples(_unfilter(raw, height, stride, bpp, name), width, channels, depth)
    if colour == 0:  # grayscale; low bit depths are stretched to 0..255 as Pillow does
        return (samples[..., 0].astype(np.uint32) * (255 // ((1 << depth) - 1))).astype(np.uint8)
    if colour == 4:  # grayscale + alpha: the alpha is dropped
        return samples[..., 0].astype(np.uint8)
    if colour == 3:  # palette: look up RGB entries, then the luma formula
        if b"PLTE" not in chunks:
            raise PNGError(f"{name}: palette image without a PLTE chunk")
        palette = np.frombuffer(chunks[b"PLTE"][0], np.uint8).reshape(-1, 3)
        index = samples[..., 0]
        if int(index.max(initial=0)) >= len(palette):
            raise PNGError(f"{name}: palette index out of range")
        return _luma(palette[index])
    return _luma(samples[..., :3])  # RGB or RGBA


# ---------------------------------------------------------------------------
# Preparation
# ---------------------------------------------------------------------------


def pixel_table(path: Path) -> pd.DataFrame:
    """One row per pixel of a clean image: ``id`` = ``<stem>_<row>_<col>``, ``value`` in [0, 1]."""
    gray = read_png_gray(path)
    rows, cols = gray.shape
    row_no = np.repeat(np.arange(1, rows + 1), cols)
    col_no = np.tile(np.arange(1, cols + 1), rows)
    ids = [f"{path.stem}_{r}_{c}" for r, c in zip(row_no.tolist(), col_no.tolist(), strict=True)]
    return pd.DataFrame({"id": ids, "value": gray.reshape(-1) / 255.0})


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    extract_zip(raw_dir / "train.zip", public_dir)
    noisy = sorted((public_dir / "train").glob("*.png"))
    names = pd.DataFrame({"name": [p.name for p in noisy]})
    _, held_out = train_test_split_like_sklearn(names, test_size=TEST_SIZE, random_state=0)
    test_names = set(held_out["name"])

    (public_dir / "test").mkdir(exist_ok=True)
    for path in noisy:
        if path.name in test_names:
            shutil.move(path, public_dir / "test" / path.name)

    extract_zip(raw_dir / "train_cleaned.zip", public_dir)
    with tempfile.TemporaryDirectory(dir=raw_dir) as scratch:
        clean_test = Path(scratch)
        for path in (public_dir / "train_cleaned").glob("*.png"):
            if path.name in test_names:
                shutil.move(path, clean_test / path.name)
        tables = [pixel_table(p) for p in sorted(clean_test.glob("*.png"))]
    if not tables:
        raise FileNotFoundError("train_cleaned.zip holds none of the held-out images")
    answers = pd.concat(tables, ignore_index=True)
    answers.to_csv(private_dir / "answers.csv", index=False)
    sample = answers.copy()
    sample["value"] = 1
    sample.to_csv(public_dir / "sampleSubmission.csv", index=False)
