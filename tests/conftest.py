"""Shared fixtures: an isolated cache per test session, and a ready env factory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

#: The replica key of every test session (``$MLE_GYM_REPLICA_KEY``): fixed and public, so
#: the replica figures stored in task.yaml (measured under it, seed 0) are what tests see.
#: Real installations use their own secret key (see mle_gym/data/replica_key.py).
TEST_REPLICA_KEY = "6d6c652d67796d2074657374206b6579206f6e6c793a206e6f74206120736563"


@pytest.fixture(scope="session", autouse=True)
def mle_gym_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test session gets its own $MLE_GYM_HOME (replicas generated once per session)
    and the fixed test replica key."""
    home = tmp_path_factory.mktemp("mle_gym_home")
    saved = {k: os.environ.get(k) for k in ("MLE_GYM_HOME", "MLE_GYM_REPLICA_KEY")}
    os.environ["MLE_GYM_HOME"] = str(home)
    os.environ["MLE_GYM_REPLICA_KEY"] = TEST_REPLICA_KEY
    yield home
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture
def make_env(backend: str):
    """``make_env(**kwargs)`` -> a spaceship-titanic env on replica data with the current
    backend's sandbox; closed after the test."""
    import gymnasium as gym

    import mle_gym  # noqa: F401

    envs = []

    def factory(**kwargs):
        kwargs.setdefault("data", "replica")
        kwargs.setdefault("sandbox", backend)
        env = gym.make("MLEBench/spaceship-titanic-v0", **kwargs)
        envs.append(env)
        return env

    yield factory
    for env in envs:
        env.close()


def _requested_backends() -> list[str]:
    """Backends the conformance tests run on: ``$MLE_GYM_TEST_BACKENDS`` (default: all)."""
    raw = os.environ.get("MLE_GYM_TEST_BACKENDS", "local,docker")
    return [b.strip() for b in raw.split(",") if b.strip()]


@pytest.fixture(scope="session")
def docker_image() -> str:
    """The docker sandbox image, built registry-free if missing (fails if docker is absent)."""
    from mle_gym.sandbox.base import SandboxUnavailable
    from mle_gym.sandbox.docker import client_from_env
    from mle_gym.sandbox.image import build_image

    try:
        client = client_from_env()
    except SandboxUnavailable as exc:
        pytest.fail(
            f"docker backend tests were requested but {exc}. Start dockerd (see .ci/run) or "
            "run with MLE_GYM_TEST_BACKENDS=local to test the local backend only."
        )
    return build_image(client=client)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run every test that uses ``backend`` once per requested backend (or the one it needs)."""
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("only_backend")
        backends = [only.args[0]] if only else _requested_backends()
        metafunc.parametrize("backend", backends, indirect=True)


def _listed_slow() -> frozenset[str]:
    """Node ids listed in tests/slow_tests.txt (measured slow in a full run)."""
    listing = Path(__file__).with_name("slow_tests.txt")
    if not listing.is_file():
        return frozenset()
    lines = (line.strip() for line in listing.read_text().splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of tests/slow_tests.txt ``slow`` (before ``-m`` selects), and
    deselect (never skip) tests of a backend the run did not request."""
    slow = _listed_slow()
    for item in items:
        if item.nodeid in slow:
            item.add_marker(pytest.mark.slow)
    requested = set(_requested_backends())
    keep, drop = [], []
    for item in items:
        only = item.get_closest_marker("only_backend")
        (drop if only and only.args[0] not in requested else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """A sandbox backend name; docker tests first make sure the image exists."""
    if request.param == "docker":
        request.getfixturevalue("docker_image")
    return request.param


_ran: dict[str, int] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Count passed tests per sandbox backend."""
    if report.when == "call" and report.passed:
        for name in ("local", "docker"):
            if f"[{name}" in report.nodeid or f"-{name}]" in report.nodeid:
                _ran[name] = _ran.get(name, 0) + 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI, a run in which the docker-backend tests did not run is a failure."""
    if os.environ.get("CI") == "true" and session.testscollected > 50 and exitstatus == 0:
        missing = [b for b in ("local", "docker") if not _ran.get(b)]
        if missing:
            print(f"\nCI: no passing tests ran on the {', '.join(missing)} backend(s)")
            session.exitstatus = 1
