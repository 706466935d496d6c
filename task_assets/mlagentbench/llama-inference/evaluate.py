"""Hidden evaluator of MLAgentBench/llama-inference: how long ``inference.py`` takes.

In one fresh evaluation sandbox, ``ROUNDS`` rounds each run the starter's
``inference.py`` (the baseline) and the agent's, alternating their order; the folder is
rewritten before every run and the sandbox removes whatever a run leaves behind. Each
run is timed from outside (the host measures the command), so nothing the script prints
is trusted. Both must write ``generations.npy`` (the generated token ids); the agent's
must agree with the starter's of the same round on at least ``MIN_AGREEMENT`` of the
tokens (so the work is really done). Score: median seconds of the agent's runs;
baseline: median of the starter's in the same evaluation.
"""

from __future__ import annotations

import io
import os
import shutil
import statistics
import tempfile
from pathlib import Path

import numpy as np

from mle_gym.families.mlagentbench.evaluation import EvalJob, Evaluation, EvaluationFailed
from mle_gym.tools.format import decode

ROUNDS = 3
MIN_AGREEMENT = 0.98
MAX_BYTES = 256 * 2**20


def _fill(folder: Path, source: Path, owner) -> None:
    for entry in folder.iterdir():
        if entry.name == "data":
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    for item in source.iterdir():
        if item.is_dir():
            shutil.copytree(item, folder / item.name, symlinks=True)
        else:
            shutil.copyfile(item, folder / item.name, follow_symlinks=False)
    if owner is not None:
        for dirpath, dirnames, filenames in os.walk(folder):
            if dirpath == str(folder / "data"):
                dirnames[:] = []
                continue
            for name in dirnames + filenames:
                os.chown(os.path.join(dirpath, name), *owner, follow_symlinks=False)


def _generations(folder: Path, who: str) -> np.ndarray:
    try:
        fd = os.open(folder / "generations.npy", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        raise EvaluationFailed(f"the {who} run wrote no generations.npy") from None
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    try:
        return np.load(io.BytesIO(data), allow_pickle=False)
    except ValueError as exc:
        raise EvaluationFailed(f"generations.npy of the {who} run is unreadable: {exc}") from None


def evaluate(job: EvalJob) -> Evaluation:
    if not (job.outputs / "inference.py").is_file():
        raise EvaluationFailed("inference.py is missing from the workspace")
    agent_times: list[float] = []
    base_times: list[float] = []
    agreement: list[float] = []
    with tempfile.TemporaryDirectory(prefix="mle_gym-llama-") as tmp:
        folder = Path(tmp) / "eval"
        folder.mkdir()
        with job.session(folder) as sandbox:
            for round_no in range(ROUNDS):
                order = ("baseline", "agent") if round_no % 2 == 0 else ("agent", "baseline")
                reference = None
                results = {}
                for who in order:
                    _fill(
                        folder, job.outputs if who == "agent" else job.starter, sandbox.file_owner
                    )
                    run = sandbox.exec("python inference.py", job.timeout_s)
                    if not run.ok:
                        text = decode(run.head + run.tail)[-1500:]
                        status = run.killed_reason or f"exit code {run.exit_code}"
                        if who == "baseline":
                            raise RuntimeError(
                                f"the starter inference.py failed ({status}):\n{text}"
                            )
                        raise EvaluationFailed(f"inference.py failed ({status}):\n{text}")
                    results[who] = (_generations(folder, who), run.duration_s)
                reference, base_seconds = results["baseline"]
                produced, agent_seconds = results["agent"]
                if produced.shape != reference.shape:
                    raise EvaluationFailed(
                        f"generations.npy has shape {produced.shape}; the starter's has "
                        f"{reference.shape}"
                    )
                share = float(np.mean(produced == reference))
                if share < MIN_AGREEMENT:
                    raise EvaluationFailed(
                        f"only {share:.1%} of the generated tokens agree with the starter's "
                        f"(at least {MIN_AGREEMENT:.0%} needed): the generations must not change"
                    )
                agreement.append(share)
                agent_times.append(agent_seconds)
                base_times.append(base_seconds)
    return Evaluation(
        score=statistics.median(agent_times),
        baseline=statistics.median(base_times),
        details={
            "agent_runs": agent_times,
            "baseline_runs": base_times,
            "token_agreement": agreement,
            "baseline_measured_by": (
                f"median wall time of {ROUNDS} runs of the starter inference.py, alternating "
                "with the agent's in the same evaluation sandbox"
            ),
        },
    )
