"""MLEEnv: one episode = a task, a sandboxed workspace, tools, and the task's grader.

    env = gymnasium.make("MLEBench/spaceship-titanic-v0")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(
        {"tool": "execute", "args": {"command": "python train.py"}})

Contract:

* ``reset`` creates a fresh workspace (the task's public data mounted
  read-only at ``/workspace/data``, never copied; starter files copied) and a
  sandbox; the observation is the instructions, the task description, the
  workspace listing and the tool list.
* ``step`` accepts any action form of :mod:`mle_gym.tools.parsing`. It never
  raises on agent input: malformed, unknown or ill-typed calls, tool failures,
  timeouts and OOM kills come back as observations and count as a step.
* ``submit`` grades the submission and terminates. The step budget
  (``max_episode_steps``) or wall-clock budget truncates; then the current
  submission file is graded too, unless ``grade_on_truncation=False``.
* The reward is 0 until the episode ends, then a function of the grade, as the
  task's family computes it (``TaskFamily.reward``). ``info["grade"]`` holds the full
  report.
* Grading runs in this process on a copy of the submission; the private
  answers are never inside the sandbox.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import dataclasses
import inspect
import logging
import os
import tempfile
import time
import uuid
import weakref
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium as gym
from gymnasium.error import ResetNeeded

from mle_gym import paths
from mle_gym._deprecation import warn_deprecated
from mle_gym.arg_checks import check_env_keywords
from mle_gym.env_provenance import episode_provenance
from mle_gym.episode_dirs import finish_episode_dir, remove_orphan_workspaces
from mle_gym.families import Episode, GradeLike, family_options_of, make_family
from mle_gym.families.workdir import WorkdirFS, WorkdirSandbox
from mle_gym.sandbox import Sandbox, check_kind, default_kind, make_sandbox, quota
from mle_gym.sandbox.base import WORKSPACE
from mle_gym.sandbox.kernel import PythonKernel
from mle_gym.spaces import FreeText, ToolCallSpace
from mle_gym.tasks import TaskSpec, get_task
from mle_gym.tools.builtin import ToolContext, list_files
from mle_gym.tools.format import truncate
from mle_gym.tools.fs import FsError, SandboxFS
from mle_gym.tools.parsing import ActionError, ToolCall
from mle_gym.tools.spec import ToolArgError, ToolResult
from mle_gym.trajectory import TrajectoryWriter, json_safe

if TYPE_CHECKING:
    from mle_gym.data.store import PreparedData
from mle_gym.transcript import Transcript
from mle_gym.turn_messages import end_line, turn_heading, turn_messages

log = logging.getLogger(__name__)

_STATUS_CHARS = 4000  # room for a tool's status line over max_observation_chars
_LIVE_ENVS: weakref.WeakSet[MLEEnv] = weakref.WeakSet()


@atexit.register
def _close_live_envs() -> None:
    """At interpreter exit, envs still open release their sandboxes and workspaces (only
    in the process that opened them: a forked child must not end its parent's episodes)."""
    for env in list(_LIVE_ENVS):
        if getattr(env, "_owner_pid", None) == os.getpid():
            with contextlib.suppress(Exception):
                env.close()


class MLEEnv(gym.Env[str, Any]):
    """A benchmark task as a Gymnasium environment (see module docstring).

    Args:
        task: env id, task key or task id (e.g. "spaceship-titanic").
        data: which data the episode uses, one of the family's ``data_choices``
            (e.g. "auto": real data if prepared, else an offline replica).
        sandbox: "local" (bubblewrap; default, or ``$MLE_GYM_SANDBOX``), "docker"
            (one container per episode) or "unsafe-local" (no isolation; debugging only).
        docker_image: image for sandbox="docker" (default ``$MLE_GYM_DOCKER_IMAGE`` or
            ``mle-gym-runtime:py<X.Y>``, built by ``mle-gym sandbox build``).
        reward_mode: one of the family's ``reward_modes`` ("auto" picks its default).
        max_episode_steps: step budget when the env is built directly; through
            ``gymnasium.make`` use its ``max_episode_steps`` argument.
        time_budget_s, exec_timeout_s, memory_mb, pids, cpus, cpu_time_s, disk_mb:
            override the task's limits (disk_mb: the workspace quota, enforced with a
            loop-mounted volume when running as root).
        grade_on_truncation: grade the current submission when a budget runs out.
        render_mode: None or "ansi" (a readable transcript).
        trajectory_path: append one JSON line per reset/step to this file.
        workspace_root: where episode workspaces are created
            (default ``$MLE_GYM_HOME/workspaces``).
        keep_workspace: keep the workspace folder after the episode (for inspection).
        max_observation_chars: observations longer than this are truncated
            with a visible marker.
        toolset: "default" (mle_gym's tools) or a toolset of the task's family
            (its ``toolsets``); see :mod:`mle_gym.families.toolsets`.
        **options: the options of the task's family, by keyword (e.g.
            ``replica_seed=1``; ``docs/families.md`` lists each family's): checked by
            the family's ``options_model``; a misspelt keyword is a TypeError suggesting
            the one meant, a bad value a ValueError naming it (:mod:`mle_gym.arg_checks`).
        family_options: the same options as a mapping (merged with ``options``).
    """

    action_space: ToolCallSpace
    observation_space: FreeText
    # gymnasium declares ``metadata`` an instance variable, so no ClassVar here
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        task: str | TaskSpec,
        *,
        data: str = "auto",
        sandbox: str | None = None,
        docker_image: str | None = None,
        reward_mode: str = "auto",
        max_episode_steps: int | None = None,
        time_budget_s: float | None = None,
        exec_timeout_s: float | None = None,
        memory_mb: int | None = None,
        pids: int | None = None,
        cpus: float | None = None,
        cpu_time_s: int | None = None,
        disk_mb: int | None = None,
        grade_on_truncation: bool = True,
        render_mode: str | None = None,
        trajectory_path: str | os.PathLike[str] | None = None,
        workspace_root: str | os.PathLike[str] | None = None,
        keep_workspace: bool = False,
        max_observation_chars: int = 16_000,
        toolset: str | None = None,
        family_options: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> None:
        self.task = task if isinstance(task, TaskSpec) else get_task(task)
        given = dict(locals())  # the keywords as given
        check_env_keywords(self.task.env_id, given)  # their types and ranges
        own = [p for p in inspect.signature(MLEEnv.__init__).parameters if p != "self"]
        merged = family_options_of(self.task, options, family_options, own[1:-1])
        self.family = make_family(self.task, merged)
        self.family.check_config(data, reward_mode)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.data_choice = data
        self.sandbox_kind = check_kind(sandbox or default_kind())
        self.docker_image = docker_image
        self.reward_mode = reward_mode
        self.grade_on_truncation = grade_on_truncation
        self.render_mode = render_mode
        self.trajectory_path = Path(trajectory_path) if trajectory_path else None
        self.workspace_root = Path(workspace_root) if workspace_root else None
        self.keep_workspace = keep_workspace
        self.max_observation_chars = int(max_observation_chars)
        self._max_steps_arg = max_episode_steps
        limits = {f.name for f in dataclasses.fields(self.task.limits)}
        overrides = {k: v for k, v in given.items() if k in limits and v is not None}
        self.limits = dataclasses.replace(self.task.limits, **overrides)

        self._toolset = self.family.toolset(toolset or self.family.toolsets[0])
        self.toolset_name = self._toolset.name
        self._tools = {t.name: t for t in self._toolset.tools}
        self.tools: list[dict[str, Any]] = [t.openai_schema() for t in self._toolset.tools]
        self.system_prompt: str = self._toolset.system_prompt
        self.action_space = self._toolset.action_space(tuple(self._tools))
        self.observation_space = FreeText(max_length=max(self.max_observation_chars * 2, 100_000))

        self._sandbox: Sandbox | None = None
        self._volume: quota.WorkspaceVolume | None = None
        self._episode_dir: Path | None = None
        self._ctx: ToolContext | None = None
        self._trajectory: TrajectoryWriter | None = None
        self._transcript: Transcript | None = None  # kept only with render_mode="ansi"
        self._done = True
        self._episode: Episode | None = None
        self.episode_id: str | None = None
        self.data_source: str | None = None
        self._data: PreparedData | None = None
        self._mode = reward_mode
        self._steps = 0
        self._t0 = 0.0
        self._owner_pid = os.getpid()
        self._max_steps = 0
        self._provenance: dict[str, Any] | None = None

    # -- public helpers ------------------------------------------------------------------------

    @property
    def replica_seed(self) -> int:
        """Former attribute: the family's default data variant (``env.family.replica_seed``)."""
        warn_deprecated(
            "MLEEnv.replica_seed is deprecated: it is the family's option, "
            "env.unwrapped.family.replica_seed; the old name will be removed in the next release",
            2,
        )
        return int(getattr(self.family, "replica_seed", 0))

    @property
    def workspace(self) -> Path | None:
        """Host path of the current episode's workspace (None before reset)."""
        return self._sandbox.workspace if self._sandbox else None

    @property
    def workspace_quota_mb(self) -> int | None:
        """The enforced workspace size quota of the current episode (None if not enforced)."""
        return self._volume.size_mb if self._volume is not None else None

    @property
    def data_dir(self) -> Path | None:
        """Host path of the public data of the current episode (mounted at /workspace/data)."""
        return self._data.public if self._data is not None else None

    @property
    def sandbox(self) -> Sandbox | None:
        """The current episode's sandbox."""
        return self._sandbox

    @property
    def file_view(self) -> SandboxFS | None:
        """The current episode's file view: the one behind the file tools, resolving paths
        exactly as the agent sees them (the family's working folder and file view
        included) and never following a link on the host. None before ``reset``."""
        return None if self._ctx is None else self._ctx.fs

    @property
    def submission_path(self) -> str | None:
        """The sandbox path of the file ``submit`` hands in (the family's answer for the
        current episode, e.g. ``/workspace/submission.csv``); None before ``reset``."""
        return None if self._ctx is None else self._ctx.submission_path

    @property
    def data_variant(self) -> str | None:
        """The prepared data variant the current episode runs on (e.g.
        ``replica-seed0-key…``); None before ``reset`` or for a task without data. A
        variant's files never change once prepared, so it identifies the public data."""
        return None if self._data is None else self._data.variant

    def provenance(self) -> dict[str, Any] | None:
        """Where the latest episode's result comes from (a fresh copy; None before the first
        ``reset``, kept after the episode ends): see :mod:`mle_gym.env_provenance`."""
        return copy.deepcopy(self._provenance)

    @contextlib.contextmanager
    def agent_stopped(self) -> Iterator[None]:
        """No process of the agent runs inside the block (commands, the ``python``
        interpreter, anything they started): the episode's sandbox is frozen
        (:meth:`Sandbox.frozen`), so host code can read the workspace without a process
        swapping links under it. A no-op without a live sandbox. Blocks nest."""
        if self._sandbox is None or self._sandbox.closed:
            yield
            return
        with self._sandbox.frozen():
            yield

    # -- episode lifecycle ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        self._teardown()
        _LIVE_ENVS.add(self)
        self._owner_pid = os.getpid()
        family = self.family
        ep_options = family.parse_reset_options(dict(options or {}))

        data = family.resolve_data(self.data_choice, ep_options)
        self._data = data
        self.data_source = family.data_source(data)
        self._mode = family.resolve_reward_mode(self.reward_mode, self.data_source)
        self._max_steps = self._step_budget()

        root = self.workspace_root or paths.workspaces_root()
        root.mkdir(parents=True, exist_ok=True)
        self.episode_id = uuid.uuid4().hex[:12]
        remove_orphan_workspaces(root)
        self._episode_dir = Path(
            tempfile.mkdtemp(prefix=f"{self.task.id}.pid{os.getpid()}.", dir=root)
        )
        workspace = self._episode_dir / "workspace"
        workspace.mkdir()
        if quota.available():
            try:
                self._volume = quota.WorkspaceVolume.create(
                    workspace, self._episode_dir / "workspace.img", self.limits.disk_mb, None
                )
            except OSError as exc:
                log.warning("no workspace quota (%s); the workspace is a plain folder", exc)
        if data is not None:
            (workspace / "data").mkdir()
        lim = self.limits
        episode = Episode(
            task=self.task,
            episode_id=self.episode_id,
            seed=seed,
            options=ep_options,
            episode_dir=self._episode_dir,
            workspace=workspace,
            data=data,
            data_source=self.data_source,
            reward_mode=self._mode,
            limits=lim,
            sandbox_kind=self.sandbox_kind,
            docker_image=self.docker_image,
        )
        self._episode = episode
        family.populate_workspace(episode)
        self._sandbox = make_sandbox(
            self.sandbox_kind,
            workspace,
            data.public if data is not None else None,
            lim.sandbox_limits(),
            image=self.docker_image,
            episode_id=self.episode_id,
        )
        episode.sandbox = self._sandbox
        self._provenance = episode_provenance(self, episode)
        workdir = family.workdir(episode)
        fs: SandboxFS
        tool_sandbox: Sandbox = self._sandbox
        if workdir.rstrip("/") != WORKSPACE:
            fs = WorkdirFS(self._sandbox.mounts, self._sandbox.file_owner, workdir=workdir)
            tool_sandbox = WorkdirSandbox(self._sandbox, workdir)
        else:
            fs = SandboxFS(self._sandbox.mounts, self._sandbox.file_owner)
        fs = family.file_view(episode, fs)
        episode.fs = fs
        self._ctx = self._toolset.context_class(
            fs=fs,
            sandbox=tool_sandbox,
            exec_timeout_s=lim.exec_timeout_s,
            max_observation_chars=self.max_observation_chars,
            submission_path=family.submission_path(episode),
            validate=lambda path: family.validate(episode, path),
            kernel=PythonKernel(self._sandbox, lim.memory_mb),
            disk_quota_mb=self.workspace_quota_mb,
        )
        self._steps = 0
        self._t0 = time.monotonic()
        self._done = False
        family.on_start(episode)

        listing = list_files.fn(self._ctx, ".", 2).text
        obs = family.observation(episode, listing, list(self._tools.values()), self._max_steps, lim)
        info = self._base_info()
        info["messages"] = [
            {"role": "system", "content": self.system_prompt},
            {"role": "user", "content": obs},
        ]
        info["episode_id"] = self.episode_id
        self._transcript = Transcript() if self.render_mode == "ansi" else None
        if self._transcript is not None:
            self._transcript.start((f"=== {self.task.env_id} · episode {self.episode_id} ===", obs))
        if self.trajectory_path is not None:
            self._trajectory = TrajectoryWriter(self.trajectory_path)
            record: dict[str, Any] = {
                "type": "reset",
                "episode_id": self.episode_id,
                "env_id": self.task.env_id,
                "seed": seed,
                "data_source": self.data_source,
                "reward_mode": self._mode,
                "toolset": self.toolset_name,
                "provenance": self._provenance,
                "observation": obs,
                "system_prompt": self.system_prompt,
                "tools": self.tools,
                "time": time.time(),
            }
            # the family's fields add to the record; they never replace the env's
            extra = family.episode_record(episode).items()
            self._trajectory.write(record | {k: v for k, v in extra if k not in record})
        return obs, info

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._ctx is None or self._done:
            raise ResetNeeded("call reset() before step(); the episode is over or not started")
        started = time.monotonic()
        self._steps += 1
        self._ctx.exec_timeout_s = max(1.0, min(self.limits.exec_timeout_s, self._time_left()))
        call, result = self._run_tool(self._ctx, action)

        # Recorded (info, messages, transcript, trajectory): JSON-safe copies of the
        # agent's raw input, which may hold anything (see json_safe).
        action = json_safe(action)
        if call is not None:
            call = ToolCall(json_safe(call.name), json_safe(call.args), json_safe(call.call_id))
        terminated = bool(result.terminal)
        truncated, reason = (False, None) if terminated else self._truncation()

        reward = 0.0
        grade: GradeLike | None = None
        # Every tool truncates its output to max_observation_chars (plus a status line);
        # this bounds any other text that quotes agent input (e.g. a validation message).
        text = truncate(json_safe(result.text), self.max_observation_chars + _STATUS_CHARS)
        tool_text = text
        if terminated or (truncated and self.grade_on_truncation):
            assert self._episode is not None
            with self.agent_stopped():  # grading reads the workspace: nothing may race it
                grade = self.family.grade(self._episode)
            grade_dict = grade.to_dict()
            reward = self.family.reward(grade_dict, self._mode, self.data_source or "")
            text += "\n\n" + self.family.end_summary(grade, reward, reason)
        elif truncated:
            text += f"\n\n[episode truncated: {reason}; not graded]"
        self._done = terminated or truncated

        info = self._base_info()
        info.update(
            tool=call.name if call else None,
            ok=result.ok,
            step=self._steps,
            step_elapsed_s=round(time.monotonic() - started, 6),
            messages=turn_messages(
                call, action, text, step=self._steps, text_result=self._toolset.text_result
            ),
            episode_id=self.episode_id,
        )
        if not result.ok:
            info["error"] = tool_text
        if result.meta:
            info["tool_meta"] = dict(result.meta)
        if truncated:
            info["truncation_reason"] = reason
        if grade is not None:
            info["grade"] = grade_dict
            info["reward_mode"] = self._mode
        self._record_step(call, action, text, result, reward, (terminated, truncated, reason), info)
        return text, reward, terminated, truncated, info

    def _run_tool(self, ctx: ToolContext, action: Any) -> tuple[ToolCall | None, ToolResult]:
        """Parse ``action`` and run its tool: (the call as read, None if unreadable; the
        result). Never raises on agent input: a bad call, and a bug in a tool, come back
        as an error result."""
        call: ToolCall | None = None
        try:
            call = self._toolset.parse(action)
            spec = self._toolset.lookup(call.name)
            if spec is None:
                raise ActionError(
                    f"unknown tool {call.name[:100]!r}; available tools: {', '.join(self._tools)}"
                )
            if spec.name != call.name:  # the toolset matched a variant spelling
                call = ToolCall(spec.name, call.args, call.call_id)
            args = spec.check_args(call.args)
            result = spec.fn(ctx, **args)
        except (ActionError, ToolArgError, FsError) as exc:
            result = ToolResult(self._toolset.error_text(exc), ok=False)
        except Exception as exc:  # a bug in a tool must not kill the episode
            log.exception("tool failure")
            result = ToolResult(
                f"error: internal failure in the tool ({type(exc).__name__}: {exc})",
                ok=False,
                meta={"internal_error": True},
            )
        return call, result

    def _truncation(self) -> tuple[bool, str | None]:
        """(True, why) if a budget ran out with this step, else (False, None)."""
        if self._steps >= self._max_steps:
            return True, f"step budget of {self._max_steps} steps used up"
        if self._time_left() <= 0:
            return True, f"time budget of {self.limits.time_budget_s:g} s used up"
        return False, None

    def _record_step(
        self,
        call: ToolCall | None,
        action: Any,
        text: str,
        result: ToolResult,
        reward: float,
        ending: tuple[bool, bool, str | None],
        info: dict[str, Any],
    ) -> None:
        """Add the step to the transcript and the trajectory (when kept); ``ending`` is
        (terminated, truncated, truncation reason)."""
        terminated, truncated, reason = ending
        if self._transcript is not None:
            parts: list[tuple[str, str | None]] = [(turn_heading(self._steps, call, action), text)]
            if self._done:
                parts.append((end_line(reward, info.get("grade"), reason), None))
            self._transcript.add(*parts)
        if self._trajectory is not None:
            self._trajectory.write(
                {
                    "type": "step",
                    "episode_id": self.episode_id,
                    "step": self._steps,
                    "action": action,
                    "tool": call.name if call else None,
                    "args": call.args if call else None,
                    "observation": text,
                    "reward": reward,
                    "terminated": terminated,
                    "truncated": truncated,
                    "ok": result.ok,
                    "elapsed_s": info["elapsed_s"],
                    "step_elapsed_s": info["step_elapsed_s"],
                    "tool_meta": result.meta or None,
                    "messages": info["messages"],
                    "grade": info.get("grade"),
                    "time": time.time(),
                }
            )

    def render(self) -> str | None:
        """With render_mode="ansi": the transcript of the current episode so far (see
        :mod:`mle_gym.transcript`: agent-produced text escaped and quoted with ``| ``,
        at most about a million characters, the oldest steps dropped first)."""
        if self.render_mode != "ansi":
            return None
        return self._transcript.text() if self._transcript is not None else "\n"

    def release(self) -> None:
        """End the current episode now: stop its sandbox and delete its workspace (unless
        kept). ``reset`` starts a new one; idempotent."""
        self._teardown()

    def close(self) -> None:
        """Stop the sandbox, delete the workspace (unless kept); idempotent."""
        self._teardown()
        super().close()

    def __del__(self) -> None:
        # An env dropped without close() (or left open at exit, see _close_live_envs)
        # still stops its sandbox and removes its workspace, volume and cgroups. No
        # contextlib here: at interpreter exit, module globals may already be gone.
        if getattr(self, "_sandbox", None) is None and getattr(self, "_episode_dir", None) is None:
            return
        try:
            if self._owner_pid == os.getpid():  # not in a forked child: the episode is not its
                self._teardown()
        except Exception:
            pass

    # -- internals ------------------------------------------------------------------------------

    def set_step_budget(self, steps: int) -> None:
        """Set the step budget for the next episodes (used by StepBudgetSync under gym.make)."""
        if steps < 1:
            raise ValueError(f"step budget must be >= 1, got {steps}")
        self._max_steps_arg = int(steps)

    def _step_budget(self) -> int:
        if self._max_steps_arg:
            return int(self._max_steps_arg)
        return self.task.limits.max_steps

    def _time_left(self) -> float:
        return self.limits.time_budget_s - (time.monotonic() - self._t0)

    def _base_info(self) -> dict[str, Any]:
        return {
            "task_id": self.task.id,
            "env_id": self.task.env_id,
            "data_source": self.data_source,
            "elapsed_s": round(time.monotonic() - self._t0, 3),
            "steps_left": max(0, self._max_steps - self._steps),
            "time_left_s": round(max(0.0, self._time_left()), 3),
        }

    def _teardown(self) -> None:
        if self._trajectory is not None:
            self._trajectory.close()
            self._trajectory = None
        if self._ctx is not None and self._ctx.kernel is not None:
            self._ctx.kernel.close()
        owner = self._sandbox.file_owner if self._sandbox is not None else None
        if self._sandbox is not None:
            try:
                self._sandbox.close()
            finally:
                self._sandbox = None
        if self._episode_dir is not None:
            finish_episode_dir(
                self._episode_dir, self._volume, keep=self.keep_workspace, owner=owner
            )
            self._volume = None  # only once finished: a failed keep leaves it to retry
            self._episode_dir = None
        self._ctx = None
        self._episode = None
        self._done = True
