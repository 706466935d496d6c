"""The ML-Bench family: turn an instruction into the command that runs a repository's code.

One env serves a set of ML-Bench examples (a split, optionally narrowed to some
repositories). Each episode:

* ``reset(seed=s)`` picks example number ``s mod N`` of the set in a fixed shuffled
  order (so seeds ``0..kN-1`` run every example ``k`` times — what pass@k needs);
  ``reset()`` without a seed draws one at random; ``options={"example_id": i}`` picks
  example ``i``;
* the workspace is a copy of the example's repository checkout (``/workspace``) and
  the working directory is the example's task folder in it;
* the observation is the instruction, the required argument values, and the context
  chosen by ``context=``: ``"none"`` (default; the agent explores, as in
  ML-Agent-Bench), ``"oracle"`` (the README segment of the example) or ``"readme"``;
* the agent writes ``run.sh`` (``Bash Script`` examples) or ``run.py`` (``Python Code``)
  in the task folder and submits;
* grading (:mod:`mle_gym.families.mlbench.grading`) checks the argument values in the file and runs
  it in a *fresh* sandbox over a fresh copy of the repository plus the files the agent
  added (its edits to the repository's files are discarded; expected artifacts left
  from its own test runs are deleted first), then checks that the run did not rewrite
  the repository's code; by default the run is traced and must show the repository's
  entry point executing with the instructed values. Reward: 1 if it passed, else 0
  (``reward_mode="partial"``: the partial credit); ``info["grade"]`` has the breakdown.

Options (``gym.make`` keyword arguments, :mod:`.options`): ``context``,
``split`` (full, quarter, id_train, ood_train), ``compat`` (``"mlbench"``: ML-Bench's
original rules — substring argument test, a run still going at the timeout passes),
``source`` (``"bundled"``, ``"hf"`` or a path to a local export), ``repo`` (only this
repository's examples), ``repos`` (local checkouts), ``pins``, ``clone``,
``allow_unpinned``, ``superproject`` (see :class:`~mle_gym.families.mlbench.repos.RepoResolver`),
``run_timeout_s`` (the grading run's timeout), ``show_arguments`` and ``trace``
(default True: the graded run is traced and must show the repository's entry point
running with the instructed values, :mod:`mle_gym.families.mlbench.evidence`; False drops that
evidence — exit status and artifacts only, which a submission can fake; needs no
supervised exec, i.e. no root host process on the local backend). For the real
benchmark's tasks, ``$MLE_GYM_MLBENCH_SOURCE`` and ``$MLE_GYM_MLBENCH_REPOS`` set the
default ``source`` and ``repos`` (handy with ``mle-gym run``/``eval``).

task.yaml keys, under ``mlbench:``: see :mod:`.task`.
"""

from __future__ import annotations

import logging
import random
import shlex
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from mle_gym.families.base import (
    Episode,
    GradeLike,
    PrepareRequest,
    ReferencePolicy,
    SpecParser,
    TaskFamily,
)
from mle_gym.families.mlbench import argcheck, prompts
from mle_gym.families.mlbench.grading import grade
from mle_gym.families.mlbench.loader import MLBenchDataError, load_examples
from mle_gym.families.mlbench.options import MLBenchOptions, apply_options, environment_defaults
from mle_gym.families.mlbench.repos import RepoCheckout, RepoResolver
from mle_gym.families.mlbench.schema import MLBenchExample
from mle_gym.families.mlbench.task import MLBenchTaskFile, parse_task, task_config
from mle_gym.families.mlbench.workspace import (
    build_grading_tree,
    changed_code,
    code_fingerprint,
    copy_repository,
    remove_path,
    write_new_file,
)
from mle_gym.sandbox import hostfs
from mle_gym.task_spec import Limits, TaskSpec
from mle_gym.tools.fs import FsError
from mle_gym.tools.spec import ToolResult, ToolSpec

log = logging.getLogger(__name__)

REWARD_MODES = ("auto", "pass", "partial")
MAX_SUBMISSION_BYTES = 1 << 20


class MLBenchFamily(TaskFamily):
    """See module docstring."""

    name: ClassVar[str] = "mlbench"
    task_file: ClassVar[type[MLBenchTaskFile]] = MLBenchTaskFile
    spec_parser: ClassVar[SpecParser] = staticmethod(parse_task)
    options_model: ClassVar[type[MLBenchOptions]] = MLBenchOptions
    reset_options: ClassVar[tuple[str, ...]] = ("example_id",)
    reward_modes: ClassVar[tuple[str, ...]] = REWARD_MODES
    data_choices: ClassVar[tuple[str, ...]] = ("auto",)

    def __init__(self, task: TaskSpec, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(task, options)
        base = environment_defaults(task_config(task))
        self.config = apply_options(base, self.opts, task.env_id)
        self._examples: list[MLBenchExample] | None = None
        self._order: list[int] = []
        self._rng = random.Random()
        self._resolver: RepoResolver | None = None
        self._checkouts: dict[str, RepoCheckout] = {}
        self._fingerprints: dict[Path, dict[str, str]] = {}
        self.current: MLBenchExample | None = None

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def reference_policy(cls, task: TaskSpec, observation: str) -> ReferencePolicy:
        from mle_gym.families.mlbench.policy import MLBenchScriptedPolicy

        return MLBenchScriptedPolicy(observation)

    def check_config(self, data: str, reward_mode: str) -> None:
        super().check_config(data, reward_mode)
        self.examples()  # fail fast: no data, bad rows or an empty selection
        self.resolver()

    def resolver(self) -> RepoResolver:
        """The repository resolver of this env (built once)."""
        if self._resolver is None:
            cfg = self.config
            self._resolver = RepoResolver(
                cfg.local_repos,
                pins=cfg.pins,
                clone=cfg.clone,
                allow_unpinned=cfg.allow_unpinned,
                superproject=cfg.superproject,
            )
        return self._resolver

    def examples(self) -> list[MLBenchExample]:
        """The examples this env serves, in id order (loaded once)."""
        if self._examples is None:
            cfg = self.config
            # a broken bundled repository fails the env that serves it, and no other
            needed = cfg.repos or ((cfg.repo,) if cfg.repo else ())
            loaded = load_examples(cfg.source, cfg.split, needed=needed)
            chosen = [
                e
                for e in loaded
                if (not cfg.repos or e.repo_name in cfg.repos)
                and (cfg.github_id is None or e.github_id == cfg.github_id)
                and (cfg.repo is None or e.repo_name.lower() == cfg.repo.lower())
            ]
            if not chosen:
                names = sorted({e.repo_name for e in loaded})
                raise MLBenchDataError(
                    f"{self.task.env_id}: no example of split {cfg.split!r} from {cfg.source} "
                    f"matches repos={list(cfg.repos) or 'any'}, github_id={cfg.github_id}, "
                    f"repo={cfg.repo}; repositories there: {', '.join(names)}"
                )
            self._examples = sorted(chosen, key=lambda e: e.id)
            self._order = list(range(len(self._examples)))
            random.Random(len(self._examples)).shuffle(self._order)
        return self._examples

    # -- reset -----------------------------------------------------------------------------

    def parse_reset_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        parsed = super().parse_reset_options(options)
        if "example_id" in parsed:
            raw = parsed["example_id"]
            if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
                raw = int(raw)
            if isinstance(raw, bool) or not isinstance(raw, int):
                raise ValueError(f"example_id must be an integer, got {raw!r}")
            example_id = raw
            ids = [e.id for e in self.examples()]
            if example_id not in ids:
                raise ValueError(
                    f"example {example_id} is not served by {self.task.env_id} (split "
                    f"{self.config.split!r}: ids {_ranges(ids)})"
                )
            parsed["example_id"] = example_id
        return parsed

    def resolve_data(self, data: str, options: Mapping[str, Any]) -> None:
        return None

    def prepare(self, request: PrepareRequest) -> str:
        """Clone this env's repositories at their pinned commits into the cache
        (:func:`mle_gym.families.mlbench.prepare.prepare_family`). ``from_path``: a local clone of
        ML-Bench to read the pins from; ``force``: read the pins again."""
        if request.source is not None:
            raise ValueError(f"{self.task.env_id}: ML-Bench tasks have no {request.source!r} data")
        from mle_gym.families.mlbench.prepare import prepare_family

        return prepare_family(self, superproject=request.from_path, refresh=request.force)

    def data_source(self, data: Any) -> str:
        source = self.config.source
        if source.lower() in ("bundled", "hf", "huggingface", "hub"):
            return "bundled" if source.lower() == "bundled" else "huggingface"
        return "local-export"

    def resolve_reward_mode(self, mode: str, data_source: str) -> str:
        return "pass" if mode == "auto" else mode

    def _pick(self, episode: Episode) -> MLBenchExample:
        examples = self.examples()
        if "example_id" in episode.options:
            return next(e for e in examples if e.id == episode.options["example_id"])
        if episode.seed is not None:
            self._rng = random.Random(episode.seed)
            return examples[self._order[episode.seed % len(examples)]]
        return examples[self._rng.randrange(len(examples))]

    def checkout(self, example: MLBenchExample) -> RepoCheckout:
        """The repository checkout of ``example`` (resolved once per repository)."""
        if example.github not in self._checkouts:
            self._checkouts[example.github] = self.resolver().resolve(example.github)
        return self._checkouts[example.github]

    def populate_workspace(self, episode: Episode) -> None:
        example = self._pick(episode)
        checkout = self.checkout(example)
        if not (checkout.path / example.path).is_dir():
            raise MLBenchDataError(
                f"example {example.id}: the task folder {example.path!r} does not exist in "
                f"{checkout.path} ({checkout.origin} checkout of {example.github})"
            )
        copy_repository(checkout.path, episode.workspace)
        episode.state.update(example=example, checkout=checkout)
        self.current = example

    def workdir(self, episode: Episode) -> str:
        example: MLBenchExample = episode.state["example"]
        return "/workspace" if example.path == "." else f"/workspace/{example.path}"

    def observation(
        self,
        episode: Episode,
        listing: str,
        tools: list[ToolSpec],
        max_steps: int,
        limits: Limits,
    ) -> str:
        example: MLBenchExample = episode.state["example"]
        readme = None
        if self.config.context == "readme":
            checkout: RepoCheckout = episode.state["checkout"]
            path = checkout.path / "README.md"
            readme = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        return prompts.task_observation(
            example,
            env_id=self.task.env_id,
            context=self.config.context,
            readme=readme,
            show_arguments=self.config.show_arguments,
            run_timeout_s=self.config.run_timeout_s,
            listing=listing,
            tool_names=[t.name for t in tools],
            max_steps=max_steps,
            limits=limits,
        )

    # -- during the episode ----------------------------------------------------------------

    def submission_path(self, episode: Episode) -> str:
        example: MLBenchExample = episode.state["example"]
        return f"{self.workdir(episode)}/{example.submission_file}"

    def _read_submission(self, episode: Episode, path: str) -> str | None:
        """The submission's text; None if absent. FsError for other read problems."""
        assert episode.fs is not None
        try:
            data, _ = episode.fs.read_bytes(path, MAX_SUBMISSION_BYTES + 1)
        except FsError as exc:
            if "no such file" in str(exc):
                return None
            raise
        if len(data) > MAX_SUBMISSION_BYTES:
            raise FsError(f"{path} is larger than {MAX_SUBMISSION_BYTES} bytes")
        return data.decode("utf-8", errors="replace")

    def validate(self, episode: Episode, path: str) -> ToolResult:
        """Format only: the file exists, parses, and has the right form. Never a verdict."""
        example: MLBenchExample = episode.state["example"]
        try:
            text = self._read_submission(episode, path)
        except FsError as exc:
            return ToolResult(f"invalid: {exc}", ok=False)
        if text is None:
            return ToolResult(f"invalid: {path} does not exist", ok=False)
        ok, message = argcheck.type_check(text, example.type)
        if ok and not example.is_python and episode.sandbox is not None:
            parsed = episode.sandbox.exec(f"bash -n {shlex.quote(path)}", 30)
            if parsed.exit_code != 0:
                ok = False
                message = (parsed.head + parsed.tail).decode("utf-8", "replace").strip()
        if not ok:
            return ToolResult(f"invalid: {message}", ok=False)
        return ToolResult(f"format ok: {path} is a well-formed {example.type.lower()}")

    # -- end of episode --------------------------------------------------------------------

    def grade(self, episode: Episode) -> GradeLike:
        example: MLBenchExample = episode.state["example"]
        checkout: RepoCheckout = episode.state["checkout"]
        path = self.submission_path(episode)
        try:
            text = self._read_submission(episode, path)
        except FsError as exc:
            log.info("unreadable submission: %s", exc)
            text = None
        source = self.data_source(None)
        if text is None:
            missing = grade(example, None, None, 0, compat=self.config.compat)
            return replace(missing, data_source=source)
        # removed with hostfs: the graded run may leave any tree (links, thousands of levels)
        with hostfs.temporary_dir("grading-", episode.episode_dir) as tmp:
            tree = tmp / "repo"
            build_grading_tree(checkout.path, episode.workspace, tree)
            task_dir = tree / example.path  # real folders: they come from the checkout
            # links the agent planted are removed, never followed on the host
            write_new_file(task_dir, example.submission_file, text)
            for artifact in example.artifacts:  # must come from the graded run itself
                remove_path(task_dir, artifact)
            sandbox = episode.fresh_sandbox(tree)
            try:
                result = grade(
                    example,
                    text,
                    sandbox,
                    self.config.run_timeout_s,
                    compat=self.config.compat,
                    traced=self.config.trace and self.config.compat is None,
                )
            finally:
                sandbox.close()
            if checkout.path not in self._fingerprints:
                self._fingerprints[checkout.path] = code_fingerprint(checkout.path)
            modified = changed_code(self._fingerprints[checkout.path], tree)
        return replace(result, modified_code=tuple(modified), data_source=source)

    def reward(self, grade: dict[str, Any], mode: str, data_source: str) -> float:
        if mode == "partial":
            return float(grade.get("partial_credit") or 0.0)
        return 1.0 if grade.get("passed") else 0.0

    def end_summary(self, grade: GradeLike, reward: float, reason: str | None) -> str:
        return prompts.end_summary(grade.to_dict(), reward, reason)

    # -- catalog ---------------------------------------------------------------------------

    def data_status(self) -> str:
        source = self.config.source
        if source == "bundled":
            try:
                return f"bundled: {len(self.examples())} examples ({self.config.split})"
            except (MLBenchDataError, ValueError) as exc:
                return f"bundled examples unreadable: {exc}"
        if source.lower() in ("hf", "huggingface", "hub"):
            return "ML-Bench data: Hugging Face (online) or source=<local export>"
        return f"local export {source}"


def _ranges(ids: list[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``"1-3, 7"``."""
    out: list[str] = []
    start: int | None = None
    prev = 0
    for i in sorted(ids):
        if start is None:
            start = prev = i
        elif i == prev + 1:
            prev = i
        else:
            out.append(f"{start}-{prev}" if start != prev else str(start))
            start = prev = i
    if start is not None:
        out.append(f"{start}-{prev}" if start != prev else str(start))
    return ", ".join(out)
