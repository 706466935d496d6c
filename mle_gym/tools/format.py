"""Observation text: decoding, truncation with a visible marker, command results.

Truncation keeps the head and the tail (errors usually sit at the end) and
states how much was left out and the total size, so the agent knows the
observation is partial and can read the rest in ranges.
"""

from __future__ import annotations

from mle_gym.sandbox.base import ExecResult
from mle_gym.sandbox.kernel import CellResult


def decode(data: bytes) -> str:
    """UTF-8 with undecodable bytes replaced; NULs shown as U+FFFD."""
    return data.decode("utf-8", errors="replace").replace("\x00", "\ufffd")


def truncate(text: str, limit: int, *, total_bytes: int | None = None) -> str:
    """Return ``text`` if it fits ``limit`` characters, else head + marker + tail."""
    if len(text) <= limit:
        return text
    keep_head = limit * 2 // 5
    keep_tail = limit - keep_head
    omitted = len(text) - keep_head - keep_tail
    size = f"; {total_bytes:,} bytes in total" if total_bytes is not None else ""
    marker = f"\n[... {omitted:,} characters omitted{size} ...]\n"
    return text[:keep_head] + marker + text[len(text) - keep_tail :]


def format_exec(command: str, result: ExecResult, limit: int, timeout_s: float) -> str:
    """The observation for an ``execute`` call (exit status first, then output)."""
    head, tail = decode(result.head), decode(result.tail)
    omitted = result.output_bytes - len(result.head) - len(result.tail)
    body = head + f"\n[... {omitted:,} bytes omitted ...]\n" + tail if omitted > 0 else head + tail
    body = truncate(body, limit, total_bytes=result.output_bytes)
    if result.timed_out:
        status = f"killed: wall-clock timeout after {timeout_s:g} s"
    elif result.killed_reason:
        status = f"killed: {result.killed_reason}"
        if result.exit_code is not None:
            status += f" (exit code {result.exit_code})"
    elif result.signal is not None:
        status = f"exit code {result.exit_code} (terminated by signal {result.signal})"
    else:
        status = f"exit code {result.exit_code}"
    lines = [f"[{status} · {result.duration_s:.2f} s · {result.output_bytes:,} bytes of output]"]
    if body:
        lines.append(body.rstrip("\n"))
    return "\n".join(lines)


def format_cell(cell: CellResult, limit: int, timeout_s: float) -> str:
    """The observation for a ``python`` call."""
    lines = []
    if cell.restarted:
        why = f" (the previous one: {cell.previous_death})" if cell.previous_death else ""
        lines.append(
            f"[note: a fresh Python interpreter was started{why}; "
            "variables from earlier calls are gone]"
        )
    if cell.status == "died":
        lines.append(
            f"[interpreter died: {cell.died_reason}; the next call starts a fresh interpreter]"
        )
    elif cell.status == "interrupted" and cell.output_limited:
        lines.append(
            f"[interrupted: output limit exceeded ({cell.output_bytes:,} bytes; the excess "
            "was dropped) · variables are kept]"
        )
    elif cell.status == "interrupted":
        lines.append(f"[interrupted: timeout after {timeout_s:g} s · variables are kept]")
    else:
        lines.append(f"[{cell.status} · {cell.duration_s:.2f} s]")
    omitted = cell.output_bytes - len(cell.head.encode()) - len(cell.tail.encode())
    output = cell.head + (f"\n[... {omitted:,} bytes omitted ...]\n" if omitted > 0 else "")
    output += cell.tail
    budget = limit
    if output:
        text = truncate(output.rstrip("\n"), budget, total_bytes=cell.output_bytes)
        lines.append(text)
        budget = max(1000, budget - len(text))
    if cell.traceback:
        lines.append(truncate(cell.traceback.rstrip("\n"), budget))
    if cell.result is not None:
        lines.append("Out: " + truncate(cell.result, max(1000, budget // 2)))
    return "\n".join(lines)
