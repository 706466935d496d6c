"""Hidden evaluator of MLAgentBench/llama-inference: how long ``inference.py`` takes.

In one fresh evaluation sandbox, ``ROUNDS`` rounds each run the starter's
``inference.py`` (the baseline) and the agent's, alternating their order; the folder is
rewritten before every run. Each run is timed by the timing guard
(:mod:`mle_gym.families.mlagentbench.guard`): the clock stops only when the run's whole
process tree has exited (work moved into a detached process is timed too), the guard
hashes ``generations.npy`` at that moment and signs its report with a per-run key the
agent's code never sees; nothing the script prints is trusted. Both must write
``generations.npy`` (the generated token ids); the agent's must agree with the
starter's of the same round on at least ``MIN_AGREEMENT`` of the tokens (so the work
is really done). Score: median seconds of the agent's runs (start until the whole
process tree exited); baseline: median of the starter's in the same evaluation.
"""

from __future__ import annotations

import io
import statistics
from pathlib import Path

import numpy as np

from mle_gym.families.mlagentbench.authoring import (
    EvalJob,
    Evaluation,
    EvaluationFailed,
    TimedRun,
    TimingFailed,
    chown_tree,
    clear_dir,
    copy_tree,
    read_checked,
    temporary_dir,
    timed_run,
)

OUTPUT = "/workspace/generations.npy"

ROUNDS = 3
MIN_AGREEMENT = 0.98
MAX_BYTES = 256 * 2**20


def _fill(folder: Path, source: Path, owner) -> None:
    """Rewrite the run folder from ``source`` (the caller stops the sandbox's processes
    meanwhile), only through fds (the authoring API's folder helpers): what a run left —
    links to host paths included — is removed, never followed; links are not copied."""
    clear_dir(folder, keep={"data"})
    copy_tree(source, folder, exclude_top=("data",), merge=True, links="skip")
    if owner is not None:
        chown_tree(folder, *owner, exclude_top=("data",), include_root=False)


def _generations(run: TimedRun, folder: Path, who: str) -> np.ndarray:
    """generations.npy exactly as the guard hashed it when the run's clock stopped."""
    data = read_checked(run, folder, OUTPUT, MAX_BYTES)
    if data is None:
        raise EvaluationFailed(f"the {who} run wrote no generations.npy")
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
    with temporary_dir("mle_gym-llama-") as tmp:  # any tree a run left: removed
        folder = Path(tmp) / "eval"
        folder.mkdir()
        with job.session(folder) as sandbox:
            for round_no in range(ROUNDS):
                order = ("baseline", "agent") if round_no % 2 == 0 else ("agent", "baseline")
                reference = None
                results = {}
                for who in order:
                    with sandbox.frozen():  # no process of a run goes on meanwhile
                        source = job.outputs if who == "agent" else job.starter
                        _fill(folder, source, sandbox.file_owner)
                    try:
                        run = timed_run(
                            sandbox,
                            ["python", "inference.py"],
                            timeout_s=job.timeout_s,
                            outputs=[OUTPUT],
                        )
                    except TimingFailed as exc:
                        if who == "baseline":
                            raise RuntimeError(f"timing the starter failed: {exc}") from exc
                        raise
                    if not run.ok:
                        text = run.output[-1500:]
                        status = (
                            "wall-clock timeout" if run.timed_out else f"exit code {run.exit_code}"
                        )
                        if who == "baseline":
                            raise RuntimeError(
                                f"the starter inference.py failed ({status}):\n{text}"
                            )
                        raise EvaluationFailed(f"inference.py failed ({status}):\n{text}")
                    results[who] = (_generations(run, folder, who), run.seconds)
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
