"""Network: the host's own services (loopback and other addresses), the Internet, DNS,
UDP and the Docker engine, from commands and from the python tool."""

from __future__ import annotations

import time

from security.harness import Ctx
from security.suite import attack, category_test

CONNECT = """\
import socket, sys
for target in sys.argv[1:]:
    host, port = target.rsplit(":", 1)
    try:
        s = socket.create_connection((host, int(port)), timeout=3)
        print(target, "CONNECTED", s.recv(64))
    except OSError as e:
        print(target, "blocked:", e.strerror or e)
"""


def _connect(ctx: Ctx, targets: list[str]) -> str:
    ctx.agent.write_file("connect.py", CONNECT)
    obs = ctx.agent.execute("python connect.py " + " ".join(targets))
    assert "CONNECTED" not in obs and "BANNER" not in obs, obs
    return obs


def _accepted(ctx: Ctx) -> str:
    time.sleep(0.2)  # let a (hypothetical) late connection reach the server threads
    n = ctx.host.accepted()
    assert n == 0
    return f"host connections accepted: {n}"


@attack("network-host-loopback")
def _loopback(ctx: Ctx) -> str:
    local = [s for s in ctx.host.tcp if s.host == "127.0.0.1"]
    obs = _connect(ctx, [f"127.0.0.1:{s.port}" for s in local] + ["localhost:22"])
    return obs + "\n" + _accepted(ctx)


@attack("network-host-addresses")
def _addresses(ctx: Ctx) -> str:
    others = [s for s in ctx.host.tcp if s.host != "127.0.0.1"]
    assert others, "the host has no non-loopback address to attack"
    obs = _connect(ctx, [f"{s.host}:{s.port}" for s in others])
    return obs + "\n" + _accepted(ctx)


@attack("network-public-private")
def _outside(ctx: Ctx) -> str:
    return _connect(
        ctx,
        [
            "1.1.1.1:443",
            "8.8.8.8:53",
            "10.0.0.1:80",
            "192.168.1.1:80",
            "169.254.169.254:80",
            "172.17.0.1:2375",
        ],
    )


@attack("network-udp")
def _udp(ctx: Ctx) -> str:
    port = ctx.host.udp.port
    obs = ctx.agent.python(
        "import socket\n"
        "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
        f"for addr in [('127.0.0.1', {port}), ('8.8.8.8', 53), ('1.1.1.1', 53)]:\n"
        "    try:\n"
        "        s.sendto(b'exfiltrated', addr)\n"
        "        print(addr, 'sent')\n"
        "    except OSError as e:\n"
        "        print(addr, 'blocked:', e.strerror)\n"
    )
    time.sleep(0.2)
    received = ctx.host.udp.received()
    assert received == 0
    return f"{obs}\nhost datagrams received: {received}"


@attack("network-dns")
def _dns(ctx: Ctx) -> str:
    obs = ctx.agent.python(
        "import socket\n"
        "for name in ['pypi.org', 'example.com']:\n"
        "    try:\n"
        "        print(name, socket.getaddrinfo(name, 443))\n"
        "    except OSError as e:\n"
        "        print(name, 'unresolved:', e.strerror)\n"
    )
    assert "unresolved" in obs and "AF_INET" not in obs, obs
    return obs


@attack("network-docker-socket")
def _docker_socket(ctx: Ctx) -> str:
    obs = ctx.agent.python(
        "import socket\n"
        "paths = ['/var/run/docker.sock', '/run/docker.sock', '/run/containerd/containerd.sock']\n"
        "for path in paths:\n"
        "    s = socket.socket(socket.AF_UNIX)\n"
        "    try:\n"
        "        s.connect(path)\n"
        "        print(path, 'CONNECTED')\n"
        "    except OSError as e:\n"
        "        print(path, 'blocked:', e.strerror)\n"
    )
    assert "CONNECTED" not in obs, obs
    return obs


@attack("network-python-tool")
def _python_tool(ctx: Ctx) -> str:
    targets = [(s.host, s.port) for s in ctx.host.tcp] + [("1.1.1.1", 443)]
    obs = ctx.agent.python(
        "import socket\n"
        f"for addr in {targets!r}:\n"
        "    try:\n"
        "        socket.create_connection(addr, timeout=3)\n"
        "        print(addr, 'CONNECTED')\n"
        "    except OSError as e:\n"
        "        print(addr, 'blocked:', e.strerror)\n"
    )
    assert "CONNECTED" not in obs, obs
    return obs + "\n" + _accepted(ctx)


test_attack = category_test("network")
