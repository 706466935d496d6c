"""Reading a submission CSV without trusting it.

:func:`read_submission` is the only way grading code opens a CSV written by an
agent (and, for uniformity, the private answers too). Every problem with the
file becomes an :class:`InvalidSubmission` whose message names the problem; no
``OSError``, ``UnicodeDecodeError``, ``csv.Error`` or pandas exception escapes.

All cells are read as text, exactly as written (no NA detection, no type
inference), so ids compare as strings and type checks happen later, in
:mod:`mle_gym.grading.validation`, with messages that name the column.
"""

from __future__ import annotations

import csv
import io
import os
import stat
from pathlib import Path

import pandas as pd

from mle_gym.grading.errors import InvalidSubmission
from mle_gym.tasks import SubmissionSpec

_BOM = "\ufeff"
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def read_submission(path: Path, spec: SubmissionSpec, *, max_bytes: int) -> pd.DataFrame:
    """Read the CSV at ``path`` into a frame of strings, or raise :class:`InvalidSubmission`.

    Contract:

    * ``path`` must be a regular file (not a directory, FIFO, device or
      symlink; callers grade a private copy) of 1 to ``max_bytes`` bytes,
      valid UTF-8 without NUL bytes. A leading UTF-8 byte-order mark is dropped.
    * The first non-blank line is the header; every following record must have
      as many fields as the header (blank lines are skipped), and there must be
      at least one record after the header.
    * The result has one column per header field, in file order (duplicate
      names are kept, so validation can report them), one row per record, a
      fresh ``RangeIndex`` and every cell as ``str``, exactly as written.

    ``spec`` only makes the messages more helpful (the expected header).
    """
    return read_table(
        path, max_bytes=max_bytes, header_hint=",".join((spec.id_column, *spec.target_columns))
    )


def read_table(
    path: Path, *, max_bytes: int, header_hint: str = "the expected columns"
) -> pd.DataFrame:
    """:func:`read_submission` without a submission spec: any CSV, every cell as ``str``."""
    name = path.name or str(path)
    data = _read_bytes(path, name, max_bytes)
    text = _decode(data, name)
    if not text.strip():
        raise InvalidSubmission(
            f"{name} contains only whitespace; write a header line ({header_hint}) "
            "followed by one row per id"
        )
    width, n_records = _check_structure(text, name)
    if n_records == 0:
        raise InvalidSubmission(
            f"{name} has a header line but no data rows; write one row per id under the "
            f"header {header_hint}"
        )
    return _to_frame(text, name, width, n_records)


def _read_bytes(path: Path, name: str, max_bytes: int) -> bytes:
    """The file's bytes, after checking it is a small enough regular file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise InvalidSubmission(f"{name} does not exist; write the submission file first") from None
    except OSError as exc:
        raise InvalidSubmission(f"{name} cannot be inspected: {exc.strerror or exc}") from None
    if stat.S_ISLNK(info.st_mode):
        raise InvalidSubmission(f"{name} is a symbolic link; write a regular file instead")
    if stat.S_ISDIR(info.st_mode):
        raise InvalidSubmission(f"{name} is a directory, not a CSV file")
    if not stat.S_ISREG(info.st_mode):
        raise InvalidSubmission(f"{name} is not a regular file (FIFO, socket or device)")
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise InvalidSubmission(f"{name} cannot be opened: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # replaced between lstat and open
            raise InvalidSubmission(f"{name} is not a regular file")
        _check_size(info.st_size, name, max_bytes)
        data = _read_at_most(fd, max_bytes + 1)
    except OSError as exc:
        raise InvalidSubmission(f"{name} cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    _check_size(len(data), name, max_bytes)
    return data


def _read_at_most(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from ``fd``, stopping at end of file."""
    chunks: list[bytes] = []
    total = 0
    while total < limit:
        chunk = os.read(fd, min(limit - total, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _check_size(size: int, name: str, max_bytes: int) -> None:
    if size == 0:
        raise InvalidSubmission(
            f"{name} is empty (0 bytes); write a header line and one row per id"
        )
    if size > max_bytes:
        raise InvalidSubmission(
            f"{name} is {size:,} bytes, larger than the {max_bytes:,}-byte limit; "
            "a submission should hold only the id and prediction columns"
        )


def _decode(data: bytes, name: str) -> str:
    """UTF-8 text without a BOM; binary content is rejected."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InvalidSubmission(
            f"{name} contains NUL bytes (first at byte {nul}); it looks like a binary file, "
            "not a CSV text file"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidSubmission(
            f"{name} is not valid UTF-8 text (invalid byte at position {exc.start}); "
            "save the CSV with UTF-8 encoding"
        ) from None
    return text.removeprefix(_BOM)


def _check_structure(text: str, name: str) -> tuple[int, int]:
    """(header width, number of data records); raise on ragged or malformed records.

    Blank lines (empty or whitespace only) are skipped, as pandas does.
    """
    # A file that fits the byte limit cannot hold a longer field; the csv
    # module's default limit (128 KiB) is too small for long text cells.
    needed = min(len(text) + 1, 2**31 - 1)
    if csv.field_size_limit() < needed:
        csv.field_size_limit(needed)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    width = 0
    records = 0
    try:
        for row in reader:
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if width == 0:
                width = len(row)
                continue
            if len(row) != width:
                raise InvalidSubmission(
                    f"{name} is not a well-formed CSV: line {reader.line_num} has "
                    f"{len(row)} field(s) but the header has {width}; every row needs "
                    "one value per column (quote values that contain commas)"
                )
            records += 1
    except csv.Error as exc:
        raise InvalidSubmission(
            f"{name} is not a well-formed CSV: line {reader.line_num}: {exc} "
            "(look for an unbalanced double quote)"
        ) from None
    return width, records


def _to_frame(text: str, name: str, width: int, n_records: int) -> pd.DataFrame:
    """Parse with pandas (fast C parser), header row kept as data so duplicates survive."""
    try:
        raw = pd.read_csv(
            io.StringIO(text),
            header=None,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=True,
            engine="c",
        )
    except Exception as exc:  # any parser failure is the file's fault
        raise InvalidSubmission(f"{name} is not a parseable CSV file: {exc}".strip()) from None
    if raw.shape != (n_records + 1, width):
        raise InvalidSubmission(
            f"{name} could not be parsed consistently ({n_records} data rows expected, "
            f"{raw.shape[0] - 1} parsed); remove stray quotes and whitespace-only lines"
        )
    header = [str(v) for v in raw.iloc[0].tolist()]
    frame = raw.iloc[1:].reset_index(drop=True)
    frame.columns = pd.Index(header, dtype=object)
    return frame
