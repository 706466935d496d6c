"""The docker sandbox image: name, requirements, and a registry-free build.

Two ways to get the image:

* with a registry: ``docker build -f envs/Dockerfile -t mle-gym-runtime:py3.11 .``
  (Python slim base + :data:`REQUIREMENTS_FILE`);
* without one (air-gapped machines, CI): ``mle-gym sandbox build`` assembles a
  root filesystem from this host's own Python runtime and ``docker import``\\ s it:
  the interpreter and its standard library, the runtime distributions listed in
  :data:`REQUIREMENTS_FILE` *and their dependencies* as installed here (copied
  file by file from their RECORDs, mle_gym itself never included), a set of
  shell tools, every shared library these need (found with ``ldd``), and a
  minimal ``/etc``. Nothing is downloaded. The result is self-contained, so it
  also works on a remote engine.

The image name is ``$MLE_GYM_DOCKER_IMAGE`` or ``mle-gym-runtime:py<X.Y>``. The
build records a content key (Python version, distributions and versions, tool
list) in the image's environment; a second build with the same key is a no-op.

Extra requirements (e.g. an ML-Bench repository's ``requirements.txt``):
``build_image(extra_requirements=[...])`` / ``mle-gym sandbox build --requirements
FILE`` installs them with this host's pip into a staging folder (``pip install
--target``, constrained to the versions of the runtime distributions already in the
image, so they stay compatible) and adds that folder to the image's site-packages.
pip may download what is not in its cache or in ``--pip-arg --find-links=DIR``; the
default image name then gets a suffix naming the extra set.

A rebuild (``--force``, or a changed content key) moves the name to the new image; the
previous one, now untagged (``<none>``), is removed unless a container (running or
stopped) still uses it or another tag names it. ``mle-gym sandbox gc`` removes such
leftovers later (:func:`prune_dangling_images`: untagged images built here, unused).
"""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import logging
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from mle_gym.sandbox.base import SandboxError

log = logging.getLogger(__name__)

BUILDER_VERSION = "1"
REQUIREMENTS_FILE = Path(__file__).with_name("runtime-requirements.txt")
AGENT_UID = 1000
VENV = "/opt/venv"
PATH_IN_IMAGE = f"{VENV}/bin:/usr/local/bin:/usr/bin:/bin"
KEY_ENV = "MLE_GYM_RUNTIME_KEY"
SHELL_TOOLS = (
    "sh", "dash", "bash", "ls", "cat", "cp", "mv", "rm", "mkdir", "rmdir", "head", "tail", "wc",
    "grep", "sed", "awk", "mawk", "find", "sort", "uniq", "cut", "tr", "env", "sleep", "timeout",
    "kill", "ps", "id", "echo", "true", "false", "test", "touch", "du", "df", "chmod", "ln", "tee",
    "xargs", "gzip", "gunzip", "zcat", "tar", "setsid", "nohup", "date", "uname", "which",
    "dirname", "basename", "readlink", "realpath", "stat", "nproc", "seq", "yes", "diff", "cmp",
    "nl", "od", "pgrep", "pkill", "free", "printf", "expr", "mktemp", "sha256sum", "md5sum",
    "unzip", "less", "file", "setpriv",
)  # fmt: skip
STDLIB_SKIP = {"test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3",
               "site-packages", "dist-packages"}  # fmt: skip


class ImageError(SandboxError):
    """The image cannot be built or found; the message says what to do."""


def default_image() -> str:
    """``$MLE_GYM_DOCKER_IMAGE`` or ``mle-gym-runtime:py<major>.<minor>``."""
    v = sys.version_info
    return os.environ.get("MLE_GYM_DOCKER_IMAGE", f"mle-gym-runtime:py{v.major}.{v.minor}")


def build_command(name: str) -> str:
    """The ``mle-gym sandbox build`` command that builds the image ``name``: ``--image
    NAME`` unless it is the built-in default (an image with extras is built from its
    requirements files, which the name does not tell)."""
    import shlex

    v = sys.version_info
    builtin = f"mle-gym-runtime:py{v.major}.{v.minor}"
    if name == builtin:
        return "mle-gym sandbox build"
    command = f"mle-gym sandbox build --image {shlex.quote(name)}"
    if name.startswith(f"{builtin}-x"):
        command += " --requirements FILE ..."
    return command


def runtime_requirements() -> list[str]:
    """Requirement names from :data:`REQUIREMENTS_FILE`."""
    names = []
    for line in REQUIREMENTS_FILE.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(line)
    return names


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_distributions() -> list[md.Distribution]:
    """The runtime requirements and their dependency closure, as installed on this host."""
    from packaging.requirements import Requirement

    seen: dict[str, md.Distribution] = {}
    queue = list(runtime_requirements())
    while queue:
        req = Requirement(queue.pop())
        key = _canonical(req.name)
        if key in seen or key == "mle-gym":
            continue
        try:
            dist = md.distribution(req.name)
        except md.PackageNotFoundError:
            raise ImageError(
                f"'{req.name}' is needed in the sandbox image but is not installed in this "
                f"Python environment ({sys.prefix}); run: pip install 'mle-gym[runtime]'"
            ) from None
        seen[key] = dist
        for sub in dist.requires or []:
            r = Requirement(sub)
            if r.marker is None or r.marker.evaluate({"extra": ""}):
                queue.append(sub)
    return sorted(seen.values(), key=lambda d: _canonical(d.metadata["Name"]))


def content_key(dists: list[md.Distribution], extra: tuple[str, ...] = ()) -> str:
    """A short hash of everything that determines the built image (``extra``: the extra
    requirement lines and pip arguments, if any)."""
    h = hashlib.sha256()
    h.update(f"{BUILDER_VERSION}|{sys.version}|{sys.base_prefix}|".encode())
    for d in dists:
        h.update(f"{_canonical(d.metadata['Name'])}=={d.version}|".encode())
    h.update("|".join(SHELL_TOOLS).encode())
    if extra:
        h.update(("|extra|" + "\n".join(extra)).encode())
    return h.hexdigest()[:16]


def read_requirements(paths: list[str | os.PathLike[str]]) -> list[str]:
    """Requirement lines of requirements files (comments, blanks and pip options dropped;
    ``-r other.txt`` includes are followed)."""
    out: list[str] = []
    for raw in paths:
        path = Path(raw)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ImageError(f"cannot read the requirements file {path}: {exc}") from None
        for line in text.splitlines():
            line = line.split(" #", 1)[0].strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith(("-r ", "--requirement ")):
                out += read_requirements([path.parent / line.split(None, 1)[1]])
            elif not line.startswith("-"):
                out.append(line)
    return out


def stage_extra_requirements(
    requirements: list[str], dest: Path, dists: list[md.Distribution], pip_args: list[str]
) -> None:
    """``pip install --target dest`` the extra requirements, constrained to the versions of
    the runtime distributions ``dists`` (so the two sets stay compatible)."""
    dest.mkdir(parents=True, exist_ok=True)
    constraints = dest.parent / "runtime-constraints.txt"
    constraints.write_text(
        "".join(f"{d.metadata['Name']}=={d.version}\n" for d in dists), encoding="utf-8"
    )
    argv = [
        sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
        "--no-input", "--target", str(dest), "--constraint", str(constraints),
        *pip_args, *requirements,
    ]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise ImageError(
            "installing the extra requirements failed: "
            + (" | ".join(detail[-3:]) if detail else f"pip exited {done.returncode}")
        )


class _RootFS:
    """Copies host paths into a staging root, keeping symlinks as symlinks."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.elf: set[str] = set()

    def _dest(self, host: str) -> Path:
        return self.root / host.lstrip("/")

    def mirror(self, host: str, depth: int = 0) -> None:
        """Make ``host`` (absolute) resolve inside the root as it does on the host."""
        if depth > 40:
            raise ImageError(f"symlink loop at {host}")
        parts = Path(host).parts
        cur = "/"
        for i, part in enumerate(parts[1:], start=1):
            nxt = os.path.join(cur, part)
            if os.path.islink(nxt):
                target = os.readlink(nxt)
                dest = self._dest(nxt)
                if not dest.is_symlink() and not dest.exists():
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.symlink_to(target)
                resolved = os.path.normpath(os.path.join(cur, target))
                rest = parts[i + 1 :]
                self.mirror(os.path.join(resolved, *rest) if rest else resolved, depth + 1)
                return
            cur = nxt
        self.copy_file(host)

    def copy_file(self, host: str) -> None:
        dest = self._dest(host)
        if dest.exists() or not os.path.isfile(host):
            return
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(host, dest)
        if _is_elf(host):
            self.elf.add(host)

    def copy_tree(self, src: Path, dest_abs: str, skip: set[str] | None = None) -> None:
        dest = self._dest(dest_abs)
        for dirpath, dirnames, filenames in os.walk(src):
            rel = os.path.relpath(dirpath, src)
            if rel == "." and skip:
                dirnames[:] = [d for d in dirnames if d not in skip and not d.startswith("config-")]
            out = dest / rel
            out.mkdir(parents=True, exist_ok=True)
            for name in filenames + [
                d for d in dirnames if os.path.islink(os.path.join(dirpath, d))
            ]:
                s = os.path.join(dirpath, name)
                d = out / name
                if os.path.islink(s):
                    if not d.is_symlink():
                        d.symlink_to(os.readlink(s))
                    continue
                shutil.copy2(s, d)
                if name.endswith(".so") or ".so." in name:
                    self.elf.add(s)


def _is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


_LDD_LINE = re.compile(r"(?:=>\s*)?(/\S+)\s+\(0x")


def _shared_libs(files: set[str]) -> set[str]:
    """Absolute paths of the shared libraries ``files`` load (via ldd)."""
    libs: set[str] = set()
    batch = sorted(files)
    for i in range(0, len(batch), 200):
        out = subprocess.run(
            ["ldd", *batch[i : i + 200]], capture_output=True, text=True, check=False
        ).stdout
        for line in out.splitlines():
            m = _LDD_LINE.search(line)
            if m:
                libs.add(m.group(1))
    return libs


def build_rootfs(root: Path, dists: list[md.Distribution], extra: Path | None = None) -> None:
    """Assemble the image's root filesystem in ``root`` (see module docstring); ``extra``
    is a ``pip install --target`` folder merged into site-packages (its ``bin/`` into
    the venv's ``bin``)."""
    fs = _RootFS(root)
    base = os.path.realpath(sys.base_prefix)
    pyver = f"python{sys.version_info.major}.{sys.version_info.minor}"
    interpreter = os.path.realpath(os.path.join(base, "bin", pyver))
    if not os.path.isfile(interpreter):
        raise ImageError(f"cannot find the interpreter {interpreter}")
    fs.mirror(interpreter)
    stdlib = Path(base) / "lib" / pyver
    fs.copy_tree(stdlib, str(stdlib), skip=STDLIB_SKIP)

    site, bin_dir = _make_venv(root, interpreter, pyver)
    _copy_dists(fs, site, dists)
    if extra is not None and extra.is_dir():
        _merge_extra(fs, extra, site, bin_dir, pyver)

    for tool in SHELL_TOOLS:
        found = shutil.which(tool, path="/usr/bin:/bin:/usr/sbin:/sbin")
        if found:
            fs.mirror(found)
            fs.mirror(os.path.realpath(found))
    fs.mirror("/bin/sh")

    # Libraries inside the copied trees are found through $ORIGIN; mirror the others.
    own_trees = {str(stdlib)} | {os.path.realpath(str(d.locate_file(""))) for d in dists}
    if extra is not None:
        own_trees.add(os.path.realpath(extra))
    for lib in sorted(_shared_libs(fs.elf)):
        if not any(lib.startswith(t + "/") for t in own_trees):
            fs.mirror(lib)
    if os.path.isdir("/usr/lib/locale/C.utf8"):
        fs.copy_tree(Path("/usr/lib/locale/C.utf8"), "/usr/lib/locale/C.utf8")

    _write_etc(root / "etc")
    for d in ("tmp", "proc", "sys", "dev", "sbin", "workspace", "workspace/data", "root"):
        (root / d).mkdir(parents=True, exist_ok=True)
    for top in ("bin", "lib", "lib64"):
        host_top = f"/{top}"
        if os.path.islink(host_top) and not (root / top).exists():
            (root / top).symlink_to(os.readlink(host_top))
    os.chmod(root / "tmp", 0o1777)
    os.chmod(root / "root", 0o755)  # the interpreter may live under /root (pyenv)
    os.chown(root / "workspace", AGENT_UID, AGENT_UID)
    _make_readable(root)


def _make_venv(root: Path, interpreter: str, pyver: str) -> tuple[Path, Path]:
    """The image's venv at :data:`VENV` under ``root``, its python linked to the host's
    ``interpreter``: (its site-packages folder, its bin folder)."""
    site = root / VENV.lstrip("/") / "lib" / pyver / "site-packages"
    site.mkdir(parents=True)
    bin_dir = root / VENV.lstrip("/") / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(interpreter)
    for alias in ("python3", pyver):
        (bin_dir / alias).symlink_to("python")
    (root / VENV.lstrip("/") / "pyvenv.cfg").write_text(
        f"home = {os.path.dirname(interpreter)}\ninclude-system-site-packages = false\n"
        f"version = {sys.version.split()[0]}\n"
    )
    return site, bin_dir


def _copy_dists(fs: _RootFS, site: Path, dists: list[md.Distribution]) -> None:
    """Copy the files of ``dists`` (no ``.pyc``, nothing outside them) into ``site``;
    their shared objects are noted in ``fs.elf``."""
    for dist in dists:
        for rel in dist.files or []:
            if ".." in Path(str(rel)).parts or str(rel).endswith(".pyc"):
                continue
            src = Path(str(dist.locate_file(rel)))
            if not src.is_file():
                continue
            dest = site / str(rel)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
            if src.name.endswith(".so") or ".so." in src.name:
                fs.elf.add(str(src))


def _merge_extra(fs: _RootFS, extra: Path, site: Path, bin_dir: Path, pyver: str) -> None:
    """Merge a ``pip install --target`` folder into ``site`` (its ``bin/`` into
    ``bin_dir``, shebangs pointed at the venv)."""
    site_abs = f"{VENV}/lib/{pyver}/site-packages"
    for entry in sorted(extra.iterdir()):
        if entry.name == "bin" and entry.is_dir():
            for script in entry.iterdir():
                _copy_script(script, bin_dir / script.name)
        elif entry.is_dir():
            fs.copy_tree(entry, f"{site_abs}/{entry.name}")
        else:
            shutil.copy2(entry, site / entry.name, follow_symlinks=False)


def _write_etc(etc: Path) -> None:
    """The image's ``/etc``: users root, agent (:data:`AGENT_UID`) and nobody, local
    hosts and name lookup from files only, the host's ``ld.so.cache``."""
    etc.mkdir(exist_ok=True)
    (etc / "passwd").write_text(
        "root:x:0:0:root:/root:/bin/sh\n"
        f"agent:x:{AGENT_UID}:{AGENT_UID}:agent:/workspace:/bin/sh\n"
        "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    )
    (etc / "group").write_text(f"root:x:0:\nagent:x:{AGENT_UID}:\nnogroup:x:65534:\n")
    (etc / "hosts").write_text("127.0.0.1 localhost\n")
    (etc / "nsswitch.conf").write_text("passwd: files\ngroup: files\nhosts: files\n")
    if os.path.isfile("/etc/ld.so.cache"):
        shutil.copy2("/etc/ld.so.cache", etc / "ld.so.cache")


def _copy_script(src: Path, dest: Path) -> None:
    """Copy a console script pip wrote, pointing a Python shebang at the image's venv."""
    if src.is_symlink() or not src.is_file():
        shutil.copy2(src, dest, follow_symlinks=False)
        return
    data = src.read_bytes()
    first, sep, rest = data.partition(b"\n")
    if first.startswith(b"#!") and b"python" in first:
        data = f"#!{VENV}/bin/python".encode() + sep + rest
    dest.write_bytes(data)
    dest.chmod(0o755)


def _make_readable(root: Path) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            p = os.path.join(dirpath, name)
            if not os.path.islink(p):
                mode = os.stat(p).st_mode
                os.chmod(p, (mode | 0o555) & ~0o022 if name != "tmp" else mode)
        for name in filenames:
            p = os.path.join(dirpath, name)
            if not os.path.islink(p):
                mode = os.stat(p).st_mode
                os.chmod(p, (mode | 0o444) & ~0o022 & ~stat.S_ISUID & ~stat.S_ISGID)


def image_key(client: Any, name: str) -> str | None:
    """The content key of an existing image (None if built otherwise); ImageNotFound if absent."""
    image = client.images.get(name)
    for entry in image.attrs.get("Config", {}).get("Env") or []:
        if entry.startswith(f"{KEY_ENV}="):
            return entry.split("=", 1)[1]
    return None


def _current_id(client: Any, name: str) -> str | None:
    """The id of the image ``name`` names now, or None."""
    import docker

    try:
        return str(client.images.get(name).id)
    except docker.errors.ImageNotFound:
        return None


def _is_ours(image: Any) -> bool:
    """Whether ``image`` was built by :func:`build_image` (or from such an image)."""
    env = (image.attrs.get("Config") or {}).get("Env") or []
    return any(entry.startswith(f"{KEY_ENV}=") for entry in env)


def remove_replaced_image(client: Any, image_id: str) -> bool:
    """Remove the image ``image_id`` that a rebuild untagged; True if it was removed.

    Kept (False) if it is gone already, still has a tag, or a container uses it (docker
    refuses to remove it then; ``mle-gym sandbox gc`` retries later)."""
    import docker

    try:
        image = client.images.get(image_id)
    except docker.errors.ImageNotFound:
        return False
    if image.tags:
        return False
    try:
        client.images.remove(image.id, force=False, noprune=False)
    except docker.errors.ImageNotFound:
        return False
    except docker.errors.APIError as exc:  # 409: a container uses it
        log.info("kept the previous image %s: %s", image.short_id, exc.explanation or exc)
        return False
    log.info("removed the previous image %s", image.short_id)
    return True


def prune_dangling_images(client: Any = None) -> list[str]:
    """Remove the untagged images built here (their environment has :data:`KEY_ENV`) that
    no container uses; return their ids."""
    import docker

    client = client or docker.from_env()
    removed = []
    for image in client.images.list(filters={"dangling": True}):
        if _is_ours(image) and remove_replaced_image(client, image.id):
            removed.append(str(image.id))
    return removed


def build_image(
    name: str | None = None,
    *,
    force: bool = False,
    client: Any = None,
    extra_requirements: list[str] | None = None,
    pip_args: list[str] | None = None,
) -> str:
    """Build (or reuse) the registry-free image; return its name.

    ``extra_requirements`` (requirement strings) are installed into the image on top of
    the runtime (see the module docstring); ``pip_args`` go to that ``pip install``
    (e.g. ``["--no-index", "--find-links=/wheels"]``). Without ``name``, an image with
    extras is called ``<default image>-x<hash>``. An image the new one replaces under
    ``name`` is removed (:func:`remove_replaced_image`), so rebuilds leave no ``<none>``
    image behind.
    """
    import docker

    extras = tuple(extra_requirements or ())
    extra_key = (*extras, "|pip|", *(pip_args or ())) if extras else ()
    client = client or docker.from_env()
    dists = runtime_distributions()
    key = content_key(dists, extra_key)
    if name is None:
        name = default_image()
        if extras:
            name = f"{name}-x{hashlib.sha256(chr(10).join(extra_key).encode()).hexdigest()[:8]}"
    if not force:
        try:
            if image_key(client, name) == key:
                log.info("image %s is up to date (%s)", name, key)
                return name
        except docker.errors.ImageNotFound:
            pass
    previous = _current_id(client, name)
    repo, _, tag = name.rpartition(":") if ":" in name.split("/")[-1] else (name, "", "latest")
    with tempfile.TemporaryDirectory(prefix="mle_gym-image-") as tmp:
        root = Path(tmp) / "rootfs"
        root.mkdir()
        staged = None
        if extras:
            staged = Path(tmp) / "extra" / "site-packages"
            stage_extra_requirements(list(extras), staged, dists, list(pip_args or ()))
        build_rootfs(root, dists, staged)
        tar_path = Path(tmp) / "rootfs.tar"
        with tarfile.open(tar_path, "w") as tar:
            for entry in sorted(root.iterdir()):
                tar.add(entry, arcname=entry.name)
        changes = [
            f"ENV PATH={PATH_IN_IMAGE}",
            "ENV LANG=C.UTF-8",
            "ENV PYTHONDONTWRITEBYTECODE=1",
            f"ENV {KEY_ENV}={key}",
            "WORKDIR /workspace",
        ]
        client.api.import_image_from_file(str(tar_path), repository=repo, tag=tag, changes=changes)
    log.info("built image %s (%s)", name, key)
    if previous is not None and previous != _current_id(client, name):
        remove_replaced_image(client, previous)
    return name
