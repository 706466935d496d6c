"""The attacker's side of the security suite: an agent that only acts through ``env.step``.

:class:`Agent` drives one env exactly as a policy would (tool calls in, text out) and
keeps every observation, so a test can check that none of them ever carried the private
answers. :class:`HostTargets` are real things on the host the agent must not reach: TCP
and UDP servers on 127.0.0.1 and on the host's other addresses, a ``sleep`` process, a
fake API key in the host environment. :func:`assert_env_still_works` is the common
epilogue of every case: a normal command still runs and a valid submission is graded
with exactly the score the host computes from the answers.
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import io
import os
import re
import socket
import struct
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from security.cases import FAKE_API_KEY, FAKE_API_KEY_NAME

_LABELLED_ROW = re.compile(r"^\s*(\S+?)(?:,.*)?,\s*(True|False)\s*$")


@dataclass(frozen=True)
class Secrets:
    """The private answers of the episode, as only the host knows them."""

    path: Path
    text: str
    labels: dict[str, str]  # test id -> "True" / "False"
    answer_lines: tuple[str, ...]  # full rows with their label
    sample_score: float  # the accuracy of the all-False sample submission

    #: An observation leaks if it labels at least this many test ids ...
    MIN_IDS = 10
    #: ... and that many right (guessing does about 0.5; 10 right guesses: p < 0.001).
    MIN_ACCURACY = 0.95

    @classmethod
    def of(cls, env: Any) -> Secrets:
        """Read the answers of ``env``'s current episode from the host's data cache."""
        unwrapped = env.unwrapped
        spec = unwrapped.task.submission
        path = unwrapped._data.private / unwrapped.task.answers_file
        text = path.read_text()
        rows = list(csv.DictReader(io.StringIO(text)))
        target = spec.target_columns[0]
        labels = {r[spec.id_column]: r[target] for r in rows}
        n_false = sum(v == "False" for v in labels.values())
        return cls(
            path=path,
            text=text,
            labels=labels,
            answer_lines=tuple(line for line in text.splitlines()[1:] if line),
            sample_score=round(n_false / len(labels), 5),
        )

    def labelled(self, text: str) -> dict[str, str]:
        """Test ids that ``text`` gives a label (line starting with the id, ending with it)."""
        found = {}
        for line in text.splitlines():
            m = _LABELLED_ROW.match(line)
            if m and m.group(1) in self.labels:
                found[m.group(1)] = m.group(2)
        return found

    def leaked_in(self, text: str) -> list[str]:
        """Why ``text`` reveals the answers ([] if it does not): the whole file, or labels
        for many test ids that are (nearly) all right, which no guess achieves."""
        if self.text.strip() and self.text.strip() in text:
            return ["the whole answers file"]
        found = self.labelled(text)
        right = [i for i, label in found.items() if self.labels[i] == label]
        if len(found) >= self.MIN_IDS and len(right) >= self.MIN_ACCURACY * len(found):
            return [f"{len(right)} of {len(found)} labels right, e.g. {right[:3]}"]
        return []


@dataclass
class Step:
    """One observed step."""

    action: Any  # a tool call dict, or a raw action (text) sent with Agent.send
    obs: str
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]


@dataclass
class Agent:
    """Acts on one env through ``step`` only, and remembers everything it saw."""

    env: Any
    backend: str
    steps: list[Step] = field(default_factory=list)
    observations: list[str] = field(default_factory=list)
    done: bool = True

    def reset(self) -> str:
        obs, _ = self.env.reset(seed=0)
        self.observations.append(obs)
        self.done = False
        return obs

    def call(self, tool: str, **args: Any) -> Step:
        return self.send({"tool": tool, "args": args})

    def send(self, action: Any) -> Step:
        """Step with ``action`` exactly as given (e.g. raw assistant text)."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        step = Step(action, obs, float(reward), terminated, truncated, info)
        self.done = terminated or truncated
        self.steps.append(step)
        self.observations.append(obs)
        return step

    def execute(self, command: str, timeout: float | None = None) -> str:
        args: dict[str, Any] = {"command": command}
        if timeout is not None:
            args["timeout"] = timeout
        return self.call("execute", **args).obs

    def python(self, code: str, timeout: float | None = None) -> str:
        args: dict[str, Any] = {"code": code}
        if timeout is not None:
            args["timeout"] = timeout
        return self.call("python", **args).obs

    def read_file(self, path: str, **args: Any) -> str:
        return self.call("read_file", path=path, **args).obs

    def write_file(self, path: str, content: str) -> str:
        return self.call("write_file", path=path, content=content).obs

    def edit_file(self, path: str, old: str, new: str) -> str:
        return self.call("edit_file", path=path, old=old, new=new).obs

    def list_files(self, path: str = ".", depth: int = 2) -> str:
        return self.call("list_files", path=path, depth=depth).obs

    def validate(self, path: str | None = None) -> str:
        return self.call("validate_submission", **({"path": path} if path else {})).obs

    def submit(self) -> Step:
        return self.call("submit")

    @property
    def workspace(self) -> Path:
        ws = self.env.unwrapped.workspace
        assert ws is not None, "no episode is running"
        return Path(ws)


def exit_code(obs: str) -> int | None:
    """The exit code in an ``execute`` observation's status line, if it has one."""
    m = re.match(r"\[exit code (-?\d+)", obs)
    return int(m.group(1)) if m else None


def body(obs: str) -> str:
    """An observation without its status line."""
    return obs.split("\n", 1)[1] if "\n" in obs else ""


def assert_no_leak(agent: Agent, secrets: Secrets) -> None:
    """No observation (nor anything in info) ever carried the private answers."""
    for i, step in enumerate(agent.steps, 1):
        blob = step.obs + repr(step.info.get("tool_meta")) + repr(step.info.get("error"))
        leaked = secrets.leaked_in(blob)
        assert not leaked, f"step {i} {step.action} leaked answers: {leaked[:3]}"
    for obs in agent.observations:
        assert not secrets.leaked_in(obs)


def assert_env_still_works(agent: Agent, secrets: Secrets) -> None:
    """(c) of every case: a normal step works and a valid submission grades correctly.

    Starts a new episode first if the attack ended one. Ends the episode (it submits);
    the score must be the all-False sample submission's accuracy, computed on the host
    from the answers.
    """
    if agent.done:
        agent.reset()
    obs = agent.execute("echo still-alive")
    assert exit_code(obs) == 0 and body(obs).strip() == "still-alive", obs
    obs = agent.execute("rm -rf submission.csv && cp data/sample_submission.csv submission.csv")
    assert exit_code(obs) == 0, obs
    obs = agent.validate()
    assert obs.startswith("valid:"), obs
    step = agent.submit()
    assert step.terminated, step.obs
    grade = step.info["grade"]
    assert grade["valid"] is True, grade
    assert grade["score"] == secrets.sample_score, (grade["score"], secrets.sample_score)


# -- real targets on the host ------------------------------------------------------------


def host_ipv4_addresses() -> list[str]:
    """Every IPv4 address of this host's network interfaces except loopback ones."""
    found = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _, name in socket.if_nameindex():
            req = struct.pack("256s", name.encode()[:15])
            try:
                res = fcntl.ioctl(probe.fileno(), 0x8915, req)  # SIOCGIFADDR
            except OSError:
                continue
            addr = socket.inet_ntoa(res[20:24])
            if not addr.startswith("127."):
                found.append(addr)
    finally:
        probe.close()
    return found


class TcpServer:
    """A real TCP server that counts the connections it accepts."""

    def __init__(self, host: str) -> None:
        self.host = host
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            with contextlib.suppress(OSError):
                conn.sendall(b"HOST-SERVICE-BANNER\n")
            conn.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class UdpServer:
    """A real UDP socket that counts the datagrams it receives."""

    def __init__(self, host: str) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((host, 0))
        self.host, self.port = self.sock.getsockname()
        self.sock.settimeout(0)

    def received(self) -> int:
        n = 0
        while True:
            try:
                self.sock.recv(65536)
            except (BlockingIOError, OSError):
                return n
            n += 1

    def close(self) -> None:
        self.sock.close()


@dataclass
class HostTargets:
    """Host services and processes the attacks aim at (all real, started by the test)."""

    tcp: list[TcpServer]
    udp: UdpServer
    sleeper: subprocess.Popen[bytes]
    sleeper_tag: str

    @classmethod
    def start(cls) -> HostTargets:
        addresses = ["127.0.0.1", *host_ipv4_addresses()]
        tag = f"{987654 + os.getpid() % 1000}"
        sleeper = subprocess.Popen(  # a host process with the fake API key in its environment
            ["sleep", tag],
            env={**os.environ, FAKE_API_KEY_NAME: FAKE_API_KEY},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return cls(
            tcp=[TcpServer(a) for a in addresses],
            udp=UdpServer("127.0.0.1"),
            sleeper=sleeper,
            sleeper_tag=tag,
        )

    @property
    def test_pid(self) -> int:
        """The pid of the test process itself (a host process the agent must not reach)."""
        return os.getpid()

    def accepted(self) -> int:
        return sum(s.accepted for s in self.tcp)

    def close(self) -> None:
        for s in self.tcp:
            s.close()
        self.udp.close()
        self.sleeper.kill()
        self.sleeper.wait()


def host_processes_matching(needle: str) -> list[int]:
    """Host pids whose command line contains ``needle``."""
    pids = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            cmdline = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if needle.encode() in cmdline:
            pids.append(int(entry.name))
    return pids


def tree_digest(root: Path) -> dict[str, str]:
    """sha256 of every regular file below ``root`` (relative path -> hex digest)."""
    import hashlib

    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@dataclass
class Ctx:
    """What an attack gets: the agent (its only way to act), and what the host knows."""

    agent: Agent
    secrets: Secrets | None  # None when the case attacks another task than spaceship
    host: HostTargets
    backend: str

    @property
    def answers(self) -> str:
        """The answers' host path, as an attacker who guessed it would write it."""
        assert self.secrets is not None, "this case attacks another task"
        return str(self.secrets.path)

    @property
    def env(self) -> Any:
        return self.agent.env.unwrapped
