"""Fetching a task's raw files: plain URLs (torchvision mirrors, OGB, Hugging Face, model
hubs) and Kaggle competitions, with errors that say what is missing and how to supply
it by hand (``mle-gym prepare MLAgentBench/<task> --from PATH``).

Task ``prepare.py`` modules call these from their ``download(raw_dir)``.
"""

from __future__ import annotations

import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

from mle_gym.data.store import DataNotPrepared

CHUNK = 1 << 20
TIMEOUT_S = 60.0


class DownloadError(DataNotPrepared):
    """Raw data could not be fetched; the message names what and how to supply it."""


def _by_hand(task_env_id: str) -> str:
    """The command preparing the task from files downloaded by hand."""
    name = task_env_id.rsplit("-v", 1)[0]
    return (
        f"`mle-gym prepare {name} --from PATH` (PATH: the downloaded file, or a folder holding it)"
    )


def _hint(task_env_id: str, what: str) -> str:
    return f"download {what} yourself and run {_by_hand(task_env_id)}"


def fetch_url(url: str, dest: Path, *, task: str, what: str | None = None) -> Path:
    """Download ``url`` to ``dest`` (atomically); DownloadError naming the URL on failure."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    what = what or url
    request = urllib.request.Request(url, headers={"User-Agent": "mle-gym"})
    tmp = dest.with_name(dest.name + ".part")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as resp, open(tmp, "wb") as out:
            shutil.copyfileobj(resp, out, CHUNK)
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        tmp.unlink(missing_ok=True)
        reason = getattr(exc, "reason", exc)
        raise DownloadError(
            f"{task}: cannot download {what} from {url} ({reason}); this needs network "
            f"access — or {_hint(task, what)}"
        ) from None
    tmp.replace(dest)
    return dest


def huggingface_url(repo_id: str, filename: str, *, repo_type: str = "dataset") -> str:
    """The resolve URL of a file on the Hugging Face Hub (``$HF_ENDPOINT`` honoured)."""
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    prefix = "datasets/" if repo_type == "dataset" else ""
    return f"{endpoint}/{prefix}{repo_id}/resolve/main/{filename}"


def fetch_kaggle(competition: str, raw_dir: Path, *, task: str) -> Path:
    """Download a Kaggle competition zip into ``raw_dir`` (needs credentials and the
    competition's rules accepted); DownloadError says which is missing."""
    from mle_gym.data import kaggle

    try:
        return kaggle.download_competition(competition, raw_dir, prepare_command=_by_hand(task))
    except kaggle.MissingCredentials as exc:  # its message says how to do without them
        raise DownloadError(
            f"{task}: Kaggle competition '{competition}' could not be downloaded: {exc}"
        ) from exc
    except kaggle.KaggleError as exc:
        raise DownloadError(
            f"{task}: Kaggle competition '{competition}' could not be downloaded: {exc} "
            f"— or {_hint(task, f'the {competition} zip from kaggle.com')}"
        ) from exc


def find_one(raw_dir: Path, patterns: tuple[str, ...], *, task: str, what: str) -> Path:
    """The single file or folder in ``raw_dir`` (searched recursively) matching one of
    ``patterns``; DataNotPrepared naming ``what`` when there is none."""
    for pattern in patterns:
        hits = sorted(raw_dir.rglob(pattern))
        if hits:
            return hits[0]
    raise DataNotPrepared(f"{task}: {what} not found (looked for {', '.join(patterns)})")


def read_raw_csv(raw_dir: Path, name: str, *, task: str) -> Any:
    """The CSV file ``name`` of ``raw_dir`` (searched recursively, or inside the
    competition zip there) as a pandas frame of strings, empty cells kept as "".
    DataNotPrepared when neither the file nor a zip holding it is there."""
    import pandas as pd

    found = find_one(raw_dir, (name, "*.zip"), task=task, what=name)
    if found.suffix != ".zip":
        return pd.read_csv(found, dtype=str, keep_default_na=False)
    with zipfile.ZipFile(found) as archive:
        members = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == name]
        if not members:
            raise DataNotPrepared(f"{task}: {found.name} holds no {name}")
        with archive.open(members[0]) as handle:
            return pd.read_csv(handle, dtype=str, keep_default_na=False)


def extract_tar(archive: Path, dest: Path) -> Path:
    """Extract a tar archive safely (no absolute paths, links or devices escaping)."""
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    return dest


def extract_any(archive: Path, dest: Path) -> Path:
    """Extract a zip or tar archive into ``dest``."""
    from mle_gym.data import kaggle

    if archive.suffix == ".zip":
        kaggle.extract_zip(archive, dest)
        return dest
    return extract_tar(archive, dest)


def stage_from(path: Path) -> tuple[Path, tempfile.TemporaryDirectory[str] | None]:
    """The raw folder for ``--from PATH``: the folder itself, or a temporary folder
    holding (a link to) the file. The second value, if not None, must be cleaned up."""
    path = path.expanduser().resolve()
    if not path.exists():
        raise DataNotPrepared(f"--from {path}: no such file or folder")
    if path.is_dir():
        return path, None
    tmp = tempfile.TemporaryDirectory(prefix="mle_gym-raw-")
    target = Path(tmp.name) / path.name
    try:
        os.link(path, target)
    except OSError:
        shutil.copyfile(path, target)
    return Path(tmp.name), tmp


def fetch_hf_files(
    repo_id: str,
    filenames: list[str],
    dest: Path,
    *,
    task: str,
    repo_type: str = "dataset",
) -> list[Path]:
    """Download files of a Hugging Face Hub repository into ``dest`` (keeping their
    relative paths); DownloadError naming the first one that fails."""
    out = []
    for name in filenames:
        url = huggingface_url(repo_id, name, repo_type=repo_type)
        out.append(fetch_url(url, dest / name, task=task, what=f"{repo_id}/{name}"))
    return out


def check_safetensors(path: Path) -> dict:
    """The header of a .safetensors file (8-byte little-endian length + JSON); ValueError
    if the file is not in that format (e.g. an HTML error page saved by a proxy)."""
    import json
    import struct

    with open(path, "rb") as handle:
        raw = handle.read(8)
        if len(raw) != 8:
            raise ValueError(f"{path.name}: too short for a safetensors file")
        (length,) = struct.unpack("<Q", raw)
        if length > 100 * 2**20:
            raise ValueError(f"{path.name}: implausible safetensors header size {length}")
        header = json.loads(handle.read(length))
    if not isinstance(header, dict):
        raise ValueError(f"{path.name}: safetensors header is not a JSON object")
    return header
