"""``mle-gym sandbox build|gc|status``: the sandbox backends."""

from __future__ import annotations

import argparse
from typing import Any

from mle_gym.cli.arguments import add_flag


def register(sub: Any) -> None:
    """Add ``sandbox`` to an argparse subparsers object."""
    p = sub.add_parser("sandbox", help="sandbox backends: build the docker image, gc, status")
    p.add_argument(
        "action",
        choices=["build", "gc", "status"],
        help="build: the docker image (no registry needed); gc: remove orphaned containers "
        "and unused images replaced by rebuilds; status: which backends are available",
    )
    p.add_argument(
        "--image", help="image name (default $MLE_GYM_DOCKER_IMAGE or mle-gym-runtime:py<X.Y>)"
    )
    add_flag(p, "--force", "rebuild even if up to date (the replaced image is removed)")
    p.add_argument(
        "--requirements",
        action="append",
        metavar="FILE",
        help="build: also install this requirements file (e.g. a repository's); repeatable",
    )
    p.add_argument(
        "--pip-arg",
        action="append",
        metavar="ARG",
        help="build: an argument for that pip install, e.g. --pip-arg=--find-links=DIR",
    )
    add_flag(p, "--all-hosts", "gc: also remove containers of other hosts sharing the engine")
    p.set_defaults(func=cmd_sandbox)


def cmd_sandbox(args: argparse.Namespace) -> int:
    """Build the docker image, remove orphaned containers and unused untagged images left
    by rebuilds, or print each backend's status."""
    if args.action == "build":
        from mle_gym.sandbox.image import build_image, read_requirements

        extra = read_requirements(args.requirements or [])
        name = build_image(
            args.image, force=args.force, extra_requirements=extra, pip_args=args.pip_arg or []
        )
        print(f"image {name} is ready")
        return 0
    if args.action == "gc":
        from mle_gym.sandbox.docker import client_from_env, gc_containers
        from mle_gym.sandbox.image import prune_dangling_images

        client = client_from_env()
        removed = gc_containers(client, all_hosts=args.all_hosts)
        print(f"removed {len(removed)} orphaned container(s)")
        for cid in removed:
            print(f"  {cid[:12]}")
        images = prune_dangling_images(client)
        print(f"removed {len(images)} untagged image(s) left by rebuilds")
        for image_id in images:
            print(f"  {image_id.removeprefix('sha256:')[:12]}")
        return 0
    from mle_gym.sandbox import BACKENDS, check_kind
    from mle_gym.sandbox.base import SandboxUnavailable

    for kind in BACKENDS:
        try:
            check_kind(kind)
            status = "available"
        except SandboxUnavailable as exc:
            status = f"unavailable: {exc}"
        print(f"{kind:13s} {status}")
    return 0
