"""Train/test splits that reproduce MLE-bench's preparation exactly.

MLE-bench splits a competition's labelled training file with scikit-learn's
``train_test_split(df, test_size=..., random_state=0)``. That function draws one
permutation from ``numpy.random.RandomState(random_state)``; the first
``n_test`` indices form the test part and the next ``n_train`` the train part,
both in permutation order. This module does the same with numpy alone (no
scikit-learn needed on the host), and ``tests/test_splits.py`` checks it
against scikit-learn row for row.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd


def split_sizes(n_samples: int, test_size: float | int) -> tuple[int, int]:
    """(n_train, n_test) as scikit-learn computes them for a shuffled split."""
    if isinstance(test_size, float):
        if not 0.0 < test_size < 1.0:
            raise ValueError(f"test_size as a fraction must be in (0, 1), got {test_size}")
        n_test = math.ceil(test_size * n_samples)
        n_train = n_samples - n_test
    else:
        if not 0 < test_size < n_samples:
            raise ValueError(f"test_size as a count must be in (0, {n_samples}), got {test_size}")
        n_test = int(test_size)
        n_train = n_samples - n_test
    return n_train, n_test


def train_test_split_like_sklearn(
    df: pd.DataFrame, test_size: float | int, random_state: int = 0
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Split ``df`` into (train, test) exactly as ``sklearn.model_selection.train_test_split``.

    Row order and index labels are preserved as scikit-learn returns them.
    """
    n_train, n_test = split_sizes(len(df), test_size)
    permutation = np.random.RandomState(random_state).permutation(len(df))
    test_idx = permutation[:n_test]
    train_idx = permutation[n_test : n_test + n_train]
    return df.iloc[train_idx], df.iloc[test_idx]
