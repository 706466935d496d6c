"""``mle-gym prepare MLBench/<repo>-v0``: fetch the repository checkouts an env needs.

Which repositories:

* an env over a local export or the bundled examples: the repositories its examples
  name (shipped ``mle-gym://`` ones need nothing);
* an env over the Hugging Face dataset (the real benchmark's tasks): the submodules of
  ML-Bench's superproject (:mod:`mle_gym.families.mlbench.pins`) matching the env's
  ``repos`` / ``repo`` setting (names) or, for a one-repository task such as
  ``MLBench/dgl-v0``, the repository its task.yaml declares
  (``mlbench: {repository: <git URL>}``, :attr:`.task.MLBenchTask.repository`; its task
  id for a task that declares none but has a ``github_id``); every submodule for
  ``MLBench/ml-bench-v0`` — so no dataset download is needed.

Each is then resolved as an episode would, by the env's own resolver
(:meth:`.family.MLBenchFamily.resolver`: local checkout, cache, or a clone at its pinned
commit; with ``--from``, the same resolver reading the pins from that clone). Every
repository is tried; the ones that fail are reported together at the end
(:class:`.repos.RepoUnavailable`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mle_gym.families.mlbench.pins import PinsUnavailable, PinTable, SubmodulePin, Superproject
from mle_gym.families.mlbench.repos import BUNDLED_SCHEME, RepoResolver, RepoUnavailable
from mle_gym.families.mlbench.schema import repo_name_of
from mle_gym.families.mlbench.task import task_repository

if TYPE_CHECKING:
    from mle_gym.families.mlbench.family import MLBenchFamily

HUB_SOURCES = ("hf", "huggingface", "hub")


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _owner_and_name(url: str) -> str:
    parts = url.rstrip("/").removesuffix(".git").replace(":", "/").split("/")
    return "".join(parts[-2:])


def select_pins(table: PinTable, wanted: Sequence[str]) -> list[SubmodulePin]:
    """The submodules named by ``wanted`` (all of them when it is empty). A name matches a
    submodule's repository name, folder or owner+name, ignoring case and punctuation
    (``open-clip`` is ``open_clip``, ``deepfloyd-if`` is ``deep-floyd/IF``).
    ValueError naming the known submodules when a name matches none."""
    if not wanted:
        return list(table.pins)
    chosen: list[SubmodulePin] = []
    for name in wanted:
        key = _norm(name)
        hits = [
            p
            for p in table.pins
            if key in (_norm(repo_name_of(p.url)), _norm(p.folder), _norm(_owner_and_name(p.url)))
        ]
        if not hits:
            known = ", ".join(p.folder for p in table.pins) or "none"
            raise ValueError(
                f"no submodule of {table.describe()} is named {name!r} (submodules: {known})"
            )
        chosen.extend(p for p in hits if p not in chosen)
    return chosen


def pin_of_url(table: PinTable, url: str) -> SubmodulePin:
    """The submodule of the repository ``url`` (:meth:`~.pins.PinTable.find`: by URL,
    ignoring case, ``.git`` and a trailing slash, else by a repository name only one
    submodule has). ValueError naming the known submodules when none is."""
    found = table.find(url)
    if found is None:
        known = ", ".join(p.folder for p in table.pins) or "none"
        raise ValueError(f"no submodule of {table.describe()} is {url} (submodules: {known})")
    return found


def prefetch(resolver: RepoResolver, urls: Sequence[str]) -> list[str]:
    """Resolve every URL (cloning where needed); one report line each. Raises
    :class:`RepoUnavailable` listing every failure after trying them all."""
    lines: list[str] = []
    failures: list[str] = []
    for url in urls:
        if url.startswith(BUNDLED_SCHEME):
            lines.append(f"{repo_name_of(url)}: shipped with mle_gym, nothing to fetch")
            continue
        try:
            co = resolver.resolve(url)
        except RepoUnavailable as exc:
            failures.append(str(exc))
            lines.append(f"{repo_name_of(url)}: FAILED")
            continue
        at = f" at {co.commit}" if co.commit else ""
        lines.append(f"{co.name}: {co.origin}{at} in {co.path}")
    if failures:
        raise RepoUnavailable(
            f"{len(failures)} of {len(urls)} repositories could not be prepared:\n"
            + "\n".join(f"  - {f}" for f in failures)
            + "\nprepared so far:\n"
            + "\n".join(f"  {line}" for line in lines)
        )
    return lines


def prepare_family(
    family: MLBenchFamily, *, superproject: Path | None = None, refresh: bool = False
) -> str:
    """Fetch what ``family``'s env needs (see the module docstring); a summary.
    ``superproject``: a local clone of ML-Bench to read the pins from (at the configured
    commit) instead of GitHub. ``refresh``: read the pins again even if cached."""
    cfg = family.config
    resolver = family.resolver()
    if superproject is not None:
        ref = resolver.superproject.ref if resolver.superproject else Superproject().ref
        resolver = resolver.with_superproject(Superproject(url=str(superproject), ref=ref))
    header: list[str] = []
    if cfg.source.lower() in HUB_SOURCES:
        try:
            table = resolver.pin_table(refresh=refresh)
        except PinsUnavailable as exc:
            raise RepoUnavailable(
                f"{family.task.env_id}: the pinned commits of ML-Bench's repositories could "
                f"not be read: {exc}. Give local checkouts (repos=... or "
                "$MLE_GYM_MLBENCH_REPOS), explicit pins (pins={name: commit}), or a local "
                "clone of ML-Bench (mle-gym prepare ... --from /path/to/ML-Bench or "
                "$MLE_GYM_MLBENCH_SUPERPROJECT)"
            ) from None
        declared = task_repository(family.task)
        if cfg.repos:
            chosen = select_pins(table, list(cfg.repos))
        elif cfg.repo:
            chosen = select_pins(table, [cfg.repo])
        elif declared is not None:
            chosen = [pin_of_url(table, declared)]
        elif cfg.github_id is not None:
            chosen = select_pins(table, [family.task.id])
        else:
            chosen = select_pins(table, [])
        urls = [p.url for p in chosen]
        header.append(f"pins from {table.describe()} ({len(table.pins)} submodules)")
    else:
        urls = sorted({e.github for e in family.examples()})
    lines = prefetch(resolver, urls)
    return "\n".join([f"prepared {family.task.env_id}:", *header, *lines])
