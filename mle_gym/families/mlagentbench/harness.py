"""Scoring a model inside a fresh evaluation sandbox, for evaluators that need the model's
own libraries (torch, transformers, jax...) rather than a predictions file.

:func:`run_harness` fills an evaluation folder from scratch — the agent's output files
under ``agent/``, the task's harness script and any hidden inputs under ``_mlab/`` —
writes a one-time nonce, and runs ``python -I /workspace/_mlab/harness.py`` in a fresh
sandbox (see :meth:`EvalJob.session`). The script must read and delete
``/workspace/_mlab/nonce`` before touching anything of the agent's, and print one line
``RESULT <nonce> <json object>``; only that line is believed. Any other outcome
(missing result, crash, timeout) is an :class:`EvaluationFailed` quoting the end of the
output.
"""

from __future__ import annotations

import json
import secrets
import shutil
from pathlib import Path
from typing import Any

from mle_gym.families.mlagentbench.evaluation import EvalJob, EvaluationFailed
from mle_gym.sandbox import hostfs
from mle_gym.tools.format import decode


def _chown_tree(root: Path, owner: tuple[int, int] | None) -> None:
    if owner is not None:
        hostfs.chown_tree(root, *owner)


def parse_result(output: str, nonce: str) -> dict[str, Any] | None:
    """The JSON object of the ``RESULT <nonce>`` line, or None."""
    prefix = f"RESULT {nonce} "
    for line in output.splitlines():
        if line.startswith(prefix):
            try:
                value = json.loads(line[len(prefix) :])
            except ValueError:
                return None
            return value if isinstance(value, dict) else None
    return None


def run_harness(
    job: EvalJob,
    script: Path,
    *,
    hidden: dict[str, Path] | None = None,
    timeout_s: float | None = None,
) -> dict[str, Any]:
    """Run ``script`` as the harness over the agent's outputs (see module docstring);
    ``hidden`` maps names to host folders copied to ``/workspace/_mlab/<name>``."""
    nonce = secrets.token_hex(16)
    with hostfs.temporary_dir("mle_gym-harness-") as tmp:  # any tree the run left
        folder = Path(tmp) / "eval"
        folder.mkdir()
        with job.session(folder) as sandbox:
            # filled before any code runs in it; through fds, no link followed (hostfs)
            hostfs.copy_tree(job.outputs, folder / "agent", links="skip")
            mlab = folder / "_mlab"
            mlab.mkdir()
            shutil.copyfile(script, mlab / "harness.py")
            for name, source in (hidden or {}).items():
                shutil.copytree(source, mlab / name)
            (mlab / "nonce").write_text(nonce)
            _chown_tree(folder, sandbox.file_owner)
            result = sandbox.exec(
                "cd /workspace/agent && python -I /workspace/_mlab/harness.py",
                timeout_s or job.timeout_s,
            )
    output = decode(result.head + result.tail)
    record = parse_result(output, nonce)
    if record is None:
        status = result.killed_reason or f"exit code {result.exit_code}"
        raise EvaluationFailed(
            f"the evaluation run reported no result ({status}); its output ends with:\n"
            + output[-2000:]
        )
    if not record.get("ok", False):
        raise EvaluationFailed(str(record.get("error", "the evaluation run failed"))[:3000])
    return record
