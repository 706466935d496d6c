"""A description of the machine a bench ran on (stored with the figures)."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any


def _first_line(argv: list[str]) -> str | None:
    if shutil.which(argv[0]) is None:
        return None
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    text = (out.stdout or out.stderr).strip()
    return text.splitlines()[0] if text else None


def _meminfo_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def _os_name() -> str | None:
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return None


def _docker_version() -> str | None:
    try:
        from mle_gym.sandbox.docker import client_from_env

        return str(client_from_env().version().get("Version"))
    except Exception:
        return None


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (empty where unknown)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def describe(*, with_docker: bool = True) -> dict[str, Any]:
    """Cores, RAM, kernel, OS, Python, pandas, bubblewrap and docker versions, cgroup mode."""
    import numpy
    import pandas
    import pyarrow

    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = None
    return {
        "cpu_count": os.cpu_count(),
        "cpus_usable": usable,
        "cpu_model": platform.processor() or _cpu_model(),
        "ram_gib": _meminfo_gib(),
        "kernel": platform.release(),
        "os": _os_name(),
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
        "pandas": pandas.__version__,
        "pyarrow": pyarrow.__version__,
        "bubblewrap": _first_line(["bwrap", "--version"]),
        "docker": _docker_version() if with_docker else None,
        "cgroup": "v1" if Path("/sys/fs/cgroup/memory").is_dir() else "v2",
        "root": os.geteuid() == 0,
        "load_average_start": load_average(),
    }


def _cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None
