"""``reset()`` latency against the size of the task's data, and what the workspace
volume costs.

One env per data size, reset in rotating order round after round, so every size
sees the same machine state. A reset here includes tearing down the previous
episode of that env (what a training loop pays per episode). The public data is
bind-mounted read-only, never copied, so the latency should not grow with it.

When the workspace quota is enforced (root with loop devices), every reset also
makes, formats and mounts a sparse ext4 image; its cost (create + mount +
unmount + delete, with the default 10 GB quota) is measured on its own.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path

from mle_gym.bench.context import BenchContext
from mle_gym.bench.fixtures import size_label, size_slug
from mle_gym.bench.results import Figure
from mle_gym.bench.timing import interleaved, median, median_ratio
from mle_gym.sandbox import quota
from mle_gym.tasks import Limits


def measure(ctx: BenchContext, backend: str) -> list[Figure]:
    """One figure per data size (baseline: the smallest size), plus the volume cost."""
    sizes = sorted(ctx.sized_envs)
    envs = {size: ctx.make_env(backend, ctx.sized_envs[size]) for size in sizes}
    try:
        s = interleaved(
            {str(size): functools.partial(env.reset, seed=0) for size, env in envs.items()},
            ctx.config.repeats,  # resets are quick; many rounds steady the ratio
            warmup=1,
        )
    finally:
        for env in envs.values():
            env.close()
    ref = str(sizes[0])
    ref_public = ctx.data_bytes.get(ctx.sized_envs[sizes[0]], sizes[0])
    figures = []
    for size in sizes:
        public = ctx.data_bytes.get(ctx.sized_envs[size], size)
        figures.append(
            Figure(
                key=f"reset.{size_slug(size)}.{backend}",
                family="reset",
                label=f"reset() with {size_label(public)} of task data",
                unit="ms",
                value=median(s[str(size)]),
                samples=len(s[str(size)]),
                backend=backend,
                baseline_label=f"reset() with {size_label(ref_public)}",
                baseline=median(s[ref]),
                ratio=median_ratio(s[str(size)], s[ref]),
                extra={"data_bytes": public},
            )
        )
    return figures


def measure_volume(ctx: BenchContext) -> list[Figure]:
    """The workspace volume alone (only where quotas are enforced)."""
    if not quota.available():
        return []
    size_mb = Limits().disk_mb
    root = Path(tempfile.mkdtemp(prefix="vol-", dir=ctx.scratch))

    def cycle() -> None:
        mount = root / "ws"
        mount.mkdir()
        vol = quota.WorkspaceVolume.create(mount, root / "ws.img", size_mb, None)
        vol.unmount()
        mount.rmdir()

    try:
        s = interleaved({"volume": cycle}, ctx.config.slow_repeats, warmup=1)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return [
        Figure(
            key="reset.workspace_volume",
            family="reset",
            label=f"workspace volume: sparse {size_mb // 1024} GB ext4 image, mkfs, mount, umount",
            unit="ms",
            value=median(s["volume"]),
            samples=len(s["volume"]),
            notes="part of every reset() where the disk quota is enforced (root, loop devices)",
        )
    ]
