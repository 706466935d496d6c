"""Sandbox images with a repository's extra requirements (the registry-free build), tested
with a wheel built here so nothing is downloaded."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

import pytest

from mle_gym.cli import main
from mle_gym.sandbox.image import ImageError, build_image, read_requirements

REPO = Path(__file__).resolve().parents[2]


def test_requirements_files_are_read_like_pip(tmp_path: Path) -> None:
    (tmp_path / "base.txt").write_text("numpy>=1.26\n")
    req = tmp_path / "requirements.txt"
    req.write_text(
        "# a comment\n-r base.txt\n--extra-index-url https://example.org\n"
        "scikit-learn>=1.3  # trailing comment\n\ntqdm\n"
    )
    assert read_requirements([req]) == ["numpy>=1.26", "scikit-learn>=1.3", "tqdm"]
    with pytest.raises(ImageError, match=r"cannot read the requirements file .*missing.txt"):
        read_requirements([tmp_path / "missing.txt"])


def test_mlbench_dockerfile_template_installs_repo_requirements() -> None:
    text = (REPO / "envs" / "mlbench" / "Dockerfile").read_text()
    assert "COPY mle_gym/sandbox/runtime-requirements.txt" in text
    assert "ARG REQUIREMENTS" in text and "useradd --uid 1000" in text
    assert "mle-gym sandbox build" in (REPO / "envs" / "README.md").read_text()


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with one wheel, ``mlbench-probe``, built offline from source."""
    src = tmp_path_factory.mktemp("probe-src")
    (src / "mlbench_probe").mkdir()
    (src / "mlbench_probe" / "__init__.py").write_text(
        "VALUE = 'probe-ok'\n\ndef main():\n    print('probe cli', VALUE)\n"
    )
    (src / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n'
        '[project]\nname = "mlbench-probe"\nversion = "0.1"\n'
        '[project.scripts]\nmlbench-probe = "mlbench_probe:main"\n'
    )
    out = tmp_path_factory.mktemp("wheels")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "-w",
            str(out),
            str(src),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert [p.name.split("-")[0] for p in out.glob("*.whl")] == ["mlbench_probe"]
    return out


@pytest.mark.only_backend("docker")
def test_build_with_a_repository_requirements_file(
    docker_image: str, wheelhouse: Path, tmp_path: Path
) -> None:
    import docker

    req = tmp_path / "requirements.txt"
    req.write_text("mlbench-probe==0.1\n")
    name = "mle-gym-test-extra:probe"
    client = docker.from_env()
    argv = ["sandbox", "build", "--image", name, "--requirements", str(req)]
    argv += ["--pip-arg=--no-index", f"--pip-arg=--find-links={wheelhouse}"]
    try:
        assert main(argv) == 0
        code = "import mlbench_probe, sklearn, numpy; print(mlbench_probe.VALUE)"
        out = client.containers.run(
            name,
            ["sh", "-c", f'python -c "{code}" && mlbench-probe'],
            user="1000:1000",
            network_mode="none",
            remove=True,
        ).decode()
        assert out.splitlines() == ["probe-ok", "probe cli probe-ok"]
        # same requirements: up to date, nothing rebuilt
        image_id = client.images.get(name).id
        assert (
            build_image(
                name,
                extra_requirements=["mlbench-probe==0.1"],
                pip_args=["--no-index", f"--find-links={wheelhouse}"],
            )
            == name
        )
        assert client.images.get(name).id == image_id
    finally:
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.remove(name, force=True)


@pytest.mark.only_backend("docker")
def test_unavailable_requirement_is_a_clear_error(docker_image: str, wheelhouse: Path) -> None:
    with pytest.raises(ImageError, match=r"installing the extra requirements failed: .*"):
        build_image(
            "mle-gym-test-extra:never",
            extra_requirements=["no-such-package-mlbench==9.9"],
            pip_args=["--no-index", f"--find-links={wheelhouse}"],
        )
