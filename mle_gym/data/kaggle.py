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


def competition_url(competition: str, page: str = "") -> str:
    """The kaggle.com page of ``competition`` (``page``: ``data``, ``rules``...)."""
    return f"https://www.kaggle.com/competitions/{competition}" + (f"/{page}" if page else "")


class MissingCredentials(KaggleError):
    """No Kaggle API credentials: the message says how to set them up, or how to prepare
    from a zip downloaded by hand (``prepare_command``), and the offline alternative
    (``offline``) when the task has one."""

    def __init__(
        self, competition: str, *, prepare_command: str | None = None, offline: str | None = None
    ) -> None:
        self.competition = competition
        by_hand = prepare_command or "`mle-gym prepare TASK --from PATH.zip`"
        data_page = competition_url(competition, "data")
        super().__init__(
            "no Kaggle credentials found (~/.kaggle/kaggle.json, $KAGGLE_CONFIG_DIR, or "
            "KAGGLE_USERNAME and KAGGLE_KEY): create an API token at "
            "https://www.kaggle.com/settings and save it as ~/.kaggle/kaggle.json; or "
            f"download the data from {data_page} yourself and run {by_hand}"
            + (f"; or, offline, {offline}" if offline else "")
        )


class RulesNotAccepted(KaggleError):
    """Kaggle refused the download (403): the competition's rules, at ``url``, must be
    accepted on kaggle.com first."""

    def __init__(self, competition: str) -> None:
        self.competition = competition
        self.url = competition_url(competition, "rules")
        super().__init__(
            f"Kaggle refused the download (403). Accept the rules of the competition at "
            f"{self.url}, then retry."
        )


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


def download_competition(
    competition: str,
    dest: Path,
    *,
    prepare_command: str | None = None,
    offline: str | None = None,
) -> Path:
    """Download ``<competition>.zip`` into ``dest`` through the Kaggle API; return its path.

    :class:`MissingCredentials` without credentials (its message names
    ``prepare_command``, the command preparing the task from a zip downloaded by hand, and
    ``offline``, the task's offline alternative if any), :class:`RulesNotAccepted` when
    Kaggle refuses the download, :class:`KaggleError` for any other failure."""
    if not has_credentials():
        raise MissingCredentials(competition, prepare_command=prepare_command, offline=offline)
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
            raise RulesNotAccepted(competition) from exc
        raise KaggleError(f"Kaggle download of '{competition}' failed: {text}") from exc
    zips = sorted(dest.glob("*.zip"))
    if not zips:
        raise KaggleError(f"Kaggle download of '{competition}' produced no zip in {dest}")
    return zips[0]


def extract_zip(zip_path: Path, dest: Path, max_bytes: int = MAX_UNCOMPRESSED) -> list[str]:
    """Extract ``zip_path`` into ``dest`` safely; return the extracted file names."""
    if zip_path.is_dir():
        raise KaggleError(f"{zip_path} is a folder; give the competition's zip file")
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
