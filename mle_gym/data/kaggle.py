"""Getting a competition's files from Kaggle: the API download, or a zip the user has.

``download_competition`` uses the official ``kaggle`` package (``pip install
"mle-gym[kaggle]"``) with the user's credentials (``~/.kaggle/kaggle.json``,
``$KAGGLE_CONFIG_DIR`` or ``$KAGGLE_USERNAME``/``$KAGGLE_KEY``). The competition's
rules must have been accepted on kaggle.com first; a 403 says so.

``extract_zip`` unpacks safely: no absolute paths, no ``..``, no symlinks, and a
cap on the total uncompressed size (zip bombs).
"""

from __future__ import annotations

import os
import shutil
import stat
import zipfile
from pathlib import Path, PurePosixPath

from mle_gym.errors import SetupError

MAX_UNCOMPRESSED = 200 * 2**30


class KaggleError(SetupError):
    """Kaggle data could not be obtained; the message says what to do."""


def has_credentials() -> bool:
    """True if the kaggle package would find credentials (legacy key or access token)."""
    if os.environ.get("KAGGLE_USERNAME") and os.environ.get("KAGGLE_KEY"):
        return True
    if os.environ.get("KAGGLE_API_TOKEN"):
        return True
    config_dir = os.environ.get("KAGGLE_CONFIG_DIR") or os.path.expanduser("~/.kaggle")
    return any(
        os.path.isfile(os.path.join(config_dir, name)) for name in ("kaggle.json", "access_token")
    )


def download_competition(competition: str, dest: Path) -> Path:
    """Download ``<competition>.zip`` into ``dest`` through the Kaggle API; return its path."""
    if not has_credentials():
        raise KaggleError(
            "no Kaggle credentials found (~/.kaggle/kaggle.json or KAGGLE_USERNAME/KAGGLE_KEY). "
            f"Either create an API token at https://www.kaggle.com/settings, or download "
            f"https://www.kaggle.com/competitions/{competition}/data yourself and run "
            f"`mle-gym prepare {competition} --from PATH.zip`."
        )
    try:
        from kaggle.api.kaggle_api_extended import KaggleApi
    except ImportError as exc:
        raise KaggleError(
            f"the 'kaggle' package cannot be imported ({exc}): pip install 'mle-gym[kaggle]'"
        ) from exc
    api = KaggleApi()
    try:
        api.authenticate()
        api.competition_download_files(competition, path=str(dest), quiet=False)
    except Exception as exc:
        text = str(exc)
        if "403" in text or "Forbidden" in text:
            raise KaggleError(
                f"Kaggle refused the download (403). Accept the rules of the competition at "
                f"https://www.kaggle.com/competitions/{competition}/rules, then retry."
            ) from exc
        raise KaggleError(f"Kaggle download of '{competition}' failed: {text}") from exc
    zips = sorted(dest.glob("*.zip"))
    if not zips:
        raise KaggleError(f"Kaggle download of '{competition}' produced no zip in {dest}")
    return zips[0]


def extract_zip(zip_path: Path, dest: Path, max_bytes: int = MAX_UNCOMPRESSED) -> list[str]:
    """Extract ``zip_path`` into ``dest`` safely; return the extracted file names."""
    if not zip_path.is_file():
        raise KaggleError(f"{zip_path}: no such file")
    try:
        zf = zipfile.ZipFile(zip_path)
    except zipfile.BadZipFile as exc:
        raise KaggleError(f"{zip_path}: not a zip archive ({exc})") from exc
    names = []
    with zf:
        infos = zf.infolist()
        total = sum(i.file_size for i in infos)
        if total > max_bytes:
            raise KaggleError(f"{zip_path}: uncompressed size {total} exceeds the {max_bytes} cap")
        for info in infos:
            name = PurePosixPath(info.filename)
            if name.is_absolute() or ".." in name.parts or "\\" in info.filename:
                raise KaggleError(f"{zip_path}: unsafe member path {info.filename!r}")
            if stat.S_ISLNK(info.external_attr >> 16):
                raise KaggleError(f"{zip_path}: member {info.filename!r} is a symlink")
            target = dest / name
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, open(target, "wb") as out:
                shutil.copyfileobj(src, out, 1 << 20)
            names.append(str(name))
    return names
