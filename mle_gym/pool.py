"""EpisodePool: a batch of episodes for LLM rollouts, where episodes end at different times.

    pool = EpisodePool(["MLEBench/spaceship-titanic-v0"] * 8, max_live=4, data="replica")
    first = pool.reset([0, 1, 2, 3], seeds=[0, 1, 2, 3])        # {index: (obs, info)}
    out = pool.step({0: action_0, 2: action_2})                # step any subset
    out[2].reward, out[2].terminated                           # StepResult per index
    results = await pool.astep({1: action_1})                  # asyncio variant

Contract:

* The pool holds one env per slot (any mix of task ids; each slot can have its
  own ``gym.make`` kwargs). Envs are built lazily, on their first reset.
* ``reset``/``step`` act on the given indices concurrently (a thread pool; the
  work is mostly waiting on sandboxed processes) and return ``{index: result}``.
* At most ``max_live`` episodes hold a sandbox at once: ``reset`` of an idle
  slot waits for a free place (``timeout`` seconds, then :class:`PoolBusy`).
  When an episode ends (terminated or truncated) its sandbox and workspace are
  released at once and its place freed; ``reset`` starts the slot again.
* Thread-safe: every method may be called from several threads; calls on the
  same slot are serialised. Stepping a slot without a running episode, or an
  unknown index, raises ``ValueError`` before anything is stepped.
* ``areset``/``astep`` are the same operations for asyncio trainers.

``EnvPool``, this class's former name, still works for one release with a
:class:`DeprecationWarning` (it read as the unrelated ``envpool`` library).
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

import gymnasium as gym

from mle_gym._deprecation import renamed_attribute

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")


def _awaitable(
    method: Callable[Concatenate[S, P], R],
) -> Callable[Concatenate[S, P], Awaitable[R]]:
    """The asyncio variant ``a<name>`` of a blocking method: the same call and signature,
    run in the event loop's default executor, so the loop keeps running while it waits."""

    @functools.wraps(method)
    async def run(self: S, *args: P.args, **kwargs: P.kwargs) -> R:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(method, self, *args, **kwargs))

    run.__name__ = f"a{method.__name__}"
    run.__qualname__ = f"{method.__qualname__.rpartition('.')[0]}.{run.__name__}"
    run.__doc__ = f":meth:`{method.__name__}` for asyncio code (never blocks the event loop)."
    return run


class PoolBusy(TimeoutError):
    """No sandbox place became free within the reset timeout."""


@dataclass(frozen=True)
class StepResult:
    """One slot's step outcome."""

    observation: str
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


class EpisodePool:
    """See module docstring.

    Args:
        env_ids: one gymnasium id per slot.
        max_live: most episodes holding a sandbox at once (default: one per slot).
        workers: threads used to step slots concurrently (default: min(32, slots)).
        make_kwargs: per-slot ``gym.make`` kwargs (a list) or common ones (a dict);
            ``**kwargs`` are added to every slot's.
    """

    def __init__(
        self,
        env_ids: Sequence[str],
        *,
        max_live: int | None = None,
        workers: int | None = None,
        make_kwargs: Sequence[Mapping[str, Any]] | Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if not env_ids:
            raise ValueError("EpisodePool needs at least one env id")
        self.env_ids = list(env_ids)
        n = len(self.env_ids)
        if make_kwargs is None or isinstance(make_kwargs, Mapping):
            per_slot = [dict(make_kwargs or {}) for _ in range(n)]
        else:
            if len(make_kwargs) != n:
                raise ValueError(f"make_kwargs has {len(make_kwargs)} entries for {n} slots")
            per_slot = [dict(k) for k in make_kwargs]
        self._kwargs = [{**k, **kwargs} for k in per_slot]
        self.max_live = int(max_live or n)
        if self.max_live < 1:
            raise ValueError("max_live must be >= 1")
        self._envs: list[gym.Env | None] = [None] * n
        self._running = [False] * n
        self._slot_locks = [threading.Lock() for _ in range(n)]
        self._places = threading.BoundedSemaphore(self.max_live)
        self._state = threading.Lock()
        self._executor = ThreadPoolExecutor(
            max_workers=workers or min(32, n), thread_name_prefix="mle_gym-pool"
        )
        self._closed = False

    def __len__(self) -> int:
        return len(self.env_ids)

    @property
    def live(self) -> int:
        """Episodes currently holding a sandbox."""
        with self._state:
            return sum(self._running)

    def running(self, index: int) -> bool:
        """Whether slot ``index`` has an episode in progress."""
        return self._running[self._check_index(index)]

    def env(self, index: int) -> gym.Env:
        """The env of slot ``index`` (built on first use)."""
        self._check_index(index)
        with self._state:
            if self._envs[index] is None:
                self._envs[index] = gym.make(self.env_ids[index], **self._kwargs[index])
            env = self._envs[index]
        assert env is not None
        return env

    # -- synchronous API ----------------------------------------------------------------------

    def reset(
        self,
        indices: Sequence[int] | None = None,
        *,
        seeds: Sequence[int | None] | None = None,
        options: Sequence[dict[str, Any] | None] | dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> dict[int, tuple[str, dict[str, Any]]]:
        """Start a new episode in each slot of ``indices`` (default: all)."""
        idx = self._indices(indices)
        seed_list = list(seeds) if seeds is not None else [None] * len(idx)
        if len(seed_list) != len(idx):
            raise ValueError(f"{len(seed_list)} seeds for {len(idx)} slots")
        if options is None or isinstance(options, dict):
            opt_list = [options] * len(idx)
        else:
            opt_list = list(options)
            if len(opt_list) != len(idx):
                raise ValueError(f"{len(opt_list)} options for {len(idx)} slots")
        futures = {
            i: self._executor.submit(self._reset_one, i, s, o, timeout)
            for i, s, o in zip(idx, seed_list, opt_list, strict=True)
        }
        return {i: f.result() for i, f in futures.items()}

    def step(self, actions: Mapping[int, Any]) -> dict[int, StepResult]:
        """Step each slot of ``actions`` with its action, concurrently."""
        idx = self._indices(list(actions))
        idle = [i for i in idx if not self._running[i]]
        if idle:
            raise ValueError(f"slot(s) {idle} have no running episode; reset them first")
        futures = {i: self._executor.submit(self._step_one, i, actions[i]) for i in idx}
        return {i: f.result() for i, f in futures.items()}

    # -- asyncio API ------------------------------------------------------------------------

    areset = _awaitable(reset)
    _astep = _awaitable(step)

    async def astep(self, actions: Mapping[int, Any]) -> dict[int, StepResult]:
        """:meth:`step` for asyncio code (never blocks the event loop); ``actions`` is
        copied at the call, so changing the mapping meanwhile changes nothing."""
        return await self._astep(dict(actions))

    # -- lifecycle ----------------------------------------------------------------------------

    def release(self, index: int) -> None:
        """End slot ``index``'s episode now (if any), freeing its sandbox."""
        self._check_index(index)
        with self._slot_locks[index]:
            self._release_locked(index)

    def close(self) -> None:
        """Close every env and stop the threads (idempotent)."""
        if self._closed:
            return
        self._closed = True
        for i in range(len(self)):
            with self._slot_locks[i]:
                self._release_locked(i)
                env = self._envs[i]
                if env is not None:
                    env.close()
        self._executor.shutdown(wait=True)

    def __enter__(self) -> EpisodePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ----------------------------------------------------------------------------

    def _check_index(self, index: int) -> int:
        if not isinstance(index, int) or not 0 <= index < len(self.env_ids):
            raise ValueError(f"no slot {index!r}; the pool has slots 0..{len(self.env_ids) - 1}")
        return index

    def _indices(self, indices: Sequence[int] | None) -> list[int]:
        if self._closed:
            raise RuntimeError("the pool is closed")
        idx = list(range(len(self))) if indices is None else [self._check_index(i) for i in indices]
        if len(set(idx)) != len(idx):
            raise ValueError(f"duplicate slot indices in {idx}")
        return idx

    def _reset_one(
        self, i: int, seed: int | None, options: dict[str, Any] | None, timeout: float | None
    ) -> tuple[str, dict[str, Any]]:
        env = self.env(i)
        with self._slot_locks[i]:
            if not self._running[i]:
                if not self._places.acquire(timeout=timeout if timeout is not None else -1):
                    raise PoolBusy(f"no sandbox place free within {timeout} s for slot {i}")
                with self._state:
                    self._running[i] = True
            try:
                return env.reset(seed=seed, options=options)
            except BaseException:
                self._release_locked(i)
                raise

    def _step_one(self, i: int, action: Any) -> StepResult:
        env = self.env(i)
        with self._slot_locks[i]:
            if not self._running[i]:
                raise ValueError(f"slot {i} has no running episode; reset it first")
            obs, reward, terminated, truncated, info = env.step(action)
            result = StepResult(obs, float(reward), bool(terminated), bool(truncated), info)
            if result.done:
                self._release_locked(i)
            return result

    def _release_locked(self, i: int) -> None:
        with self._state:
            was_running = self._running[i]
            self._running[i] = False
        if was_running:
            env = self._envs[i]
            if env is not None:
                env.unwrapped.release()  # type: ignore[attr-defined]
            self._places.release()


def __getattr__(name: str) -> Any:
    """``EnvPool``: the deprecated former name of :class:`EpisodePool`."""
    return renamed_attribute(__name__, name, {"EnvPool": "EpisodePool"}, globals())
