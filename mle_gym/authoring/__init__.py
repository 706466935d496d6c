"""The public API for task folders (``task_assets/<benchmark>/<task>/prepare.py``, ``grade.py``).

A task folder imports from here, never from mle_gym's internals, so the
internals can move without breaking task folders. What is here, by group
(``docs/authoring.md`` shows each with an example):

* **Submission checks** — :class:`InvalidSubmission` (the one exception a bad
  submission raises), :func:`check_columns`, :func:`numbers`, :func:`integers`,
  :func:`answer_numbers`, :func:`pair_rows`, :func:`label_sets`,
  :func:`require_answer_columns`, :func:`check_row_count`,
  :data:`PANDAS_NA_STRINGS`.
* **Exact splits and CSV reading** — :func:`train_test_split_like_sklearn`
  (MLE-bench's ``train_test_split(random_state=0)`` reproduced row for row,
  without scikit-learn), :func:`split_sizes`, :func:`read_csv_exact`.
* **Archives** — :func:`extract_archive` (zip, 7z or tar by extension),
  :func:`extract_members`, :func:`extract_zip`, :func:`read_zip_member`,
  :class:`ArchiveError`, :data:`MAX_UNCOMPRESSED`.
* **Files** — :func:`place_file`, :func:`copy_images`, :func:`one_hot`.
* **Metrics** — :mod:`mle_gym.authoring.metrics` (the metric library under one
  import path).
* **Shared task logic** — :mod:`mle_gym.authoring.text_normalization`.

Replica generators (``replica(public_dir, private_dir, seed)``) need nothing
from here beyond the splits: the ``seed`` they receive is already derived from
the installation's secret key, so ``numpy.random.default_rng(seed)`` is all the
randomness they should use.
"""

from __future__ import annotations

from mle_gym.authoring.archives import (
    MAX_UNCOMPRESSED,
    ArchiveError,
    extract_archive,
    extract_members,
    extract_zip,
    read_zip_member,
)
from mle_gym.authoring.checks import (
    PANDAS_NA_STRINGS,
    answer_numbers,
    check_columns,
    check_row_count,
    integers,
    label_sets,
    numbers,
    pair_rows,
    require_answer_columns,
)
from mle_gym.authoring.files import copy_images, one_hot, place_file
from mle_gym.data.csvio import read_csv_exact
from mle_gym.data.splits import split_sizes, train_test_split_like_sklearn
from mle_gym.grading.errors import InvalidSubmission

__all__ = [
    "MAX_UNCOMPRESSED",
    "PANDAS_NA_STRINGS",
    "ArchiveError",
    "InvalidSubmission",
    "answer_numbers",
    "check_columns",
    "check_row_count",
    "copy_images",
    "extract_archive",
    "extract_members",
    "extract_zip",
    "integers",
    "label_sets",
    "numbers",
    "one_hot",
    "pair_rows",
    "place_file",
    "read_csv_exact",
    "read_zip_member",
    "require_answer_columns",
    "split_sizes",
    "train_test_split_like_sklearn",
]
