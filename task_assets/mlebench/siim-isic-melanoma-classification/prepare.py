"""Data preparation for siim-isic-melanoma-classification.

Kaggle's zip holds ``train.csv`` (33,126 labelled skin-lesion images: ``image_name``,
``patient_id``, ``sex``, ``age_approx``, ``anatom_site_general_challenge``,
``diagnosis``, ``benign_malignant``, ``target``), ``test.csv`` and
``sample_submission.csv`` for Kaggle's unlabelled test set, the images as DICOM
(``train/``, ``test/``, ``<image_name>.dcm``) and JPEG (``jpeg/train/``,
``jpeg/test/``), and TFRecord shards ``tfrecords/train<NN>-<count>.tfrec`` and
``tfrecords/test<NN>-<count>.tfrec``.

MLE-bench splits along the TFRecord shards: the images stored in
``train00-2071.tfrec`` and ``train06-2071.tfrec`` (4,142) become the test set,
everything else stays for training. Finding those images means reading the
``image_name`` feature of every record in the two shards; the small reader below
does that with the standard library (no TensorFlow), without touching the image
bytes. Then:

* ``train.csv`` - the remaining labelled rows, all columns;
* ``test.csv`` - the test rows' ``image_name``, ``patient_id``, ``sex``,
  ``age_approx``, ``anatom_site_general_challenge``;
* ``sample_submission.csv`` - test ``image_name`` with ``target`` 0;
* ``train/`` + ``jpeg/train/`` and ``test/`` + ``jpeg/test/`` - the DICOM and JPEG
  files of each part, copied from Kaggle's training images;
* ``tfrecords/`` - Kaggle's sixteen training shards, the two test shards renamed
  ``test00-2071.tfrec`` and ``test01-2071.tfrec``, the others renumbered
  ``train00``..``train13`` (record counts kept in the names). Kaggle's test shards,
  DICOMs and JPEGs are not used.

The private ``test.csv`` holds ``image_name`` and ``target`` of the test rows.
The training shards carry a ``target`` feature, so the two renamed test shards
expose the test labels (see ``leakage`` in task.yaml); MLE-bench ships them, and
so does this preparation.
"""

from __future__ import annotations

import shutil
import struct
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

TEST_SHARDS = ("train00-2071.tfrec", "train06-2071.tfrec")
ID = "image_name"
TEST_COLUMNS = [ID, "patient_id", "sex", "age_approx", "anatom_site_general_challenge"]


class TFRecordError(ValueError):
    """A file that is not a well-formed TFRecord of ``tf.train.Example`` records."""


# ---------------------------------------------------------------------------
# TFRecord reading
# ---------------------------------------------------------------------------
#
# A TFRecord file is a sequence of records: little-endian uint64 length, a
# masked CRC-32C of those 8 bytes, the payload, a masked CRC-32C of the payload.
# The payload is a serialized tf.train.Example protocol buffer:
#   Example  { Features features = 1; }
#   Features { map<string, Feature> feature = 1; }   (entries: key = 1, value = 2)
#   Feature  { BytesList bytes_list = 1; FloatList float_list = 2; Int64List int64_list = 3; }
#   BytesList { repeated bytes value = 1; }
# The length's checksum is verified (it catches files that are not TFRecords);
# the payload's is not, to avoid hashing gigabytes of JPEG bytes in Python.


def _crc32c_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC_TABLE = _crc32c_table()


def _masked_crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _records(path: Path) -> Iterator[bytes]:
    """The payloads of the records of a TFRecord file, in order."""
    with open(path, "rb") as f:
        while header := f.read(12):
            if len(header) != 12:
                raise TFRecordError(f"{path.name}: truncated record header")
            (length,) = struct.unpack("<Q", header[:8])
            (crc,) = struct.unpack("<I", header[8:])
            if crc != _masked_crc32c(header[:8]):
                raise TFRecordError(f"{path.name}: bad length checksum (not a TFRecord file?)")
            payload = f.read(length)
            if len(payload) != length or len(f.read(4)) != 4:
                raise TFRecordError(f"{path.name}: truncated record")
            yield payload


def _varint(buf: memoryview, pos: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise TFRecordError("malformed protocol buffer varint")
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


def _fields(buf: memoryview) -> Iterator[tuple[int, memoryview | None]]:
    """(field number, value) of a message; the value of a length-delimited field as a view,
    None for the other wire types (skipped)."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 2:
            size, pos = _varint(buf, pos)
            if pos + size > len(buf):
                raise TFRecordError("protocol buffer field runs past its message")
            yield number, buf[pos : pos + size]
            pos += size
        elif wire == 0:
            _, pos = _varint(buf, pos)
            yield number, None
        elif wire in (1, 5):
            pos += 8 if wire == 1 else 4
            yield number, None
        else:
            raise TFRecordError(f"unsupported protocol buffer wire type {wire}")


def _submessages(buf: memoryview, number: int) -> Iterator[memoryview]:
    """The length-delimited values of field ``number`` of a message."""
    for n, value in _fields(buf):
        if n == number and value is not None:
            yield value


def example_bytes_feature(payload: bytes, name: str) -> bytes | None:
    """First value of the bytes feature ``name`` of a serialized Example (None if absent)."""
    wanted = name.encode()
    for features in _submessages(memoryview(payload), 1):
        for entry in _submessages(features, 1):
            parts = dict(_fields(entry))  # map entry: key = 1, value = 2
            key, feature = parts.get(1), parts.get(2)
            if key is None or feature is None or bytes(key) != wanted:
                continue
            for bytes_list in _submessages(feature, 1):
                for value in _submessages(bytes_list, 1):
                    return bytes(value)
    return None


def tfrecord_ids(path: Path, feature: str = ID) -> list[str]:
    """The ``feature`` string of every record of a TFRecord file, in order."""
    ids = []
    for i, payload in enumerate(_records(path)):
        value = example_bytes_feature(payload, feature)
        if value is None:
            raise TFRecordError(f"{path.name}: record {i} has no bytes feature {feature!r}")
        ids.append(value.decode("utf-8"))
    return ids


# ---------------------------------------------------------------------------
# Preparation
# ---------------------------------------------------------------------------


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    labelled = pd.read_csv(raw_dir / "train.csv")
    test_ids: list[str] = []
    for shard in TEST_SHARDS:
        test_ids.extend(tfrecord_ids(raw_dir / "tfrecords" / shard))

    in_test = labelled[ID].isin(test_ids)
    new_train = labelled[~in_test]
    new_test = labelled[in_test]
    test_features = new_test[TEST_COLUMNS].copy()
    answers = new_test[[ID, "target"]]
    sample = answers.copy()
    sample["target"] = 0

    new_train.to_csv(public_dir / "train.csv", index=False)
    test_features.to_csv(public_dir / "test.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    answers.to_csv(private_dir / "test.csv", index=False)

    for part, rows in (("train", new_train), ("test", answers)):
        dicom, jpeg = public_dir / part, public_dir / "jpeg" / part
        dicom.mkdir(parents=True)
        jpeg.mkdir(parents=True)
        for name in rows[ID]:
            shutil.copyfile(raw_dir / "train" / f"{name}.dcm", dicom / f"{name}.dcm")
            shutil.copyfile(raw_dir / "jpeg" / "train" / f"{name}.jpg", jpeg / f"{name}.jpg")

    shards = public_dir / "tfrecords"
    shards.mkdir()
    counters = {"train": 0, "test": 0}
    for shard in sorted((raw_dir / "tfrecords").glob("train*.tfrec")):
        count = shard.stem.split("-")[1]
        part = "test" if shard.name in TEST_SHARDS else "train"
        shutil.copyfile(shard, shards / f"{part}{counters[part]:02d}-{count}.tfrec")
        counters[part] += 1
