"""Sandbox backends behind one protocol (:class:`~mle_gym.sandbox.base.Sandbox`).

``make_sandbox(kind, ...)`` builds one; ``kind`` is ``local`` (bubblewrap, the
default), ``docker`` (one container per episode) or ``unsafe-local`` (no
isolation, debugging only). The default can be set with ``$MLE_GYM_SANDBOX``.
"""

from __future__ import annotations

import os
from pathlib import Path

from mle_gym.sandbox.base import (
    ExecResult,
    Mount,
    Sandbox,
    SandboxError,
    SandboxLimits,
    SandboxUnavailable,
)

BACKENDS = ("local", "docker", "unsafe-local")


def default_kind() -> str:
    """``$MLE_GYM_SANDBOX`` or ``local``."""
    return os.environ.get("MLE_GYM_SANDBOX", "local")


def check_kind(kind: str) -> str:
    """Validate a backend name, and that it can run here (fail fast, with the fix)."""
    if kind not in BACKENDS:
        raise ValueError(f"unknown sandbox {kind!r}; choose one of {', '.join(BACKENDS)}")
    if kind == "local":
        from mle_gym.sandbox.local import find_tool

        find_tool("bwrap")
        find_tool("prlimit")
    elif kind == "docker":
        from mle_gym.sandbox.docker import client_from_env

        client_from_env()
    return kind


def make_sandbox(
    kind: str,
    workspace: Path,
    data: Path | None,
    limits: SandboxLimits,
    *,
    image: str | None = None,
    episode_id: str | None = None,
) -> Sandbox:
    """Create a sandbox of backend ``kind`` over ``workspace`` with ``data`` read-only.

    ``image`` selects the docker image (default ``$MLE_GYM_DOCKER_IMAGE`` or
    ``mle-gym-runtime:py<X.Y>``); ``episode_id`` labels docker containers.
    """
    if kind not in BACKENDS:
        check_kind(kind)
    if kind == "local":
        from mle_gym.sandbox.local import LocalSandbox

        return LocalSandbox(workspace, data, limits)
    if kind == "docker":
        from mle_gym.sandbox.docker import DockerSandbox

        return DockerSandbox(workspace, data, limits, image=image, episode_id=episode_id)
    from mle_gym.sandbox.unsafe import UnsafeLocalSandbox

    return UnsafeLocalSandbox(workspace, data, limits)


__all__ = [
    "BACKENDS",
    "ExecResult",
    "Mount",
    "Sandbox",
    "SandboxError",
    "SandboxLimits",
    "SandboxUnavailable",
    "check_kind",
    "default_kind",
    "make_sandbox",
]
