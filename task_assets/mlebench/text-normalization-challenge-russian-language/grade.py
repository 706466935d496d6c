"""Grader of text-normalization-challenge-russian-language: exact-text accuracy, as MLE-bench.

Values pandas reads as missing become ``"nan"`` on both sides first; see
:mod:`mle_gym.authoring.text_normalization`, shared with the other language.
"""

from __future__ import annotations

from mle_gym.authoring import PANDAS_NA_STRINGS
from mle_gym.authoring.text_normalization import as_mlebench_reads, grade

__all__ = ["PANDAS_NA_STRINGS", "as_mlebench_reads", "grade"]
