"""The optimised paths behave like the slow ones they replace.

* The local backend's per-episode sandbox: one pid namespace for the whole
  episode, a PID 1 the agent can neither kill, stop nor trace, nothing left
  running after a command, ``/tmp`` kept across commands and timeouts, and a
  dead sandbox replaced transparently.
* The CSV reader: the cells are exactly those of Python's ``csv`` module (the
  structure check's parser), on the pyarrow paths and the fallback alike.
* The grader's memory of parsed answers: a changed answers file is read again,
  and nobody gets to modify the kept copy.
"""

from __future__ import annotations

import csv
import io
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from mle_gym.families.mlebench import grading as grader_module
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.grading import InvalidSubmission
from mle_gym.grading.csvread import read_table
from mle_gym.grading.submission import SubmissionSpec
from mle_gym.sandbox import SandboxLimits, make_sandbox
from mle_gym.sandbox.base import Sandbox
from mle_gym.sandbox.kernel import PythonKernel

# -- the local sandbox's command server ------------------------------------------------------


@pytest.fixture
def local(tmp_path: Path):
    ws = tmp_path / "ws"
    (ws / "data").mkdir(parents=True)
    data = tmp_path / "public"
    data.mkdir()
    (data / "train.csv").write_text("id,y\n1,0\n")
    sb = make_sandbox("local", ws, data, SandboxLimits(memory_mb=768, pids=64))
    yield sb
    sb.close()


def out(sb: Sandbox, cmd: str, timeout: float = 30) -> str:
    r = sb.exec(cmd, timeout)
    return (r.head + r.tail).decode(errors="replace")


def test_one_pid_namespace_per_episode(local: Sandbox) -> None:
    first = out(local, "stat -L -c %i /proc/self/ns/pid")
    second = out(local, "stat -L -c %i /proc/self/ns/pid")
    assert first.strip().isdigit() and first == second
    assert out(local, "cat /proc/1/comm").strip() == "mle-gym-exec"


def test_the_agent_cannot_kill_stop_or_trace_pid_1(local: Sandbox) -> None:
    r = local.exec("for s in KILL STOP TERM INT HUP QUIT; do kill -$s 1; done; echo sent", 30)
    assert r.ok and b"sent" in r.head
    r = local.exec("sleep 100 & kill -USR1 1; wait", 30)  # = kill -9 -1: only its own processes
    assert r.exit_code == 137 and r.duration_s < 10
    assert out(local, "echo alive") == "alive\n"
    assert "T" not in out(local, "cut -d' ' -f3 /proc/1/stat")  # not stopped
    traced = out(
        local,
        'python -c "import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); '
        'rc = libc.ptrace(16, 1, 0, 0); print(rc, os.strerror(ctypes.get_errno()))"',
    )
    assert traced.startswith("-1") and "not permitted" in traced
    assert "Permission denied" in out(local, "cat /proc/1/environ 2>&1")


def test_nothing_survives_a_command(local: Sandbox) -> None:
    r = local.exec("setsid sleep 300 & (trap '' TERM HUP; sleep 301) & echo started", 30)
    assert r.ok and r.duration_s < 10
    listing = out(local, "ps -eo pid,comm --no-headers")
    comms = [line.split()[1] for line in listing.splitlines()]
    assert comms[0] == "mle-gym-exec" and set(comms[1:]) <= {"sh", "ps"}, comms  # this command


def test_tmp_lasts_for_the_episode_and_survives_a_timeout(local: Sandbox) -> None:
    local.exec("echo kept > /tmp/note", 30)
    r = local.exec("sleep 60", 1.0)
    assert r.timed_out and r.exit_code is None
    r = local.exec("exec >&- 2>&-; sleep 60", 1.0)  # closed its output, still running
    assert r.timed_out
    assert out(local, "cat /tmp/note") == "kept\n"
    assert out(local, "ps -eo comm --no-headers | grep -c sleep") == "0\n"


def test_a_dead_sandbox_is_replaced(local: Sandbox) -> None:
    local.exec("touch /tmp/from-the-first-sandbox", 30)
    server = local._server  # type: ignore[attr-defined]
    assert server is not None and server._pid1
    os.kill(server._pid1, 9)  # from the host: the whole sandbox dies
    time.sleep(0.2)
    assert out(local, "echo back") == "back\n"
    # a new sandbox, with a new /tmp (which may hold only mount points of the runtime, e.g.
    # when the venv itself lives under the host's /tmp)
    assert out(local, "ls -A /tmp/from-the-first-sandbox 2>&1 || echo gone").endswith("gone\n")


def _live_pids_of_uid(uid: int) -> list[int]:
    """Processes of ``uid`` that are not zombies (a zombie holds nothing but its pid)."""
    pids = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid != uid:
                    continue
                state = Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if state != "Z":
                pids.append(int(entry.name))
    return pids


HOST = """
import sys
from pathlib import Path
from mle_gym.sandbox import SandboxLimits, make_sandbox
sb = make_sandbox("local", Path(sys.argv[1]), None, SandboxLimits())
print(sb.uid, flush=True)
sb.exec("sleep 987", 600)
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs a sandbox uid of its own (root)")
def test_the_sandbox_dies_with_the_host_even_mid_command(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    host = subprocess.Popen([sys.executable, "-c", HOST, str(ws)], stdout=subprocess.PIPE, env=env)
    assert host.stdout is not None
    uid = int(host.stdout.readline())
    deadline = time.monotonic() + 30
    while not any(_comm(p) == "sleep" for p in _live_pids_of_uid(uid)):
        assert time.monotonic() < deadline, "the sandboxed sleep never started"
        time.sleep(0.1)
    host.kill()
    host.wait()
    deadline = time.monotonic() + 5
    while _live_pids_of_uid(uid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _live_pids_of_uid(uid) == []


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def test_sandboxes_outlive_the_thread_that_started_them(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "data").mkdir(parents=True)
    made: list[Sandbox] = []
    kernels: list[PythonKernel] = []

    def start() -> None:
        sb = make_sandbox("local", ws, None, SandboxLimits(memory_mb=768, pids=64))
        made.append(sb)
        sb.exec("echo kept > /tmp/note", 30)
        kernels.append(PythonKernel(sb, 768))
        assert kernels[0].run("x = 41", 30).status == "ok"

    worker = threading.Thread(target=start)
    worker.start()
    worker.join()  # the thread that forked both sandboxes is gone
    time.sleep(0.3)
    try:
        assert out(made[0], "cat /tmp/note") == "kept\n"
        cell = kernels[0].run("x + 1", 30)
        assert cell.status == "ok" and cell.result == "42" and not cell.restarted
    finally:
        kernels[0].close()
        made[0].close()


def test_commands_that_cannot_be_run_say_why(local: Sandbox) -> None:
    r = local.exec("x" * 300_000, 30)
    assert r.exit_code == 127 and b"Argument list too long" in r.head
    r = local.exec("echo \ud800", 30)
    assert r.exit_code == 2 and b"not valid text" in r.head
    assert out(local, "echo fine") == "fine\n"


def test_exit_status_and_signals(local: Sandbox) -> None:
    assert local.exec("exit 7", 30).exit_code == 7
    r = local.exec("kill -TERM $$", 30)
    assert r.exit_code == 143 and r.signal == 15
    assert out(local, "yes | head -2") == "y\ny\n"  # SIGPIPE is not ignored in commands


# -- the CSV reader --------------------------------------------------------------------------


def _csv_module(text: str) -> list[list[str]]:
    rows = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), strict=True)
    return [r for r in rows if r and not (len(r) == 1 and not r[0].strip())]


CASES = [
    "id,y\n1,x y\n2, 3 \n",  # quote-free: pyarrow alone
    "id,y\r\n1,\r\n\r\n2,b\r\n",  # empty cells, blank line, CRLF
    "1,\r\r,x y\r1, \n\n",  # pandas' C parser moved 'x y' into the first column here
    'id,y\n1,"a,b"\n2,"x""y"\n3,"line\nbreak"\n',  # quotes: checked, then pyarrow
    'id,y\n1,"a"\n   \n2,"b"\n',  # whitespace-only line: the csv module's own rows
    "\ufeff\ufeffid\n1\n\t\n2\n",  # one column, a second byte-order mark kept as text
    "id,y\n\ufeff1,2\n",
]


@pytest.mark.parametrize("text", CASES)
def test_cells_are_the_csv_modules(text: str, tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_bytes(text.encode())
    frame = read_table(path, max_bytes=10**6)
    rows = _csv_module(text)
    assert [str(c) for c in frame.columns] == rows[0]
    assert frame.values.tolist() == rows[1:]
    assert frame.index.equals(pd.RangeIndex(len(rows) - 1))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,y\n1,2,3\n", r"line 2 has 3 field\(s\) but the header has 2"),
        ('id,y\n1,"a"b\n', "line 2"),
        ("id,y\n", "no data rows"),
    ],
)
def test_malformed_files_keep_their_messages(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_bytes(text.encode())
    with pytest.raises(InvalidSubmission, match=message):
        read_table(path, max_bytes=10**6)


# -- the grader's memory of parsed answers ---------------------------------------------------


def _task(folder: Path) -> MLEBenchTask:
    return MLEBenchTask(
        id="t",
        benchmark="Test",
        title="t",
        version=0,
        folder=folder,
        family="mlebench",
        metric="accuracy",
        lower_is_better=False,
        submission=SubmissionSpec(
            file="submission.csv", id_column="id", target_columns=("y",), target_kind="label"
        ),
        answers_file="answers.csv",
        sample_submission_file="sample.csv",
        data={"replica": {}},
    )


def test_changed_answers_are_read_again(tmp_path: Path) -> None:
    task = _task(tmp_path)
    answers, sub = tmp_path / "answers.csv", tmp_path / "submission.csv"
    answers.write_text("id,y\na,1\nb,1\nc,1\nd,1\n")
    sub.write_text("id,y\nd,1\nc,1\nb,0\na,0\n")
    first = grade_submission(task, sub, answers=answers, data_source="replica")
    again = grade_submission(task, sub, answers=answers, data_source="replica")
    assert first.valid and first.score == again.score == 0.5
    answers.write_text("id,y\na,0\nb,0\nc,1\nd,1\n")  # same size, new content
    assert grade_submission(task, sub, answers=answers, data_source="replica").score == 1.0


def test_the_kept_answers_cannot_be_modified(tmp_path: Path) -> None:
    spec = _task(tmp_path).submission
    answers = tmp_path / "answers.csv"
    answers.write_text("id,y\nb,1\na,2\n")
    truth, _ = grader_module._answers(answers, spec)
    truth.loc[0, "y"] = "tampered"
    truth["y"] = "x"
    again, expected = grader_module._answers(answers, spec)
    assert again["y"].tolist() == ["2", "1"] and again["id"].tolist() == ["a", "b"]
    assert expected.ids == ["a", "b"]


def test_id_alignment_paths_agree() -> None:
    from mle_gym.grading.validation import ExpectedIds, validate_against, validate_submission_frame

    rng = random.Random(3)
    ids = [f"{rng.choice(['a', 'B', 'é', '10', '9', 'z '])}{i}" for i in range(500)]
    shuffled = ids[:]
    rng.shuffle(shuffled)
    spec = SubmissionSpec(
        file="s.csv", id_column="id", target_columns=("y",), target_kind="numeric"
    )
    df = pd.DataFrame({"id": shuffled, "y": [str(i) for i in range(500)]}, dtype=str)
    sorted_ids = ExpectedIds(sorted(ids))
    assert sorted_ids.positions(df["id"]) is not None  # the pyarrow path applies
    fast = validate_against(df, sorted_ids, spec)
    slow = validate_submission_frame(df, ids, spec)  # ids not in order: a string sort
    assert fast["id"].tolist() == sorted(ids) == slow["id"].tolist()
    assert fast["y"].tolist() == slow["y"].tolist()
    twice = df.copy()
    twice.loc[0, "id"] = twice.loc[1, "id"]  # same length: one duplicate, one missing
    assert sorted_ids.positions(twice["id"]) is None
    with pytest.raises(InvalidSubmission, match="duplicate ids: 1 id"):
        validate_against(twice, sorted_ids, spec)


def test_number_parsing_paths_agree() -> None:
    from mle_gym.grading.validation import _to_float

    rng = random.Random(5)
    values = [f"{rng.uniform(-1e9, 1e9):.{rng.randint(0, 17)}g}" for _ in range(3000)]
    values += [repr(rng.random()) for _ in range(3000)]
    values += ["1e400", "-1e400", "1e-400", "4.9e-324", "+3", ".5", "5.", "-0", "007", "inf"]
    expected = pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").to_numpy()
    got = _to_float(pd.Series(values, dtype=str))
    assert got.tolist() == expected.tolist()  # all parse: the pyarrow cast
    odd = [*values[:50], "nan", "NaN", "1_000", "0x10", "١٢", "1e", "", "abc"]
    expected = pd.to_numeric(pd.Series(odd, dtype=object), errors="coerce").to_numpy()
    got = _to_float(pd.Series(odd, dtype=str))
    assert (pd.isna(got) == pd.isna(expected)).all()
    assert got[~pd.isna(got)].tolist() == expected[~pd.isna(expected)].tolist()
