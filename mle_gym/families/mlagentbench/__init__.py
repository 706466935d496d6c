"""MLAgentBench as a task family: research problems with working starter code.

See :mod:`mle_gym.families.mlagentbench.family` for the episode, ``.toolset`` for
MLAgentBench's action set, ``.grade`` for rewards, ``.baseline`` for how the
starter code's score is measured, ``.evaluation`` for the hidden evaluators.
"""

from __future__ import annotations

from mle_gym.families.mlagentbench.family import MLAgentBenchFamily

__all__ = ["MLAgentBenchFamily"]
