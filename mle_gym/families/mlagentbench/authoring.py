"""The public API for MLAgentBench task folders (``task_assets/mlagentbench/<task>/``).

A folder's host-side code — ``prepare.py`` and ``evaluate.py`` — imports from here and
from the family-free :mod:`mle_gym.authoring`, never from the family's other modules or
from mle_gym's internals (``mle_gym.sandbox``, ``mle_gym.data``...), which may move.
``starter/``, ``solution/`` and ``harness/`` run inside a sandbox, where mle_gym is not
importable: they import no mle_gym at all. ``docs/authoring.md`` ("MLAgentBench task
folders") shows each group with an example; every name keeps the contract stated here.

**The evaluator** (``evaluate.py`` defines ``evaluate(job) -> Evaluation`` and,
optionally, ``check(outputs, public) -> str`` for the ``validate_submission`` tool):

* :class:`EvalJob` — what ``evaluate`` gets: ``outputs`` (a host folder holding copies
  of the workspace files named by ``mlagentbench.outputs``, relative paths kept),
  ``public`` / ``private`` (the prepared data and the answers; None for a task without
  data), ``starter`` (the task's ``starter/`` folder), ``seed``, ``timeout_s``;
  ``job.run(folder, command)`` runs a command in a fresh sandbox over ``folder`` and
  ``job.session(folder)`` opens one for several commands (the public data at
  /workspace/data in both).
* :class:`Evaluation` — what ``evaluate`` returns: ``score`` (in the task's metric),
  ``details`` (plain JSON, reported in ``info["grade"]``), and for ``baseline.mode:
  in_run`` tasks ``baseline`` (the starter's score in the same run) and optionally
  ``improvement`` (a direction-aware paired estimate).
* :class:`EvaluationFailed` — raised when the agent's result cannot be scored; its
  message is shown to the agent (so it never contains answers) and the result is
  invalid. Any other exception of an evaluator is reported as an evaluator error.
* :class:`Sandbox`, :class:`ExecResult` — the types of ``job.session``'s sandbox
  (``exec``, ``spawn``, ``frozen()``, ``file_owner``) and of ``job.run``'s result
  (``ok``, ``exit_code``, ``head``/``tail``, ``killed_reason``), for annotations.

**Predictions files** (a CSV keyed by an id column), with MLE-bench's reader and checks:

* :func:`submission_spec` — the :class:`SubmissionSpec` of a predictions file; its
  ``kind`` is one of :data:`TARGET_KINDS` (how every target cell is read).
* :func:`read_answers` — a trusted answers CSV as text cells, sorted by id.
* :func:`read_predictions` — the agent's file checked against the expected ids and
  sorted by id, targets converted to their kind; :class:`EvaluationFailed` naming the
  problem (missing file, wrong columns or ids, bad values) otherwise.
* :func:`answers_and_predictions` — both of the above for an evaluation job: the answers
  file of ``job.private`` and the predictions aligned to it.
* :func:`check_file` — the ``check`` message for a well-formed file (raises like
  :func:`read_predictions`); it never reveals a score.

**Scoring a model in a sandbox** — :func:`run_harness`: runs a ``harness/`` script over
the agent's outputs in a fresh sandbox; the script reads and deletes
``/workspace/_mlab/nonce`` first and prints one ``RESULT <nonce> <json>`` line, the only
output believed (``{"ok": false, "error": ...}`` makes the result invalid).

**Timed runs** (tasks whose score is a duration) — :func:`timed_run` runs a command
under the timing guard in a ``job.session`` sandbox and returns its signed
:class:`TimedRun` report (the clock covers the run's whole process tree; the outputs are
hashed when it stops); :func:`read_checked` reads an output exactly as hashed then;
:class:`TimingFailed` (an :class:`EvaluationFailed`) means the run does not count.

**Files of an evaluation folder** a sandbox writes into, handled without following any
link (the sandbox's processes may have left links or swap them in):
:func:`temporary_dir` (a ``TemporaryDirectory`` removed safely at any depth),
:func:`clear_dir` (empty a folder but for ``keep``), :func:`copy_tree` (copy a tree,
links skipped by default), :func:`chown_tree` (hand a tree to ``sandbox.file_owner``),
:func:`write_file` (create or replace one file).

**Raw data** (``prepare.py``'s ``download(raw_dir)`` and ``prepare(raw_dir, public_dir,
private_dir)``):

* :func:`fetch_url`, :func:`fetch_kaggle`, :func:`fetch_hf_files` — download into the
  raw folder; :class:`DownloadError` saying what is missing and how to supply it by hand
  (``mle-gym prepare MLAgentBench/<task> --from PATH``).
* :func:`find_one` — the file or folder of the raw folder matching a pattern (searched
  recursively); :func:`read_raw_csv` — a CSV of it as text cells (or inside a zip there);
  both raise :class:`DataNotPrepared` naming what is missing.
* :func:`extract_zip` (the Kaggle zip extractor, also :func:`mle_gym.authoring.extract_zip`),
  :func:`extract_tar`, :func:`extract_any` — extract safely (no path escaping the target).
* :func:`check_safetensors` — the header of a ``.safetensors`` file; ValueError when the
  file is something else (e.g. an error page saved by a proxy).

**Other tasks' code** — :func:`task_module`: a module of another task folder (e.g. the
MLE-bench replica generator a task reuses), found where ``mle_gym.tasks.get_task`` finds
tasks.

``replica(public_dir, private_dir, seed)`` needs none of these: ``seed`` is already
derived from the installation's secret replica key, so every draw comes from
``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import pandas as pd

from mle_gym.data.kaggle import extract_zip
from mle_gym.data.store import DataNotPrepared
from mle_gym.families.mlagentbench import tabular
from mle_gym.families.mlagentbench.download import (
    DownloadError,
    check_safetensors,
    extract_any,
    extract_tar,
    fetch_hf_files,
    fetch_kaggle,
    fetch_url,
    find_one,
    read_raw_csv,
)
from mle_gym.families.mlagentbench.evaluation import EvalJob, Evaluation, EvaluationFailed
from mle_gym.families.mlagentbench.guard import TimedRun, TimingFailed, read_checked, timed_run
from mle_gym.families.mlagentbench.harness import run_harness
from mle_gym.families.mlagentbench.tabular import check_file, read_answers, read_predictions
from mle_gym.grading.submission import TARGET_KINDS, SubmissionSpec
from mle_gym.sandbox.base import ExecResult, Sandbox
from mle_gym.sandbox.hostfs import chown_tree, clear_dir, copy_tree, temporary_dir, write_file
from mle_gym.task_folders import task_folder_module
from mle_gym.task_spec import TaskError

__all__ = [
    "TARGET_KINDS",
    "DataNotPrepared",
    "DownloadError",
    "EvalJob",
    "Evaluation",
    "EvaluationFailed",
    "ExecResult",
    "Sandbox",
    "SubmissionSpec",
    "TimedRun",
    "TimingFailed",
    "answers_and_predictions",
    "check_file",
    "check_safetensors",
    "chown_tree",
    "clear_dir",
    "copy_tree",
    "extract_any",
    "extract_tar",
    "extract_zip",
    "fetch_hf_files",
    "fetch_kaggle",
    "fetch_url",
    "find_one",
    "read_answers",
    "read_checked",
    "read_predictions",
    "read_raw_csv",
    "run_harness",
    "submission_spec",
    "task_module",
    "temporary_dir",
    "timed_run",
    "write_file",
]


def submission_spec(file: str, id_column: str, targets: Sequence[str], kind: str) -> SubmissionSpec:
    """The spec of a predictions CSV: ``file`` (relative to the workspace, one of the
    task's ``mlagentbench.outputs``) with the columns ``id_column`` then ``targets``.

    ``kind`` (one of :data:`TARGET_KINDS`) is how every target cell is read by
    :func:`read_predictions`: ``binary`` (true/false, 1/0 -> bool), ``integer`` (whole
    numbers -> int64), ``numeric`` (finite numbers -> float64), ``probability`` (numbers
    in [0, 1]) or ``label`` (any non-blank text, kept as written). ValueError for
    another kind or no target column.
    """
    if kind not in TARGET_KINDS:
        raise ValueError(f"kind must be one of {TARGET_KINDS}, got {kind!r}")
    if isinstance(targets, str) or not targets:
        raise ValueError("targets must be a non-empty list of column names")
    return tabular.spec(file, id_column, list(targets), kind)


def answers_and_predictions(
    job: EvalJob, answers_file: str, spec: SubmissionSpec
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The private answers ``answers_file`` (in ``job.private``; their id column is
    ``spec.id_column``, sorted by id) and the agent's predictions checked against them and
    aligned to them row for row (:func:`read_answers`, then :func:`read_predictions`).
    EvaluationFailed if the job has no private data, or the predictions are missing or
    malformed."""
    if job.private is None:
        raise EvaluationFailed(f"{job.task.key}: the evaluation has no private data")
    answers = read_answers(job.private / answers_file, spec.id_column)
    return answers, read_predictions(job.outputs, spec, answers[spec.id_column].tolist())


def task_module(key: str, name: str) -> ModuleType:
    """The module ``<name>.py`` of the task folder ``key`` (``<benchmark>/<task id>``,
    e.g. ``"mlebench/spaceship-titanic"``, ``"prepare"``), imported once per process.

    The folder is looked for where tasks are discovered (``task_assets/``, then each
    folder of ``$MLE_GYM_TASKS_PATH``; the first wins), and the module is the very object
    ``mle_gym.tasks.get_task(key).module(name)`` returns. TaskError if there is no such
    task folder or no such file in it.
    """
    if key.count("/") != 1 or not all(key.split("/")):
        raise TaskError(f"task_module: {key!r} is not a task key '<benchmark>/<task id>'")
    return task_folder_module(key, name)
