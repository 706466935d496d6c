"""pass@k: the chance that at least one of k samples drawn from n passes.

With ``n`` samples of which ``c`` passed, the unbiased estimator (Chen et al., 2021) is

    pass@k = 1 - C(n - c, k) / C(n, k)

computed here as a running product, exact for any n and free of huge binomials.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one example with ``n`` samples of which ``c`` passed.

    Requires ``0 <= c <= n`` and ``1 <= k <= n``; raises ValueError otherwise.
    """
    for name, value in (("n", n), ("c", c), ("k", k)):
        if isinstance(value, bool) or int(value) != value:
            raise ValueError(f"{name} must be an integer, got {value!r}")
    n, c, k = int(n), int(c), int(k)
    if n < 1:
        raise ValueError(f"pass@k needs at least one sample, got n={n}")
    if not 0 <= c <= n:
        raise ValueError(f"the number of passing samples must be in [0, n={n}], got c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must be in [1, n={n}] (n samples were run), got k={k}")
    if n - c < k:
        return 1.0
    # C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k / i)
    ratio = 1.0
    for i in range(n - c + 1, n + 1):
        ratio *= 1.0 - k / i
    return 1.0 - ratio


def mean_pass_at_k(outcomes: Mapping[object, Sequence[bool]], k: int) -> float:
    """pass@k averaged over examples; ``outcomes`` maps each example to its samples' results.

    Every example must have at least ``k`` samples.
    """
    if not outcomes:
        raise ValueError("no examples to average pass@k over")
    total = 0.0
    for key, results in outcomes.items():
        n = len(results)
        if n < k:
            raise ValueError(f"example {key!r} has {n} sample(s), fewer than k={k}")
        total += pass_at_k(n, sum(bool(r) for r in results), k)
    return total / len(outcomes)


def pass_at_ks(outcomes: Mapping[Any, Sequence[bool]], ks: Iterable[int]) -> dict[int, float]:
    """``{k: mean pass@k}`` for every k that all examples have enough samples for."""
    if not outcomes:
        return {}
    n_min = min(len(v) for v in outcomes.values())
    return {k: mean_pass_at_k(outcomes, k) for k in sorted(set(ks)) if 1 <= k <= n_min}
