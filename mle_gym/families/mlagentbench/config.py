"""The ``mlagentbench:`` block of an MLAgentBench task.yaml, parsed and checked.

::

    mlagentbench:
      run: python train.py          # how the starter code produces its result
      outputs: [submission.csv]     # workspace files (globs) the evaluator reads
      read_only: ["data/*"]         # workspace globs no tool may change
      baseline:
        mode: measured              # measured: run the starter code (seeds), cached per
                                    #   data variant; in_run: the evaluator times the
                                    #   starter against the agent's code in one run
        seeds: [0, 1, 2]
        reference: {replica-seed0: 0.123}   # figures measured by the command below
        measured_by: "..."
      requires: [torch]             # Python packages the code needs in the sandbox
      success_threshold: 0.1        # improvement needed for success (MLAgentBench: 10%)

The research problem is ``description.md``; the hidden evaluator is
``evaluate.py`` (never mounted into a sandbox); ``starter/`` holds the code copied
into every workspace; ``prepare.py`` prepares data (``download``, ``prepare``,
``replica``); ``solution/`` (optional) holds a scripted solution's files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mle_gym.tasks import TaskError, TaskSpec

BASELINE_MODES = ("measured", "in_run")
DATA_SOURCES = ("real", "replica", "none")


@dataclass(frozen=True)
class MLABConfig:
    """A parsed ``mlagentbench:`` block (see module docstring)."""

    run: str
    outputs: tuple[str, ...]
    read_only: tuple[str, ...]
    baseline_mode: str
    baseline_seeds: tuple[int, ...]
    baseline_reference: dict[str, float]
    baseline_measured_by: str
    requires: tuple[str, ...]
    success_threshold: float
    real_source: dict[str, Any]
    has_replica: bool
    self_contained: bool


def _str_list(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise TaskError(f"{where} must be a list of non-empty strings")
    return tuple(value)


def parse_config(task: TaskSpec) -> MLABConfig:
    """Parse and check ``task.raw["mlagentbench"]``; raise TaskError naming the field."""
    where = f"{task.folder / 'task.yaml'}: mlagentbench"
    raw = task.raw.get("mlagentbench")
    if not isinstance(raw, dict):
        raise TaskError(f"{where}: missing (a mapping with run, outputs, read_only, baseline)")
    run = raw.get("run")
    if not isinstance(run, str) or not run.strip():
        raise TaskError(f"{where}.run must be a command, e.g. 'python train.py'")
    outputs = _str_list(raw.get("outputs"), f"{where}.outputs")
    if not outputs:
        raise TaskError(f"{where}.outputs must name at least one file or glob")
    for glob in (*outputs, *_str_list(raw.get("read_only"), f"{where}.read_only")):
        if glob.startswith("/") or ".." in glob.split("/"):
            raise TaskError(f"{where}: {glob!r} must be relative to the workspace")
    base = raw.get("baseline") or {}
    if not isinstance(base, dict):
        raise TaskError(f"{where}.baseline must be a mapping")
    mode = str(base.get("mode", "measured"))
    if mode not in BASELINE_MODES:
        raise TaskError(f"{where}.baseline.mode must be one of {BASELINE_MODES}, got {mode!r}")
    seeds = base.get("seeds", [0, 1, 2])
    if not isinstance(seeds, list) or not seeds or not all(isinstance(s, int) for s in seeds):
        raise TaskError(f"{where}.baseline.seeds must be a non-empty list of integers")
    reference = base.get("reference") or {}
    if not isinstance(reference, dict):
        raise TaskError(f"{where}.baseline.reference must map data variants to scores")
    try:
        reference = {str(k): float(v) for k, v in reference.items()}
    except (TypeError, ValueError) as exc:
        raise TaskError(f"{where}.baseline.reference: {exc}") from exc
    threshold = raw.get("success_threshold", 0.1)
    if not isinstance(threshold, int | float) or threshold < 0:
        raise TaskError(f"{where}.success_threshold must be a non-negative number")
    data = task.data
    unknown = sorted(set(data) - set(DATA_SOURCES))
    if unknown:
        raise TaskError(f"{task.folder / 'task.yaml'}: unknown data sources {unknown}")
    if not data:
        raise TaskError(f"{task.folder / 'task.yaml'}: data must list real, replica or none")
    real = data.get("real")
    if real is not None and not isinstance(real, dict):
        raise TaskError(f"{task.folder / 'task.yaml'}: data.real must be a mapping")
    if not (task.folder / "evaluate.py").is_file():
        raise TaskError(f"{task.folder}: no evaluate.py (the hidden evaluator)")
    if not (task.folder / "starter").is_dir():
        raise TaskError(f"{task.folder}: no starter/ folder")
    return MLABConfig(
        run=run.strip(),
        outputs=outputs,
        read_only=_str_list(raw.get("read_only"), f"{where}.read_only"),
        baseline_mode=mode,
        baseline_seeds=tuple(seeds),
        baseline_reference=reference,
        baseline_measured_by=str(base.get("measured_by", "")),
        requires=_str_list(raw.get("requires"), f"{where}.requires"),
        success_threshold=float(threshold),
        real_source=dict(real or {}),
        has_replica="replica" in data,
        self_contained="none" in data,
    )
