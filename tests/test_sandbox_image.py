"""Rebuilding the registry-free sandbox image leaves no untagged (``<none>``) image behind,
on the real Docker engine: the replaced image is removed unless a container uses it, and
``mle-gym sandbox gc`` removes it once none does.

The images replaced here are tiny ones (a two-line Dockerfile ``FROM`` the sandbox image,
labelled with the test's run id), so only one real build runs."""

from __future__ import annotations

import contextlib
import io
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from mle_gym.cli import main
from mle_gym.sandbox.image import KEY_ENV, image_key, remove_replaced_image

LABEL = "mle_gym.test-image"

pytestmark = pytest.mark.only_backend("docker")


@pytest.fixture
def client(docker_image: str) -> Any:
    from mle_gym.sandbox.docker import client_from_env

    return client_from_env()


@pytest.fixture
def run_id(client: Any) -> Iterator[str]:
    """A unique id; the images and containers of this test are removed afterwards."""
    import docker

    run = uuid.uuid4().hex[:12]
    yield run
    for c in client.containers.list(all=True, filters={"label": f"{LABEL}={run}"}):
        c.remove(force=True)
    with contextlib.suppress(docker.errors.ImageNotFound):
        client.images.remove(f"mle-gym-test-rebuild-{run}:t", force=True)
    for image in client.images.list(filters={"label": f"{LABEL}={run}"}):
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.remove(image.id, force=True)


def tiny_image(client: Any, base: str, run: str, variant: str, tag: str) -> str:
    """Build ``FROM base`` + a label naming the run and ``variant``, tagged ``tag``; its id."""
    dockerfile = f"FROM {base}\nLABEL {LABEL}={run} {LABEL}.variant={variant}\n"
    image, _ = client.images.build(fileobj=io.BytesIO(dockerfile.encode()), tag=tag, rm=True)
    return str(image.id)


def exists(client: Any, image_id: str) -> bool:
    import docker

    try:
        client.images.get(image_id)
    except docker.errors.ImageNotFound:
        return False
    return True


def dangling_of(client: Any, run: str) -> list[str]:
    images = client.images.list(filters={"dangling": True, "label": f"{LABEL}={run}"})
    return [str(i.id) for i in images]


@pytest.mark.slow
def test_forced_rebuild_removes_the_replaced_image(
    client: Any, docker_image: str, run_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = f"mle-gym-test-rebuild-{run_id}:t"
    old = tiny_image(client, docker_image, run_id, "old", name)
    assert main(["sandbox", "build", "--force", "--image", name]) == 0
    assert f"image {name} is ready" in capsys.readouterr().out
    new = client.images.get(name)
    assert new.id != old and image_key(client, name)  # the name is on a fresh build
    assert not exists(client, old)
    assert dangling_of(client, run_id) == []


def test_a_replaced_image_in_use_is_kept_until_gc(
    client: Any, docker_image: str, run_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = f"mle-gym-test-rebuild-{run_id}:t"
    first = tiny_image(client, docker_image, run_id, "first", name)
    user = client.containers.create(first, command=["true"], labels={LABEL: run_id})
    second = tiny_image(client, docker_image, run_id, "second", name)  # moves the name
    assert dangling_of(client, run_id) == [first]
    assert remove_replaced_image(client, first) is False  # a (stopped) container uses it
    assert exists(client, first)
    assert remove_replaced_image(client, second) is False  # still tagged
    assert exists(client, second)

    user.remove()
    assert any(e.startswith(f"{KEY_ENV}=") for e in client.images.get(first).attrs["Config"]["Env"])
    assert main(["sandbox", "gc"]) == 0
    out = capsys.readouterr().out
    assert "untagged image(s) left by rebuilds" in out and first[7:19] in out, out
    assert not exists(client, first) and exists(client, second)
    assert dangling_of(client, run_id) == []
