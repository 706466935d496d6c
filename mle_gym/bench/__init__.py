"""``mle-gym bench``: the environment's own overhead, measured against what it wraps.

Figures (each a median over repeated runs; each ratio is measurement / baseline,
both measured side by side in the same run, interleaved):

* :mod:`~mle_gym.bench.file_tools`: file-tool steps vs the raw file operation;
* :mod:`~mle_gym.bench.execute`: ``execute`` of ``true`` and ``python -c pass``
  per backend vs ``subprocess.run``; on docker vs a raw ``docker exec``;
* :mod:`~mle_gym.bench.python_tool`: a warm ``python`` cell vs a cold ``python -c``;
* :mod:`~mle_gym.bench.reset`: ``reset()`` latency against the task data size,
  and the workspace volume's cost;
* :mod:`~mle_gym.bench.episodes`: scripted episodes per minute with N envs;
* :mod:`~mle_gym.bench.grading`: grading a large submission (accuracy, RMSE);
* :mod:`~mle_gym.bench.memory`: host RSS per idle live env.

:func:`run_bench` returns a :class:`BenchReport` (table: :func:`format_table`,
JSON: ``report.write_json``); :class:`BenchConfig` says what to measure
(``BenchConfig.tiny()`` for a quick smoke run). All data is generated locally.
"""

from __future__ import annotations

from typing import Any

from mle_gym._deprecation import renamed_attribute
from mle_gym.bench.context import GROUPS, BenchConfig
from mle_gym.bench.results import SCHEMA, BenchReport, Figure, Target, format_table
from mle_gym.bench.suite import run_bench

__all__ = [
    "GROUPS",
    "SCHEMA",
    "BenchConfig",
    "BenchReport",
    "Figure",
    "Target",
    "format_table",
    "run_bench",
]


def __getattr__(name: str) -> Any:
    """``FAMILIES``: the deprecated former name of :data:`GROUPS`."""
    return renamed_attribute(__name__, name, {"FAMILIES": "GROUPS"}, globals())
