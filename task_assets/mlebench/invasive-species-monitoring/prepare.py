"""Data preparation for invasive-species-monitoring.

Kaggle's zip holds four archives: ``train.7z`` (folder ``train/`` with 2,295
JPEG photos named ``<name>.jpg``), ``test.7z`` (the unlabelled photos, unused
here), ``train_labels.csv.zip`` (``name,invasive``) and
``sample_submission.csv.zip``. MLE-bench keeps only the labelled photos and
splits ``train_labels.csv`` with scikit-learn's
``train_test_split(test_size=0.2, random_state=0)``: 1,836 photos stay for
training, the 459 held out become the test set and ``private/answers.csv``.

Files written:

* ``public/train_labels.csv`` — the training rows (``name,invasive``);
* ``public/train/<name>.jpg`` and ``public/test/<name>.jpg`` — the photos,
  byte for byte as stored in ``train.7z``;
* ``public/sample_submission.csv`` and ``private/sample_submission.csv`` — the
  test names in answers order, every ``invasive`` 0.5;
* ``private/answers.csv`` — the held-out rows.

MLE-bench re-packs the public part as ``train.7z``, ``test.7z``,
``train_labels.csv.zip`` and ``sample_submission.csv.zip``. Here the public
files stay unpacked (the same bytes inside): the agent's sandbox has no 7z
tool, and the environment reads the sample submission as a plain CSV.

The photos are read straight out of ``train.7z`` by a small 7z reader built
on the standard library (LZMA, LZMA2, BCJ/Delta filters, Deflate, BZip2, plain
copy; the coders 7-Zip uses by default), so no extra package is needed.
Archive member names are only compared with the expected names; every output
path is built from the label file, never from the archive.
"""

from __future__ import annotations

import bz2
import io
import lzma
import math
import stat
import struct
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path

import pandas as pd

from mle_gym.data.csvio import read_csv_exact
from mle_gym.data.kaggle import MAX_UNCOMPRESSED
from mle_gym.data.splits import train_test_split_like_sklearn

ID = "name"
TARGET = "invasive"
TEST_SIZE = 0.2
MAX_CSV_BYTES = 1 << 30


def _read_zipped_csv(archive: Path, member: str) -> pd.DataFrame:
    """Read one CSV member of a zip (size-capped) exactly as MLE-bench's read_csv does."""
    with zipfile.ZipFile(archive) as zf:
        info = zf.getinfo(member)
        if info.file_size > MAX_CSV_BYTES:
            raise ValueError(f"{archive.name}: {member} is implausibly large ({info.file_size})")
        data = zf.read(info)
    return read_csv_exact(io.BytesIO(data))


def split(labels: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(new train, answers, sample submission) as MLE-bench derives them."""
    # scikit-learn's count for a fractional test_size (train gets the rest)
    n_test = math.ceil(TEST_SIZE * len(labels))
    new_train, answers = train_test_split_like_sklearn(labels, test_size=n_test, random_state=0)
    sample = answers.copy()
    sample[TARGET] = 0.5
    return new_train, answers, sample


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    labels = _read_zipped_csv(raw_dir / "train_labels.csv.zip", "train_labels.csv")
    new_train, answers, sample = split(labels)
    if not (new_train[ID].is_unique and answers[ID].is_unique):
        raise ValueError("train_labels.csv: image names are not unique")

    answers.to_csv(private_dir / "answers.csv", index=False)
    sample.to_csv(private_dir / "sample_submission.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    new_train.to_csv(public_dir / "train_labels.csv", index=False)

    targets: dict[str, Path] = {}
    for folder, frame in (("train", new_train), ("test", answers)):
        (public_dir / folder).mkdir()
        for name in frame[ID].astype(str):
            targets[f"train/{name}.jpg"] = public_dir / folder / f"{name}.jpg"
    found = extract_7z_members(raw_dir / "train.7z", targets)
    missing = sorted(set(targets) - found)
    if missing:
        raise ValueError(
            f"train.7z lacks {len(missing)} labelled photo(s), e.g. {', '.join(missing[:3])}"
        )


# ---------------------------------------------------------------------------
# A minimal 7z reader (standard library only)
# ---------------------------------------------------------------------------
#
# Layout of a 7z file: a 32-byte signature header pointing at the "next
# header" at the end of the file; packed streams in between. The header may
# itself be packed ("encoded header"). Folders are coder chains turning one
# packed stream into one output stream, which is cut into the files' contents
# ("substreams") in file order.


class SevenZipError(ValueError):
    """The archive is malformed or uses a feature this reader does not support."""


_SIGNATURE = b"7z\xbc\xaf\x27\x1c"
_CHUNK = 1 << 20

(
    _END,
    _HEADER,
    _ARCHIVE_PROPERTIES,
    _ADDITIONAL_STREAMS,
    _MAIN_STREAMS,
    _FILES_INFO,
    _PACK_INFO,
    _UNPACK_INFO,
    _SUBSTREAMS_INFO,
    _SIZE,
    _CRC,
    _FOLDER,
    _CODERS_UNPACK_SIZE,
    _NUM_UNPACK_STREAM,
    _EMPTY_STREAM,
    _EMPTY_FILE,
) = range(16)
_NAME = 0x11
_WIN_ATTRIBUTES = 0x15
_ENCODED_HEADER = 0x17

_COPY = b"\x00"
_LZMA = b"\x03\x01\x01"
_LZMA2 = b"\x21"
_DELTA = b"\x03"
_DEFLATE = b"\x04\x01\x08"
_BZIP2 = b"\x04\x02\x02"
_AES = b"\x06\xf1\x07\x01"
_BRANCH_FILTERS = {
    b"\x03\x03\x01\x03": lzma.FILTER_X86,
    b"\x03\x03\x02\x05": lzma.FILTER_POWERPC,
    b"\x03\x03\x04\x01": lzma.FILTER_IA64,
    b"\x03\x03\x05\x01": lzma.FILTER_ARM,
    b"\x03\x03\x07\x01": lzma.FILTER_ARMTHUMB,
    b"\x03\x03\x08\x05": lzma.FILTER_SPARC,
}
_ATTR_DIRECTORY = 0x10
_ATTR_UNIX_EXTENSION = 0x8000


class _Cursor:
    """Sequential reads from a header buffer."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise SevenZipError("truncated 7z header")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def byte(self) -> int:
        return self.take(1)[0]

    def number(self) -> int:
        """7z's variable-length integer: leading 1-bits of the first byte count extra bytes."""
        first = self.byte()
        mask = 0x80
        value = 0
        for i in range(8):
            if not first & mask:
                return value | ((first & (mask - 1)) << (8 * i))
            value |= self.byte() << (8 * i)
            mask >>= 1
        return value

    def uint32(self) -> int:
        return int.from_bytes(self.take(4), "little")

    def bits(self, n: int) -> list[bool]:
        raw = self.take((n + 7) // 8)
        return [bool(raw[i // 8] & (0x80 >> (i % 8))) for i in range(n)]

    def defined(self, n: int) -> list[bool]:
        return [True] * n if self.byte() else self.bits(n)

    def expect(self, marker: int, where: str) -> None:
        got = self.number()
        if got != marker:
            raise SevenZipError(f"7z {where}: expected property {marker:#x}, found {got:#x}")


class _Coder:
    """One coder of a folder: method id, properties, stream counts."""

    def __init__(self, method: bytes, props: bytes, n_in: int, n_out: int) -> None:
        self.method, self.props, self.n_in, self.n_out = method, props, n_in, n_out


class _Folder:
    """A coder chain: its bind pairs, packed inputs, output sizes and substreams."""

    def __init__(self, coders: list[_Coder], binds: list[tuple[int, int]], packed: list[int]):
        self.coders = coders
        self.binds = binds  # (coder input stream, coder output stream feeding it)
        self.packed = packed  # coder input streams read from packed streams
        self.unpack_sizes: list[int] = []
        self.crc: int | None = None
        self.sub_sizes: list[int] = []
        self.sub_crcs: list[int | None] = []

    @property
    def main_out(self) -> int:
        bound = {out for _, out in self.binds}
        free = [i for i in range(sum(c.n_out for c in self.coders)) if i not in bound]
        if len(free) != 1:
            raise SevenZipError("7z folder without a single final output")
        return free[0]

    @property
    def size(self) -> int:
        return self.unpack_sizes[self.main_out]


class _Streams:
    """Packed streams (position, sizes) and the folders decoding them."""

    def __init__(self) -> None:
        self.pack_pos = 0
        self.pack_sizes: list[int] = []
        self.folders: list[_Folder] = []


class _Entry:
    """A file, directory or link listed in the header."""

    def __init__(self, name: str, has_stream: bool, is_dir: bool, is_link: bool) -> None:
        self.name, self.has_stream, self.is_dir, self.is_link = name, has_stream, is_dir, is_link


def _digests(cur: _Cursor, n: int) -> list[int | None]:
    return [cur.uint32() if ok else None for ok in cur.defined(n)]


def _pack_info(cur: _Cursor, streams: _Streams) -> None:
    streams.pack_pos = cur.number()
    n = cur.number()
    streams.pack_sizes = [0] * n
    while (prop := cur.number()) != _END:
        if prop == _SIZE:
            streams.pack_sizes = [cur.number() for _ in range(n)]
        elif prop == _CRC:
            _digests(cur, n)
        else:
            raise SevenZipError(f"7z pack info: unexpected property {prop:#x}")


def _folder(cur: _Cursor) -> _Folder:
    coders = []
    for _ in range(cur.number()):
        flags = cur.byte()
        if flags & 0x80:
            raise SevenZipError("7z coder with alternative methods is not supported")
        method = cur.take(flags & 0x0F)
        n_in, n_out = (cur.number(), cur.number()) if flags & 0x10 else (1, 1)
        props = cur.take(cur.number()) if flags & 0x20 else b""
        coders.append(_Coder(method, props, n_in, n_out))
    total_in = sum(c.n_in for c in coders)
    total_out = sum(c.n_out for c in coders)
    binds = [(cur.number(), cur.number()) for _ in range(total_out - 1)]
    n_packed = total_in - len(binds)
    if n_packed == 1:
        bound_in = {i for i, _ in binds}
        packed = [i for i in range(total_in) if i not in bound_in][:1]
    else:
        packed = [cur.number() for _ in range(n_packed)]
    return _Folder(coders, binds, packed)


def _unpack_info(cur: _Cursor, streams: _Streams) -> None:
    cur.expect(_FOLDER, "unpack info")
    n = cur.number()
    if cur.byte():
        raise SevenZipError("7z folders stored outside the header are not supported")
    streams.folders = [_folder(cur) for _ in range(n)]
    cur.expect(_CODERS_UNPACK_SIZE, "unpack info")
    for folder in streams.folders:
        folder.unpack_sizes = [cur.number() for _ in range(sum(c.n_out for c in folder.coders))]
    while (prop := cur.number()) != _END:
        if prop != _CRC:
            raise SevenZipError(f"7z unpack info: unexpected property {prop:#x}")
        for folder, crc in zip(streams.folders, _digests(cur, n), strict=True):
            folder.crc = crc


def _substreams_info(cur: _Cursor, folders: list[_Folder]) -> None:
    counts = [1] * len(folders)
    prop = cur.number()
    if prop == _NUM_UNPACK_STREAM:
        counts = [cur.number() for _ in folders]
        prop = cur.number()
    for folder, count in zip(folders, counts, strict=True):
        sizes = [cur.number() for _ in range(count - 1)] if prop == _SIZE and count else []
        if count > 1 and prop != _SIZE:
            raise SevenZipError("7z substream sizes are missing")
        folder.sub_sizes = [*sizes, folder.size - sum(sizes)] if count else []
        known = count == 1 and folder.crc is not None
        folder.sub_crcs = [folder.crc] if known else [None] * count
    if prop == _SIZE:
        prop = cur.number()
    while prop != _END:
        if prop != _CRC:
            raise SevenZipError(f"7z substreams info: unexpected property {prop:#x}")
        unknown = [f for f in folders if not (len(f.sub_sizes) == 1 and f.crc is not None)]
        values = iter(_digests(cur, sum(len(f.sub_sizes) for f in unknown)))
        for folder in unknown:
            folder.sub_crcs = [next(values) for _ in folder.sub_sizes]
        prop = cur.number()


def _streams_info(cur: _Cursor) -> _Streams:
    streams = _Streams()
    prop = cur.number()
    if prop == _PACK_INFO:
        _pack_info(cur, streams)
        prop = cur.number()
    if prop == _UNPACK_INFO:
        _unpack_info(cur, streams)
        prop = cur.number()
    if prop == _SUBSTREAMS_INFO:
        _substreams_info(cur, streams.folders)
        prop = cur.number()
    else:
        for folder in streams.folders:
            folder.sub_sizes, folder.sub_crcs = [folder.size], [folder.crc]
    if prop != _END:
        raise SevenZipError(f"7z streams info: unexpected property {prop:#x}")
    return streams


def _files_info(cur: _Cursor) -> list[_Entry]:
    n = cur.number()
    empty_stream = [False] * n
    empty_file: list[bool] = []
    names: list[str] = []
    attributes: list[int | None] = [None] * n
    while (prop := cur.number()) != _END:
        body = _Cursor(cur.take(cur.number()))
        if prop == _EMPTY_STREAM:
            empty_stream = body.bits(n)
        elif prop == _EMPTY_FILE:
            empty_file = body.bits(sum(empty_stream))
        elif prop == _NAME:
            if body.byte():
                raise SevenZipError("7z file names stored outside the header are not supported")
            names = body.take(len(body.data) - 1).decode("utf-16-le").split("\0")[:n]
        elif prop == _WIN_ATTRIBUTES:
            defined = body.defined(n)
            if body.byte():
                raise SevenZipError("7z attributes stored outside the header are not supported")
            attributes = [body.uint32() if ok else None for ok in defined]
        # times, anti-items, start positions and padding are not needed
    if len(names) != n:
        raise SevenZipError("7z header lists no name for some files")
    entries = []
    k = 0
    for i in range(n):
        attr = attributes[i] or 0
        is_dir = bool(attr & _ATTR_DIRECTORY)
        if empty_stream[i]:
            is_dir = is_dir or not (k < len(empty_file) and empty_file[k])
            k += 1
        is_link = bool(attr & _ATTR_UNIX_EXTENSION) and stat.S_ISLNK(attr >> 16)
        name = names[i].replace("\\", "/").removeprefix("./")
        entries.append(_Entry(name, not empty_stream[i], is_dir, is_link))
    return entries


def _lzma_filter(coder: _Coder, limit: int) -> dict:
    """An lzma-module filter spec for one 7z coder; dictionaries capped at the output size."""
    floor = 1 << 12
    if coder.method == _LZMA:
        if len(coder.props) != 5:
            raise SevenZipError("7z LZMA coder with malformed properties")
        d = coder.props[0]
        dict_size = int.from_bytes(coder.props[1:], "little")
        return {
            "id": lzma.FILTER_LZMA1,
            "dict_size": max(floor, min(dict_size, limit)),
            "lc": d % 9,
            "lp": (d // 9) % 5,
            "pb": d // 45,
        }
    if coder.method == _LZMA2:
        p = coder.props[0] if coder.props else 0
        if p > 40:
            raise SevenZipError("7z LZMA2 coder with malformed properties")
        dict_size = 0xFFFFFFFF if p == 40 else (2 | (p & 1)) << (p // 2 + 11)
        return {"id": lzma.FILTER_LZMA2, "dict_size": max(floor, min(dict_size, limit))}
    if coder.method == _DELTA:
        return {"id": lzma.FILTER_DELTA, "dist": (coder.props[0] if coder.props else 0) + 1}
    if coder.method in _BRANCH_FILTERS:
        if coder.props and any(coder.props):
            raise SevenZipError("7z branch filter with a start offset is not supported")
        return {"id": _BRANCH_FILTERS[coder.method]}
    raise SevenZipError(
        f"7z coder {coder.method.hex()} is not supported by the built-in reader "
        "(install py7zr and extract train.7z by hand)"
    )


class _Inflate:
    """zlib's raw inflater behind the needs_input/decompress interface of lzma and bz2."""

    def __init__(self) -> None:
        self._d = zlib.decompressobj(-15)

    @property
    def needs_input(self) -> bool:
        return not self._d.unconsumed_tail

    @property
    def eof(self) -> bool:
        return self._d.eof

    def decompress(self, data: bytes, max_length: int) -> bytes:
        return self._d.decompress(self._d.unconsumed_tail + data, max_length)


def _decoder(folder: _Folder):
    """A decompressor for the folder's coder chain, or None for plain copies."""
    if any(coder.n_in != 1 or coder.n_out != 1 for coder in folder.coders):
        raise SevenZipError("7z coders with several streams (BCJ2) are not supported")
    # With one input and one output per coder, coder k owns input stream k and output stream k.
    out_owner = {index: index for index in range(len(folder.coders))}
    in_first = list(range(len(folder.coders)))
    feeding = dict(folder.binds)
    chain = []  # from the final output back to the packed input
    stream = folder.main_out
    while True:
        index = out_owner[stream]
        chain.append(folder.coders[index])
        consumed = in_first[index]
        if consumed in folder.packed:
            break
        if consumed not in feeding or len(chain) > len(folder.coders):
            raise SevenZipError("7z folder with an unsupported coder graph")
        stream = feeding[consumed]
    chain = [c for c in chain if c.method != _COPY]
    if any(c.method == _AES for c in chain):
        raise SevenZipError("encrypted 7z archives are not supported")
    if not chain:
        return None
    if len(chain) == 1 and chain[0].method == _DEFLATE:
        return _Inflate()
    if len(chain) == 1 and chain[0].method == _BZIP2:
        return bz2.BZ2Decompressor()
    if chain[-1].method not in (_LZMA, _LZMA2):
        raise SevenZipError("7z coder chain not ending in LZMA/LZMA2 is not supported")
    filters = [_lzma_filter(c, folder.size) for c in chain]
    return lzma.LZMADecompressor(format=lzma.FORMAT_RAW, filters=filters)


def _folder_data(fh, streams: _Streams, index: int) -> Iterator[bytes]:
    """The folder's decoded output, in chunks, exactly ``folder.size`` bytes in total."""
    folder = streams.folders[index]
    if len(folder.packed) != 1:
        raise SevenZipError("7z folders with several packed streams are not supported")
    first = sum(len(f.packed) for f in streams.folders[:index])
    fh.seek(32 + streams.pack_pos + sum(streams.pack_sizes[:first]))
    packed_left = streams.pack_sizes[first]
    out_left = folder.size
    decoder = _decoder(folder)
    while out_left > 0:
        if decoder is None:
            chunk = fh.read(min(_CHUNK, out_left, packed_left))
            if not chunk:
                raise SevenZipError("7z packed stream is truncated")
            packed_left -= len(chunk)
        else:
            data = b""
            if decoder.needs_input:
                data = fh.read(min(_CHUNK, packed_left))
                packed_left -= len(data)
                if not data:
                    raise SevenZipError("7z packed stream ends before its declared size")
            try:
                chunk = decoder.decompress(data, min(_CHUNK, out_left))
            except (lzma.LZMAError, OSError, zlib.error, EOFError) as exc:
                raise SevenZipError(f"7z stream cannot be decoded: {exc}") from exc
            if not chunk and decoder.eof:
                raise SevenZipError("7z stream ends before its declared size")
        out_left -= len(chunk)
        if out_left < 0:
            raise SevenZipError("7z stream is longer than its declared size")
        yield chunk


def _read_exactly(chunks: Iterator[bytes], carry: list[bytes], n: int) -> Iterator[bytes]:
    """The next ``n`` bytes of ``chunks`` (``carry`` holds leftovers between calls)."""
    while n > 0:
        block = carry.pop() if carry else next(chunks, None)
        if block is None:
            raise SevenZipError("7z folder is shorter than its files")
        if len(block) > n:
            carry.append(block[n:])
            block = block[:n]
        n -= len(block)
        yield block


def _open_header(fh) -> tuple[_Streams, list[_Entry]]:
    start = fh.read(32)
    if len(start) != 32 or start[:6] != _SIGNATURE:
        raise SevenZipError("not a 7z archive")
    if start[6] != 0:
        raise SevenZipError(f"7z format version {start[6]}.{start[7]} is not supported")
    if zlib.crc32(start[12:32]) != int.from_bytes(start[8:12], "little"):
        raise SevenZipError("7z start header is corrupt (CRC mismatch)")
    offset, size, crc = struct.unpack("<QQI", start[12:32])
    if size > MAX_CSV_BYTES:
        raise SevenZipError("7z header is implausibly large")
    fh.seek(32 + offset)
    data = fh.read(size)
    if len(data) != size or zlib.crc32(data) != crc:
        raise SevenZipError("7z header is truncated or corrupt")
    cur = _Cursor(data)
    prop = cur.number()
    while prop == _ENCODED_HEADER:
        packed = _streams_info(cur)
        if len(packed.folders) != 1 or packed.folders[0].size > MAX_CSV_BYTES:
            raise SevenZipError("7z encoded header is malformed")
        data = b"".join(_folder_data(fh, packed, 0))
        if packed.folders[0].crc is not None and zlib.crc32(data) != packed.folders[0].crc:
            raise SevenZipError("7z encoded header is corrupt (CRC mismatch)")
        cur = _Cursor(data)
        prop = cur.number()
    if prop != _HEADER:
        raise SevenZipError(f"7z header starts with unexpected property {prop:#x}")
    streams, entries = _Streams(), []
    prop = cur.number()
    if prop == _ARCHIVE_PROPERTIES:
        while cur.number() != _END:
            cur.take(cur.number())
        prop = cur.number()
    if prop == _ADDITIONAL_STREAMS:
        raise SevenZipError("7z additional streams are not supported")
    if prop == _MAIN_STREAMS:
        streams = _streams_info(cur)
        prop = cur.number()
    if prop == _FILES_INFO:
        entries = _files_info(cur)
        prop = cur.number()
    if prop != _END:
        raise SevenZipError(f"7z header: unexpected property {prop:#x}")
    return streams, entries


def extract_7z_members(
    archive: Path, targets: Mapping[str, Path], max_bytes: int = MAX_UNCOMPRESSED
) -> set[str]:
    """Write the 7z members named in ``targets`` (archive path -> output file).

    Member names are compared after turning ``\\`` into ``/`` and dropping a
    leading ``./``. Only the folders holding a wanted member are decoded, each
    up to its last wanted member; every member read is checked against its
    stored CRC. Returns the names written. Symbolic links, directories and
    members whose total size exceeds ``max_bytes`` are refused with
    :class:`SevenZipError`.
    """
    with open(archive, "rb") as fh:
        streams, entries = _open_header(fh)
        plan: list[list[str | None]] = [[] for _ in streams.folders]
        sizes = iter(
            (fi, size, crc)
            for fi, folder in enumerate(streams.folders)
            for size, crc in zip(folder.sub_sizes, folder.sub_crcs, strict=True)
        )
        wanted_bytes = 0
        empty: list[str] = []
        for entry in entries:
            keep = entry.name in targets
            if keep and (entry.is_link or entry.is_dir):
                raise SevenZipError(f"7z member {entry.name!r} is not a regular file")
            if not entry.has_stream:
                if keep:
                    empty.append(entry.name)
                continue
            located = next(sizes, None)
            if located is None:
                raise SevenZipError("7z header lists more files than streams")
            fi, size, _ = located
            wanted_bytes += size if keep else 0
            plan[fi].append(entry.name if keep else None)
        if wanted_bytes > max_bytes:
            raise SevenZipError(f"7z members to extract exceed the {max_bytes}-byte cap")

        written: set[str] = set()
        for name in empty:
            targets[name].write_bytes(b"")
            written.add(name)
        for fi, folder in enumerate(streams.folders):
            names = plan[fi]
            if not any(names):
                continue
            last = max(i for i, name in enumerate(names) if name)
            chunks = _folder_data(fh, streams, fi)
            carry: list[bytes] = []
            for i in range(last + 1):
                name, size, crc = names[i], folder.sub_sizes[i], folder.sub_crcs[i]
                out = open(targets[name], "wb") if name else None  # noqa: SIM115
                try:
                    running = 0
                    for block in _read_exactly(chunks, carry, size):
                        running = zlib.crc32(block, running)
                        if out is not None:
                            out.write(block)
                finally:
                    if out is not None:
                        out.close()
                if crc is not None and running != crc:
                    raise SevenZipError(f"7z member {name or i!r} is corrupt (CRC mismatch)")
                if name:
                    written.add(name)
            chunks.close()
    return written
