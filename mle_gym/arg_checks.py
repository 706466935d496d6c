"""Checks of the keyword arguments a user passes (``gym.make``, ``MLEEnv``, ``EpisodePool``).

Each check returns the value in its plain Python type or raises ``ValueError`` naming the
argument, the value given (with its type) and what is expected, e.g.
``time_budget_s must be a positive number of seconds (int or float), got 'x' (str)``.
The checks are strict: a bool is not a number (``True`` is not 1 step), a float is not a
whole number (``2.5`` steps is refused, not rounded), a string is never parsed.

:func:`did_you_mean` finds the keyword a misspelt one stands for (difflib's close
matches, plus names users commonly guess for a keyword, see :data:`GUESSED_NAMES`).
"""

from __future__ import annotations

import difflib
import math
import numbers
import os
from collections.abc import Iterable, Mapping
from typing import Any

#: names users guess for an env keyword -> the keyword (``info["data_source"]`` reads as if
#: ``data_source=`` chose the data; ``max_steps`` is ``mle-gym run --max-steps``)
GUESSED_NAMES: dict[str, str] = {
    "data_source": "data",
    "source": "data",
    "max_steps": "max_episode_steps",
    "steps": "max_episode_steps",
    "step_budget": "max_episode_steps",
    "time_budget": "time_budget_s",
    "timeout": "exec_timeout_s",
    "timeout_s": "exec_timeout_s",
    "image": "docker_image",
    "memory": "memory_mb",
    "disk": "disk_mb",
    "tools": "toolset",
}


def did_you_mean(
    word: str, candidates: Iterable[str], guesses: Mapping[str, str] = GUESSED_NAMES
) -> list[str]:
    """The ``candidates`` that ``word`` most likely stands for, best first, without
    duplicates: difflib's close matches among ``candidates`` and among the keys of
    ``guesses`` (a guessed name -> the candidate it means; only those whose candidate is
    in ``candidates`` count). Empty when nothing is close."""
    pool = list(dict.fromkeys(candidates))
    known = set(pool)
    aliases = {guess: real for guess, real in guesses.items() if real in known}
    if word in aliases:
        return [aliases[word]]
    matches = difflib.get_close_matches(word, [*pool, *aliases], n=4, cutoff=0.6)
    return list(dict.fromkeys(aliases.get(m, m) for m in matches))[:3]


def _question(word: str, candidates: list[str]) -> str:
    close = did_you_mean(word, candidates)
    return f"did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def suggestion(word: str, candidates: Iterable[str]) -> str:
    """``" (did you mean 'data'?)"`` for a misspelt ``word``, or ``""`` if nothing is close."""
    question = _question(word, list(candidates))
    return f" ({question})" if question else ""


def suggestions(words: list[str], candidates: Iterable[str]) -> str:
    """:func:`suggestion` for several misspelt ``words``: as :func:`suggestion` for one,
    ``" ('a': did you mean 'x'?; 'b': did you mean 'y'?)"`` for several (those with no
    close candidate left out); ``""`` if none is close."""
    pool = list(candidates)
    if len(words) == 1:
        return suggestion(words[0], pool)
    parts = [f"{w!r}: {q}" for w in words if (q := _question(w, pool))]
    return f" ({'; '.join(parts)})" if parts else ""


def got(value: Any) -> str:
    """``value`` as an error message quotes it: its repr (at most 80 characters) and type."""
    text = repr(value)
    text = text if len(text) <= 80 else text[:77] + "..."
    return f"{text} ({type(value).__name__})"


def whole_number(name: str, value: Any, *, minimum: int = 1) -> int:
    """``value`` (an int, not a bool) as an int, at least ``minimum``; else ValueError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a whole number >= {minimum} (int), got {got(value)}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    return int(value)


def positive_number(name: str, value: Any, *, unit: str = "", zero: bool = False) -> float:
    """``value`` (an int or float, not a bool) as a float; finite and > 0 (>= 0 with
    ``zero``), else ValueError. ``unit`` (e.g. ``"seconds"``) only words the message."""
    sign = "non-negative" if zero else "positive"
    what = f"a {sign} number{f' of {unit}' if unit else ''} (int or float)"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be {what}, got {got(value)}")
    number = float(value)
    if not (math.isfinite(number) and (number >= 0 if zero else number > 0)):
        raise ValueError(f"{name} must be {sign} and finite, got {value!r}")
    return number


def flag(name: str, value: Any) -> bool:
    """``value`` if it is True or False (not 0, 1 or "yes"); else ValueError."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False (bool), got {got(value)}")
    return value


def optional_text(name: str, value: Any) -> str | None:
    """``value`` if it is None or a non-blank string; else ValueError."""
    if value is not None and not (isinstance(value, str) and value.strip()):
        raise ValueError(f"{name} must be a non-empty string (str) or None, got {got(value)}")
    return value


def optional_path(name: str, value: Any) -> str | os.PathLike[str] | None:
    """``value`` if it is None, a non-blank string or an ``os.PathLike``; else ValueError."""
    text = os.fspath(value) if isinstance(value, os.PathLike) else value
    if value is not None and not (isinstance(text, str) and text.strip()):
        raise ValueError(f"{name} must be a path (str or os.PathLike) or None, got {got(value)}")
    return value


def optional_mapping(name: str, value: Any) -> Mapping[str, Any] | None:
    """``value`` if it is None or a mapping; else ValueError."""
    if value is not None and not isinstance(value, Mapping):
        raise ValueError(f"{name} must be a mapping (e.g. a dict) or None, got {got(value)}")
    return value


#: MLEEnv's keywords with a type to check -> (check, its keyword arguments); None values
#: mean "not given" for all but the flags
_ENV_CHECKS: dict[str, tuple[Any, dict[str, Any]]] = {
    "max_episode_steps": (whole_number, {}),
    "time_budget_s": (positive_number, {"unit": "seconds"}),
    "exec_timeout_s": (positive_number, {"unit": "seconds"}),
    "memory_mb": (whole_number, {}),
    "pids": (whole_number, {}),
    "cpus": (positive_number, {}),
    "cpu_time_s": (whole_number, {}),
    "disk_mb": (whole_number, {}),
    "max_observation_chars": (whole_number, {}),
    "grade_on_truncation": (flag, {}),
    "keep_workspace": (flag, {}),
    "docker_image": (optional_text, {}),
    "trajectory_path": (optional_path, {}),
    "workspace_root": (optional_path, {}),
    "family_options": (optional_mapping, {}),
}


def check_env_keywords(where: str, values: Mapping[str, Any]) -> None:
    """ValueError ``"<where>: <keyword> must be ..., got <value> (<type>)"`` for the first
    of ``values`` (MLEEnv keyword -> value given) of the wrong type or out of range; None
    (not given) passes for every keyword but the flags. Keywords without a check here are
    ignored (``data``, ``reward_mode``, ``toolset``... are checked against the family's
    choices)."""
    for name, value in values.items():
        check, kwargs = _ENV_CHECKS.get(name, (None, {}))
        if check is None or (value is None and check is not flag):
            continue
        try:
            check(name, value, **kwargs)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
