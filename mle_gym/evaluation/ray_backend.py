"""Run episodes as Ray tasks (``--backend ray``).

Each episode is one Ray task running the same
:func:`mle_gym.evaluation.episode.execute_episode` as the local backend, so it
writes the same folder with the same files; the coordinator only collects the
records for progress and then builds the report from the folders.

* ``address=None`` starts a local Ray instance sized to ``workers`` CPUs (or
  reuses the one this process already started with ``ray.init``); an address
  (``ray://host:10001``, ``host:6379`` or ``auto``) joins an existing cluster.
* Each task asks for one CPU; at most ``workers`` tasks are in flight (default:
  the cluster's CPU count), so the "running" count of the progress line is real.
* **The run directory must be on a filesystem every Ray node mounts at the same
  path** (NFS, a shared volume...): tasks write their episode folders there
  directly. So must the task data (``$MLE_GYM_HOME`` on each node, prepared, or
  a shared one), and each node needs mle_gym and the chosen sandbox backend.
* A task whose worker dies (node lost, OOM) is recorded as a ``failed`` episode
  by the coordinator (Ray's own retries are off, as with the local backend).
* If the coordinator dies, Ray cancels the tasks it owns (they are fate-shared
  with their owner); the episodes they were running have no episode.json and
  run again on ``--resume``. A local instance started here stops with the
  coordinator (some of Ray's helper processes take up to a minute after a
  ``kill -9``).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from typing import Any

from mle_gym.evaluation.episode import EpisodeJob, execute_episode, write_crash_record
from mle_gym.evaluation.events import RunEvents


class RayBackend:
    """Run jobs on Ray (see the module docstring)."""

    def __init__(self, *, address: str | None = None, workers: int | None = None) -> None:
        self.address = address
        self.workers = workers

    def _connect(self) -> bool:
        """Initialise Ray if needed; return True if this call started it."""
        import ray

        if ray.is_initialized():
            return False
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        if self.address:
            kwargs["address"] = self.address
        elif self.workers:
            kwargs["num_cpus"] = self.workers
        ray.init(**kwargs)
        return True

    def run(self, jobs: Sequence[EpisodeJob], events: RunEvents) -> None:
        """Run every job on Ray; return when all have a record."""
        if not jobs:
            return
        import ray

        started_here = self._connect()
        remote = ray.remote(num_cpus=1, max_retries=0)(execute_episode)
        limit = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        pending = list(jobs)
        in_flight: dict[Any, EpisodeJob] = {}
        try:
            while pending or in_flight:
                while pending and len(in_flight) < limit:
                    job = pending.pop(0)
                    in_flight[remote.remote(job)] = job
                    events.started(job)
                ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=1.0)
                for ref in ready:
                    job = in_flight.pop(ref)
                    try:
                        record = ray.get(ref)
                    except Exception as exc:  # the task's process died or Ray failed it
                        record = write_crash_record(
                            job, f"the Ray task running {job.label} failed: {exc}"[:2000]
                        )
                    events.finished(job, record)
                events.tick()
        except BaseException:
            for ref in in_flight:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
            time.sleep(0.5)
            raise
        finally:
            if started_here:
                ray.shutdown()
