"""Reading a submission CSV without trusting it.

:func:`read_submission` is the only way grading code opens a CSV written by an
agent (and, for uniformity, the private answers too). Every problem with the
file becomes an :class:`InvalidSubmission` whose message names the problem; no
``OSError``, ``UnicodeDecodeError``, ``csv.Error`` or pandas exception escapes.

All cells are read as text, exactly as written (no NA detection, no type
inference), so ids compare as strings and type checks happen later, in
:mod:`mle_gym.grading.validation`, with messages that name the column.

The structure (header width, one record per line, well-formed quoting) is
decided by Python's ``csv`` module in strict mode; the cells are then parsed by
a fast C parser (pyarrow's, about ten times faster than pandas' on large files)
and used only if it finds exactly the rows and columns the ``csv`` module found
(where it disagrees — it does not skip whitespace-only lines — the cells are the
``csv`` module's own). pandas' C parser is not used: on some inputs it shifts cells between
columns while keeping the row count (``\r\r,x`` loses the empty first cell).

A file without any double quote (most submissions: ids and numbers) cannot be
malformed in the ``csv`` module's strict sense, only ragged; for such a file
with at least two columns, pyarrow alone reads it when it finds every line as
wide as the header (it rejects ragged and whitespace-only lines, which then go
through the full check above, and its messages).
"""

from __future__ import annotations

import csv
import io
import os
import stat
from pathlib import Path

import pandas as pd

from mle_gym.grading.errors import InvalidSubmission
from mle_gym.grading.submission import SubmissionSpec

_BOM = "\ufeff"
#: Widest CSV accepted. Real submissions have at most a few hundred columns; parsing and
#: validating a header of 100,000 short fields took minutes of host CPU, so wider files
#: are refused before any parsing.
MAX_COLUMNS = 10_000
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def read_submission(
    path: Path,
    spec: SubmissionSpec,
    *,
    max_bytes: int,
    max_rows: int | None = None,
    name: str | None = None,
) -> pd.DataFrame:
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

    * At most :data:`MAX_COLUMNS` columns and, if given, ``max_rows`` data rows
      (checked before the cells are parsed, so an oversized file costs little).

    ``spec`` only makes the messages more helpful (the expected header); they call the
    file ``name`` (default: ``path``'s own name; a grader reading a private copy passes
    the name of the file it copied).
    """
    return read_table(
        path,
        max_bytes=max_bytes,
        header_hint=",".join((spec.id_column, *spec.target_columns)),
        max_rows=max_rows,
        name=name,
    )


def read_table(
    path: Path,
    *,
    max_bytes: int,
    header_hint: str = "the expected columns",
    max_rows: int | None = None,
    name: str | None = None,
) -> pd.DataFrame:
    """:func:`read_submission` without a submission spec: any CSV, every cell as ``str``."""
    name = name or path.name or str(path)
    data = _read_bytes(path, name, max_bytes)
    text = _decode(data, name)
    if not text.strip():
        raise InvalidSubmission(
            f"{name} contains only whitespace; write a header line ({header_hint}) "
            "followed by one row per id"
        )
    _check_header_width(text, name, header_hint)
    frame = _quote_free_frame(text, data)
    if frame is None:
        width, n_records = _check_structure(text, name, max_rows)
    else:
        n_records = len(frame)
        if max_rows is not None and n_records > max_rows:
            raise _too_many_rows(name, n_records, max_rows, exact=True)
    if n_records == 0:
        raise InvalidSubmission(
            f"{name} has a header line but no data rows; write one row per id under the "
            f"header {header_hint}"
        )
    return frame if frame is not None else _to_frame(text, data, name, width, n_records)


def _check_header_width(text: str, name: str, header_hint: str) -> None:
    """Refuse a file whose first line has more than MAX_COLUMNS comma-separated fields
    (an upper bound of the header's width: quoted commas count too)."""
    first = text.lstrip()
    end = min((i for i in (first.find("\n"), first.find("\r")) if i >= 0), default=len(first))
    fields = first.count(",", 0, end) + 1
    if fields > MAX_COLUMNS:
        raise InvalidSubmission(
            f"{name} has {fields:,} comma-separated fields on its header line; at most "
            f"{MAX_COLUMNS:,} columns are accepted (the expected header is {header_hint})"
        )


def _too_many_rows(name: str, n_records: int, max_rows: int, *, exact: bool) -> InvalidSubmission:
    count = f"{n_records:,}" if exact else f"more than {max_rows:,}"
    return InvalidSubmission(
        f"{name} has {count} data rows; at most {max_rows:,} are accepted "
        "(a submission has one row per test id)"
    )


def _quote_free_frame(text: str, data: bytes) -> pd.DataFrame | None:
    """The frame of a file without double quotes and at least two columns, read by pyarrow
    alone; None if that does not apply or pyarrow rejects the file (see module docstring)."""
    if b'"' in data:
        return None
    first = text.lstrip("\r\n").removeprefix(_BOM)
    header = first[
        : min((i for i in (first.find("\n"), first.find("\r")) if i >= 0), default=len(first))
    ]
    width = header.count(",") + 1
    if width < 2:
        return None
    return _arrow_frame(data, width, None)


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


def _check_structure(text: str, name: str, max_rows: int | None = None) -> tuple[int, int]:
    """(header width, number of data records); raise on ragged or malformed records, a
    header wider than MAX_COLUMNS, or more than ``max_rows`` records (stops there).

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
                if width > MAX_COLUMNS:
                    raise InvalidSubmission(
                        f"{name} has a header of {width:,} columns; at most {MAX_COLUMNS:,} "
                        "are accepted"
                    )
                continue
            if len(row) != width:
                raise InvalidSubmission(
                    f"{name} is not a well-formed CSV: line {reader.line_num} has "
                    f"{len(row)} field(s) but the header has {width}; every row needs "
                    "one value per column (quote values that contain commas)"
                )
            records += 1
            if max_rows is not None and records > max_rows:
                raise _too_many_rows(name, records, max_rows, exact=False)
    except csv.Error as exc:
        raise InvalidSubmission(
            f"{name} is not a well-formed CSV: line {reader.line_num}: {exc} "
            "(look for an unbalanced double quote)"
        ) from None
    return width, records


def _arrow_frame(data: bytes, width: int, n_records: int | None) -> pd.DataFrame | None:
    """The frame parsed by pyarrow, or None if pyarrow rejects the file or does not find
    ``width`` cells on every line and (unless None) ``n_records`` records after the
    header."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    names = [f"c{i}" for i in range(width)]
    try:
        table = pa_csv.read_csv(
            pa.py_buffer(data),  # pyarrow drops one leading byte-order mark, as _decode does
            read_options=pa_csv.ReadOptions(column_names=names),
            parse_options=pa_csv.ParseOptions(newlines_in_values=True, ignore_empty_lines=True),
            convert_options=pa_csv.ConvertOptions(
                column_types=dict.fromkeys(names, pa.string()),
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowException, ValueError, OverflowError):
        return None
    if table.num_columns != width or table.num_rows < 1:
        return None
    if n_records is not None and table.num_rows != n_records + 1:
        return None
    if any(column.null_count for column in table.columns):
        return None
    header = [str(v) for v in table.slice(0, 1).to_pylist()[0].values()]
    frame = table.slice(1).to_pandas()
    frame.columns = pd.Index(header, dtype=object)
    return frame


def _to_frame(text: str, data: bytes, name: str, width: int, n_records: int) -> pd.DataFrame:
    """Parse the cells (header row kept as data so duplicate names survive); see the
    module docstring."""
    frame = _arrow_frame(data, width, n_records)
    if frame is not None:
        return frame
    return _rows_frame(text, name, width, n_records)


def _rows_frame(text: str, name: str, width: int, n_records: int) -> pd.DataFrame:
    """The frame built from the ``csv`` module's own records (the parser that checked the
    structure, so cells cannot shift between columns the way a second parser's could)."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    header: list[str] | None = None
    columns: list[list[str]] = [[] for _ in range(width)]
    for row in reader:
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        if header is None:
            header = row
            continue
        for column, value in zip(columns, row, strict=True):
            column.append(value)
    if header is None or len(header) != width or len(columns[0]) != n_records:
        raise InvalidSubmission(f"{name} changed while it was being read")  # cannot happen
    frame = pd.DataFrame({i: pd.Series(column, dtype=str) for i, column in enumerate(columns)})
    frame.columns = pd.Index(header, dtype=object)
    return frame
