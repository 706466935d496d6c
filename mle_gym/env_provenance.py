"""The provenance block of an episode (:meth:`mle_gym.env.MLEEnv.provenance`).

Recorded at ``reset`` once the sandbox runs; the evaluation runner writes it into
``episode.json`` and ``grade.json``, and the trajectory's reset record holds it:

* ``software`` — :func:`mle_gym.provenance.software` (mle_gym version, commit, dirty,
  Python, grading libraries);
* ``task`` — env id and family;
* ``data`` — the family's :meth:`~mle_gym.families.base.TaskFamily.data_provenance`
  (source, variant, replica seed, checks such as MLE-bench's checksums);
* ``sandbox`` — backend, and the Docker image's name and id (None for the local ones);
* ``grading`` — the family's grading option (None where it has none);
* ``reward_mode`` — the resolved reward mode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mle_gym.provenance import software
from mle_gym.trajectory import json_safe

if TYPE_CHECKING:
    from mle_gym.env import MLEEnv
    from mle_gym.families.base import Episode

__all__ = ["episode_provenance"]


def episode_provenance(env: MLEEnv, episode: Episode) -> dict[str, Any]:
    """The block (see the module docstring) of ``env``'s episode ``episode`` (JSON-safe)."""
    sandbox = env.sandbox
    block = {
        "software": software(),
        "task": {"env_id": env.task.env_id, "family": env.task.family},
        "data": env.family.data_provenance(episode),
        "sandbox": {
            "backend": env.sandbox_kind,
            "image": getattr(sandbox, "image", None),
            "image_id": getattr(sandbox, "image_id", None),
        },
        "grading": getattr(env.family.opts, "grading", None),
        "reward_mode": episode.reward_mode,
    }
    return dict(json_safe(block))
