"""Grading test cases of MLE-bench task folders: the public kit (like ``numpy.testing``).

A competition's grading tests live in its folder, ``<task root>/mlebench/<id>/grading_cases.py``,
which defines ``CASES: dict[str, Check]`` (case name -> check) and imports only from this
module and :mod:`mle_gym.authoring` (plus numpy, pandas and the standard library; an optional
library such as scikit-learn or scipy is imported inside the function that needs it). A
:data:`Check` is called with the task and a fresh temporary directory and raises
``AssertionError`` when the case does not hold. The project's test suite
(``tests/mlebench/test_grading_cases.py``) finds every folder's file with
:func:`case_params` and runs each check as the test ``<id>-<case name>`` with
:func:`run_case` (on the task named by its key, ``mlebench/<id>``); any other test runner
can do the same.

Tiny synthetic files in the competition's real format are graded end to end by the project's
grader, and the scores are compared with values computed independently (the oracles of
:mod:`.testing_oracles`, re-exported here, and the folder's own) the way MLE-bench's
``grade.py`` computes them. The kinds of case (:mod:`.testing_checks`, re-exported here):

* :class:`ExactCase` (through :class:`ExactGrading`): a perfect submission gets the metric's
  best value, an imperfect one exactly the expected value, a malformed one is invalid.
* :class:`WorseCase`: the same with an imperfect submission that need only score worse;
  it is its own check.
* :class:`RawCase` (``grader: raw`` competitions whose submissions are not one row per
  answers id): :class:`RawGrading`, :class:`RawFormat`, :class:`RawSampleScore`.
* :class:`KeyedRawCase` (``grader: raw``, rows keyed by a pair of columns):
  :class:`KeyedRawGrading`, :class:`KeyedRawFormat`.
* :class:`ParityCase` (:mod:`.testing_parity`): one valid submission and its common
  variants, each graded under ``grading="mlebench"`` (MLE-bench's verdict, declared per
  variant) and ``grading="strict"``. The kinds above check the strict grader.

Any other ``(task, tmp_path) -> None`` function is a check too (a folder's own checks); it
grades files with :func:`grade_file`, :func:`grade_frame` or :func:`score` and asserts with
:func:`assert_score`, :func:`assert_close`, :func:`assert_invalid`, :func:`expect_invalid`
/ :func:`raises`, :func:`expect` and :func:`fail`. Scores are compared by :func:`close`, the
rule of ``pytest.approx`` exactly (``abs=`` alone is an absolute tolerance only). None of
the kit's checks and helpers uses the ``assert`` statement, so they fail under
``python -O`` as they do without it (a folder's own plain ``assert`` does not: use
:func:`expect`). Importing this module imports neither pytest nor scikit-learn.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

from mle_gym.families.mlebench.format_check import FormatChecker
from mle_gym.families.mlebench.grade_report import GradeReport
from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.families.mlebench.testing_assertions import (
    Raised,
    assert_close,
    close,
    expect,
    fail,
    raises,
    tolerance,
)
from mle_gym.families.mlebench.testing_checks import (
    Check,
    ExactCase,
    ExactGrading,
    KeyedRawCase,
    KeyedRawFormat,
    KeyedRawGrading,
    RawCase,
    RawFormat,
    RawGrading,
    RawSampleScore,
    WorseCase,
    assert_invalid,
    assert_score,
    case_classes,
    case_tag_lists,
    check_perfect_and_imperfect,
    expect_invalid,
    grade_file,
    grade_frame,
    is_worse,
    keyed_raw_files,
    raw_files,
    score,
    write_csv,
)
from mle_gym.families.mlebench.testing_oracles import (
    ap_at_k,
    dense_mask,
    levenshtein,
    macro_f1,
    micro_f1_like_mlebench,
)
from mle_gym.families.mlebench.testing_parity import Outcome, ParityCase
from mle_gym.grading.errors import InvalidSubmission
from mle_gym.task_spec import TaskSpec, load_folder_module

__all__ = [
    "CASES_FILE",
    "CaseParam",
    "Check",
    "ExactCase",
    "ExactGrading",
    "FormatChecker",
    "GradeReport",
    "InvalidSubmission",
    "KeyedRawCase",
    "KeyedRawFormat",
    "KeyedRawGrading",
    "MLEBenchTask",
    "Outcome",
    "ParityCase",
    "Raised",
    "RawCase",
    "RawFormat",
    "RawGrading",
    "RawSampleScore",
    "WorseCase",
    "ap_at_k",
    "assert_close",
    "assert_invalid",
    "assert_score",
    "case_classes",
    "case_params",
    "case_tag_lists",
    "check_perfect_and_imperfect",
    "close",
    "dense_mask",
    "expect",
    "expect_invalid",
    "fail",
    "grade_file",
    "grade_frame",
    "is_worse",
    "keyed_raw_files",
    "levenshtein",
    "load_cases",
    "load_folder_module",
    "macro_f1",
    "micro_f1_like_mlebench",
    "raises",
    "raw_files",
    "run_case",
    "score",
    "tasks_with_cases",
    "tolerance",
    "write_csv",
]

#: the file of a task folder that holds its grading cases
CASES_FILE = "grading_cases.py"


def _module_name(folder: Path) -> str:
    """The name :func:`load_cases` imports ``folder/grading_cases.py`` as."""
    digest = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:10]
    return f"mlebench_grading_cases.{folder.name.replace('.', '_')}_{digest}"


def _cases_of(module: ModuleType, path: Path) -> dict[str, Check]:
    """The module's ``CASES``; ``ValueError`` saying what is wrong unless it is a non-empty
    dict of case names (non-empty strings) to callables."""
    cases = getattr(module, "CASES", None)
    if not isinstance(cases, dict) or not cases:
        raise ValueError(f"{path} defines no CASES (a non-empty dict: case name -> check)")
    for key in cases:
        if not isinstance(key, str) or not key:
            raise ValueError(f"{path}: CASES keys must be case names (strings), got {key!r}")
    bad = [key for key, check in cases.items() if not callable(check)]
    if bad:
        raise ValueError(f"{path}: CASES must map names to callables; not callable: {bad}")
    return cases


@cache
def load_cases(folder: Path) -> dict[str, Check]:
    """The ``CASES`` of ``folder/grading_cases.py``, imported once per folder.

    The file is imported as the module ``mlebench_grading_cases.<folder name>_<hash>``
    (the hash: of the folder's resolved path, so two folders of one name, e.g. one task
    id in two benchmarks, never share a module), kept in ``sys.modules`` (dataclasses
    defined in the file look their module up) only if it loads: on any failure it is
    removed again and the error raised. ``ValueError`` if the file cannot be imported or
    defines no ``CASES`` dict mapping case names (non-empty strings) to callables, saying
    which key or value is wrong; an exception raised while importing it passes through.
    """
    path = folder / CASES_FILE
    name = _module_name(folder)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        return _cases_of(module, path)
    except BaseException:
        sys.modules.pop(name, None)
        raise


def tasks_with_cases(tasks: Iterable[TaskSpec]) -> list[MLEBenchTask]:
    """Those of ``tasks`` that are MLE-bench tasks whose folder has a grading_cases.py,
    sorted by id (then key).

    Pass every discovered task (``mle_gym.tasks.all_tasks().values()``: the folders of
    every task root, the built-in ``task_assets`` and ``$MLE_GYM_TASKS_PATH``).
    """
    found = (t for t in tasks if isinstance(t, MLEBenchTask) and (t.folder / CASES_FILE).is_file())
    return sorted(found, key=lambda t: (t.id, t.key))


@dataclass(frozen=True)
class CaseParam:
    """One grading case of one task: what a test runner parametrizes a test with.

    ``task_key`` is the task's key (``TaskSpec.key``, ``<benchmark>/<id>``: ``mlebench/<id>``
    for the built-in tasks), which names one task even when two benchmarks share its id;
    pass it, never the bare id, to ``mle_gym.tasks.get_task``.
    """

    task_key: str
    case: str

    @property
    def task_id(self) -> str:
        """The task's id: its key without the benchmark."""
        return self.task_key.partition("/")[2]

    @property
    def id(self) -> str:
        """The test's id, ``<task id>-<case name>``."""
        return f"{self.task_id}-{self.case}"


def case_params(tasks: Iterable[TaskSpec]) -> list[CaseParam]:
    """Every case of every folder of :func:`tasks_with_cases` ``(tasks)``, in task order
    and then in the order of the folder's ``CASES``."""
    return [
        CaseParam(task.key, name)
        for task in tasks_with_cases(tasks)
        for name in load_cases(task.folder)
    ]


def run_case(task: TaskSpec, case: str, tmp_path: Path) -> None:
    """Run the case named ``case`` of ``task``'s folder in ``tmp_path`` (a fresh, empty
    directory); ``AssertionError`` when the case does not hold.

    ``TypeError`` if ``task`` is not an MLE-bench task, ``KeyError`` (naming the known
    cases) if its folder has no such case.
    """
    if not isinstance(task, MLEBenchTask):
        raise TypeError(f"{task.id} is not an MLE-bench task ({type(task).__name__})")
    cases = load_cases(task.folder)
    if case not in cases:
        raise KeyError(f"{task.folder / CASES_FILE} has no case {case!r}; it has {sorted(cases)}")
    cases[case](task, tmp_path)
