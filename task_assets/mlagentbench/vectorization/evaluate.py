"""Hidden evaluator of MLAgentBench/vectorization (host side; never in a sandbox).

In one fresh evaluation sandbox, ``ROUNDS`` rounds each time one forward pass of the
starter code's ``Conv2DLayer`` (the baseline) and one of the agent's, in alternating
order so that drifting machine load hits both alike. Every pass runs in its own
process (``harness/child.py``) under the timing guard
(:mod:`mle_gym.families.mlagentbench.guard`): the clock starts when the guard sends the
input's nonce (unknown to the agent's code until then) and stops only when the pass's
whole process tree has exited, so work moved into a detached process is timed too; the
guard hashes the output at that moment and signs its report with a per-run key the
agent's code never sees. Before each pass the evaluation folder is rewritten from
scratch.

Correctness is checked on the host, on the output exactly as hashed at clock stop:
every element is compared with the layer's definition computed here (float64,
``|diff| <= ATOL + RTOL * |reference|``). Score: the median time of the agent's
passes; baseline: the median time of the starter code's passes in the same run. The
improvement is estimated from the rounds as pairs: ``1 - median(agent_r / starter_r)``,
so that load on the machine, which slows both passes of a round alike, cancels out.
"""

from __future__ import annotations

import importlib.util
import io
import secrets
import statistics
from pathlib import Path

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

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
    write_file,
)

HERE = Path(__file__).resolve().parent
ROUNDS = 11
ATOL = RTOL = 1e-9
STRIDE = PADDING = 2
PASS_TIMEOUT_S = 300.0
READY_TIMEOUT_S = 120.0
MAX_OUTPUT_BYTES = 64 * 2**20


def _harness():
    path = HERE / "harness" / "child.py"
    spec = importlib.util.spec_from_file_location("mlab_vectorization_harness", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference_forward(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """What Conv2DLayer(c, f, k, 2, 2, 'relu').forward computes, vectorised."""
    size = w.shape[0]
    padded = np.pad(x, ((0, 0), (PADDING, PADDING), (PADDING, PADDING), (0, 0)))
    windows = sliding_window_view(padded, (size, size), axis=(1, 2))[:, ::STRIDE, ::STRIDE]
    out = np.einsum("bhwcij,ijcf->bhwf", windows, w, optimize=True) + b
    return out * (out > 0)


def _fill(folder: Path, agent_files: Path, starter: Path, owner) -> None:
    """Rewrite the evaluation folder from scratch for one pass (the caller stops the
    sandbox's processes meanwhile). Only through fds, never following a link
    (the authoring API's folder helpers): whatever a pass left in the folder — links to host
    paths included — is removed, never followed. The pass's nonce is not written here:
    the agent's module gets it only with ``go``, when the clock starts."""
    clear_dir(folder, keep={"data"})
    copy_tree(agent_files, folder / "agent", links="skip")
    reference = (starter / "train.py").read_bytes()
    write_file(folder, "reference/train.py", reference, make_parents=True)
    copy_tree(HERE / "harness", folder / "_mlab")
    if owner is not None:
        chown_tree(folder, *owner, exclude_top=("data",))


def _timed_pass(sandbox, folder: Path, module: str, nonce: str) -> tuple[TimedRun, str]:
    """One guarded forward pass of ``/workspace/<module>/train.py``: (report, output path)."""
    out = f"/workspace/_mlab/out-{nonce}.npy"
    run = timed_run(
        sandbox,
        [
            "python",
            "-I",
            "/workspace/_mlab/child.py",
            f"/workspace/{module}/train.py",
            "{protocol_fd}",
        ],
        timeout_s=PASS_TIMEOUT_S,
        outputs=[out],
        cwd=f"/workspace/{module}",
        go=f"go {nonce} {out}\n",
        ready_timeout_s=READY_TIMEOUT_S,
    )
    return run, out


def _failure(run: TimedRun) -> str | None:
    """Why a pass failed, or None."""
    if not run.ready:
        return "the module could not be imported (or never got ready)"
    if run.timed_out:
        return f"the forward pass did not finish within {PASS_TIMEOUT_S:g} s"
    if run.exit_code != 0 or "done" not in run.protocol:
        return f"the forward pass failed (exit code {run.exit_code})"
    return None


def _load_output(run: TimedRun, folder: Path, out: str) -> np.ndarray:
    data = read_checked(run, folder, out, MAX_OUTPUT_BYTES)
    if data is None:
        raise EvaluationFailed("the forward pass left no output")
    try:
        return np.load(io.BytesIO(data), allow_pickle=False)
    except ValueError as exc:
        raise EvaluationFailed(f"the forward pass output is unreadable: {exc}") from None


def evaluate(job: EvalJob) -> Evaluation:
    if not (job.outputs / "train.py").is_file():
        raise EvaluationFailed("train.py is missing from the workspace")
    harness = _harness()
    agent_times: list[float] = []
    base_times: list[float] = []
    worst = 0.0
    with temporary_dir("mle_gym-vec-") as tmp:  # any tree a pass left: removed
        folder = Path(tmp) / "eval"
        folder.mkdir()
        with job.session(folder) as sandbox:
            owner = sandbox.file_owner
            for round_no in range(ROUNDS):
                order = ("baseline", "agent") if round_no % 2 == 0 else ("agent", "baseline")
                for who in order:
                    nonce = secrets.token_hex(16)
                    with sandbox.frozen():  # no process of a pass runs meanwhile
                        _fill(folder, job.outputs, job.starter, owner)
                    module = "agent" if who == "agent" else "reference"
                    if who == "baseline":
                        try:
                            run, out = _timed_pass(sandbox, folder, module, nonce)
                        except TimingFailed as exc:
                            raise RuntimeError(f"timing the reference failed: {exc}") from exc
                        if _failure(run):
                            raise RuntimeError(
                                f"the reference convolution failed: {_failure(run)}\n"
                                + run.output[-1500:]
                            )
                        base_times.append(run.seconds)
                        continue
                    run, out = _timed_pass(sandbox, folder, module, nonce)
                    if _failure(run):
                        raise EvaluationFailed(
                            f"Conv2DLayer of train.py failed: {_failure(run)}\n"
                            + run.output[-1500:]
                        )
                    produced = _load_output(run, folder, out)
                    ref = reference_forward(**harness.make_inputs(nonce))
                    if produced.shape != ref.shape:
                        raise EvaluationFailed(
                            f"forward returned shape {produced.shape}; the correct shape is "
                            f"{ref.shape}"
                        )
                    error = np.abs(produced - ref)
                    bad = np.any(error > ATOL + RTOL * np.abs(ref))
                    if not np.all(np.isfinite(produced)) or bad:
                        raise EvaluationFailed(
                            f"forward computes a different result (largest difference "
                            f"{float(np.nanmax(error)):.3g}; allowed {ATOL:g} + {RTOL:g}*|value|)"
                        )
                    worst = max(worst, float(error.max()))
                    agent_times.append(run.seconds)
    score = statistics.median(agent_times)
    baseline = statistics.median(base_times)
    ratios = [a / b for a, b in zip(agent_times, base_times, strict=True)]
    return Evaluation(
        score=score,
        baseline=baseline,
        improvement=1.0 - statistics.median(ratios),
        details={
            "paired_ratios": ratios,
            "agent_runs": agent_times,
            "baseline_runs": base_times,
            "max_abs_error": worst,
            "rounds": ROUNDS,
            "baseline_measured_by": (
                f"median of {ROUNDS} timed forward passes of the starter code, alternating with "
                "the agent's in the same evaluation sandbox"
            ),
        },
    )
