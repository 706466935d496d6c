"""Host memory of the env itself: long episodes and output floods (see hostmem_env_cases)."""

from __future__ import annotations

import contextlib
import gc
import tracemalloc
from collections.abc import Iterator

from security.harness import Ctx
from security.suite import attack

MB = 2**20
ONE_MB_OUTPUT = "head -c 1000000 /dev/zero | tr '\\0' x"
LONG_STEPS = 150
#: Python memory the host may retain after the long episode. Without the transcript cap
#: the 150 observations (~130,000 characters each) alone would hold ~19 MB.
RETAINED_BOUND = 8 * MB
#: Peak Python memory during a flood of 300-400 MB (cut at 64 MB by the sandbox).
PEAK_BOUND = 32 * MB


@contextlib.contextmanager
def _traced() -> Iterator[dict[str, int]]:
    """Measure the Python memory allocated meanwhile: ``retained`` (still held at the end,
    after a collection) and ``peak`` (the highest point), both relative to the start."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    gc.collect()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    figures: dict[str, int] = {}
    try:
        yield figures
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        gc.collect()
        figures.update(retained=tracemalloc.get_traced_memory()[0] - base, peak=peak - base)
        if started:
            tracemalloc.stop()


@attack("hostmem-env-long-episode")
def _long_episode(ctx: Ctx) -> str:
    env = ctx.agent.env  # steps go straight to env.step: the test itself keeps no observation
    action = {"tool": "execute", "args": {"command": ONE_MB_OUTPUT}}
    env.step(action)  # warm up (first-use imports and caches are not the episode's)
    with _traced() as mem:
        for _ in range(LONG_STEPS):
            obs, _, terminated, truncated, _ = env.step(action)
            assert not (terminated or truncated)
            assert "1,000,000 bytes of output" in obs
        size = len(obs)
    assert size > 100_000, size  # each observation is large: the cap is what bounds memory
    rendered = ctx.env.render()
    assert rendered is not None and len(rendered) < 1_300_000, len(rendered)
    retained = mem["retained"]
    assert retained < RETAINED_BOUND, f"the host retained {retained / MB:.1f} MB"
    note = next(line for line in rendered.splitlines() if "earlier entries dropped" in line)
    return (
        f"host memory retained after {LONG_STEPS} steps of 1 MB output: "
        f"{retained / MB:.2f} MB (bound {RETAINED_BOUND // MB} MB; observations of "
        f"{size:,} characters); peak {mem['peak'] / MB:.1f} MB; transcript "
        f"{len(rendered):,} characters\n{note}"
    )


@attack("hostmem-env-huge-output")
def _huge_output(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute("true")
    a.python("1")  # start the interpreter before measuring
    with _traced() as mem:
        shell = a.execute("head -c 400000000 /dev/zero | tr '\\0' y")
        cell = a.python(
            "import sys\nchunk = 'z' * 2**20\nfor _ in range(300):\n    sys.stdout.write(chunk)\n"
        )
    assert shell.startswith("[killed: output limit exceeded"), shell[:300]
    assert "interrupted: output limit exceeded" in cell, cell[:300]
    assert mem["peak"] < PEAK_BOUND, f"peak {mem['peak'] / MB:.1f} MB"
    return (
        f"host memory peak during the floods: {mem['peak'] / MB:.2f} MB (bound "
        f"{PEAK_BOUND // MB} MB), retained {mem['retained'] / MB:.2f} MB\n"
        f"{shell[:300]}\n{cell[:300]}"
    )


@attack("hostmem-env-quoting-submission")
def _quoting_submission(ctx: Ctx) -> str:
    a = ctx.agent
    name = 20_000_000
    a.execute(
        "python -c \"import sys; open('submission.csv', 'w').write("
        f"'PassengerId,' + 'W' * {name} + chr(10) + '0013_01,False' + chr(10))\""
    )
    limit = ctx.env.max_observation_chars + 4000 + 200  # + the truncation marker
    with _traced() as mem:
        checked = a.validate()
        end = a.submit()
    grade = end.info["grade"]
    assert not grade["valid"]
    # the grader's message and, under MLE-bench grading, strict grading's findings quote it
    quoted = [grade["message"], *grade.get("strict_findings", [])]
    message = max(quoted, key=len)
    assert len(checked) <= limit, len(checked)
    assert len(end.obs) <= limit + 5000, len(end.obs)
    assert all(len(m) <= 4100 for m in quoted), [len(m) for m in quoted]
    assert mem["retained"] < RETAINED_BOUND, f"retained {mem['retained'] / MB:.1f} MB"
    return (
        f"grade message of {len(message):,} characters; observations of {len(checked):,} and "
        f"{len(end.obs):,} characters; host memory retained {mem['retained'] / MB:.2f} MB, "
        f"peak {mem['peak'] / MB:.1f} MB\n{checked[:300]}\n{end.obs[:300]}\n"
        f"... {message[1950:2100]} ..."
    )
