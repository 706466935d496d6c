"""Fixtures for the MLAgentBench tests: a real HTTP server on 127.0.0.1 serving a folder."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def http_folder(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """(base URL, folder): files put in the folder are served at base URL + relative path."""
    root = tmp_path / "served"
    root.mkdir()
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def closed_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (connection refused at once)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
