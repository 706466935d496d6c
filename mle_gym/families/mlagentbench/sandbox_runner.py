"""Fresh sandboxes for evaluation and baseline runs (never the agent's own sandbox)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path

from mle_gym.families.base import task_sandbox
from mle_gym.sandbox.base import ExecResult, Sandbox
from mle_gym.task_spec import Limits


class SandboxRunner:
    """``runner(folder, command, timeout_s)``: run one command in a new sandbox of ``kind``
    over ``folder`` (mounted at /workspace) with ``public`` read-only at /workspace/data,
    then close it. Output is the sandbox's usual head/tail capture."""

    def __init__(
        self, kind: str, limits: Limits, public: Path | None, image: str | None = None
    ) -> None:
        self.kind = kind
        self.limits = limits
        self.public = public
        self.image = image

    @contextlib.contextmanager
    def session(self, folder: Path) -> Iterator[Sandbox]:
        """One fresh sandbox over ``folder`` for several commands (each command's leftover
        processes are swept before the next starts); closed on exit."""
        if self.public is not None:
            (folder / "data").mkdir(exist_ok=True)
        sandbox = task_sandbox(
            self.kind,
            folder,
            self.public,
            self.limits,
            image=self.image,
            episode_id=f"mlab-eval-{uuid.uuid4().hex[:8]}",
        )
        try:
            yield sandbox
        finally:
            sandbox.close()

    def __call__(self, folder: Path, command: str, timeout_s: float) -> ExecResult:
        with self.session(folder) as sandbox:
            return sandbox.exec(command, timeout_s)
