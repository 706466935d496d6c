"""Where a score lands on a human Kaggle leaderboard: medals and share of teams beaten."""

from __future__ import annotations

import math

import numpy as np

from mle_gym.families.mlebench.task import Leaderboard


def medals_for(score: float, lb: Leaderboard, lower_is_better: bool) -> dict[str, bool]:
    """MLE-bench's medal rule for ``score`` on leaderboard ``lb``.

    A medal is won when the score is at least as good as its threshold (``>=``
    when higher is better, ``<=`` when lower is better). Only the best medal
    reached is set: a gold score has ``silver_medal`` and ``bronze_medal``
    False. ``any_medal`` is true if one of the three is. ``above_median`` is
    strict: a score equal to the median is not above it. A NaN score wins
    nothing.

    Returns the keys ``gold_medal``, ``silver_medal``, ``bronze_medal``,
    ``any_medal`` and ``above_median``.
    """

    def reaches(threshold: float) -> bool:
        return score <= threshold if lower_is_better else score >= threshold

    gold = reaches(lb.gold)
    silver = not gold and reaches(lb.silver)
    bronze = not gold and not silver and reaches(lb.bronze)
    above_median = score < lb.median if lower_is_better else score > lb.median
    return {
        "gold_medal": bool(gold),
        "silver_medal": bool(silver),
        "bronze_medal": bool(bronze),
        "any_medal": bool(gold or silver or bronze),
        "above_median": bool(above_median),
    }


def percentile_beaten(score: float, lb: Leaderboard, lower_is_better: bool) -> float:
    """Share of the human leaderboard that ``score`` beats, in ``[0, 1]``.

    ``lb.score_at_rank_fraction`` holds the leaderboard score ``q_i`` at rank
    fraction ``r_i = i / (n - 1)`` (101 points: 0.00, 0.01, ..., 1.00), best
    first. Read it as a continuous leaderboard ``Q(r)``, linear between grid
    points. Let ``f`` be the fraction of that leaderboard at or better than
    ``score``: the largest ``r`` with ``Q(r)`` at least as good as ``score``,
    or 0 if even ``Q(0)`` is worse. The result is ``1 - f``. Consequences:

    * a score better than the best entry gives 1.0;
    * a score no better than the worst entry gives 0.0;
    * ties are not beaten: a score equal to a flat stretch of repeated values
      counts the whole stretch as at-or-better, so it beats only what lies
      after the stretch;
    * the result never decreases as the score improves. A grid that is not
      monotone (rounding noise) is first made monotone by letting each point be
      no better than the ones before it.

    "Better" means larger, or smaller when ``lower_is_better``. ``ValueError``
    if the grid is empty or the score is NaN.
    """
    grid = np.asarray(lb.score_at_rank_fraction, dtype="float64")
    if grid.size == 0:
        raise ValueError("the leaderboard has no score_at_rank_fraction figures")
    if math.isnan(score):
        raise ValueError("cannot place a NaN score on a leaderboard")
    # Work in "goodness" (larger is better) and force it to be non-increasing.
    sign = -1.0 if lower_is_better else 1.0
    goodness = np.minimum.accumulate(sign * grid)
    target = sign * score
    at_or_better = int(np.count_nonzero(goodness >= target))
    last = goodness.size - 1
    if at_or_better == 0:
        return 1.0
    if at_or_better > last:
        return 0.0
    i = at_or_better - 1  # goodness[i] >= target > goodness[i + 1]
    step = (goodness[i] - target) / (goodness[i] - goodness[i + 1])
    fraction = (i + step) / last
    return float(min(1.0, max(0.0, 1.0 - fraction)))
