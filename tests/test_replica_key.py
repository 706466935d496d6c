"""The secret replica key: replica answers depend on a per-installation secret, not on the
public seed alone, and the same key and seed still give byte-identical data."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import stat
import threading
from pathlib import Path

import numpy as np
import pytest

from mle_gym.data import replica_key, store
from mle_gym.families.mlebench import prepare as sources
from mle_gym.tasks import all_tasks, get_task

TASK = get_task("spaceship-titanic")
KEY_A = "11" * 32
KEY_B = "22" * 32


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty $MLE_GYM_HOME and no key in the environment (the key file is used)."""
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv(replica_key.ENV_VAR, raising=False)
    return tmp_path / "home"


def digests(data: store.PreparedData) -> dict[str, str]:
    """sha256 of every public and private file of a prepared variant."""
    return {
        str(p.relative_to(data.root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for sub in ("public", "private")
        for p in sorted((data.root / sub).rglob("*"))
        if p.is_file()
    }


def labels(data: store.PreparedData) -> list[str]:
    """The hidden answers' label column."""
    lines = (data.private / TASK.answers_file).read_text().splitlines()[1:]
    return [line.rsplit(",", 1)[1] for line in lines]


def test_key_file_created_once_with_mode_0600(home: Path) -> None:
    key = replica_key.load_key()
    path = home / "replica.key"
    assert path.read_bytes() == key and len(key) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert replica_key.load_key() == key  # reused, not replaced
    assert replica_key.key_id() == hashlib.sha256(key).hexdigest()[:8]
    assert [p.name for p in home.iterdir()] == ["replica.key"]  # no temporary left


def test_key_file_created_under_a_permissive_umask(home: Path) -> None:
    old = os.umask(0)
    try:
        replica_key.load_key()
    finally:
        os.umask(old)
    assert stat.S_IMODE((home / "replica.key").stat().st_mode) == 0o600


def test_concurrent_first_use_agrees_on_one_key(home: Path) -> None:
    keys: list[bytes] = []
    threads = [
        threading.Thread(target=lambda: keys.append(replica_key.load_key())) for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(keys) == 8 and len(set(keys)) == 1
    assert (home / "replica.key").read_bytes() == keys[0]


def test_two_installations_get_different_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(replica_key.ENV_VAR, raising=False)
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "one"))
    first = replica_key.load_key()
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "two"))
    assert replica_key.load_key() != first


def test_env_var_overrides_the_key_file(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(replica_key.ENV_VAR, f"  {KEY_A.upper()}\n")
    assert replica_key.load_key() == bytes.fromhex(KEY_A)
    assert replica_key.key_id() == hashlib.sha256(bytes.fromhex(KEY_A)).hexdigest()[:8]
    assert not (home / "replica.key").exists()  # no file is made when the variable is set


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("not-hex", "must be a hexadecimal string"),
        ("ab" * 8 + "c", "hexadecimal"),
        ("ab" * 15, "at least 16"),
    ],
)
def test_malformed_env_key_is_a_clear_error(
    home: Path, monkeypatch: pytest.MonkeyPatch, value: str, fragment: str
) -> None:
    monkeypatch.setenv(replica_key.ENV_VAR, value)
    with pytest.raises(replica_key.ReplicaKeyError, match=fragment):
        replica_key.load_key()


def test_unsafe_or_damaged_key_file_is_refused(home: Path) -> None:
    replica_key.load_key()
    path = home / "replica.key"
    path.chmod(0o644)
    with pytest.raises(replica_key.ReplicaKeyError, match=r"readable by others.*chmod 600"):
        replica_key.load_key()
    path.chmod(0o600)
    path.write_bytes(b"short")
    with pytest.raises(replica_key.ReplicaKeyError, match="holds 5 bytes instead of 32"):
        replica_key.load_key()
    path.unlink()
    path.symlink_to(home / "elsewhere")
    with pytest.raises(replica_key.ReplicaKeyError, match="cannot read the replica key"):
        replica_key.load_key()


def test_derived_seed_depends_on_key_task_and_seed() -> None:
    a, b = bytes.fromhex(KEY_A), bytes.fromhex(KEY_B)
    seed = replica_key.derive_seed("mlebench/spaceship-titanic", 0, a)
    assert seed == replica_key.derive_seed("mlebench/spaceship-titanic", 0, a)
    assert seed != replica_key.derive_seed("mlebench/spaceship-titanic", 0, b)
    assert seed != replica_key.derive_seed("mlebench/spaceship-titanic", 1, a)
    assert seed != replica_key.derive_seed("mlagentbench/spaceship-titanic", 0, a)
    assert seed not in (0, 1) and seed.bit_length() > 128
    with pytest.raises(TypeError, match="must be an int"):
        replica_key.derive_seed("mlebench/spaceship-titanic", "0", a)  # type: ignore[arg-type]


@pytest.mark.slow
def test_same_key_and_seed_give_identical_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_A)
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "machine1"))
    first = sources.prepare_replica(TASK, 0)
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "machine2"))  # another cache, same key
    second = sources.prepare_replica(TASK, 0)
    assert first.root != second.root
    assert digests(first) == digests(second)
    assert first.manifest()["files"] == second.manifest()["files"]


@pytest.mark.slow
def test_another_key_gives_other_answers_than_the_public_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_A)
    with_a = sources.prepare_replica(TASK, 0)
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_B)
    with_b = sources.prepare_replica(TASK, 0)
    public_seed = tmp_path / "public-seed"
    (public_seed / "public").mkdir(parents=True)
    (public_seed / "private").mkdir()
    TASK.module("prepare").replica(public_seed / "public", public_seed / "private", 0)
    naive = (public_seed / "private" / TASK.answers_file).read_text().splitlines()[1:]
    naive_labels = [line.rsplit(",", 1)[1] for line in naive]
    for data in (with_a, with_b):
        assert (data.private / TASK.answers_file).read_text().splitlines()[1:] != naive
    assert labels(with_a) != labels(with_b) != naive_labels
    assert (with_a.public / "train.csv").read_bytes() != (with_b.public / "train.csv").read_bytes()


@pytest.mark.slow
def test_manifest_and_folder_name_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_A)
    data = sources.prepare_replica(TASK, 3)
    key_id = hashlib.sha256(bytes.fromhex(KEY_A)).hexdigest()[:8]
    manifest = data.manifest()
    assert manifest["replica_key_id"] == key_id and manifest["replica_seed"] == 3
    assert data.variant == f"replica-seed3-key{key_id}" and data.root.name == data.variant
    text = (data.root / "MANIFEST.json").read_text()
    assert KEY_A not in text  # the key itself is never written out
    derived = replica_key.derive_seed(TASK.key, 3, bytes.fromhex(KEY_A))
    assert str(derived) not in text  # nor the generator seed that would rebuild the answers


@pytest.mark.slow
def test_cache_built_with_another_key_is_never_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_A)
    with_a = sources.prepare_replica(TASK, 0)
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_B)
    assert store.lookup(TASK, "replica", 0) is None
    resolved = sources.resolve(TASK, "replica", 0)  # regenerated with key B
    assert resolved.root != with_a.root and labels(resolved) != labels(with_a)
    assert resolved.manifest()["replica_key_id"] == replica_key.key_id()
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_A)  # A's variant is still intact and used
    assert store.lookup(TASK, "replica", 0) == with_a


@pytest.mark.slow
def test_variant_whose_manifest_names_another_key_is_regenerated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant folder carrying the current key id but built with another key (copied or
    renamed by hand) is not used: the manifest's key id must match too."""
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_B)
    genuine_b = labels(sources.prepare_replica(TASK, 0))
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_A)
    with_a = sources.prepare_replica(TASK, 0)
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_B)
    target = store.variant_dir(TASK, store.variant_name("replica", 0))
    shutil.rmtree(target)
    with_a.root.rename(target)  # A's data under B's folder name
    assert store.lookup(TASK, "replica", 0) is None
    rebuilt = sources.resolve(TASK, "replica", 0)
    assert rebuilt.root == target and labels(rebuilt) == genuine_b
    assert (
        json.loads((target / "MANIFEST.json").read_text())["replica_key_id"] == replica_key.key_id()
    )


@pytest.mark.slow
def test_mlagentbench_replica_uses_the_key_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mle_gym.families.mlagentbench import prepare as mlab_data

    task = get_task("MLAgentBench/house-price")
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_A)
    with_a = mlab_data.prepare_replica(task, 0)
    monkeypatch.setenv(replica_key.ENV_VAR, KEY_B)
    with_b = mlab_data.prepare_replica(task, 0)
    assert with_a.manifest()["replica_key_id"] != with_b.manifest()["replica_key_id"]
    files_a, files_b = with_a.manifest()["files"], with_b.manifest()["files"]
    private = [rel for rel in files_a if rel.startswith("private/")]
    assert private and all(files_a[rel]["sha256"] != files_b[rel]["sha256"] for rel in private)


def test_movie_review_generator_draws_from_pcg64_not_the_mersenne_twister() -> None:
    """The Twister's state can be solved for from its outputs (the public phrases); the
    movie-review generator, the one that used ``random.Random``, now draws from PCG64."""
    module = get_task("movie-review-sentiment-analysis-kernels-only").module("prepare")
    seed = replica_key.derive_seed("mlebench/movie-review-sentiment-analysis-kernels-only", 0)
    rng = module._Pcg64Random(seed)
    raw = np.random.PCG64(seed).random_raw(3).tolist()
    assert rng.getrandbits(64) == raw[0]
    assert rng.random() == (raw[1] >> 11) / 2**53
    assert rng.getrandbits(7) == raw[2] >> 57
    again = module._Pcg64Random(seed)
    twister = random.Random(seed)
    assert [again.randrange(1000) for _ in range(50)] != [
        twister.randrange(1000) for _ in range(50)
    ]


_TWISTER_OR_GLOBAL = re.compile(
    r"\brandom\.(Random|seed|random|choice|choices|shuffle|sample|randint|randrange|gauss)\("
    r"|\bnp\.random\.(seed|RandomState|rand|randn|randint|choice|random|shuffle|normal)\("
)


def test_no_replica_generator_uses_global_or_twister_randomness() -> None:
    """Every draw of a replica generator must come from the (secret-derived) seed it is given,
    through PCG64: global state would not depend on the key, and the Twister's state can be
    solved for from the public rows."""
    generators = sorted(
        {t.folder / "prepare.py" for t in all_tasks().values() if "replica" in t.data}
    )
    assert len(generators) >= 12
    for path in generators:
        hits = [m.group(0) for m in _TWISTER_OR_GLOBAL.finditer(path.read_text())]
        assert not hits, f"{path}: {hits}"
