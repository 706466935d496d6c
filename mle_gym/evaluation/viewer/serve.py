"""Serve one rendered page over HTTP on the loopback interface (``mle-gym view --serve``).

:func:`serve_page` answers ``GET``/``HEAD`` of ``/`` and ``/<name>`` with the page —
nothing else: no file of the run directory is reachable through it — with the page's
Content-Security-Policy as a header too. It listens on 127.0.0.1 (port 0: any free
port), calls ``on_ready`` with the URL once it accepts connections, and serves until
interrupted (Ctrl-C), then closes its socket and returns.
"""

from __future__ import annotations

import http.server
import logging
from collections.abc import Callable
from typing import Any

from mle_gym.evaluation.viewer.errors import ServeError

log = logging.getLogger(__name__)
HOST = "127.0.0.1"


def _handler(page: bytes, csp: str, name: str) -> type[http.server.BaseHTTPRequestHandler]:
    paths = {"/", f"/{name}"}

    class PageHandler(http.server.BaseHTTPRequestHandler):
        server_version = "mle-gym-view"
        sys_version = ""

        def _answer(self, body: bool) -> None:
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            if path not in paths:
                self.send_error(404, "only the run's page is served here")
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.send_header("Content-Security-Policy", csp)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if body:
                self.wfile.write(page)

        def do_GET(self) -> None:
            self._answer(body=True)

        def do_HEAD(self) -> None:
            self._answer(body=False)

        def log_message(self, format: str, *args: Any) -> None:
            log.debug("%s " + format, self.address_string(), *args)

    return PageHandler


def serve_page(
    page: bytes,
    csp: str,
    *,
    port: int = 0,
    name: str = "view.html",
    on_ready: Callable[[str], None] = print,
) -> None:
    """Serve ``page`` on 127.0.0.1:``port`` until Ctrl-C (see the module docstring)."""
    try:
        server = http.server.ThreadingHTTPServer((HOST, port), _handler(page, csp, name))
    except OSError as exc:
        raise ServeError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from exc
    server.daemon_threads = True
    try:
        on_ready(f"http://{HOST}:{server.server_address[1]}/")
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
