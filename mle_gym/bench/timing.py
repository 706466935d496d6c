"""Timing helpers: repeated, interleaved measurements summarised by their median.

Absolute times are noisy on small shared machines, so every comparison in the
bench is measured side by side: :func:`interleaved` runs each candidate once per
round, rotating which goes first, so slow drifts (other processes, frequency
scaling, caches) hit all candidates alike; the figure is the median of the
rounds, after unrecorded warm-up rounds.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping


def elapsed_ms(fn: Callable[[], object]) -> float:
    """Wall time of one call of ``fn``, in milliseconds."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def interleaved(
    candidates: Mapping[str, Callable[[], object]], repeats: int, *, warmup: int = 1
) -> dict[str, list[float]]:
    """Samples (ms) of each candidate over ``repeats`` rounds, taken in rotating order.

    Every round calls each candidate once; round ``r`` starts with candidate
    ``r mod n``. The first ``warmup`` rounds are not recorded.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    names = list(candidates)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for r in range(warmup + repeats):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            ms = elapsed_ms(candidates[name])
            if r >= warmup:
                samples[name].append(ms)
    return samples


def median(values: list[float]) -> float:
    """The median of a non-empty list."""
    return float(statistics.median(values))


def median_ratio(numerator: list[float], denominator: list[float]) -> float:
    """The median of the per-round ratios of two interleaved sample lists."""
    return median([a / b for a, b in zip(numerator, denominator, strict=True) if b > 0])
