"""How backends report progress to the coordinator."""

from __future__ import annotations

from typing import Any, Protocol

from mle_gym.evaluation.episode import EpisodeJob


class RunEvents(Protocol):
    """Callbacks a backend makes while it runs episodes (all in the coordinator)."""

    def started(self, job: EpisodeJob) -> None:
        """``job`` was handed to a worker."""

    def finished(self, job: EpisodeJob, record: dict[str, Any]) -> None:
        """``job`` ended with ``record`` (its episode.json content) written."""

    def tick(self) -> None:
        """Called about once a second while waiting (to refresh a progress line)."""
