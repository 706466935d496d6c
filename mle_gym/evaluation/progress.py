"""The live progress line of ``mle-gym eval`` (on stderr).

On a terminal one line is redrawn in place about once a second::

    [eval] 5/12 finished (4 done, 1 failed) · 2 running · elapsed 1:02 · ETA 1:28

When stderr is not a terminal (a log file, CI), a plain line is printed each
time an episode ends, plus one every ``heartbeat_s`` while nothing ends. The ETA
uses the rate of episodes finished in this session (resumed ones excluded).
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from mle_gym.evaluation.episode import EpisodeJob
from mle_gym.textsafe import escape_line


def _clock(seconds: float) -> str:
    seconds = int(max(0, seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """Counts episodes and prints the progress line (see the module docstring)."""

    def __init__(
        self,
        total: int,
        *,
        already_done: int = 0,
        already_failed: int = 0,
        stream: TextIO | None = None,
        enabled: bool = True,
        heartbeat_s: float = 60.0,
    ) -> None:
        self.total = total
        self.done = already_done
        self.failed = already_failed
        self.running = 0
        self.finished_here = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.heartbeat_s = heartbeat_s
        self.t0 = time.monotonic()
        self._last_print = 0.0
        self._drawn = False

    @property
    def finished(self) -> int:
        """Episodes with a record (done + failed), including resumed ones."""
        return self.done + self.failed

    def line(self) -> str:
        """The current progress text."""
        elapsed = time.monotonic() - self.t0
        remaining = self.total - self.finished
        if self.finished_here and remaining:
            eta = _clock(elapsed / self.finished_here * remaining)
        else:
            eta = "0:00" if not remaining else "?"
        return (
            f"[eval] {self.finished}/{self.total} finished ({self.done} done, "
            f"{self.failed} failed) · {self.running} running · elapsed {_clock(elapsed)} "
            f"· ETA {eta}"
        )

    def _emit(self, text: str, *, redraw: bool) -> None:
        if not self.enabled:
            return
        if self.tty and redraw:
            self.stream.write("\r\x1b[K" + text)
            self._drawn = True
        else:
            if self._drawn:
                self.stream.write("\r\x1b[K")
                self._drawn = False
            self.stream.write(text + "\n")
        self.stream.flush()
        self._last_print = time.monotonic()

    def message(self, text: str) -> None:
        """Print a note above the progress line (``text`` must be terminal-safe: escape
        anything agent-produced with :mod:`mle_gym.textsafe`)."""
        self._emit(text, redraw=False)
        if self.tty:
            self._emit(self.line(), redraw=True)

    def started(self, job: EpisodeJob) -> None:
        """An episode was handed to a worker."""
        self.running += 1
        if self.tty:
            self._emit(self.line(), redraw=True)

    def finished_episode(self, job: EpisodeJob, record: dict[str, Any]) -> None:
        """An episode ended (its record is written)."""
        self.running = max(0, self.running - 1)
        self.finished_here += 1
        failed = record.get("status") != "done"
        if failed:
            self.failed += 1
        else:
            self.done += 1
        if failed:
            errors = record.get("errors") or [{}]
            first = errors[0]
            # the message may quote agent-produced text: one line, controls escaped
            why = escape_line(f"{first.get('type', '?')}: {str(first.get('message', ''))[:160]}")
            self.message(f"[eval] FAILED {job.label}: {why}")
        elif not self.tty:
            score = record.get("score")
            self._emit(f"{self.line()} · last: {job.label} score={score}", redraw=False)
        else:
            self._emit(self.line(), redraw=True)

    def tick(self) -> None:
        """Refresh the line (terminal) or print a heartbeat (not a terminal)."""
        now = time.monotonic()
        if self.tty and now - self._last_print >= 1.0:
            self._emit(self.line(), redraw=True)
        elif not self.tty and now - self._last_print >= self.heartbeat_s:
            self._emit(self.line(), redraw=False)

    def close(self) -> None:
        """Leave the final line on screen."""
        if self.enabled and self.tty:
            self._emit(self.line(), redraw=False)


class ProgressEvents:
    """Adapts :class:`Progress` to the backends' :class:`RunEvents` callbacks."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress

    def started(self, job: EpisodeJob) -> None:
        self.progress.started(job)

    def finished(self, job: EpisodeJob, record: dict[str, Any]) -> None:
        self.progress.finished_episode(job, record)

    def tick(self) -> None:
        self.progress.tick()
