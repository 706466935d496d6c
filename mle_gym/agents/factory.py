"""Building agents from a spec: :func:`make_agent`, the one loader behind ``mle-gym run``,
``mle-gym eval`` and the Python API.

An agent spec is one of

* a built-in name: ``"scripted"``, ``"random"``, ``"llm"`` (:data:`BUILTIN_AGENTS`);
* an import path ``"package.module:ClassName"`` (``ClassName`` may be dotted, e.g.
  ``Outer.Inner``): the module is imported the usual way (installed, or on ``sys.path``);
* a file path ``"path/to/agent.py:ClassName"`` (relative to the working directory):
  the file is run as a module of its own, once per process.

The class a path names is an agent if it has callable ``reset(task_info)`` and
``act(observation, info)`` methods: a subclass of :class:`~mle_gym.agents.base.Agent`
(which also counts model usage), or any class with those two methods.

Every problem is an :class:`~mle_gym.agents.base.AgentConfigError` (a ``ValueError``)
naming the spec and what is wrong: an unknown name, a module or file that cannot be
loaded, a missing attribute, something that is not an agent class, constructor arguments
it does not accept, or a constructor that raised. This module imports nothing heavy:
the agents themselves (and the ``openai`` package the ``llm`` agent needs) are imported
only when one is built.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from mle_gym.agents.base import Agent, AgentConfigError

BUILTIN_AGENTS: tuple[str, ...] = ("scripted", "random", "llm")

_SPEC_FORMS = (
    f"built-in agents: {', '.join(BUILTIN_AGENTS)}, or a class by import path "
    "'package.module:ClassName' or in a file 'path/to/agent.py:ClassName'"
)
_AGENT_CONTRACT = (
    "an agent is a class with reset(task_info) and act(observation, info) methods "
    "(e.g. a subclass of mle_gym.agents.Agent)"
)


def make_agent(name: str, seed: int | None = None, **kwargs: Any) -> Agent:
    """Build the agent ``name`` (a spec, see the module docstring) with ``kwargs``.

    * ``"scripted"``: the reference agent (deterministic; ``seed`` is ignored).
    * ``"random"``: random harmless calls; ``seed`` seeds its generator.
    * ``"llm"``: :class:`mle_gym.agents.llm.LLMAgent`, an OpenAI-compatible chat
      model with native tool calling; ``seed`` is sent as the sampling seed and
      ``kwargs`` configure it (model, base_url, ...; see its docstring).
    * ``"package.module:ClassName"`` or ``"path/agent.py:ClassName"``: that class,
      instantiated with ``kwargs``, plus ``seed=seed`` when ``seed`` is given and the
      constructor takes a ``seed`` argument (or ``**kwargs``). A class that is not an
      :class:`Agent` subclass is returned as it is built (it has ``reset`` and ``act``).

    Raises:
        AgentConfigError (a ``ValueError``): see the module docstring.
    """
    name = name.strip()
    if name == "scripted":
        from mle_gym.agents.scripted import ScriptedAgent

        return _instantiate(ScriptedAgent, name, kwargs)
    if name == "random":
        from mle_gym.agents.random_agent import RandomAgent

        return _instantiate(RandomAgent, name, {"seed": seed, **kwargs})
    if name == "llm":
        from mle_gym.agents.llm import LLMAgent

        return _instantiate(LLMAgent, name, {"seed": seed, **kwargs})
    cls = load_agent_class(name)
    return _instantiate(cls, name, with_seed(cls, kwargs, seed))


def is_builtin(spec: str) -> bool:
    """Whether ``spec`` names a built-in agent."""
    return spec.strip() in BUILTIN_AGENTS


def file_target(spec: str) -> tuple[str, str] | None:
    """``(file, class name)`` of a ``path/file.py:ClassName`` spec, else None."""
    target, sep, attr = spec.strip().rpartition(":")
    if sep and target.endswith(".py"):
        return target, attr.strip()
    return None


def load_agent_class(spec: str) -> type:
    """The agent class an import path (``package.module:ClassName``) or file path
    (``path/agent.py:ClassName``) names, checked to have ``reset`` and ``act``.

    Raises AgentConfigError, naming the spec and what is wrong with it.
    """
    spec = spec.strip()
    target = file_target(spec)
    if target is not None:
        module, where = _load_file(spec, *target), target[0]
        attr_path = target[1]
    else:
        module_name, attr_path = _split_import_path(spec)
        module, where = _import(spec, module_name), module_name
    obj = _attribute(spec, module, where, attr_path)
    return _checked_class(spec, obj)


def check_arguments(cls: type, spec: str, kwargs: Mapping[str, Any]) -> None:
    """AgentConfigError if ``cls``'s constructor does not take ``kwargs`` (a constructor
    without a readable signature is left to decide when called)."""
    try:
        inspect.signature(cls).bind(**kwargs)
    except TypeError as exc:
        raise AgentConfigError(
            f"agent {spec!r} ({cls.__qualname__}) does not accept the arguments "
            f"{sorted(kwargs)}: {exc}"
        ) from exc
    except ValueError:  # no signature available
        pass


def with_seed(cls: type, kwargs: Mapping[str, Any], seed: int | None) -> dict[str, Any]:
    """``kwargs`` plus ``seed=seed`` when a seed is given, not already among them, and
    ``cls``'s constructor takes one (a ``seed`` parameter or ``**kwargs``)."""
    out = dict(kwargs)
    if seed is not None and "seed" not in out and _accepts(cls, "seed"):
        out["seed"] = seed
    return out


# -- loading -------------------------------------------------------------------------------


def _unknown(spec: str) -> AgentConfigError:
    close = difflib.get_close_matches(spec, BUILTIN_AGENTS, n=1)
    also = f" (did you mean {close[0]!r}?)" if close else ""
    if spec.endswith(".py"):
        also = f" (name the class in the file: '{spec}:ClassName')"
    return AgentConfigError(f"unknown agent {spec!r}{also}; {_SPEC_FORMS}")


def _split_import_path(spec: str) -> tuple[str, str]:
    """``(module, attribute path)`` of ``package.module:ClassName``."""
    if ":" not in spec:
        raise _unknown(spec)
    module_name, _, attr_path = spec.partition(":")
    module_name, attr_path = module_name.strip(), attr_path.strip()
    parts = attr_path.split(".") if attr_path else []
    if (
        not module_name
        or not all(p.isidentifier() for p in module_name.split("."))
        or not parts
        or not all(p.isidentifier() for p in parts)
    ):
        raise AgentConfigError(
            f"bad agent import path {spec!r}: expected 'package.module:ClassName' "
            "(dotted module, a colon, then the class name) or 'path/to/agent.py:ClassName'"
        )
    return module_name, attr_path


def _import(spec: str, module_name: str) -> ModuleType:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if module_name == missing or module_name.startswith(missing + "."):
            raise AgentConfigError(
                f"cannot load agent {spec!r}: no module named {missing!r} "
                "(is the package installed, or its folder on sys.path?)"
            ) from exc
        raise AgentConfigError(
            f"cannot load agent {spec!r}: importing {module_name!r} failed: {exc}"
        ) from exc
    except Exception as exc:
        raise AgentConfigError(
            f"cannot load agent {spec!r}: importing {module_name!r} raised "
            f"{type(exc).__name__}: {exc}"
        ) from exc


def _load_file(spec: str, file: str, attr_path: str) -> ModuleType:
    """The module of an agent file, run once per process (kept in ``sys.modules``)."""
    if not attr_path:
        raise AgentConfigError(
            f"bad agent file spec {spec!r}: expected 'path/to/agent.py:ClassName'"
        )
    path = Path(file).expanduser().resolve()
    if not path.is_file():
        raise AgentConfigError(f"cannot load agent {spec!r}: agent file {path} does not exist")
    name = "mle_gym_agent_file_" + "".join(c if c.isalnum() else "_" for c in str(path))
    module = sys.modules.get(name)
    if module is not None:
        return module
    loader_spec = importlib.util.spec_from_file_location(name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise AgentConfigError(f"cannot load agent {spec!r}: {path} cannot be imported")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[name] = module
    try:
        loader_spec.loader.exec_module(module)
    except BaseException as exc:
        sys.modules.pop(name, None)
        if not isinstance(exc, Exception):
            raise
        raise AgentConfigError(
            f"cannot load agent {spec!r}: running {path} raised {type(exc).__name__}: {exc}"
        ) from exc
    return module


def _attribute(spec: str, module: ModuleType, where: str, attr_path: str) -> Any:
    parts = attr_path.split(".")
    obj: Any = module
    for i, part in enumerate(parts):
        if not hasattr(obj, part):
            inside = where + "".join("." + p for p in parts[:i])
            hint = _agent_classes_in(module) if i == 0 else []
            also = f"; Agent classes there: {', '.join(hint)}" if hint else ""
            raise AgentConfigError(
                f"cannot load agent {spec!r}: {inside!r} has no attribute {part!r}{also}"
            )
        obj = getattr(obj, part)
    return obj


def _checked_class(spec: str, obj: Any) -> type:
    if not isinstance(obj, type):
        raise AgentConfigError(
            f"agent {spec!r} is not a class (got {type(obj).__name__}); {_AGENT_CONTRACT}"
        )
    missing = [m for m in ("reset", "act") if not callable(getattr(obj, m, None))]
    if missing:
        kind = "" if issubclass(obj, Agent) else "is not a subclass of mle_gym.agents.Agent and "
        raise AgentConfigError(
            f"agent {spec!r} ({obj.__module__}.{obj.__qualname__}) {kind}lacks "
            f"{'/'.join(missing)}; {_AGENT_CONTRACT}"
        )
    abstract = sorted(getattr(obj, "__abstractmethods__", ()))
    if abstract:
        raise AgentConfigError(
            f"agent {spec!r} does not implement {', '.join(abstract)}; {_AGENT_CONTRACT}"
        )
    return obj


def _is_agent_class(value: Any) -> bool:
    return (
        isinstance(value, type)
        and value is not Agent
        and all(callable(getattr(value, m, None)) for m in ("reset", "act"))
        and not getattr(value, "__abstractmethods__", None)
    )


def _agent_classes_in(module: ModuleType) -> list[str]:
    return sorted(n for n, v in vars(module).items() if _is_agent_class(v))


# -- construction --------------------------------------------------------------------------


def _accepts(cls: type, param: str) -> bool:
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == param or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def _instantiate(cls: type, spec: str, kwargs: dict[str, Any]) -> Agent:
    """``cls(**kwargs)``; arguments it does not take, or a constructor that raises, are
    an AgentConfigError (one the constructor raised itself passes unchanged)."""
    check_arguments(cls, spec, kwargs)
    try:
        agent = cls(**kwargs)
    except AgentConfigError:
        raise
    except Exception as exc:
        raise AgentConfigError(
            f"agent {spec!r} ({cls.__qualname__}) could not be built: {type(exc).__name__}: {exc}"
        ) from exc
    return cast(Agent, agent)
