"""MacroActionWrapper: the gymnasium wrapper (episode state, observation, rewards).

See :mod:`mle_gym.wrappers.macro` for the move table, the observation and the rewards.
Every move reaches the episode through the wrapped env: fits and submissions are tool calls
(``write_file``, ``python`` or ``execute``, ``submit``); the task's data and the candidates'
predictions are read through the env's file-tool layer (:mod:`.files`).
"""

from __future__ import annotations

import math
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from mle_gym import paths
from mle_gym.wrappers.macro.cache import FitCache
from mle_gym.wrappers.macro.files import TaskData, load_task_data, read_text, sandbox_files
from mle_gym.wrappers.macro.moves import (
    FEATURE_SETS,
    LOWER_IS_BETTER,
    MODEL_FAMILIES,
    NOT_TRIED,
    SETTINGS,
    Move,
    build_moves,
    deprecated_families,
    describe_moves,
    skill,
    validation_metric,
)
from mle_gym.wrappers.macro.program import (
    SCRIPT_PATH,
    SCRIPT_VERSION,
    SOLUTION_SCRIPT,
    fit_action,
    fit_spec,
    preds_path,
    result_line,
)

# Wrapped-env steps an episode needs besides one per move: writing the script, writing
# the submission file, submit.
EXTRA_ENV_STEPS = 3
#: checked public data by (task key, data source, prepared variant): read once per process
_TASK_DATA: dict[tuple[str, str, str], TaskData] = {}

#: What one wrapped-env step returned: (observation, reward, terminated, truncated, info).
EnvStep = tuple[str, float, bool, bool, dict[str, Any]]


@dataclass
class _Fit:
    """The outcome of one fit move, run or replayed."""

    result: dict[str, Any]
    seconds: float
    preds: str | None
    error: str | None
    last: EnvStep


class MacroActionWrapper(gym.Wrapper):
    """Discrete macro actions over a tabular MLE-bench env (see :mod:`mle_gym.wrappers.macro`).

    Args:
        env: an mle_gym env (``gymnasium.make("MLEBench/<task>-v0", data="replica",
            reward_mode="normalized")`` or an ``MLEEnv``). Its step budget must allow
            ``move_budget + 3`` tool calls.
        move_budget: moves per episode; the move that uses the last one also submits.
        move_cost: subtracted from the reward of every move (default 0).
        memoize: reuse cached fit results (validation score and test predictions) from
            ``cache_dir`` instead of re-running identical fits.
        cache_dir: cache folder (default ``$MLE_GYM_HOME/macro_cache``).
        feature_sets, model_families, settings: the fit moves (all combinations, in this
            order); ``families`` is the deprecated old name of ``model_families``.
        val_fraction: share of train.csv held out for validation.
        split_seed: random state of the validation split.
        runner: "python" (the env's persistent ``python`` tool; data stays loaded) or
            "execute" (a fresh ``python macro/macro_solution.py`` per fit).
        fit_timeout_s: per-fit timeout (default: the env's command timeout).
        time_budget_s: virtual time budget (default: the env's wall-clock budget).
        time_resolution: the time-left observation is rounded down to this step.
    """

    # episode state (see _reset_episode_state)
    _skills: np.ndarray
    _results: dict[int, dict[str, Any]]
    _preds: dict[int, str]
    _order: list[int]
    _last: int | None
    _moves_used: int
    _time_used: float
    _script_written: bool

    def __init__(
        self,
        env: gym.Env,
        *,
        move_budget: int = 6,
        move_cost: float = 0.0,
        memoize: bool = True,
        cache_dir: str | os.PathLike[str] | None = None,
        feature_sets: tuple[str, ...] = tuple(FEATURE_SETS),
        model_families: tuple[str, ...] = tuple(MODEL_FAMILIES),
        settings: tuple[str, ...] = tuple(SETTINGS),
        val_fraction: float = 0.2,
        split_seed: int = 0,
        runner: str = "python",
        fit_timeout_s: float | None = None,
        time_budget_s: float | None = None,
        time_resolution: float = 0.01,
        families: tuple[str, ...] | None = None,
    ) -> None:
        super().__init__(env)
        _check_args(move_budget, move_cost, val_fraction, runner, time_resolution)
        base: Any = env.unwrapped
        for attr in ("task", "limits", "file_view", "data_variant", "agent_stopped"):
            if not hasattr(base, attr):
                raise TypeError(f"MacroActionWrapper needs an mle_gym env (no {attr!r})")
        if not hasattr(base.task, "submission"):
            raise TypeError(
                f"MacroActionWrapper needs a task graded on a CSV submission (MLE-bench's); "
                f"{base.task.env_id} is a task of the {base.task.family!r} family"
            )
        #: the wrapped MLEEnv (its file view, data variant and agent_stopped())
        self._base = base
        self.task = base.task
        model_families = deprecated_families(model_families, families)
        self.moves: tuple[Move, ...] = build_moves(
            tuple(feature_sets), model_families, tuple(settings)
        )
        self.fit_moves: tuple[Move, ...] = self.moves[:-1]
        self.move_budget = int(move_budget)
        self.move_cost = float(move_cost)
        self.memoize = bool(memoize)
        self.cache_dir = Path(cache_dir) if cache_dir else paths.home() / "macro_cache"
        self.val_fraction = float(val_fraction)
        self.split_seed = int(split_seed)
        self.runner = runner
        self.fit_timeout_s = fit_timeout_s
        limits = base.limits
        self.time_budget_s = float(time_budget_s or limits.time_budget_s)
        if self.time_budget_s <= 0:
            raise ValueError(f"time_budget_s must be positive, got {time_budget_s}")
        self.time_resolution = float(time_resolution)
        self.metric = validation_metric(self.task.metric, self.task.submission.target_kind)

        n_fit = len(self.fit_moves)
        self._n_fit = n_fit
        self.action_space = spaces.Discrete(len(self.moves))
        self.observation_space = spaces.Box(-1.0, 1.0, shape=(2 * n_fit + 4,), dtype=np.float32)

        self.tool_calls: Counter[str] = Counter()
        """Wrapped-env tool calls made by this wrapper, by tool name (all episodes)."""
        self.cache_hits = 0
        self.cache_misses = 0
        self._cache = FitCache(self.cache_dir)
        self._active = False
        self._variant = ""
        self._digest = ""
        self._sample_submission = ""
        self._reset_episode_state()

    # -- public helpers ------------------------------------------------------------------------

    @property
    def move_names(self) -> list[str]:
        """Readable names of the moves, by action index."""
        return [m.name for m in self.moves]

    def describe(self) -> str:
        """The move table as plain text."""
        return describe_moves(self.moves)

    # -- gymnasium API -------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a fresh env episode; check the task's data; the initial observation.

        Raises ``ValueError`` if the wrapped env's step budget is too small for
        ``move_budget`` or the task's data is not a supported table (see the package doc).
        """
        if seed is not None:
            self.action_space.seed(seed)
        _, env_info = self.env.reset(seed=seed, options=options)
        steps_left = env_info.get("steps_left")
        if steps_left is not None and steps_left < self.move_budget + EXTRA_ENV_STEPS:
            raise ValueError(
                f"the wrapped env allows {steps_left} steps per episode but move_budget="
                f"{self.move_budget} needs up to {self.move_budget + EXTRA_ENV_STEPS}; raise "
                "its max_episode_steps or lower move_budget"
            )
        source = str(env_info.get("data_source"))
        data = self._task_data(source)
        self._digest = data.digest
        self._variant = f"{source}-{data.digest[:12]}"
        self._sample_submission = data.sample_submission
        self._reset_episode_state()
        self._active = True
        info = {
            "task_id": self.task.id,
            "episode_id": env_info.get("episode_id"),
            "data_source": env_info.get("data_source"),
            "data_variant": self._variant,
            "metric": self.metric,
            "move_budget": self.move_budget,
            "moves": self.move_names,
        }
        return self._observation(), info

    def _task_data(self, source: str) -> TaskData:
        """The episode's public data checked and checksummed, once per prepared variant
        (a variant's files never change, so its checksum is kept for the process)."""
        variant = self._base.data_variant
        key = (self.task.key, source, variant)
        known = _TASK_DATA.get(key) if variant is not None else None
        if known is None:
            with self._base.agent_stopped():
                known = load_task_data(sandbox_files(self.env), self.task.id)
            if variant is not None:
                _TASK_DATA[key] = known
        return known

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Run one move (see the package docstring for rewards and episode ends)."""
        if not self._active:
            raise ResetNeeded("call reset() before step(); the episode is over or not started")
        index = int(np.asarray(action).reshape(-1)[0])
        if not 0 <= index < len(self.moves):
            raise ValueError(f"action {action!r} is outside {self.action_space}")
        move = self.moves[index]
        self._moves_used += 1
        self._last = index
        reward = -self.move_cost if self.move_cost else 0.0
        info: dict[str, Any] = {"move": move.name, "move_index": index}
        terminated = truncated = False
        if move.kind == "submit":
            reward += self._submit_best(info)
            terminated = True
        else:
            ended = self._fit(move, info)
            if ended is not None:
                env_reward, env_truncated = ended
                reward += env_reward
                terminated, truncated = not env_truncated, env_truncated
            elif self._moves_used >= self.move_budget or self._time_left() <= 0:
                info["auto_submitted"] = True
                reward += self._submit_best(info)
                terminated = True
        if terminated or truncated:
            self._active = False
        info.update(
            moves_used=self._moves_used,
            moves_left=self.move_budget - self._moves_used,
            best_move=self._best_name(),
            best_val_score=self._best_score(),
            virtual_time_s=round(self._time_used, 3),
        )
        return self._observation(), float(reward), terminated, truncated, info

    # -- episode state -------------------------------------------------------------------------

    def _reset_episode_state(self) -> None:
        self._skills = np.full(self._n_fit, NOT_TRIED, dtype=np.float64)
        self._results = {}
        self._preds = {}
        self._order = []
        self._last = None
        self._moves_used = 0
        self._time_used = 0.0
        self._script_written = False

    def _time_left(self) -> float:
        return max(0.0, 1.0 - self._time_used / self.time_budget_s)

    def _observation(self) -> np.ndarray:
        n = self._n_fit
        obs = np.zeros(2 * n + 4, dtype=np.float32)
        obs[:n] = self._skills
        tried = self._skills[self._skills > NOT_TRIED]
        obs[n] = float(tried.max()) if tried.size else NOT_TRIED
        obs[n + 1] = (self.move_budget - self._moves_used) / self.move_budget
        res = self.time_resolution
        obs[n + 2] = math.floor(self._time_left() / res + 1e-9) * res
        if self._last is not None:
            obs[n + 3 + self._last] = 1.0
        return np.clip(obs, -1.0, 1.0)

    def _best(self) -> int | None:
        """Index of the best validated candidate with predictions (the earliest tried on ties)."""
        best, best_value = None, -math.inf
        lower = self.metric in LOWER_IS_BETTER
        for index in self._order:
            if index not in self._preds:
                continue
            value = -self._results[index]["score"] if lower else self._results[index]["score"]
            if value > best_value:
                best, best_value = index, value
        return best

    def _best_name(self) -> str | None:
        best = self._best()
        return self.moves[best].name if best is not None else None

    def _best_score(self) -> float | None:
        best = self._best()
        return self._results[best]["score"] if best is not None else None

    # -- wrapped env ----------------------------------------------------------------------------

    def _env_step(self, tool: str, args: dict[str, Any]) -> EnvStep:
        self.tool_calls[tool] += 1
        obs, reward, terminated, truncated, info = self.env.step({"tool": tool, "args": args})
        return str(obs), float(reward), bool(terminated), bool(truncated), info

    # -- fits -----------------------------------------------------------------------------------

    def _cache_fields(self, move: Move) -> dict[str, Any]:
        return {
            "task": self.task.key,
            "variant": self._variant,
            "data": self._digest,
            "move": move.name,
            "metric": self.metric,
            "val_fraction": self.val_fraction,
            "split_seed": self.split_seed,
            "script": SCRIPT_VERSION,
        }

    def _fit(self, move: Move, info: dict[str, Any]) -> tuple[float, bool] | None:
        """Run (or replay) a fit move; None, or (env reward, truncated) if the env ended."""
        fields = self._cache_fields(move)
        entry = (
            self._cache.get(self.task.key, self._variant, move.name, fields)
            if self.memoize
            else None
        )
        info["cache_hit"] = entry is not None
        if entry is not None:
            self.cache_hits += 1
            fit = self._replay(move, entry)
        else:
            self.cache_misses += 1
            ended = self._ensure_script()
            if ended is not None:
                return self._env_ended(ended, info)
            fit = self._run(move)
            if fit.preds is not None and self.memoize:
                self._cache.put(
                    self.task.key,
                    self._variant,
                    move.name,
                    fields,
                    result=fit.result,
                    seconds=fit.seconds,
                    predictions_csv=fit.preds,
                )
        self._record(move, fit, info)
        _, _, terminated, truncated, _ = fit.last
        if terminated or truncated:
            return self._env_ended(fit.last, info)
        return None

    def _replay(self, move: Move, entry: dict[str, Any]) -> _Fit:
        """A cached fit: its predictions written into the workspace, no program run."""
        last = self._env_step(
            "write_file", {"path": preds_path(move), "content": entry["predictions_csv"]}
        )
        ok = bool(last[4].get("ok", True))
        return _Fit(
            result=dict(entry["result"]),
            seconds=float(entry["seconds"]),
            preds=entry["predictions_csv"] if ok else None,
            error=None if ok else str(last[4].get("error")),
            last=last,
        )

    def _run(self, move: Move) -> _Fit:
        """Run the solution program for one fit move in the sandbox."""
        spec = fit_spec(move, self.metric, self.val_fraction, self.split_seed)
        action = fit_action(self.runner, spec, self.fit_timeout_s)
        last = self._env_step(action["tool"], action["args"])
        obs, _, _, _, env_info = last
        meta = env_info.get("tool_meta") or {}
        seconds = float(meta.get("duration_s") or env_info.get("step_elapsed_s") or 0.0)
        parsed = result_line(obs) if env_info.get("ok", False) else None
        if parsed is None:
            error = "the solution script gave no result: " + obs[-1500:]
            return _Fit({}, seconds, None, error, last)
        out = preds_path(move)
        with self._base.agent_stopped():  # nothing rewrites it while it is read
            preds = read_text(sandbox_files(self.env), out)
        if preds is None:
            return _Fit(parsed, seconds, None, f"the solution script wrote no readable {out}", last)
        return _Fit(parsed, seconds, preds, None, last)

    def _record(self, move: Move, fit: _Fit, info: dict[str, Any]) -> None:
        """Account a fit's time and result in the episode state and ``info``."""
        self._time_used += fit.seconds
        index = move.index
        if index not in self._order:
            self._order.append(index)
        if fit.error is None and fit.preds is not None:
            result = fit.result
            self._results[index] = result
            self._preds[index] = fit.preds
            self._skills[index] = skill(result["score"], result["baseline"], result["metric"])
            info.update(
                ok=True,
                val_score=result["score"],
                val_baseline=result["baseline"],
                val_skill=float(self._skills[index]),
                metric=result["metric"],
                fit_seconds=fit.seconds,
            )
        else:
            self._results.pop(index, None)
            self._preds.pop(index, None)
            if self._skills[index] == NOT_TRIED:
                self._skills[index] = 0.0
            info.update(ok=False, error=fit.error, fit_seconds=fit.seconds)

    def _ensure_script(self) -> EnvStep | None:
        """Write the solution program into the workspace once per episode; the env step if
        the env ended on it."""
        if self._script_written:
            return None
        last = self._env_step("write_file", {"path": SCRIPT_PATH, "content": SOLUTION_SCRIPT})
        self._script_written = bool(last[4].get("ok", False))
        return last if last[2] or last[3] else None

    def _env_ended(self, last: EnvStep, info: dict[str, Any]) -> tuple[float, bool]:
        _, env_r, term, trunc, env_info = last
        info["env_ended"] = True
        info["env_reward"] = env_r
        if "grade" in env_info:
            info["grade"] = env_info["grade"]
        if "truncation_reason" in env_info:
            info["truncation_reason"] = env_info["truncation_reason"]
        return env_r, bool(trunc and not term)

    # -- submission -----------------------------------------------------------------------------

    def _submit_best(self, info: dict[str, Any]) -> float:
        """Write the best candidate's predictions (or the sample submission) and submit."""
        best = self._best()
        if best is not None:
            content = self._preds[best]
            info["submitted"] = self.moves[best].name
        else:
            content = self._sample_submission
            info["submitted"] = "sample_submission"
        target = self.task.submission.file
        _, env_r, term, trunc, env_info = self._env_step(
            "write_file", {"path": target, "content": content}
        )
        if not (term or trunc):
            _, env_r, term, trunc, env_info = self._env_step("submit", {})
        info["env_reward"] = env_r
        if "grade" in env_info:
            info["grade"] = env_info["grade"]
        return env_r


def _check_args(
    move_budget: int, move_cost: float, val_fraction: float, runner: str, time_resolution: float
) -> None:
    """Raise ``ValueError`` for a constructor argument out of range."""
    if int(move_budget) < 1:
        raise ValueError(f"move_budget must be >= 1, got {move_budget}")
    if not 0.0 <= float(move_cost) <= 1.0:
        raise ValueError(f"move_cost must be in [0, 1], got {move_cost}")
    if not 0.0 < float(val_fraction) < 1.0:
        raise ValueError(f"val_fraction must be in (0, 1), got {val_fraction}")
    if runner not in ("python", "execute"):
        raise ValueError(f"runner must be 'python' or 'execute', got {runner!r}")
    if not 0.0 < float(time_resolution) <= 1.0:
        raise ValueError(f"time_resolution must be in (0, 1], got {time_resolution}")
