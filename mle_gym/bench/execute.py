"""``execute`` steps next to running the same command without the environment.

Per backend, in the same rounds: an ``execute`` step of ``true`` and of
``python -c pass`` next to a plain ``subprocess.run`` of the same command in the
host (the interpreter is the one the sandbox runs, ``sys.executable``: a bare
``python`` on PATH may be a slow version-manager shim). On docker, also a raw
``docker exec`` of ``true`` in the episode's own container, as the agent uid:
through the SDK (``exec_run``, the fastest raw path) and through the ``docker``
command line.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from mle_gym.bench.context import BenchContext
from mle_gym.bench.results import Figure
from mle_gym.bench.timing import interleaved, median, median_ratio


def _step(env: Any, command: str) -> Callable[[], None]:
    def run() -> None:
        _, _, _, _, info = env.step({"tool": "execute", "args": {"command": command}})
        if not info.get("ok"):
            raise RuntimeError(f"execute {command!r} failed in the bench: {info.get('error')}")

    return run


def _figure(
    key: str, label: str, backend: str, s: dict[str, list[float]], base: str, base_label: str
) -> Figure:
    return Figure(
        key=key,
        family="execute",
        label=label,
        unit="ms",
        value=median(s["step"]),
        samples=len(s["step"]),
        backend=backend,
        baseline_label=base_label,
        baseline=median(s[base]),
        ratio=median_ratio(s["step"], s[base]),
        extra={"overhead_ms": round(median(s["step"]) - median(s[base]), 3)},
    )


def measure(ctx: BenchContext, backend: str) -> list[Figure]:
    """``true`` and ``python -c pass`` vs subprocess.run; on docker also vs raw docker exec."""
    env = ctx.make_env(backend)
    try:
        env.reset(seed=0)
        n = ctx.config.repeats
        figures = []
        s = interleaved(
            {
                "step": _step(env, "true"),
                "plain": lambda: subprocess.run(["true"], check=True),
            },
            n,
            warmup=2,
        )
        figures.append(
            _figure(
                f"execute.true.{backend}",
                "execute step `true`",
                backend,
                s,
                "plain",
                "subprocess.run(['true'])",
            )
        )
        s = interleaved(
            {
                "step": _step(env, "python -c pass"),
                "plain": lambda: subprocess.run([sys.executable, "-c", "pass"], check=True),
            },
            n,
            warmup=2,
        )
        figures.append(
            _figure(
                f"execute.python_pass.{backend}",
                "execute step `python -c pass`",
                backend,
                s,
                "plain",
                "subprocess.run([python, '-c', 'pass'])",
            )
        )
        if backend == "docker":
            figures += _raw_docker(env, n, backend)
        return figures
    finally:
        env.close()


def _raw_docker(env: Any, n: int, backend: str) -> list[Figure]:
    sandbox = env.unwrapped.sandbox
    container = sandbox.client.containers.get(sandbox.container_id)
    user = f"{sandbox.uid}:{sandbox.gid}"
    candidates: dict[str, Callable[[], object]] = {
        "step": _step(env, "true"),
        "sdk": lambda: container.exec_run(["true"], user=user),
    }
    cli = shutil.which("docker")
    if cli:
        argv = [cli, "exec", "-u", user, sandbox.container_id, "true"]
        candidates["cli"] = lambda: subprocess.run(argv, check=True)
    s = interleaved(candidates, n, warmup=2)
    figures = [
        _figure(
            f"execute.true_vs_docker_sdk.{backend}",
            "execute step `true` vs raw exec",
            backend,
            s,
            "sdk",
            "raw SDK exec_run(['true'])",
        )
    ]
    if "cli" in s:
        figures.append(
            _figure(
                f"execute.true_vs_docker_cli.{backend}",
                "execute step `true` vs raw CLI",
                backend,
                s,
                "cli",
                "raw `docker exec ... true`",
            )
        )
    return figures
