"""Checking a submission's format against the ids it must cover.

:func:`validate_submission_frame` is shared by the agent-facing
``validate_submission`` tool (expected ids taken from the PUBLIC sample
submission) and by the grader (expected ids taken from the answers). It looks
only at the submission and the list of ids, so it can never leak an answer.
"""

from __future__ import annotations

import collections
import itertools
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from mle_gym.grading.errors import InvalidSubmission
from mle_gym.grading.submission import TARGET_KINDS, SubmissionSpec

"""Accepted values of ``SubmissionSpec.target_kind``."""

_TRUE = frozenset({"true", "1", "1.0"})
_FALSE = frozenset({"false", "0", "0.0"})
_SHOWN = 5  # examples quoted in a message


def validate_submission_frame(
    df: pd.DataFrame, expected_ids: Sequence[str], spec: SubmissionSpec, name: str | None = None
) -> pd.DataFrame:
    """Check ``df`` (as returned by ``read_submission``) and return it normalised.

    Checks, in this order, each failure raising :class:`InvalidSubmission` with
    a message that names what is wrong and how to fix it:

    1. columns: no duplicate names, ``spec.id_column`` and every
       ``spec.target_columns`` present, nothing else;
    2. ids (compared as exact text): one row per expected id, so the message
       reports a wrong row count, duplicated ids, ids that are not expected and
       expected ids with no row, with counts and a few examples;
    3. target values: none empty, blank or ``nan``; each of the kind
       ``spec.target_kind``:

       * ``binary``: ``true``/``false`` in any case, ``1``/``0`` or ``1.0``/``0.0``
         (surrounding spaces ignored), converted to ``bool``;
       * ``numeric``: finite numbers (``inf``/``nan`` text rejected), as ``float64``;
       * ``integer``: whole numbers (``3`` or ``3.0``), as ``int64``;
       * ``probability``: numbers in ``[0, 1]``, as ``float64``;
       * ``label``: any non-blank text, kept exactly as written (blank allowed when the
         task's ``submission.allow_empty`` is true, e.g. "no object" predictions).

    Returns a new frame with exactly ``[id_column, *target_columns]``, rows
    sorted by id (text order) with a fresh ``RangeIndex``. Cells of ``df`` are
    expected to be strings; anything else is turned into text with ``str``,
    and missing values count as blank.

    ``expected_ids`` may repeat an id (answers keyed by a value that is not unique, e.g.
    a comment's text): the submission must then hold each id as many times as they do,
    and rows sharing an id keep their file order, so they pair with the answers' rows of
    that id in order.

    ``ValueError`` (not :class:`InvalidSubmission`) is raised for setup errors:
    an unknown ``target_kind``.

    ``name``, if given, is the file's name, which the messages then mention ("Wrong
    columns in preds.csv: ..."); without it they speak of the submission in general.
    """
    return validate_against(df, ExpectedIds(expected_ids, allow_duplicates=True), spec, name)


class ExpectedIds:
    """The ids a submission must cover, as text, with their set (built once, reusable
    for many submissions). Repeated ids are a ``ValueError`` unless ``allow_duplicates``;
    then ``counts`` holds how often each id must appear (None when every id is unique)."""

    def __init__(self, ids: Sequence[str], *, allow_duplicates: bool = False) -> None:
        self.ids: list[str] = list(map(str, ids))
        self.set: frozenset[str] = frozenset(self.ids)
        self.counts: collections.Counter[str] | None = None
        if len(self.set) != len(self.ids):
            if not allow_duplicates:
                raise ValueError("expected_ids contains duplicates; the id list itself is broken")
            self.counts = collections.Counter(self.ids)
        self._init_caches()

    def _init_caches(self) -> None:
        self._in_order: bool | None = None
        self._rank: dict[str, int] | None = None
        self._arrow: Any = None

    def reordered(self, ids: list[str]) -> ExpectedIds:
        """The same ids in another order (``ids`` must be a permutation of ``self.ids``,
        e.g. after sorting), sharing this set instead of building it again."""
        if len(ids) != len(self.ids):
            raise ValueError("reordered() needs the same ids")
        other = object.__new__(ExpectedIds)
        other.ids, other.set, other.counts = list(ids), self.set, self.counts
        other._init_caches()
        return other

    def in_order(self) -> bool:
        """Whether the ids are in text order (as the grader's sorted answers are)."""
        if self._in_order is None:
            ids = self.ids
            self._in_order = all(map(operator.lt, ids, itertools.islice(ids, 1, None)))
        return self._in_order

    def rank(self) -> dict[str, int] | None:
        """``{id: position}`` when the ids are in text order, else None. A submission with
        exactly these ids is then put in text order by placing each row at its id's
        position, without sorting strings."""
        if self._rank is None and self.in_order():
            self._rank = dict(zip(self.ids, range(len(self.ids)), strict=True))
        return self._rank

    def positions(self, ids: pd.Series) -> np.ndarray | None:
        """Where each of ``ids`` (text) stands in these text-ordered ids, if ``ids`` are
        exactly these ids in some order; None otherwise, or when the ids are not in text
        order (the caller then checks ids the slower way, which also explains what is
        wrong). A hash lookup in pyarrow, without Python objects."""
        if len(ids) != len(self.ids) or not self.in_order():
            return None
        import pyarrow as pa
        import pyarrow.compute as pc

        try:
            if self._arrow is None:
                self._arrow = pa.array(self.ids, type=pa.large_string())
            got = pa.array(ids, from_pandas=True)
            if got.type != pa.large_string():
                got = got.cast(pa.large_string())
            found = pc.index_in(got, value_set=self._arrow)
        except (pa.ArrowException, TypeError, ValueError, UnicodeError):
            return None
        if found.null_count:
            return None
        positions = np.asarray(found.to_numpy(zero_copy_only=False), dtype=np.int64)
        seen = np.zeros(len(self.ids), dtype=bool)
        seen[positions] = True
        return positions if bool(seen.all()) else None


def validate_against(
    df: pd.DataFrame, expected: ExpectedIds, spec: SubmissionSpec, name: str | None = None
) -> pd.DataFrame:
    """:func:`validate_submission_frame` with the expected ids prepared beforehand."""
    if spec.target_kind not in TARGET_KINDS:
        raise ValueError(f"unknown target_kind {spec.target_kind!r}; known: {TARGET_KINDS}")
    where = f" in {name}" if name else ""
    _check_columns(df, spec, where)
    ids = _as_text(df[spec.id_column])
    positions = expected.positions(ids)
    if positions is None:
        got = _check_ids(ids, expected.ids, expected.set, spec.id_column, expected.counts, where)
        rank = expected.rank()
        if rank is not None:
            positions = np.fromiter(map(rank.__getitem__, got), dtype=np.int64, count=len(got))

    out: dict[str, pd.Series] = {spec.id_column: ids}
    problems: list[str] = []
    for column in spec.target_columns:
        converted, problem = _convert_column(
            _as_text(df[column]), column, spec.target_kind, spec.allow_empty
        )
        if problem:
            problems.append(problem)
        out[column] = converted
    if problems:
        raise InvalidSubmission(f"Invalid prediction values{where}: " + " ".join(problems))
    frame = pd.DataFrame(out)
    if positions is None:
        return frame.sort_values(spec.id_column, kind="stable").reset_index(drop=True)
    # The ids are exactly the expected ones (checked above), which are in text order:
    # row i goes to its id's position.
    order = np.empty(len(positions), dtype=np.int64)
    order[positions] = np.arange(len(positions))
    return frame.take(order).reset_index(drop=True)


def _as_text(column: pd.Series) -> pd.Series:
    """A column as plain ``str`` values with a 0-based positional index."""
    if _all_text(column):  # as read by read_submission: nothing to convert
        return column.reset_index(drop=True)
    values = column.astype(object).where(column.notna(), "")
    return values.astype(str).reset_index(drop=True)


def _all_text(column: pd.Series) -> bool:
    """True if ``column.astype(str)`` would change nothing: a string column without missing
    values (or, where pandas' ``str`` is ``object``, an object column of ``str`` only)."""
    if isinstance(column.dtype, pd.StringDtype):
        return column.dtype == _STR_DTYPE and not column.hasnans
    return (
        column.dtype == object
        and _STR_IS_OBJECT
        and pd.api.types.infer_dtype(column, skipna=False) == "string"
    )


_STR_DTYPE = pd.Series(["x"], dtype=object).astype(str).dtype  # object, or pandas 3's "str"
_STR_IS_OBJECT = pd.api.types.is_object_dtype(_STR_DTYPE)


def _examples(values: Sequence[object]) -> str:
    """``'a', 'b', 'c'`` or ``'a', 'b', ... (12 more)``."""
    shown = ", ".join(repr(str(v)) for v in list(values[:_SHOWN]))
    extra = len(values) - _SHOWN
    return f"{shown} and {extra} more" if extra > 0 else shown


def _rows(mask: np.ndarray) -> str:
    """1-based data row numbers where ``mask`` is true (a few of them)."""
    positions = np.flatnonzero(mask) + 1
    shown = ", ".join(str(p) for p in positions[:_SHOWN])
    return shown + (", ..." if len(positions) > _SHOWN else "")


def _check_columns(df: pd.DataFrame, spec: SubmissionSpec, where: str = "") -> None:
    """InvalidSubmission unless ``df`` has exactly the spec's columns (``where``: `` in
    <file>`` or ``""``, put after the kind of problem)."""
    wanted = [spec.id_column, *spec.target_columns]
    header = ",".join(wanted)
    names = [str(c) for c in df.columns]
    duplicated = sorted(n for n, k in collections.Counter(names).items() if k > 1)
    if duplicated:
        raise InvalidSubmission(
            f"Duplicate column names{where}: {_examples(duplicated)}; the header must be "
            f"exactly {header}"
        )
    missing = [c for c in wanted if c not in names]
    extra = [n for n in names if n not in wanted]
    if not missing and not extra:
        return
    parts: list[str] = []
    if missing:
        parts.append(f"missing column(s) {_examples(missing)}")
    if extra:
        parts.append(f"unexpected column(s) {_examples(extra)}")
    hints: list[str] = []
    for col in missing:
        near = [n for n in extra if n.strip().casefold() == col.casefold()]
        if near:
            hints.append(f"{near[0]!r} should be spelled {col!r}")
    if missing and len(missing) == len(wanted):
        hints.append("the first line must be the header, not a data row")
    if "" in extra or "Unnamed: 0" in extra:
        hints.append("the DataFrame index was written: use index=False")
    hint = f" ({'; '.join(hints)})" if hints else ""
    raise InvalidSubmission(
        f"Wrong columns{where}: {' and '.join(parts)}{hint}. The header must be exactly {header} "
        "(names are case-sensitive)."
    )


def _check_ids(
    ids: pd.Series,
    expected: list[str],
    expected_set: frozenset[str],
    id_column: str,
    counts: collections.Counter[str] | None = None,
    where: str = "",
) -> list[str]:
    """The ids as a list, if they are exactly the expected ones (in any order; each as
    often as ``counts`` says when the expected ids repeat); else InvalidSubmission saying
    what is wrong."""
    got_list = ids.tolist()
    if got_list == expected:
        return got_list  # the expected ids in the expected order
    got_set = set(got_list)
    if (
        counts is None
        and len(got_list) == len(expected) == len(got_set)
        and got_set == expected_set
    ):
        return got_list  # the common, valid case: no index work needed
    got_counts = collections.Counter(got_list) if counts is not None else None
    if got_counts is not None and got_counts == counts:
        return got_list
    got = pd.Index(got_list, dtype=object)
    problems: list[str] = []
    if len(got) != len(expected):
        problems.append(f"wrong number of rows: expected {len(expected)}, got {len(got)}.")
    if counts is not None and got_counts is not None:
        wrong = [i for i in got_counts if i in counts and got_counts[i] != counts[i]]
        if wrong:
            shown = ", ".join(
                f"{i!r} ({got_counts[i]} times, expected {counts[i]})" for i in wrong[:_SHOWN]
            )
            problems.append(
                f"repeated ids: {len(wrong)} id(s) appear a different number of times than "
                f"in the sample submission, e.g. {shown}."
            )
    duplicated = got[got.duplicated(keep=False)] if counts is None else got[:0]
    if len(duplicated):
        repeats = duplicated.value_counts(sort=False)
        shown = ", ".join(f"{i!r} ({n} times)" for i, n in list(repeats.items())[:_SHOWN])
        problems.append(
            f"duplicate ids: {len(repeats)} id(s) appear more than once "
            f"({int(repeats.sum() - len(repeats))} extra row(s)), e.g. {shown}."
        )
    distinct = got.unique()
    unknown = [i for i in distinct if i not in expected_set]
    if len(unknown):
        problems.append(
            f"unknown ids: {len(unknown)} id(s) are not in the expected id list "
            f"(the sample submission), e.g. {_examples(unknown)}{_id_hint(unknown, expected)}."
        )
    missing = [i for i in expected if i not in got_set]
    if len(missing):
        problems.append(
            f"missing ids: {len(missing)} expected id(s) have no row, e.g. {_examples(missing)}."
        )
    if problems:
        raise InvalidSubmission(
            f"Invalid {id_column} values{where}: "
            + " ".join(problems)
            + f" Write exactly one row for each {id_column} in the sample submission."
        )
    return got_list


def _id_hint(unknown: list[str], expected: list[str]) -> str:
    """Explain a common way ids get mangled, if the first unknown ids show one."""
    sample = unknown[:_SHOWN]
    wanted = set(expected)
    if any(u.strip() != u and u.strip() in wanted for u in sample):
        return " (ids must match exactly: remove surrounding spaces)"
    if any(u.endswith(".0") and u[:-2] in wanted for u in sample):
        return " (ids were written as floats: keep them as text or integers)"
    unpadded = {e.lstrip("0"): e for e in expected if e.startswith("0")}
    if any(u in unpadded for u in sample):
        return " (leading zeros were lost: read the id column as text, e.g. dtype=str)"
    return ""


def _convert_column(
    text: pd.Series, column: str, kind: str, allow_empty: bool = False
) -> tuple[pd.Series, str]:
    """(converted values, problem message or '') for one target column."""
    stripped = text.str.strip()
    if kind == "label" and allow_empty:
        return text, ""
    blank = (stripped.eq("") | stripped.str.lower().eq("nan")).to_numpy(dtype=bool)
    if blank.any():
        return text, (
            f"column {column!r} has {int(blank.sum())} empty or NaN value(s), at data row(s) "
            f"{_rows(blank)} (row 1 is the first line after the header); every row needs a "
            "prediction."
        )
    if kind == "label":
        return text, ""
    if kind == "binary":
        lowered = stripped.str.lower()
        truth = lowered.isin(_TRUE).to_numpy(dtype=bool)
        bad = ~(truth | lowered.isin(_FALSE).to_numpy(dtype=bool))
        if bad.any():
            return text, _bad_values(column, text, bad, "be True/False (or 1/0)")
        return pd.Series(truth, dtype=bool), ""
    numbers = _to_float(stripped)
    not_number = np.isnan(numbers)
    if not_number.any():
        return text, _bad_values(column, text, not_number, "hold numbers")
    infinite = np.isinf(numbers)
    if infinite.any():
        return text, _bad_values(column, text, infinite, "hold finite numbers", "are infinite")
    if kind == "probability":
        outside = (numbers < 0.0) | (numbers > 1.0)
        if outside.any():
            return text, _bad_values(
                column, text, outside, "hold probabilities in [0, 1]", "are outside"
            )
    if kind == "integer":
        fractional = numbers != np.round(numbers)
        if fractional.any():
            return text, _bad_values(column, text, fractional, "hold whole numbers (class ids)")
        return pd.Series(numbers.astype("int64"), dtype="int64"), ""
    return pd.Series(numbers, dtype="float64"), ""


def _bad_values(
    column: str, text: pd.Series, bad: np.ndarray, must: str, are: str = "are not"
) -> str:
    """The problem message for the values of ``column`` (``text``) where ``bad`` is true:
    the column must ``must`` but they ``are``; with a few examples and their rows."""
    return (
        f"column {column!r} must {must} but {int(bad.sum())} value(s) {are}, e.g. "
        f"{_examples(text[bad].tolist())} at data row(s) {_rows(bad)}."
    )


def _to_float(text: pd.Series) -> np.ndarray:
    """Parse decimal text to float64; unparseable values become NaN."""
    fast = _arrow_floats(text)
    if fast is not None:
        return fast
    try:
        parsed = pd.to_numeric(text.astype(object), errors="coerce")
        return np.asarray(parsed, dtype="float64")
    except (TypeError, ValueError, OverflowError):
        # Rare inputs (huge integers) can defeat the vectorised path.
        return np.array([_one_float(v) for v in text.tolist()], dtype="float64")


def _arrow_floats(text: pd.Series) -> np.ndarray | None:
    """All values parsed by pyarrow's cast, or None if any value is not a plain number for
    it (the caller then parses value by value). Where the cast succeeds it gives exactly
    ``pd.to_numeric``'s values (both round correctly; "nan" is NaN either way); it
    refuses more (spaces, which are stripped first anyway)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        values = pc.cast(pa.array(text, from_pandas=True), pa.float64())
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        return None
    if values.null_count:
        return None
    return np.asarray(values.to_numpy(zero_copy_only=False), dtype="float64")


def _one_float(value: str) -> float:
    try:
        return float(value) if "_" not in value else float("nan")
    except (TypeError, ValueError, OverflowError):
        return float("nan")
