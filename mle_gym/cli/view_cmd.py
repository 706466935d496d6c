"""``mle-gym view RUN_DIR``: write (and optionally serve) an HTML page of an evaluation run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mle_gym.cli.arguments import add_flag

VIEW_HELP = "write a self-contained HTML page showing an evaluation run (optionally serve it)"


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def register(sub: Any) -> None:
    """Add ``view`` to an argparse subparsers object."""
    p = sub.add_parser("view", help=VIEW_HELP, description=VIEW_HELP)
    p.add_argument("run_dir", metavar="RUN_DIR", help="an evaluation run directory")
    p.add_argument(
        "--out", metavar="FILE.html", help="where to write the page (default RUN_DIR/view.html)"
    )
    add_flag(p, "--serve", "also serve the page on 127.0.0.1 until Ctrl-C")
    p.add_argument(
        "--port",
        type=_port,
        default=0,
        metavar="N",
        help="port for --serve (default 0: any free port)",
    )
    p.set_defaults(func=cmd_view)


def cmd_view(args: argparse.Namespace) -> int:
    """Write the page and print its path; with --serve, print the URL and serve it."""
    from mle_gym.evaluation.viewer import ViewError, write_view
    from mle_gym.evaluation.viewer.serve import serve_page

    if args.port and not args.serve:
        raise ViewError("--port is for --serve")
    out, page = write_view(Path(args.run_dir), args.out)
    print(out, flush=True)
    if args.serve:

        def ready(url: str) -> None:
            print(url, flush=True)
            print("serving the page; Ctrl-C stops", file=sys.stderr, flush=True)

        serve_page(
            page.html.encode("utf-8"), page.csp, port=args.port, name=out.name, on_ready=ready
        )
        print("stopped", file=sys.stderr, flush=True)
    return 0
