"""The agent interface, per-episode usage accounting, and :func:`make_agent`.

An agent is a policy over one episode at a time: ``reset(task_info)`` starts an
episode, ``act(observation, info)`` returns the next action in any form the env
accepts. Every agent also carries :attr:`Agent.usage`, an :class:`AgentUsage`
record of what the current episode cost in model calls (all zeros for agents
that call no model), replaced by a fresh record at every ``reset``.

:func:`make_agent` builds the built-in agents by name (``"scripted"``,
``"random"``, ``"llm"``) and third-party agents by import path
(``"my_pkg.my_module:MyAgent"``). This module imports nothing heavy: the agents
themselves (and the ``openai`` package the ``llm`` agent needs) are imported only
when one is built.
"""

from __future__ import annotations

import abc
import functools
import importlib
import inspect
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

BUILTIN_AGENTS: tuple[str, ...] = ("scripted", "random", "llm")


class AgentError(RuntimeError):
    """An agent cannot produce an action (e.g. its model endpoint keeps failing)."""


class AgentConfigError(AgentError, ValueError):
    """An agent cannot be built as asked: unknown name, bad import path, bad settings."""


@dataclass
class AgentUsage:
    """What one episode cost in model calls; a fresh record is made at every ``reset``.

    Attributes:
        requests: HTTP requests sent to the model, retries included.
        prompt_tokens, completion_tokens, total_tokens: summed from the ``usage``
            the server reported with each successful response (responses without
            ``usage`` add nothing and are counted in ``extra["responses_without_usage"]``).
        retries: requests that repeated a failed one.
        errors: failed requests (HTTP errors, timeouts, connection errors,
            malformed responses), whether or not a retry followed.
        model_seconds: wall-clock seconds spent waiting for responses.
        backoff_seconds: wall-clock seconds slept between a failure and its retry.
        extra: agent-specific counters (e.g. the ``llm`` agent's context trimming).
    """

    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    retries: int = 0
    errors: int = 0
    model_seconds: float = 0.0
    backoff_seconds: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def wait_seconds(self) -> float:
        """All the time the episode spent on the model: responses plus backoff."""
        return self.model_seconds + self.backoff_seconds

    def bump(self, key: str, amount: float = 1) -> None:
        """Add ``amount`` to the agent-specific counter ``extra[key]``."""
        self.extra[key] = self.extra.get(key, 0) + amount

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (seconds rounded to the millisecond)."""
        out = asdict(self)
        out["model_seconds"] = round(self.model_seconds, 3)
        out["backoff_seconds"] = round(self.backoff_seconds, 3)
        out["wait_seconds"] = round(self.wait_seconds, 3)
        return out


def _clearing_usage(reset: Callable[..., None]) -> Callable[..., None]:
    """Wrap an agent's ``reset`` so that it starts a fresh :class:`AgentUsage` first.

    A nested call (a subclass's ``reset`` calling ``super().reset``) does not
    start another one, so counts a subclass makes before delegating survive.
    """

    @functools.wraps(reset)
    def wrapper(self: Agent, *args: Any, **kwargs: Any) -> None:
        if self._in_reset:
            return reset(self, *args, **kwargs)
        self._in_reset = True
        try:
            self._usage = AgentUsage()
            return reset(self, *args, **kwargs)
        finally:
            self._in_reset = False

    wrapper._clears_usage = True  # type: ignore[attr-defined]
    return wrapper


class Agent(abc.ABC):
    """A policy over one episode at a time.

    Contract:

    * ``reset(task_info)`` starts an episode. ``task_info`` is the reset ``info``
      dict (``messages`` = [system, user] in OpenAI chat format, ...) plus
      ``task`` (the TaskSpec), ``observation`` (the first observation) and, when
      built by :func:`mle_gym.episode_runner.run_episode`, ``tools`` (the env's tool
      schemas in Chat Completions format).
    * ``act(observation, info)`` returns the next action in any form the env
      accepts. The first call after ``reset`` gets the reset observation and
      info; later calls get the last step's observation and info.
    * ``usage`` is the current episode's :class:`AgentUsage`. Every subclass's
      ``reset`` is wrapped (at class creation) so that a fresh record replaces
      the old one before the subclass's own code runs, even if it never calls
      ``super().reset``; a record someone kept from an earlier episode stays as
      it was.
    """

    name: str = "agent"
    #: True while the outermost wrapped ``reset`` of this agent runs
    _in_reset: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        reset = cls.__dict__.get("reset")
        if callable(reset) and not getattr(reset, "_clears_usage", False):
            cls.reset = _clearing_usage(reset)  # type: ignore[method-assign]

    @property
    def usage(self) -> AgentUsage:
        """Model usage of the current episode (since the last ``reset``)."""
        usage = getattr(self, "_usage", None)
        if usage is None:
            usage = self._usage = AgentUsage()
        return usage

    @usage.setter
    def usage(self, value: AgentUsage) -> None:
        if not isinstance(value, AgentUsage):
            raise TypeError(f"Agent.usage must be an AgentUsage, got {type(value).__name__}")
        self._usage = value

    @abc.abstractmethod
    def reset(self, task_info: dict[str, Any]) -> None:
        """Start a new episode."""

    @abc.abstractmethod
    def act(self, observation: str, info: dict[str, Any]) -> Any:
        """The next action given the last observation and info."""


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
