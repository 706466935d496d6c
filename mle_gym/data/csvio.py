"""Reading raw competition CSVs exactly as MLE-bench does.

MLE-bench reads raw files with ``float_precision="round_trip"`` so that floats
survive a read/write cycle unchanged (its published checksums depend on it).
pandas 3 parses floats exactly by default and deprecates the argument, so it
is passed only to older pandas.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

_PANDAS_MAJOR = int(pd.__version__.split(".", 1)[0])


def read_csv_exact(path: Path | Any, **kwargs: Any) -> pd.DataFrame:
    """``pandas.read_csv`` with round-trip-exact float parsing on every pandas version."""
    if _PANDAS_MAJOR < 3:
        kwargs.setdefault("float_precision", "round_trip")
    return pd.read_csv(path, **kwargs)
