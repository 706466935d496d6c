"""``unsafe-local``: commands run directly on the host, WITHOUT isolation. Debugging only.

The agent's code runs as the calling user with the workspace as working
directory and ``data`` a symlink to the public data. It can read anything that
user can read (including the private answers in the cache), reach the network
and leave processes behind. Only the wall timeout and output cap apply. Never
use it for evaluation or training.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from mle_gym.sandbox.base import ExecResult, Sandbox, SandboxError, SpawnedProcess
from mle_gym.sandbox.process import LocalProcess, run_captured

log = logging.getLogger(__name__)


class UnsafeLocalSandbox(Sandbox):
    """No isolation at all (see module docstring)."""

    kind = "unsafe-local"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        log.warning("sandbox='unsafe-local': agent code runs on the host WITHOUT isolation")
        self._spawned: list[LocalProcess] = []
        link = self.workspace / "data"
        if self.data is not None:
            if link.is_dir() and not link.is_symlink():
                shutil.rmtree(link)
            if not link.is_symlink():
                link.symlink_to(self.data, target_is_directory=True)

    def _env(self) -> dict[str, str]:
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.workspace),
            "LANG": "C.UTF-8",
            "PYTHONUNBUFFERED": "1",
        }

    def exec(
        self, command: str, timeout_s: float, *, supervisor: Sequence[str] | None = None
    ) -> ExecResult:
        if self.closed:
            raise SandboxError("sandbox is closed")
        if supervisor is not None:
            from mle_gym.hints import Hinted, Setting

            raise SandboxError(
                Hinted(
                    Setting("sandbox", "unsafe-local"),
                    " cannot run a supervised command (it has no uid to drop to); use ",
                    Setting("sandbox", "local"),
                    " or ",
                    Setting("sandbox", "docker"),
                )
            )
        env = self._env()
        out = run_captured(
            ["/bin/sh", "-c", command],
            timeout_s=timeout_s,
            max_output_bytes=self.limits.max_output_bytes,
            env=env,
            cwd=str(self.workspace),
        )
        return ExecResult(
            exit_code=out.returncode,
            head=out.head,
            tail=out.tail,
            output_bytes=out.total,
            duration_s=out.duration_s,
            timed_out=out.timed_out,
            output_limited=out.output_limited,
            signal=-out.returncode if out.returncode is not None and out.returncode < 0 else None,
        )

    def spawn(self, argv: list[str]) -> SpawnedProcess:
        if self.closed:
            raise SandboxError("sandbox is closed")
        if argv and argv[0] == "python":
            argv = [sys.executable, *argv[1:]]
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            cwd=str(self.workspace),
            env=self._env(),
        )
        spawned = LocalProcess(proc)
        self._spawned.append(spawned)
        return spawned

    def close(self) -> None:
        self.closed = True
        for spawned in self._spawned:
            spawned.kill()
        self._spawned.clear()
