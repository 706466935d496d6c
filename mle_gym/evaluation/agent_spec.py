"""Which agent an evaluation runs, and building it inside a worker.

An agent spec is what :func:`mle_gym.agents.make_agent` takes, the loader ``mle-gym
run`` uses too (same forms, same error messages): a built-in name (``scripted``,
``random``, ``llm``), an import path ``package.module:ClassName``, or a file path
``path/to/agent.py:ClassName`` (made absolute when the run is planned, so every worker
finds it whatever its working directory or ``sys.path``), naming any class with
``reset`` and ``act``. Each episode's agent is ``make_agent(spec, seed=seed,
**agent_args)``: ``seed=`` goes to a constructor that takes one.

Agent args come from ``--agent-arg key=value`` (repeatable); a value that
parses as JSON (``3``, ``0.5``, ``true``, ``null``, ``[1, 2]``) is taken as
such, anything else is a string.

One agent is built per episode, in the process that runs the episode.
:func:`check_spec` catches a bad spec once, before any episode runs.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mle_gym.evaluation.errors import EvalConfigError


def parse_agent_args(items: Sequence[str]) -> dict[str, Any]:
    """``["temperature=0.2", "model=gpt"]`` -> ``{"temperature": 0.2, "model": "gpt"}``."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise EvalConfigError(f"--agent-arg needs key=value, got {item!r}")
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = raw
        out[key] = value
    return out


def _file_target(spec: str) -> tuple[str, str] | None:
    """(file, class name) of a ``file.py:Class`` spec, else None."""
    from mle_gym.agents.factory import file_target

    return file_target(spec)


def normalize_spec(spec: str) -> str:
    """Make a file-path spec absolute; other specs are returned stripped."""
    spec = spec.strip()
    if not spec:
        raise EvalConfigError("the agent spec is empty")
    file_target = _file_target(spec)
    if file_target:
        return f"{Path(file_target[0]).expanduser().resolve()}:{file_target[1]}"
    return spec


def load_file_class(spec: str) -> type:
    """The agent class a ``file.py:ClassName`` spec names (raises EvalConfigError with
    :func:`mle_gym.agents.factory.load_agent_class`'s message)."""
    from mle_gym.agents.factory import load_agent_class

    try:
        return load_agent_class(spec)
    except ValueError as exc:  # AgentConfigError
        raise EvalConfigError(_message(exc)) from exc


def check_spec(spec: str, args: dict[str, Any]) -> None:
    """Fail early, with one clear error (an EvalConfigError carrying the loader's own
    message, the one ``mle-gym run`` prints), on an agent that cannot be built.

    Built-in names are built once (cheap; catches e.g. a missing model name or
    API key for ``llm``); import and file paths are only loaded and their
    constructor checked against the args (building one may be expensive).
    """
    from mle_gym.agents import factory

    try:
        if factory.is_builtin(spec):
            factory.make_agent(spec, seed=0, **args)
            return
        cls = factory.load_agent_class(spec)
        factory.check_arguments(cls, spec, args)
    except ValueError as exc:  # AgentConfigError
        raise EvalConfigError(_message(exc)) from exc


def _message(exc: BaseException) -> str:
    """The message of ``exc`` as it was given (a :class:`mle_gym.hints.Hinted` stays one,
    so the command line writes its settings as options)."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)


def build_agent(spec: str, args: dict[str, Any], seed: int | None) -> Any:
    """Build the agent for one episode: :func:`mle_gym.agents.make_agent` (see the
    module docstring)."""
    from mle_gym.agents import make_agent

    return make_agent(spec, seed=seed, **args)


def usage_of(agent: Any) -> dict[str, Any]:
    """The agent's ``usage`` as a plain dict (an AgentUsage, a dataclass or a mapping)."""
    usage = getattr(agent, "usage", None)
    if usage is None:
        return {}
    to_dict = getattr(usage, "to_dict", None)
    if callable(to_dict):
        return dict(to_dict())
    if dataclasses.is_dataclass(usage) and not isinstance(usage, type):
        return dataclasses.asdict(usage)
    if isinstance(usage, Mapping):
        return dict(usage)
    return {}


def describe(agent: Any) -> str:
    """``module.Class`` of an agent object."""
    cls = type(agent)
    return f"{cls.__module__}.{cls.__qualname__}"
