"""The task-family extension point: how one benchmark shapes an episode of :class:`MLEEnv`.

:class:`~mle_gym.env.MLEEnv` owns what every episode shares: the workspace
folder and its quota, the sandbox, the step loop (parse -> check -> run a tool ->
observation), budgets, ``info``, chat messages and trajectories. A
:class:`TaskFamily` owns what differs between benchmarks. The env calls its
hooks in this order:

at task discovery (class methods; only for the tasks in use)
    ``parse_task(folder, raw)`` — task.yaml checked against :attr:`TaskFamily.task_file`
    and turned into the family's :class:`~mle_gym.tasks.TaskSpec` (subclass).
at construction
    the family's options (the ``gym.make`` keywords that are not the env's own, plus
    ``family_options``) are checked against :attr:`TaskFamily.options_model`;
    ``check_config(data, reward_mode)`` — raise a clear error for settings the
    task cannot serve; ``toolset(name)`` — the tools the agent gets.
at ``reset``
    ``parse_reset_options(options)`` -> the episode's options (unknown keys are
    a ``ValueError``); ``resolve_data(data, options)`` -> the data mounted
    read-only at ``/workspace/data`` (or None for tasks without data);
    ``resolve_reward_mode(mode, source)``; ``populate_workspace(episode)`` —
    fill ``episode.workspace`` on the host before the sandbox starts (starter
    code, a repository checkout...); ``file_view(episode, fs)`` — the file
    access the tools use (e.g. refusing writes to read-only globs);
    ``workdir(episode)`` — the working directory of commands and of relative
    paths; ``on_start(episode)`` — anything to do once the sandbox runs (run
    setup commands, record checksums); ``observation(episode, listing,
    tools, max_steps, limits)`` — the first observation.
during the episode
    ``submission_path(episode)`` (a sandbox path) and ``validate(episode,
    path)`` back the ``validate_submission`` tool (a format check, never a
    score).
at the end (``submit``, or a budget running out with grading on truncation)
    ``grade(episode)`` -> a :class:`GradeLike` (``to_dict()`` becomes
    ``info["grade"]``); it runs with the episode's sandbox frozen (no agent
    process runs while it reads the workspace, see ``MLEEnv.agent_stopped``), so
    code it runs goes to a fresh sandbox (:meth:`Episode.fresh_sandbox`); it
    computes the score on the host, against data the sandbox never saw;
    ``reward(grade_dict, mode, source)`` and ``end_summary(grade, reward,
    reason)``.

for the catalog and tools around episodes
    ``data_status()``, ``problem()``, ``unavailable(data)`` (``mle-gym list`` and
    ``mle-gym eval``'s plan check), ``prepare(...)`` (``mle-gym prepare``),
    ``reference_policy(task, observation)`` (the scripted agent) and
    ``episode_record(episode)`` (extra fields of the trajectory's reset record).

Hooks must not raise on agent behaviour: ``grade`` reports a bad or missing
result as an invalid grade. Setup problems (missing data, a broken task
folder) raise.

A task picks its family with ``family:`` in task.yaml (default by benchmark,
see :mod:`mle_gym.families`).
"""

from __future__ import annotations

import abc
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from pydantic import BaseModel, ConfigDict

from mle_gym._deprecation import REMOVAL, warn_deprecated
from mle_gym.task_schema import TaskFile, validate_options, validate_task_file
from mle_gym.task_spec import Limits, TaskError, TaskSpec

if TYPE_CHECKING:
    from mle_gym.data.store import PreparedData
    from mle_gym.families.toolsets import Toolset
    from mle_gym.sandbox.base import Sandbox
    from mle_gym.tools.fs import SandboxFS
    from mle_gym.tools.spec import ToolResult, ToolSpec


class GradeLike(Protocol):
    """What ``TaskFamily.grade`` returns: anything with ``valid``, ``score`` and ``to_dict``."""

    @property
    def valid(self) -> bool:
        """The submission could be graded (a missing or malformed one is not valid)."""
        ...

    @property
    def score(self) -> float | None:
        """The grader's score (None when there is none)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """Plain builtin types, ready for ``json.dumps``; becomes ``info["grade"]``."""
        ...


@dataclass
class Episode:
    """One episode as the family sees it.

    ``episode_dir`` is a host folder private to the host (the sandbox mounts only
    ``workspace``, a sub-folder of it): families may keep files there that the
    agent must never see. ``state`` is the family's own per-episode scratch space.
    ``sandbox`` and ``fs`` are set once the sandbox runs.
    """

    task: TaskSpec
    episode_id: str
    seed: int | None
    options: dict[str, Any]
    episode_dir: Path
    workspace: Path
    data: PreparedData | None
    data_source: str
    reward_mode: str
    limits: Limits
    sandbox_kind: str
    docker_image: str | None = None
    sandbox: Sandbox | None = None
    fs: SandboxFS | None = None
    state: dict[str, Any] = field(default_factory=dict)

    def fresh_sandbox(self, workspace: Path, data: Path | None = None) -> Sandbox:
        """A new sandbox of the episode's backend and limits over ``workspace`` (a host
        folder, e.g. a copy of the agent's files for an evaluation run). The caller
        closes it."""
        return task_sandbox(
            self.sandbox_kind,
            workspace,
            data,
            self.limits,
            image=self.docker_image,
            episode_id=f"{self.episode_id}-eval",
        )


def task_sandbox(
    kind: str,
    workspace: Path,
    data: Path | None,
    limits: Limits,
    *,
    image: str | None = None,
    episode_id: str | None = None,
) -> Sandbox:
    """A new sandbox of backend ``kind`` over ``workspace`` with ``data`` read-only, under a
    task's ``limits`` (memory, processes, CPUs, CPU time; see
    :func:`mle_gym.sandbox.make_sandbox` for ``image`` and ``episode_id``). The caller
    closes it."""
    from mle_gym.sandbox import make_sandbox

    return make_sandbox(
        kind, workspace, data, limits.sandbox_limits(), image=image, episode_id=episode_id
    )


@dataclass(frozen=True)
class PrepareRequest:
    """What ``mle-gym prepare`` asks of a family (:meth:`TaskFamily.prepare`)."""

    #: which data to prepare (e.g. "replica"); None: the family's default
    source: str | None = None
    #: files the user downloaded (an archive or a folder), instead of fetching them
    from_path: Path | None = None
    #: the variant of generated data
    seed: int = 0
    #: prepare again even if it is cached
    force: bool = False
    #: the sandbox backend for anything prepared by running code (a baseline...)
    sandbox_kind: str | None = None


class NoOptions(BaseModel):
    """The options of a family that takes none."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ReferencePolicy(Protocol):
    """A family's scripted reference policy: one tool call per step."""

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        """The next action, given the last observation and ``info``."""
        ...


def spec_fields(model: TaskFile, folder: Path, raw: dict[str, Any], family: str) -> dict[str, Any]:
    """The :class:`~mle_gym.task_spec.TaskSpec` fields of a checked task file: what a family's
    ``parse_task`` passes to its spec class, with the family's own fields."""
    return {
        "id": model.id,
        "benchmark": model.benchmark,
        "title": model.title or model.id,
        "version": model.version,
        "folder": folder,
        "family": family,
        "metric": model.metric,
        "lower_is_better": model.lower_is_better,
        "split": model.split,
        "limits": Limits(**model.limits.model_dump()),
        "leakage": model.leakage,
        "data": dict(raw.get("data") or {}),
        "raw": raw,
    }


SpecParser = Callable[[Path, dict[str, Any], str, Any], TaskSpec]


def parse_common_task(
    folder: Path, raw: dict[str, Any], family: str, model_class: type[TaskFile] = TaskFile
) -> TaskSpec:
    """A :class:`TaskSpec` of the common fields of ``raw`` checked against ``model_class``."""
    model = validate_task_file(model_class, raw, folder / "task.yaml")
    return TaskSpec(**spec_fields(model, folder, raw, family))


class TaskFamily(abc.ABC):
    """How a benchmark shapes episodes (see module docstring). One instance per env.

    Subclasses set ``name`` and implement the abstract hooks; the others have
    defaults that fit most families.
    """

    #: registry name, the value of ``family:`` in task.yaml
    name: ClassVar[str] = "abstract"
    #: the model of this family's task.yaml (published in ``docs/task.schema.json``)
    task_file: ClassVar[type[TaskFile]] = TaskFile
    #: builds the family's spec: ``(folder, raw task.yaml, family name, task_file) -> spec``,
    #: raising TaskError naming the field at fault (the family's ``task.parse_task``)
    spec_parser: ClassVar[SpecParser] = staticmethod(parse_common_task)
    #: the family's options: ``gym.make`` keyword arguments beyond the env's own
    options_model: ClassVar[type[BaseModel]] = NoOptions
    #: reset ``options`` keys this family accepts
    reset_options: ClassVar[tuple[str, ...]] = ()
    #: toolset names :meth:`toolset` accepts (the first is the default)
    toolsets: ClassVar[tuple[str, ...]] = ("default",)
    #: ``reward_mode`` values this family accepts
    reward_modes: ClassVar[tuple[str, ...]] = ("auto",)
    #: ``data`` values this family accepts
    data_choices: ClassVar[tuple[str, ...]] = ("auto",)

    def __init__(
        self,
        task: TaskSpec,
        options: Mapping[str, Any] | None = None,
        *,
        replica_seed: int | None = None,
    ) -> None:
        self.task = task
        #: the options as given (``gym.make`` keywords and ``family_options``)
        self.options = dict(options or {})
        if replica_seed is not None:  # the constructor's former keyword
            warn_deprecated(
                f"{type(self).__name__}(replica_seed=...) is deprecated: pass it in options "
                f"(the family's replica_seed option); {REMOVAL}",
                2,
            )
            if "replica_seed" in self.option_names():
                self.options.setdefault("replica_seed", replica_seed)
        self._refuse_unknown_options()
        #: the options checked against :attr:`options_model` (defaults filled in)
        self.opts: Any = validate_options(self.options_model, self.options, task.env_id)
        #: the default variant of generated data: the ``replica_seed`` option where the
        #: family has one (:mod:`mle_gym.families.replicas`), else 0
        self.replica_seed = int(getattr(self.opts, "replica_seed", 0))

    def _refuse_unknown_options(self) -> None:
        """ValueError ``"<env id>: unknown option 'contxt'; known: ... (did you mean
        'context'?)"`` for the first given option that :attr:`options_model` does not have
        (when the model forbids extra fields, as every built-in family's does)."""
        from mle_gym.arg_checks import suggestion

        if self.options_model.model_config.get("extra") != "forbid":
            return
        names = self.option_names()
        for word in self.options:
            if word not in names:
                known = f"known: {', '.join(names)}" if names else "the family takes no options"
                raise ValueError(
                    f"{self.task.env_id}: unknown option {word!r}; {known}"
                    f"{suggestion(str(word), names)}"
                )

    # -- task discovery --------------------------------------------------------------------

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """The keyword arguments this family takes (the fields of :attr:`options_model`)."""
        return tuple(cls.options_model.model_fields)

    @classmethod
    def parse_task(cls, folder: Path, raw: dict[str, Any], *, family: str) -> TaskSpec:
        """``raw`` (``folder``'s task.yaml) checked against :attr:`task_file` and turned into
        the family's spec; raise :class:`~mle_gym.task_spec.TaskError` naming the field at fault.
        ``family`` is the task's family as its task.yaml names it (or its benchmark's
        default): the spec's ``family``. Default: :attr:`spec_parser` with
        :attr:`task_file`, then :meth:`check_task`."""
        spec = cls.spec_parser(folder, raw, family, cls.task_file)
        cls.check_task(spec)
        return spec

    @classmethod  # noqa: B027 - optional hook
    def check_task(cls, task: TaskSpec) -> None:
        """Check what :meth:`parse_task` does not (the default ``parse_task`` calls it);
        raise :class:`~mle_gym.tasks.TaskError` naming the field at fault."""

    @classmethod
    def reference_policy(cls, task: TaskSpec, observation: str) -> ReferencePolicy:
        """The family's scripted reference policy for an episode of ``task`` whose first
        observation is ``observation`` (what ``mle-gym run --agent scripted`` follows)."""
        raise NotImplementedError(f"the {cls.name} family has no reference policy")

    # -- construction ----------------------------------------------------------------------

    def check_settings(self, data: str, reward_mode: str) -> None:
        """ValueError for a ``data`` or ``reward_mode`` the family never serves (or never
        together); cheap: no data is looked at (``mle-gym eval`` checks every task of a run
        with it before anything starts). Default: :attr:`data_choices`, :attr:`reward_modes`."""
        if data not in self.data_choices:
            raise ValueError(f"data must be one of {self.data_choices}, got {data!r}")
        if reward_mode not in self.reward_modes:
            raise ValueError(
                f"reward_mode must be one of {self.reward_modes} for {self.name} tasks, "
                f"got {reward_mode!r}"
            )

    def check_config(self, data: str, reward_mode: str) -> None:
        """Raise (ValueError, TaskError, DataNotPrepared...) if the env cannot run as
        configured; the message names the fix. Default: :meth:`check_settings`, then
        :meth:`problem` (a TaskError) and :meth:`unavailable` (a DataNotPrepared)."""
        from mle_gym.data.store import DataNotPrepared

        self.check_settings(data, reward_mode)
        problem = self.problem()
        if problem is not None:
            raise TaskError(f"{self.task.env_id} cannot be used: {problem}")
        why = self.unavailable(data)
        if why is not None:
            raise DataNotPrepared(why)

    def toolset(self, name: str) -> Toolset:
        """The toolset called ``name`` (one of :attr:`toolsets`)."""
        from mle_gym.families.toolsets import default_toolset

        if name not in self.toolsets:
            raise ValueError(
                f"toolset must be one of {self.toolsets} for {self.task.env_id}, got {name!r}"
            )
        return default_toolset()

    # -- reset -----------------------------------------------------------------------------

    def parse_reset_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Check reset ``options`` against :attr:`reset_options`; return them as a dict."""
        unknown = sorted(set(options) - set(self.reset_options))
        if unknown:
            raise ValueError(
                f"unknown reset options {unknown}; known: {sorted(self.reset_options)}"
            )
        return dict(options)

    @abc.abstractmethod
    def resolve_data(self, data: str, options: Mapping[str, Any]) -> PreparedData | None:
        """The prepared data of this episode (public part mounted read-only at
        /workspace/data), or None if the task has no data."""

    def data_source(self, data: PreparedData | None) -> str:
        """``info["data_source"]`` for ``data``."""
        return data.source if data is not None else "none"

    def resolve_reward_mode(self, mode: str, data_source: str) -> str:
        """The concrete reward mode (resolving ``auto``) for this episode."""
        return mode

    def populate_workspace(self, episode: Episode) -> None:
        """Fill the host workspace before the sandbox starts. Default: copy ``starter/``."""
        if self.task.starter_dir is not None:
            shutil.copytree(self.task.starter_dir, episode.workspace, dirs_exist_ok=True)

    def file_view(self, episode: Episode, fs: SandboxFS) -> SandboxFS:
        """The file access every file tool uses. Default: ``fs`` unchanged."""
        return fs

    def workdir(self, episode: Episode) -> str:
        """Working directory (a sandbox path under /workspace) of commands and of
        relative paths in file tools. Default: /workspace."""
        return "/workspace"

    def on_start(self, episode: Episode) -> None:  # noqa: B027 - optional hook
        """Called once the sandbox runs (``episode.sandbox`` and ``episode.fs`` are set)."""

    @abc.abstractmethod
    def observation(
        self,
        episode: Episode,
        listing: str,
        tools: list[ToolSpec],
        max_steps: int,
        limits: Limits,
    ) -> str:
        """The first observation of the episode."""

    # -- during the episode ----------------------------------------------------------------

    def submission_path(self, episode: Episode) -> str:
        """The sandbox path of the file ``submit`` hands in. Default: the task's
        ``submission.file`` if its spec has one, else ``/workspace/submission.csv``."""
        submission = getattr(self.task, "submission", None)
        return f"/workspace/{getattr(submission, 'file', None) or 'submission.csv'}"

    def validate(self, episode: Episode, path: str) -> ToolResult:
        """The ``validate_submission`` tool: a format check that never reveals a score."""
        from mle_gym.tools.spec import ToolResult

        return ToolResult(f"{self.task.env_id} has no format check", ok=False)

    # -- end of episode --------------------------------------------------------------------

    @abc.abstractmethod
    def grade(self, episode: Episode) -> GradeLike:
        """Grade the episode's result; never raises on what the agent produced."""

    @abc.abstractmethod
    def reward(self, grade: dict[str, Any], mode: str, data_source: str) -> float:
        """The reward of a grade (``grade.to_dict()``) under a resolved ``mode``."""

    @abc.abstractmethod
    def end_summary(self, grade: GradeLike, reward: float, reason: str | None) -> str:
        """What the agent is told when the episode ends (``reason``: why it was cut short)."""

    # -- catalog ---------------------------------------------------------------------------

    def episode_record(self, episode: Episode) -> dict[str, Any]:
        """Extra fields of the trajectory's reset record. Default: ``replica_seed`` None
        (the trajectory format has the field; families with replicas fill it)."""
        return {"replica_seed": None}

    def data_provenance(self, episode: Episode) -> dict[str, Any]:
        """Which data the episode ran on, for result files: ``source``, ``variant`` (the
        prepared folder's name), ``replica_seed`` (None off replica data) and ``checks``
        (the family's verification of the prepared files against the benchmark's, e.g.
        MLE-bench's checksums; None when the family has none)."""
        data = episode.data
        return {
            "source": episode.data_source,
            "variant": data.variant if data is not None else None,
            "replica_seed": self.episode_record(episode).get("replica_seed"),
            "checks": None,
        }

    def data_status(self) -> str:
        """A short phrase for ``mle-gym list`` (e.g. "replica available")."""
        return ""

    def problem(self) -> str | None:
        """Why the task cannot run at all here (e.g. no grader), or None. Default: the
        task's own answer (:meth:`TaskSpec.problem`)."""
        return self.task.problem()

    def unavailable(self, data: str) -> str | None:
        """Why an env with ``data=data`` cannot start now without user action (data not
        prepared...), or None; cheap, for checking an evaluation plan before it runs. A
        family that checks its data when the env is built may leave it None."""
        return None

    def grade_file(
        self, submission: Path | None, *, data: str = "auto", seed: int = 0
    ) -> GradeLike:
        """``mle-gym grade``: grade a file the user hands in (None: no file) as an episode's
        submission would be, against the task's hidden answers (``seed``: the variant of
        generated data). A family that grades episodes, not files, says so."""
        raise NotImplementedError(
            f"{self.task.env_id}: the {self.name} family grades whole episodes, not a file"
        )

    def prepare(self, request: PrepareRequest) -> str:
        """``mle-gym prepare`` for this family's tasks: prepare what ``request`` asks for;
        return a summary. Raise with what is missing (e.g. no network) when it cannot."""
        raise NotImplementedError(f"the {self.name} family has no prepare step")
