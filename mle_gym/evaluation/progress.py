"""The live progress line of ``mle-gym eval`` (on stderr), drawn by tqdm.

On a terminal one line is redrawn in place (by a :class:`tqdm.tqdm` bar without
a bar), at every event and about once a second; notes are printed above it::

    [eval] 5/12 finished (4 done, 1 failed) · 2 running · elapsed 01:02 · ETA 01:28

When stderr is not a terminal (a log file, CI), nothing is redrawn: a plain line
is printed each time an episode ends, plus one every ``heartbeat_s`` while
nothing ends (the same text, formatted by :meth:`tqdm.tqdm.format_meter`). The
ETA uses the rate of episodes finished in this session (resumed ones excluded).
``CI`` and other environment variables change nothing: only whether the stream
is a terminal does.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from tqdm import tqdm

from mle_gym.evaluation.episode import EpisodeJob
from mle_gym.textsafe import escape_line

_FORMAT = (
    "[eval] {n}/{total} finished ({done} done, {failed} failed) · {running} running"
    " · elapsed {elapsed} · ETA {remaining}"
)


class _Line(tqdm):
    """A tqdm bar showing :data:`_FORMAT` with the counts of ``progress``."""

    monitor_interval = 0  # no monitor thread: the line is refreshed by Progress.tick
    ncols: int | None
    nrows: int | None

    def __init__(self, progress: Progress, **kwargs: Any) -> None:
        self.progress = progress
        super().__init__(**kwargs)
        # a terminal that reports no size (a pty nobody sized): tqdm would read it as
        # -1 columns and rows, cut the line and hide it; draw it whole instead
        if self.ncols is not None and self.ncols <= 0:
            self.ncols = None
        if self.nrows is not None and self.nrows <= 1:
            self.nrows = None
        self.refresh()

    @property
    def format_dict(self) -> dict[str, Any]:
        """tqdm's fields plus ``done``, ``failed`` and ``running`` (see tqdm's README)."""
        return {**super().format_dict, **self.progress._fields()}


class Progress:
    """Counts episodes and prints the progress line (see the module docstring).

    Args:
        total: episodes planned, including those already finished.
        already_done, already_failed: episodes finished before this session (resumed).
        stream: where to write (default: stderr).
        enabled: False prints nothing (the counts are still kept).
        heartbeat_s: off a terminal, a line at least this often.
    """

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
        self._bar: _Line | None = None
        if enabled and self.tty:
            self._bar = _Line(
                self,
                total=total,
                initial=self.finished,
                file=self.stream,
                bar_format=_FORMAT,
                smoothing=0,  # the ETA from the average rate of this session
                mininterval=0,  # events are rare: draw each one
                leave=True,
            )

    @property
    def finished(self) -> int:
        """Episodes with a record (done + failed), including resumed ones."""
        return self.done + self.failed

    def _fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"done": self.done, "failed": self.failed}
        fields["running"] = self.running
        if self.finished >= self.total:
            fields["rate"] = 1.0  # nothing left: ETA 00:00 even if all were resumed
        return fields

    def line(self) -> str:
        """The current progress text."""
        fields = self._fields()
        return tqdm.format_meter(
            n=self.finished,
            total=self.total,
            elapsed=time.monotonic() - self.t0,
            initial=self.finished - self.finished_here,
            bar_format=_FORMAT,
            **fields,
        )

    def _print(self, text: str) -> None:
        """Print ``text`` as a line (above the redrawn line on a terminal)."""
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.write(text, file=self.stream)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()
        self._last_print = time.monotonic()

    def _redraw(self) -> None:
        if self._bar is not None:
            self._bar.refresh()
            self._last_print = time.monotonic()

    def message(self, text: str) -> None:
        """Print a note above the progress line (``text`` must be terminal-safe: escape
        anything agent-produced with :mod:`mle_gym.textsafe`)."""
        self._print(text)

    def started(self, job: EpisodeJob) -> None:
        """An episode was handed to a worker."""
        self.running += 1
        self._redraw()

    def finished_episode(self, job: EpisodeJob, record: dict[str, Any]) -> None:
        """An episode ended (its record is written)."""
        self.running = max(0, self.running - 1)
        self.finished_here += 1
        failed = record.get("status") != "done"
        if failed:
            self.failed += 1
        else:
            self.done += 1
        if self._bar is not None:
            self._bar.update(1)
        if failed:
            errors = record.get("errors") or [{}]
            first = errors[0]
            # the message may quote agent-produced text: one line, controls escaped
            why = escape_line(f"{first.get('type', '?')}: {str(first.get('message', ''))[:160]}")
            self.message(f"[eval] FAILED {job.label}: {why}")
        elif self._bar is None:
            self._print(f"{self.line()} · last: {job.label} score={record.get('score')}")

    def tick(self) -> None:
        """Refresh the line (terminal) or print a heartbeat (not a terminal)."""
        since = time.monotonic() - self._last_print
        if self._bar is not None and since >= 1.0:
            self._redraw()
        elif self._bar is None and since >= self.heartbeat_s:
            self._print(self.line())

    def close(self) -> None:
        """Leave the final line on screen."""
        if self._bar is not None:
            self._bar.close()


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
