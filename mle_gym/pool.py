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
* At most ``max_live`` slots hold a place (a sandbox) at once. ``reset`` of an idle
  slot takes a place; when none is free it waits until one is (another slot's
  episode ends, :meth:`EpisodePool.release` or :meth:`EpisodePool.close`), for
  ever by default or at most ``timeout`` seconds, then raises :class:`PoolBusy`
  (a ``TimeoutError``) naming the slots holding the places. A call takes the places
  of all its idle slots at once or none, and waits in the calling thread (never
  in a worker, so steps of other slots go on meanwhile); a call asking for more
  idle slots than ``max_live`` could never start them all together and is a
  ``ValueError``; closing the pool wakes a waiting call with a ``RuntimeError``.
  ``reset`` of a running slot restarts its episode in the place it holds.
* When an episode ends (terminated or truncated) its sandbox and workspace are
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
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

import gymnasium as gym

from mle_gym._deprecation import renamed_attribute
from mle_gym.arg_checks import positive_number, whole_number

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
    """No sandbox place became free within the reset timeout; the message names the slots
    holding the places."""


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
        self.max_live = n if max_live is None else whole_number("max_live", max_live)
        self._envs: list[gym.Env | None] = [None] * n
        #: an episode is in progress in the slot
        self._running = [False] * n
        #: the slot holds one of the max_live places (from reset until it is released)
        self._holding = [False] * n
        self._slot_locks = [threading.Lock() for _ in range(n)]
        #: guards _envs, _running, _holding and _closed; notified when a place is freed
        self._state = threading.Condition()
        self._executor = ThreadPoolExecutor(
            max_workers=workers or min(32, n), thread_name_prefix="mle_gym-pool"
        )
        self._closed = False

    def __len__(self) -> int:
        return len(self.env_ids)

    @property
    def live(self) -> int:
        """Slots currently holding a place (a sandbox, or one being started)."""
        with self._state:
            return sum(self._holding)

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
        """Start a new episode in each slot of ``indices`` (default: all) and return
        ``{index: (obs, info)}``. Idle slots first take a place each, all at once, waiting
        for free places as long as needed (``timeout=None``) or ``timeout`` seconds, then
        :class:`PoolBusy`; see the module docstring."""
        idx = self._indices(indices)
        if timeout is not None:
            timeout = positive_number("timeout", timeout, unit="seconds", zero=True)
        seed_list = list(seeds) if seeds is not None else [None] * len(idx)
        if len(seed_list) != len(idx):
            raise ValueError(f"{len(seed_list)} seeds for {len(idx)} slots")
        if options is None or isinstance(options, dict):
            opt_list = [options] * len(idx)
        else:
            opt_list = list(options)
            if len(opt_list) != len(idx):
                raise ValueError(f"{len(opt_list)} options for {len(idx)} slots")
        deadline = None if timeout is None else time.monotonic() + timeout
        taken = self._take_places(idx, deadline, timeout)
        try:
            futures = {
                i: self._executor.submit(self._reset_one, i, s, o, deadline, timeout)
                for i, s, o in zip(idx, seed_list, opt_list, strict=True)
            }
        except BaseException:  # e.g. the executor shut down by a concurrent close()
            for i in taken:
                self._free_place(i)
            raise
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
        with self._state:
            if self._closed:
                return
            self._closed = True
            self._state.notify_all()  # resets waiting for a place give up
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

    def _take_places(
        self, idx: list[int], deadline: float | None, timeout: float | None
    ) -> list[int]:
        """Give every slot of ``idx`` without a place one, all at once, waiting until
        enough are free (until ``deadline``, then PoolBusy); the slots given one."""
        with self._state:
            needed = [i for i in idx if not self._holding[i]]
            if len(needed) > self.max_live:
                raise ValueError(
                    f"reset of {len(needed)} idle slots needs {len(needed)} sandbox places, "
                    f"but the pool has max_live={self.max_live}: reset at most "
                    f"{self.max_live} idle slots per call"
                )
            while needed and sum(self._holding) + len(needed) > self.max_live:
                if self._closed:
                    raise RuntimeError(f"the pool was closed while slot(s) {needed} waited")
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    holders = [j for j, held in enumerate(self._holding) if held]
                    raise PoolBusy(
                        f"slot(s) {needed} waited {timeout:g} s for a sandbox place: "
                        f"{len(holders)} of the pool's max_live={self.max_live} places are "
                        f"held by slot(s) {holders}; step their episodes to the end, "
                        "release() them, wait longer (timeout=None waits for ever) or "
                        "raise max_live"
                    )
                self._state.wait(left)
                needed = [i for i in idx if not self._holding[i]]
            for i in needed:
                self._holding[i] = True
            return needed

    def _free_place(self, i: int) -> None:
        with self._state:
            self._holding[i] = False
            self._state.notify_all()

    def _reset_one(
        self,
        i: int,
        seed: int | None,
        options: dict[str, Any] | None,
        deadline: float | None,
        timeout: float | None,
    ) -> tuple[str, dict[str, Any]]:
        with self._slot_locks[i]:
            try:
                env = self.env(i)
                # usually a no-op (reset() took the place), unless another thread ended
                # the slot's episode since
                self._take_places([i], deadline, timeout)
                with self._state:
                    self._running[i] = True
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
        """End slot ``i``'s episode (the caller holds its lock): release its sandbox, then
        free its place (in that order, so at most max_live sandboxes ever exist)."""
        with self._state:
            held = self._holding[i]
            self._running[i] = False
        if held:
            try:
                env = self._envs[i]
                if env is not None:
                    env.unwrapped.release()  # type: ignore[attr-defined]
            finally:
                self._free_place(i)


def __getattr__(name: str) -> Any:
    """``EnvPool``: the deprecated former name of :class:`EpisodePool`."""
    return renamed_attribute(__name__, name, {"EnvPool": "EpisodePool"}, globals())
