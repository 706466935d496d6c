"""Grading as MLE-bench grades: its reading of the files, its checks, its verdict.

The default grader of an MLE-bench task (``grading="mlebench"``) reproduces what
MLE-bench's ``grade_csv`` does at the pinned MLE-bench commit
(``../shared/notes/benchmarks.md``): the submission and the answers are read by
``pandas.read_csv(..., float_precision="round_trip")`` (an empty file is an empty
frame), the task folder's ``mlebench_grade.py`` ``grade(submission, answers)`` (the
project's own code behaving as MLE-bench's ``grade.py`` behaves, quirks included) gives
the score, which is rounded to 5 decimals.

A submission is invalid exactly when MLE-bench's grader gives no score: its
``InvalidSubmissionError`` (here :class:`~mle_gym.grading.errors.InvalidSubmission`,
whose message is written for the agent and never quotes answers) or any other error
(MLE-bench logs it and returns None; here :class:`GraderFailure` or whatever the
libraries raise — reported by type only, since library messages can quote answer
values). A NaN score is reported invalid too (MLE-bench would report NaN as a score);
an infinite one (champs' log of an exact MAE) is a score, as in MLE-bench.

MLE-bench's published results were graded with pandas 2, whose text columns are
``object`` columns (``astype(str)`` turns a missing cell into the text ``"nan"``); pandas 3
keeps missing text missing, which makes several of MLE-bench's graders fail on every
submission. Under pandas 3, reading and grading therefore run with
``future.infer_string`` off (pandas 2's text columns), one grading at a time in a process
(the option is global); the modules reproduce pandas 2's behaviour where pandas 3 differs
otherwise (``applymap``, ``fillna`` on a numeric column with text).

Nothing here raises because of the submission; an unreadable answers file is a
``RuntimeError`` (a setup problem).
"""

from __future__ import annotations

import contextlib
import io
import logging
import math
import os
import stat
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.grading.errors import InvalidSubmission

logger = logging.getLogger(__name__)

#: the task folder's module with MLE-bench's grading behaviour
MODULE = "mlebench_grade"
_ANSWERS_KEPT = 4
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)

ParityGrade = Callable[[pd.DataFrame, Any], Any]


class GraderFailure(Exception):
    """MLE-bench's ``grade()`` fails here with an error other than its
    ``InvalidSubmissionError`` (a failed ``assert``, a library error...): its grader then
    returns no score, so the submission is invalid. Raised by ``mlebench_grade.py``
    modules where MLE-bench's code would fail; the message is for the agent and must not
    quote answers."""


@dataclass(frozen=True)
class ParityResult:
    """The verdict of MLE-bench's grading: ``score`` (rounded to 5 decimals) or None, and
    why there is none (``""`` when scored)."""

    score: float | None
    message: str


def has_parity_grader(task: MLEBenchTask) -> bool:
    """Whether the task folder has its ``mlebench_grade.py``."""
    return (task.folder / f"{MODULE}.py").is_file()


def parity_grade_fn(task: MLEBenchTask) -> ParityGrade:
    """The folder's ``mlebench_grade.grade``; RuntimeError if it is missing."""
    module = task.module(MODULE)
    grade = getattr(module, "grade", None) if module is not None else None
    if not callable(grade):
        raise RuntimeError(f"{task.folder / (MODULE + '.py')} defines no grade() function")
    return grade


def read_like_mlebench(path: Path, *, max_bytes: int, name: str | None = None) -> pd.DataFrame:
    """The CSV at ``path`` as MLE-bench reads a submission: ``pandas.read_csv`` with
    ``float_precision="round_trip"``, an empty file giving an empty frame. The file must
    be a regular file (not a symlink) of at most ``max_bytes`` bytes. InvalidSubmission
    when it cannot be read (MLE-bench's ``grade_csv`` would fail there), calling the file
    ``name`` (default: ``path``'s own name)."""
    name = name or path.name
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise InvalidSubmission(f"cannot open {name}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise InvalidSubmission(f"{name} is not a regular file")
        if info.st_size > max_bytes:
            raise InvalidSubmission(
                f"{name} has {info.st_size:,} bytes; at most {max_bytes:,} are accepted"
            )
        data = handle.read(min(max_bytes, info.st_size) + 1)
    if len(data) > max_bytes:
        raise InvalidSubmission(f"{name} grew past {max_bytes:,} bytes while read")
    return frame_like_mlebench(data, name)


def frame_like_mlebench(data: bytes, name: str = "submission.csv") -> pd.DataFrame:
    """``data`` (a CSV file's bytes) read as :func:`read_like_mlebench` reads a file.

    One guard MLE-bench lacks, against a file built to exhaust the host: a first line of
    more than :data:`~mle_gym.grading.csvread.MAX_COLUMNS` comma-separated fields is
    refused before pandas parses it (real submissions have at most a few hundred)."""
    from mle_gym.grading.csvread import MAX_COLUMNS

    end = data.find(b"\n")
    first = data if end < 0 else data[:end]
    if first.count(b",") + 1 > MAX_COLUMNS:
        raise InvalidSubmission(
            f"{name} has more than {MAX_COLUMNS:,} fields on its first line; a submission "
            "has the sample submission's columns"
        )
    try:
        with pandas2_text(), warnings.catch_warnings():
            # pandas 3 deprecates the option MLE-bench passes
            warnings.filterwarnings("ignore", message=".*float_precision", category=Warning)
            return pd.read_csv(io.BytesIO(data), float_precision="round_trip")
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    except Exception as exc:  # ParserError, UnicodeDecodeError, MemoryError, ...
        raise InvalidSubmission(
            f"pandas.read_csv cannot read {name} ({type(exc).__name__}: {_short(exc)}); "
            "MLE-bench reads submissions with it"
        ) from None


_PANDAS_3 = int(pd.__version__.split(".")[0]) >= 3
_pandas2_lock = threading.RLock()


@contextlib.contextmanager
def pandas2_text() -> Iterator[None]:
    """Inside: pandas reads and converts text as pandas 2 does (see module docstring);
    one such block at a time per process."""
    if not _PANDAS_3:
        yield
        return
    with _pandas2_lock, warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*infer_string", category=Warning)
        with pd.option_context("future.infer_string", False):
            yield


_kept: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_kept_lock = threading.Lock()


def load_answers(path: Path) -> Any:
    """A fresh copy of the answers at ``path`` read as MLE-bench reads answers (a CSV by
    :func:`read_like_mlebench`'s rule, a ``.jsonl`` file as a list of dicts); the parsed
    file is kept for the next call (keyed by its identity, size and times).
    RuntimeError if it cannot be read."""
    try:
        st = os.stat(path)
        key: tuple[Any, ...] = (
            os.path.realpath(path),
            st.st_dev,
            st.st_ino,
            st.st_size,
            st.st_mtime_ns,
            st.st_ctime_ns,
        )
    except OSError as exc:
        raise RuntimeError(f"answers file {path} is unusable: {exc}") from exc
    with _kept_lock:
        hit = _kept.get(key)
        if hit is not None:
            _kept.move_to_end(key)
    if hit is None:
        hit = _read_answers(path)
        with _kept_lock:
            _kept[key] = hit
            while len(_kept) > _ANSWERS_KEPT:
                _kept.popitem(last=False)
    if isinstance(hit, pd.DataFrame):
        return hit.copy(deep=True)
    import copy

    return copy.deepcopy(hit)


def _read_answers(path: Path) -> Any:
    if path.suffix == ".jsonl":
        import json

        try:
            with open(path, encoding="utf-8") as handle:
                return [json.loads(line) for line in handle if line.strip()]
        except (OSError, ValueError) as exc:
            raise RuntimeError(f"answers file {path} is unusable: {exc}") from exc
    try:
        return read_like_mlebench(path, max_bytes=2**40)
    except InvalidSubmission as exc:
        raise RuntimeError(f"answers file {path} is unusable: {exc}") from exc


def grade_like_mlebench(
    task: MLEBenchTask,
    submission: Path,
    answers: Path,
    *,
    max_bytes: int,
    name: str | None = None,
) -> ParityResult:
    """MLE-bench's verdict on the submission file ``submission`` (a host-side copy) for
    ``task`` (see module docstring). Never raises because of the submission. ``name``:
    what the messages call the file (default: the copy's own name, and "the submission"
    when quoting the grader)."""
    grade = parity_grade_fn(task)
    with pandas2_text():
        truth = load_answers(answers)
        try:
            frame = read_like_mlebench(submission, max_bytes=max_bytes, name=name)
        except InvalidSubmission as exc:
            return ParityResult(None, str(exc))
        return score_frames(task, grade, frame, truth, name=name or "the submission")


def score_frames(
    task: MLEBenchTask,
    grade: ParityGrade,
    submission: pd.DataFrame,
    answers: Any,
    *,
    name: str = "the submission",
) -> ParityResult:
    """``grade(submission, answers)`` as MLE-bench's ``Grader`` runs it: the score rounded
    to 5 decimals, or None with the reason (which calls the submission ``name``)."""
    try:
        with pandas2_text(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # library warnings about the agent's data: noise
            value = round(float(grade(submission, answers)), 5)
    except InvalidSubmission as exc:
        return ParityResult(None, f"MLE-bench's grader rejects {name}: {exc}")
    except GraderFailure as exc:
        return ParityResult(None, f"MLE-bench's grader fails on {name}: {exc}")
    except Exception as exc:
        logger.info("%s: MLE-bench's grading fails: %r", task.key, exc)
        return ParityResult(
            None,
            f"MLE-bench's grader fails on {name} ({type(exc).__name__}); check the "
            "columns, ids and values against the sample submission",
        )
    if math.isnan(value):  # MLE-bench would report NaN as the score
        return ParityResult(None, f"{name}'s score is not a number (NaN)")
    return ParityResult(value, "")  # an infinite score too, as MLE-bench reports it


def _short(exc: BaseException, limit: int = 300) -> str:
    text = str(exc)
    return text if len(text) <= limit else text[:limit] + " ..."
