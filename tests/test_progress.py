"""The ``mle-gym eval`` progress line (mle_gym.evaluation.progress): redrawn in place on a
terminal, plain lines elsewhere (log files, CI), counts and ETA either way."""

from __future__ import annotations

import io
import re

import pytest

from mle_gym.evaluation.episode import EpisodeJob
from mle_gym.evaluation.progress import Progress, ProgressEvents

JOB = EpisodeJob(run_dir="/tmp/x", env_id="MLEBench/spaceship-titanic-v0", seed=0)
DONE = {"status": "done", "score": 0.5}
FAILED = {"status": "failed", "errors": [{"type": "RuntimeError", "message": "bad\x1b[2J\nnext"}]}


FINAL = r"\[eval\] 2/2 finished \(1 done, 1 failed\) · 0 running · elapsed \d\d:\d\d · ETA 00:00"
COUNTS = r"\[eval\] (\d)/2 finished \((\d) done, (\d) failed\) · (\d) running"


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _screen(text: str) -> list[str]:
    """The rows a terminal shows after ``text`` (a carriage return rewrites from column 0)."""
    rows = []
    for row in text.split("\n"):
        shown = ""
        for part in row.split("\r"):
            shown = part + shown[len(part) :]
        rows.append(shown.rstrip())
    return rows


def _set_ci(monkeypatch: pytest.MonkeyPatch, ci: str | None) -> None:
    """$CI as CI sets it, or unset: the output must not depend on it."""
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)


def _run(progress: Progress) -> None:
    """A note, then two episodes through the backend callbacks: one done, one failed."""
    events = ProgressEvents(progress)
    progress.message("[eval] 2 episode(s) into runs/x")
    events.started(JOB)
    events.started(JOB)
    events.finished(JOB, DONE)
    events.tick()
    events.finished(JOB, FAILED)
    progress.close()


@pytest.mark.parametrize("ci", [None, "true"])
def test_off_a_terminal_each_event_is_one_plain_line(
    ci: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _set_ci(monkeypatch, ci)
    stream = io.StringIO()
    progress = Progress(2, stream=stream)
    _run(progress)
    lines = stream.getvalue().splitlines(keepends=True)
    assert all(line.endswith("\n") for line in lines)
    text = stream.getvalue()
    assert "\r" not in text and "\x1b" not in text
    assert [line.rstrip("\n") for line in lines] == [
        "[eval] 2 episode(s) into runs/x",
        lines[1].rstrip("\n"),
        "[eval] FAILED spaceship-titanic seed 0: RuntimeError: bad\\x1b[2J\\nnext",
    ]
    assert re.fullmatch(
        r"\[eval\] 1/2 finished \(1 done, 0 failed\) · 1 running · elapsed \d\d:\d\d"
        r" · ETA \d\d:\d\d · last: spaceship-titanic seed 0 score=0\.5\n",
        lines[1],
    ), lines[1]
    assert (progress.done, progress.failed, progress.running) == (1, 1, 0)


def test_off_a_terminal_a_heartbeat_line_while_nothing_ends() -> None:
    quiet, chatty = io.StringIO(), io.StringIO()
    silent = Progress(3, stream=quiet, heartbeat_s=3600)
    silent.message("[eval] 3 episode(s) into runs/x")
    silent.tick()
    progress = Progress(3, stream=chatty, heartbeat_s=0)
    progress.started(JOB)
    progress.tick()
    assert quiet.getvalue() == "[eval] 3 episode(s) into runs/x\n"
    assert chatty.getvalue().startswith("[eval] 0/3 finished (0 done, 0 failed) · 1 running")
    assert chatty.getvalue().endswith("ETA ?\n")


@pytest.mark.parametrize("ci", [None, "true"])
def test_on_a_terminal_the_line_is_redrawn_and_notes_go_above_it(
    ci: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _set_ci(monkeypatch, ci)
    stream = Terminal()
    progress = Progress(2, stream=stream)
    _run(progress)
    text = stream.getvalue()
    rows = _screen(text)
    assert rows[:2] == [
        "[eval] 2 episode(s) into runs/x",
        "[eval] FAILED spaceship-titanic seed 0: RuntimeError: bad\\x1b[2J\\nnext",
    ]
    assert re.fullmatch(FINAL, rows[2]) and rows[3:] == [""], rows
    # redrawn in place as episodes start and end: (finished, done, failed, running)
    draws = [m.groups() for m in re.finditer(COUNTS, text)]
    assert ("0", "0", "0", "2") in draws and ("1", "1", "0", "1") in draws


def test_disabled_prints_nothing_but_counts() -> None:
    for stream in (io.StringIO(), Terminal()):
        progress = Progress(2, stream=stream, enabled=False, heartbeat_s=0)
        _run(progress)
        progress.tick()
        assert stream.getvalue() == ""
        assert (progress.done, progress.failed, progress.finished) == (1, 1, 2)


def test_eta_uses_the_rate_of_this_session_only() -> None:
    fresh = Progress(10, stream=io.StringIO())
    assert fresh.line().endswith("ETA ?")  # nothing finished yet: no rate
    fresh.finished_episode(JOB, DONE)
    fresh.finished_episode(JOB, DONE)
    fresh.t0 -= 100  # two episodes in 100 s, eight to go: 400 s
    assert re.search(r"elapsed 01:40 · ETA 06:4\d$", fresh.line()), fresh.line()

    resumed = Progress(10, already_done=4, already_failed=1, stream=io.StringIO())
    assert resumed.line().startswith("[eval] 5/10 finished (4 done, 1 failed)")
    resumed.finished_episode(JOB, DONE)
    resumed.t0 -= 60  # one episode in 60 s (the resumed five do not count), four to go
    assert re.search(r"ETA 04:0\d$", resumed.line()), resumed.line()

    finished = Progress(3, already_done=3, stream=io.StringIO())
    assert finished.line().endswith("ETA 00:00")  # nothing left to run


@pytest.mark.parametrize(("rows", "columns"), [(0, 0), (24, 0), (24, 120)])
def test_on_a_real_terminal_of_any_size_the_line_is_drawn(rows: int, columns: int) -> None:
    import fcntl
    import os
    import pty
    import struct
    import termios

    main_fd, side_fd = pty.openpty()
    fcntl.ioctl(side_fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    with os.fdopen(side_fd, "w", encoding="utf-8") as stream:
        progress = Progress(2, stream=stream)
        progress.started(JOB)
        progress.finished_episode(JOB, DONE)
        progress.close()
    output = b""
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # the other side is closed: all read
            break
        if not chunk:
            break
        output += chunk
    os.close(main_fd)
    shown = _screen(output.decode().replace("\r\n", "\n"))
    assert shown[-2].startswith("[eval] 1/2 finished (1 done, 0 failed) · 0 running"), shown
