"""Building agents by name: :func:`make_agent`.

:func:`make_agent` builds the built-in agents by name (``"scripted"``, ``"random"``,
``"llm"``) and third-party agents by import path (``"my_pkg.my_module:MyAgent"``). This
module imports nothing heavy: the agents themselves (and the ``openai`` package the
``llm`` agent needs) are imported only when one is built.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from mle_gym.agents.base import Agent, AgentConfigError

BUILTIN_AGENTS: tuple[str, ...] = ("scripted", "random", "llm")


def make_agent(name: str, seed: int | None = None, **kwargs: Any) -> Agent:
    """Build an agent by name or import path.

    * ``"scripted"``: the reference agent (deterministic; ``seed`` is ignored).
    * ``"random"``: random harmless calls; ``seed`` seeds its generator.
    * ``"llm"``: :class:`mle_gym.agents.llm.LLMAgent`, an OpenAI-compatible chat
      model with native tool calling; ``seed`` is sent as the sampling seed and
      ``kwargs`` configure it (model, base_url, ...; see its docstring).
    * ``"package.module:ClassName"`` (``ClassName`` may be dotted, e.g.
      ``Outer.Inner``): a third-party :class:`Agent` subclass, instantiated with
      ``kwargs``, plus ``seed=seed`` when ``seed`` is given and the constructor
      accepts a ``seed`` argument (or ``**kwargs``).

    Raises:
        AgentConfigError (a ``ValueError``): unknown name, a module that cannot be
        imported, a missing attribute, something that is not an Agent class, an
        agent that does not implement ``reset``/``act``, or constructor
        arguments it does not accept.
    """
    if name == "scripted":
        from mle_gym.agents.scripted import ScriptedAgent

        return _instantiate(ScriptedAgent, name, kwargs)
    if name == "random":
        from mle_gym.agents.random_agent import RandomAgent

        return _instantiate(RandomAgent, name, {"seed": seed, **kwargs})
    if name == "llm":
        from mle_gym.agents.llm import LLMAgent

        return _instantiate(LLMAgent, name, {"seed": seed, **kwargs})
    if ":" in name:
        cls = load_agent_class(name)
        if seed is not None and "seed" not in kwargs and _accepts(cls, "seed"):
            kwargs = {**kwargs, "seed": seed}
        return _instantiate(cls, name, kwargs)
    raise AgentConfigError(
        f"unknown agent {name!r}; built-in agents: {', '.join(BUILTIN_AGENTS)}, or a "
        "third-party agent by import path 'package.module:ClassName'"
    )


def load_agent_class(path: str) -> type[Agent]:
    """The Agent subclass named by ``"package.module:ClassName"``.

    Raises AgentConfigError, naming the path and what is wrong with it.
    """
    module_name, _, attr_path = path.partition(":")
    module_name, attr_path = module_name.strip(), attr_path.strip()
    parts = attr_path.split(".") if attr_path else []
    if (
        not module_name
        or not all(p.isidentifier() for p in module_name.split("."))
        or not parts
        or not all(p.isidentifier() for p in parts)
    ):
        raise AgentConfigError(
            f"bad agent import path {path!r}: expected 'package.module:ClassName' "
            "(dotted module, a colon, then the class name)"
        )
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if module_name == missing or module_name.startswith(missing + "."):
            raise AgentConfigError(
                f"cannot load agent {path!r}: no module named {missing!r} "
                "(is the package installed, or its folder on sys.path?)"
            ) from exc
        raise AgentConfigError(
            f"cannot load agent {path!r}: importing {module_name!r} failed: {exc}"
        ) from exc
    except Exception as exc:
        raise AgentConfigError(
            f"cannot load agent {path!r}: importing {module_name!r} raised "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    obj: Any = module
    for i, part in enumerate(parts):
        if not hasattr(obj, part):
            where = module_name + "".join("." + p for p in parts[:i])
            hint = _agent_classes_in(module) if i == 0 else []
            also = f"; Agent classes there: {', '.join(hint)}" if hint else ""
            raise AgentConfigError(
                f"cannot load agent {path!r}: {where!r} has no attribute {part!r}{also}"
            )
        obj = getattr(obj, part)
    if not isinstance(obj, type):
        raise AgentConfigError(
            f"agent {path!r} is not a class (got {type(obj).__name__}); point at a "
            "subclass of mle_gym.agents.Agent"
        )
    missing_methods = [m for m in ("reset", "act") if not callable(getattr(obj, m, None))]
    if not issubclass(obj, Agent):
        lacks = f" and lacks {'/'.join(missing_methods)}" if missing_methods else ""
        raise AgentConfigError(
            f"agent {path!r} ({obj.__module__}.{obj.__qualname__}) is not a subclass of "
            f"mle_gym.agents.Agent{lacks}; subclass Agent and implement reset(task_info) "
            "and act(observation, info)"
        )
    abstract = sorted(getattr(obj, "__abstractmethods__", ()))
    if abstract:
        raise AgentConfigError(
            f"agent {path!r} does not implement {', '.join(abstract)}; an Agent must "
            "define reset(task_info) and act(observation, info)"
        )
    return obj


def _agent_classes_in(module: Any) -> list[str]:
    return sorted(
        n
        for n, v in vars(module).items()
        if isinstance(v, type) and issubclass(v, Agent) and v is not Agent
    )


def _accepts(cls: type, param: str) -> bool:
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == param or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def _instantiate(cls: type[Agent], name: str, kwargs: dict[str, Any]) -> Agent:
    """``cls(**kwargs)``; arguments the constructor does not take become AgentConfigError."""
    try:
        inspect.signature(cls).bind(**kwargs)
    except TypeError as exc:
        raise AgentConfigError(
            f"agent {name!r} ({cls.__qualname__}) does not accept the arguments "
            f"{sorted(kwargs)}: {exc}"
        ) from exc
    except ValueError:  # no signature available: let the call itself decide
        pass
    return cls(**kwargs)
