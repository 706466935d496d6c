"""Formatting shared by the text an agent reads: durations and the budget line of a
task's first observation (the same wording in every family)."""

from __future__ import annotations


def duration(seconds: float) -> str:
    """``seconds`` as a short duration: in hours from one hour up (``"1.5 h"``), in
    minutes from one minute up (``"2 min"``), else in seconds (``"30 s"``); numbers in
    ``:g`` form, so without trailing zeros."""
    if seconds >= 3600:
        return f"{seconds / 3600:g} h"
    if seconds >= 60:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"


def budget_line(max_steps: int, time_budget_s: float, exec_timeout_s: float) -> str:
    """The ``- Budget: ...`` line of a first observation: steps, the episode's wall-clock
    budget and the timeout of one command."""
    return (
        f"- Budget: {max_steps} steps and {duration(time_budget_s)} of wall-clock time; "
        f"each command may run for at most {duration(exec_timeout_s)}."
    )
