"""Which agent an evaluation runs, and building it inside a worker.

An agent spec is one of

* a built-in name (``scripted``, ``random``, ``llm``) or an import path
  ``package.module:ClassName`` — both built by
  :func:`mle_gym.agents.make_agent` as ``make_agent(spec, seed=seed, **agent_args)``;
* a file path ``path/to/agent.py:ClassName`` (made absolute when the run is
  planned, so every worker finds it whatever its working directory or
  ``sys.path``): the class is loaded from the file and built with the agent
  args, plus ``seed=`` when its constructor takes a ``seed``.

Agent args come from ``--agent-arg key=value`` (repeatable); a value that
parses as JSON (``3``, ``0.5``, ``true``, ``null``, ``[1, 2]``) is taken as
such, anything else is a string.

One agent is built per episode, in the process that runs the episode.
:func:`check_spec` catches a bad spec once, before any episode runs.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import json
import sys
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
    target, sep, attr = spec.rpartition(":")
    if sep and target.endswith(".py"):
        return target, attr
    return None


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
    """The class a ``file.py:ClassName`` spec names (raises EvalConfigError)."""
    file_target = _file_target(spec)
    assert file_target is not None
    path, attr = Path(file_target[0]), file_target[1]
    if not path.is_file():
        raise EvalConfigError(f"agent file {path} does not exist")
    name = "mle_gym_eval_agent_" + "".join(c if c.isalnum() else "_" for c in str(path))
    module = sys.modules.get(name)
    if module is None:
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise EvalConfigError(f"cannot import agent file {path}")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module
        try:
            loader_spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise EvalConfigError(f"agent file {path} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not isinstance(obj, type):
        raise EvalConfigError(f"agent {spec!r} is not a class")
    return obj


def _takes(cls: type, names: Sequence[str]) -> bool:
    try:
        inspect.signature(cls).bind_partial(**dict.fromkeys(names))
    except TypeError:
        return False
    except ValueError:
        return True
    return True


def check_spec(spec: str, args: dict[str, Any]) -> None:
    """Fail early, with one clear error, on an agent that cannot be built.

    Built-in names are built once (cheap; catches e.g. a missing model name or
    API key for ``llm``); import and file paths are only loaded and their
    constructor checked against the args (building one may be expensive).
    """
    from mle_gym.agents import factory

    try:
        if _file_target(spec):
            cls = load_file_class(spec)
        elif ":" in spec:
            cls = factory.load_agent_class(spec)
        else:
            factory.make_agent(spec, seed=0, **args)
            return
    except EvalConfigError:
        raise
    except ValueError as exc:  # AgentConfigError
        raise EvalConfigError(f"agent {spec!r}: {exc}") from exc
    if args and not _takes(cls, list(args)):
        raise EvalConfigError(f"agent {spec!r} does not accept the arguments {sorted(args)}")


def build_agent(spec: str, args: dict[str, Any], seed: int | None) -> Any:
    """Build the agent for one episode (see the module docstring)."""
    if _file_target(spec):
        cls = load_file_class(spec)
        kwargs = dict(args)
        try:
            explicit = inspect.signature(cls).parameters
        except (TypeError, ValueError):
            explicit = {}  # type: ignore[assignment]
        if "seed" not in kwargs and "seed" in explicit:
            kwargs["seed"] = seed
        return cls(**kwargs)
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
