"""Side-by-side costs of the sandbox backends (medians of repeated runs, one process).

    python scripts/measure_backends.py [--repeats 30] [--backends local,docker]

Rows:
* a trivial command (`true`) through each backend's ``exec``, next to a plain
  ``subprocess.run`` and, for docker, a raw ``docker exec`` of the same
  command on the same container (SDK ``exec_run`` and the ``docker`` CLI);
* the ``python`` tool: a warm cell doing a small pandas groupby (10,000 rows)
  in the persistent interpreter, next to a cold ``python -c`` doing the same
  (import pandas, read the CSV, group) through the same backend.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.sandbox import SandboxLimits, make_sandbox
from mle_gym.sandbox.kernel import PythonKernel

GROUPBY = "df.groupby('g')['v'].mean().round(3).to_dict()"
COLD = f"python -c \"import pandas as pd; df = pd.read_csv('data/small.csv'); print({GROUPBY})\""


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--backends", default="local,docker")
    args = parser.parse_args()
    n = args.repeats
    tmp = Path(tempfile.mkdtemp(prefix="mle_gym-bench-"))
    data = tmp / "data"
    data.mkdir()
    rng = np.random.default_rng(0)
    pd.DataFrame({"g": rng.integers(0, 20, 10_000), "v": rng.random(10_000)}).to_csv(
        data / "small.csv", index=False
    )
    rows: list[tuple[str, float, str]] = []
    plain = median_ms(lambda: subprocess.run(["true"], check=True), n)
    rows.append(("plain subprocess.run(['true'])", plain, "baseline"))

    for kind in [b.strip() for b in args.backends.split(",") if b.strip()]:
        ws = tmp / f"ws-{kind}"
        (ws / "data").mkdir(parents=True)
        sb = make_sandbox(kind, ws, data, SandboxLimits())
        try:
            sb.exec("true", 30)
            ms = median_ms(lambda sb=sb: sb.exec("true", 30), n)
            rows.append((f"{kind}: exec `true`", ms, f"x{ms / plain:.1f} plain subprocess"))
            if kind == "docker":
                import docker

                container = docker.from_env().containers.get(sb.container_id)  # type: ignore[attr-defined]
                raw = median_ms(lambda c=container: c.exec_run(["true"], user="1000:1000"), n)
                rows.append(
                    ("docker: raw SDK exec_run `true`", raw, f"exec is x{ms / raw:.2f} of it")
                )
                cli = shutil.which("docker")
                if cli:
                    argv = [cli, "exec", "-u", "1000:1000", sb.container_id, "true"]  # type: ignore[attr-defined]
                    raw_cli = median_ms(
                        lambda argv=argv: subprocess.run(argv, check=True), max(5, n // 3)
                    )
                    rows.append(
                        ("docker: raw `docker exec` CLI", raw_cli, f"exec is x{ms / raw_cli:.2f}")
                    )
            kernel = PythonKernel(sb, sb.limits.memory_mb)
            kernel.run("import pandas as pd; df = pd.read_csv('data/small.csv')", 120)
            warm = median_ms(lambda k=kernel: k.run(GROUPBY, 60), n)
            cold = median_ms(lambda sb=sb: sb.exec(COLD, 120), max(5, n // 3))
            rows.append((f"{kind}: python tool, warm groupby cell", warm, ""))
            rows.append(
                (f"{kind}: cold `python -c` same work", cold, f"warm is {cold / warm:.0f}x faster")
            )
            kernel.close()
        finally:
            sb.close()
    shutil.rmtree(tmp, ignore_errors=True)

    width = max(len(r[0]) for r in rows)
    print(f"{'operation'.ljust(width)}  median ms  comparison")
    for label, ms, note in rows:
        print(f"{label.ljust(width)}  {ms:9.2f}  {note}")


if __name__ == "__main__":
    sys.exit(main())
