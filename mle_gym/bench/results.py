"""The bench's results: figures, targets, the printed table and the JSON document.

A :class:`Figure` is one measured quantity (a median over repeated runs), with
the baseline it was measured against in the same run where there is one. A
:class:`Target` is a goal of issue 8 checked against the figures. The JSON
document (``SCHEMA``) holds the machine description, the configuration, the
figures and the targets.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = "mle_gym.bench/1"


@dataclass(frozen=True)
class Figure:
    """One measured quantity.

    ``value`` is a median over ``samples`` repeated runs in ``unit``; ``baseline``
    (same unit) was measured in the same rounds, interleaved; ``ratio`` is the
    median of the per-round ratios value/baseline (or None without a baseline).
    """

    key: str
    family: str  # the measurement group (one of context.GROUPS); JSON key kept
    label: str
    unit: str
    value: float
    samples: int
    backend: str | None = None
    baseline_label: str | None = None
    baseline: float | None = None
    ratio: float | None = None
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("value", "baseline", "ratio"):
            v = getattr(self, name)
            if v is not None and not (math.isfinite(v) and v > 0):
                raise ValueError(f"figure {self.key}: {name} must be a positive number, got {v}")
        if self.samples < 1:
            raise ValueError(f"figure {self.key}: no samples")


@dataclass(frozen=True)
class Target:
    """A goal: ``value`` (in ``unit``) must be ``<=`` or ``>=`` ``limit``."""

    key: str
    description: str
    value: float
    limit: float
    comparison: str
    unit: str
    figures: tuple[str, ...]

    @property
    def holds(self) -> bool:
        if self.comparison == "<=":
            return self.value <= self.limit
        return self.value >= self.limit

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "figures": list(self.figures), "holds": self.holds}


@dataclass
class BenchReport:
    """Everything one bench run produced."""

    machine: dict[str, Any]
    config: dict[str, Any]
    figures: list[Figure] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    started: str = ""
    duration_s: float = 0.0

    def figure(self, key: str) -> Figure | None:
        """The figure with this key, if measured."""
        return next((f for f in self.figures if f.key == key), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "started": self.started,
            "duration_s": round(self.duration_s, 1),
            "machine": self.machine,
            "config": self.config,
            "figures": [asdict(f) for f in self.figures],
            "targets": [t.to_dict() for t in self.targets],
            "errors": self.errors,
        }

    def write_json(self, path: Path) -> None:
        """Write the JSON document (parent folders created)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")


def _num(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def higher_is_better(unit: str) -> bool:
    """Whether a larger figure in ``unit`` is better: rates (``episodes/min``) yes; times,
    sizes and the rest no."""
    return "/" in unit


def _ratio_cell(f: Figure) -> str:
    """``f.ratio`` as ``"3.1x (worse)"``: the word compares the measurement with its
    baseline in the unit's sense of better (:func:`higher_is_better`)."""
    if f.ratio is None:
        return ""
    text = f"{f.ratio:.3g}"
    if text == "1":
        return "1x (level)"
    better = (f.ratio > 1) == higher_is_better(f.unit)
    return f"{text}x ({'better' if better else 'worse'})"


RATIO_NOTE = (
    "ratio = median / baseline, measured in the same rounds (interleaved): the median over "
    "the rounds of measurement / baseline. For times lower is better: below 1x is faster "
    "than the baseline (0.1x = 10 times faster), above 1x is the overhead (3x = three times "
    "as long). For rates (per minute) higher is better: above 1x is more than the baseline."
)


def format_table(report: BenchReport) -> str:
    """The figures and targets as Markdown tables (what `mle-gym bench` prints); a note
    under the figures says what the ratio column divides and which way is better."""
    lines = [
        "| measurement | backend | median | baseline (same run) | ratio = median / baseline |",
        "|---|---|---|---|---|",
    ]
    for f in report.figures:
        base = f"{f.baseline_label}: {_num(f.baseline)} {f.unit}" if f.baseline else ""
        lines.append(
            f"| {f.label} | {f.backend or ''} | {_num(f.value)} {f.unit} | {base} "
            f"| {_ratio_cell(f)} |"
        )
    if any(f.ratio is not None for f in report.figures):
        lines += ["", RATIO_NOTE]
    if report.targets:
        lines += ["", "| target | measured | limit | holds |", "|---|---|---|---|"]
        for t in report.targets:
            lines.append(
                f"| {t.description} | {_num(t.value)} {t.unit} | {t.comparison} "
                f"{_num(t.limit)} {t.unit} | {'yes' if t.holds else 'NO'} |"
            )
    if report.errors:
        lines += ["", "Errors:"] + [f"- {e}" for e in report.errors]
    return "\n".join(lines)
