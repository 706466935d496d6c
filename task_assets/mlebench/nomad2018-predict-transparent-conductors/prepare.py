"""Data preparation for nomad2018-predict-transparent-conductors.

``prepare(raw_dir, public_dir, private_dir)`` reproduces MLE-bench's split of
Kaggle's files. Kaggle's zip holds nested zips; only ``train.csv.zip`` (the
2,400 labelled materials, ``id`` 1..2400) and ``train.zip`` (one
``train/<id>/geometry.xyz`` per material) are used. The table is split with
scikit-learn's ``train_test_split(test_size=0.1, random_state=0)`` semantics
into 2,160 training and 240 held-out materials, and each part is renumbered
1, 2, ... in split order. The agent sees

* ``train.csv`` and ``test.csv`` (the held-out rows without the two targets),
* ``train/<new id>/geometry.xyz`` and ``test/<new id>/geometry.xyz`` (copies of
  the matching Kaggle training geometries),
* ``sample_submission.csv`` with constant predictions 0.1779 and 1.8892;

the held-out rows with their targets are the private ``test.csv``.

``replica(public_dir, private_dir, seed)`` writes an offline stand-in with the
same files, columns and split, from a seeded generator.

Grading note: MLE-bench's grader pairs submission and answer rows by position
(it never sorts by id), while the generic grader used here pairs them by id;
both give the same score for a submission in the sample submission's order.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring import extract_zip, read_csv_exact, train_test_split_like_sklearn

ID = "id"
TARGETS = ["formation_energy_ev_natom", "bandgap_energy_ev"]
FEATURES = [
    "spacegroup",
    "number_of_total_atoms",
    "percent_atom_al",
    "percent_atom_ga",
    "percent_atom_in",
    "lattice_vector_1_ang",
    "lattice_vector_2_ang",
    "lattice_vector_3_ang",
    "lattice_angle_alpha_degree",
    "lattice_angle_beta_degree",
    "lattice_angle_gamma_degree",
]
COLUMNS = [ID, *FEATURES, *TARGETS]
SAMPLE_VALUES = {"formation_energy_ev_natom": 0.1779, "bandgap_energy_ev": 1.8892}
GEOMETRY = "geometry.xyz"

# write_geometry(old_id, destination_file) places one material's geometry file.
GeometryWriter = Callable[[int, Path], None]


def split_and_write(
    train: pd.DataFrame, public_dir: Path, private_dir: Path, write_geometry: GeometryWriter
) -> None:
    """Split a labelled table as MLE-bench does, renumber both parts, write all files."""
    new_train, new_test = train_test_split_like_sklearn(train, test_size=0.1, random_state=0)
    new_train = new_train.copy()
    new_test = new_test.copy()
    train_ids = {old: new for new, old in enumerate(new_train[ID], start=1)}
    test_ids = {old: new for new, old in enumerate(new_test[ID], start=1)}
    new_train[ID] = new_train[ID].map(train_ids)
    new_test[ID] = new_test[ID].map(test_ids)

    new_train.to_csv(public_dir / "train.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)
    new_test.drop(columns=TARGETS).to_csv(public_dir / "test.csv", index=False)
    for folder, mapping in (("train", train_ids), ("test", test_ids)):
        for old, new in mapping.items():
            destination = public_dir / folder / str(new) / GEOMETRY
            destination.parent.mkdir(parents=True, exist_ok=True)
            write_geometry(int(old), destination)
    sample = pd.DataFrame({ID: new_test[ID], **SAMPLE_VALUES})
    sample.to_csv(public_dir / "sample_submission.csv", index=False)


def _unpacked(raw_dir: Path, name: str) -> Path:
    """Folder holding the contents of Kaggle's nested ``<name>.zip`` (extracted once)."""
    target = raw_dir / "_unzipped" / name
    if not target.is_dir():
        extract_zip(raw_dir / f"{name}.zip", target)
    return target


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (the extracted competition zip in ``raw_dir``)."""
    table_path = raw_dir / "train.csv"
    if not table_path.is_file():
        table_path = _unpacked(raw_dir, "train.csv") / "train.csv"
    geometry_root = raw_dir / "train"
    if not geometry_root.is_dir():
        geometry_root = _unpacked(raw_dir, "train") / "train"
    # One folder per Kaggle id, as MLE-bench reads them: train/<id>/*.xyz.
    sources = {int(p.parent.name): p for p in sorted(geometry_root.glob("*/*.xyz"))}
    train = read_csv_exact(table_path)
    missing = sorted(set(train[ID].astype(int)) - set(sources))
    if missing:
        raise FileNotFoundError(
            f"{len(missing)} training materials have no geometry file in train.zip, "
            f"e.g. ids {missing[:5]}"
        )

    def copy_geometry(old_id: int, destination: Path) -> None:
        shutil.copy(sources[old_id], destination)

    split_and_write(train, public_dir, private_dir, copy_geometry)


# ---------------------------------------------------------------------------
# Offline replica
# ---------------------------------------------------------------------------
#
# Sesquioxides (Al, Ga, In)2O3: two metal atoms per three oxygens, in six
# crystal structures (space groups) with cells of 10 to 80 atoms. The cell
# volume follows Vegard's law in the cation mix (indium is large, aluminium
# small) with a structure-specific packing; the cell shape comes from each
# structure's reference shape. The band gap falls from aluminium to gallium to
# indium with bowing for mixtures and shifts per structure; the formation
# energy rises with size mismatch between the cations, with structure- and
# composition-dependent offsets and a penalty for strained (over- or
# under-sized) cells. Both targets carry noise. Geometry files list the cell
# vectors and every atom (cations and oxygens) in Kaggle's text layout.

N_ROWS = 2400
SPACEGROUPS = np.array([12, 33, 167, 194, 206, 227])
_SPACEGROUP_P = np.array([0.135, 0.159, 0.162, 0.197, 0.190, 0.157])
# Per structure: allowed cell sizes (atoms), their probabilities, and per size a
# reference cell (lengths in Angstrom, angles in degrees) for a gallium-rich mix.
_CELLS: dict[int, list[tuple[int, float, tuple[float, ...]]]] = {
    12: [
        (20, 0.35, (12.20, 3.04, 5.80, 90.0, 103.8, 90.0)),
        (40, 0.45, (12.20, 6.08, 5.80, 90.0, 103.8, 90.0)),
        (80, 0.20, (24.40, 6.08, 5.80, 90.0, 103.8, 90.0)),
    ],
    33: [
        (40, 0.55, (5.07, 8.70, 9.31, 90.0, 90.0, 90.0)),
        (80, 0.45, (10.14, 8.70, 9.31, 90.0, 90.0, 90.0)),
    ],
    167: [
        (10, 0.45, (5.32, 5.32, 5.32, 55.3, 55.3, 55.3)),
        (30, 0.55, (4.98, 4.98, 13.43, 90.0, 90.0, 120.0)),
    ],
    194: [
        (10, 0.40, (3.10, 3.10, 12.10, 90.0, 90.0, 120.0)),
        (80, 0.60, (6.20, 6.20, 24.20, 90.0, 90.0, 120.0)),
    ],
    206: [
        (40, 0.45, (8.70, 8.70, 8.70, 109.47, 109.47, 109.47)),
        (80, 0.55, (9.60, 9.60, 9.60, 90.0, 90.0, 90.0)),
    ],
    227: [
        (10, 0.35, (6.10, 6.10, 6.10, 60.0, 60.0, 60.0)),
        (40, 0.65, (9.95, 5.78, 14.25, 90.97, 91.12, 30.52)),
    ],
}
_VOLUME_PER_ATOM = np.array([8.55, 10.45, 12.95])  # Al2O3, Ga2O3, In2O3 (cubic Angstrom)
_PACKING = {12: 1.00, 33: 0.985, 167: 0.965, 194: 1.02, 206: 1.0, 227: 1.035}
_GAP_END = np.array([5.3, 2.05, 0.6])  # pure Al, Ga, In band gaps (eV)
_GAP_SHIFT = {12: 0.0, 33: 0.12, 167: 0.25, 194: -0.35, 206: 0.05, 227: -0.45}
_FORMATION_BASE = {12: 0.06, 33: 0.08, 167: 0.07, 194: 0.14, 206: 0.05, 227: 0.16}
# Structure preference per cation (negative = favoured): rows follow SPACEGROUPS.
_NATIVE = np.array(
    [
        [0.02, -0.06, 0.06],
        [0.00, -0.03, 0.03],
        [-0.08, 0.02, 0.10],
        [0.05, 0.04, 0.02],
        [0.06, 0.02, -0.07],
        [0.08, 0.05, 0.00],
    ]
)
_ELEMENTS = np.array(["Al", "Ga", "In"])


def _compositions(rng: np.random.Generator, cations: np.ndarray) -> np.ndarray:
    """Cation counts (n x 3: Al, Ga, In) summing to ``cations`` per row."""
    n = len(cations)
    present = np.ones((n, 3), dtype=bool)
    kind = rng.choice(3, size=n, p=[0.06, 0.38, 0.56])  # one, two or three cation types
    for i in np.flatnonzero(kind < 2):
        keep = rng.choice(3, size=kind[i] + 1, replace=False)
        present[i] = False
        present[i, keep] = True
    weights = rng.dirichlet(np.ones(3), size=n) * present
    weights /= weights.sum(axis=1, keepdims=True)
    counts = np.floor(weights * cations[:, None]).astype(int)
    remainder = weights * cations[:, None] - counts
    for i in range(n):  # hand out what rounding down left, largest remainders first
        short = int(cations[i] - counts[i].sum())
        if short:
            counts[i, np.argsort(-remainder[i])[:short]] += 1
    return counts


def _cell_volume(lengths: np.ndarray, angles_deg: np.ndarray) -> np.ndarray:
    """Volume of cells given (n x 3) lengths and (n x 3) angles alpha, beta, gamma."""
    c = np.cos(np.radians(angles_deg))
    root = 1 - (c**2).sum(axis=1) + 2 * c[:, 0] * c[:, 1] * c[:, 2]
    return lengths.prod(axis=1) * np.sqrt(np.clip(root, 1e-9, None))


def _cell_vectors(lengths: np.ndarray, angles_deg: np.ndarray) -> np.ndarray:
    """Cartesian cell vectors (3 x 3, one vector per row) for one cell."""
    a, b, c = lengths
    alpha, beta, gamma = np.radians(angles_deg)
    bx, by = b * np.cos(gamma), b * np.sin(gamma)
    cx = c * np.cos(beta)
    cy = c * (np.cos(alpha) - np.cos(beta) * np.cos(gamma)) / np.sin(gamma)
    cz = np.sqrt(max(c**2 - cx**2 - cy**2, 1e-9))
    return np.array([[a, 0.0, 0.0], [bx, by, 0.0], [cx, cy, cz]])


def _geometry_text(rng: np.random.Generator, vectors: np.ndarray, counts: np.ndarray) -> str:
    """A geometry file: cell vectors, then each atom's Cartesian position and element."""
    cations = np.repeat(_ELEMENTS, counts)
    rng.shuffle(cations)
    n_oxygen = len(cations) * 3 // 2
    symbols = np.concatenate([cations, np.full(n_oxygen, "O")])
    n_atoms = len(symbols)
    side = int(np.ceil(n_atoms ** (1 / 3)))
    slots = rng.permutation(side**3)[:n_atoms]
    grid = np.stack([slots // side**2, (slots // side) % side, slots % side], axis=1)
    fractional = (grid + 0.5 + rng.normal(0.0, 0.06, size=(n_atoms, 3))) / side
    positions = fractional @ vectors
    lines = [
        "#=======================================================",
        "#Created using the Atomic Simulation Environment (ASE)",
        "#=======================================================",
    ]
    lines += [f"lattice_vector {x:.16f} {y:.16f} {z:.16f} " for x, y, z in vectors]
    lines += [
        f"atom {x:.16f} {y:.16f} {z:.16f} {el}"
        for (x, y, z), el in zip(positions, symbols, strict=True)
    ]
    return "\n".join(lines) + "\n"


def _replica_data(seed: int) -> tuple[pd.DataFrame, dict[int, str]]:
    """The labelled replica table (Kaggle's train.csv columns) and each id's geometry text."""
    rng = np.random.default_rng(seed)
    n = N_ROWS
    group = SPACEGROUPS[rng.choice(len(SPACEGROUPS), size=n, p=_SPACEGROUP_P)]
    atoms = np.empty(n, dtype=int)
    reference = np.empty((n, 6))
    for sg, options in _CELLS.items():
        rows = np.flatnonzero(group == sg)
        pick = rng.choice(len(options), size=len(rows), p=[o[1] for o in options])
        atoms[rows] = [options[k][0] for k in pick]
        reference[rows] = [options[k][2] for k in pick]
    counts = _compositions(rng, atoms * 2 // 5)
    fraction = counts / counts.sum(axis=1, keepdims=True)

    # Cell: Vegard volume with structure packing, reference shape, small distortions.
    packing = np.array([_PACKING[g] for g in group])
    strain = rng.normal(0.0, 0.012, size=n)
    volume = atoms * (fraction @ _VOLUME_PER_ATOM) * packing * (1 + strain)
    angles = reference[:, 3:] + rng.normal(0.0, 0.012, size=(n, 3))
    shape = reference[:, :3] * (1 + rng.normal(0.0, 0.01, size=(n, 3)))
    scale = np.cbrt(volume / _cell_volume(shape, angles))
    lengths = shape * scale[:, None]

    al, ga, inn = fraction.T
    sg_index = np.searchsorted(SPACEGROUPS, group)
    gap = (
        fraction @ _GAP_END
        - 1.7 * al * ga
        - 3.2 * al * inn
        - 0.9 * ga * inn
        + np.array([_GAP_SHIFT[g] for g in group])
        - 6.0 * strain
    )
    gap = gap * rng.lognormal(0.0, 0.09, size=n) + rng.normal(0.0, 0.12, size=n)
    formation = (
        np.array([_FORMATION_BASE[g] for g in group])
        + 0.42 * al * inn
        + 0.16 * al * ga
        + 0.20 * ga * inn
        + (_NATIVE[sg_index] * fraction).sum(axis=1)
        + 2.5 * strain**2 * 100
        - 0.03 * (atoms == 10)
    )
    formation = formation * rng.lognormal(0.0, 0.16, size=n) + rng.normal(0.0, 0.022, size=n)

    table = pd.DataFrame(
        {
            ID: np.arange(1, n + 1, dtype=np.int64),
            "spacegroup": group.astype(np.int64),
            "number_of_total_atoms": atoms.astype(float),
            "percent_atom_al": np.round(al, 4),
            "percent_atom_ga": np.round(ga, 4),
            "percent_atom_in": np.round(inn, 4),
            "lattice_vector_1_ang": np.round(lengths[:, 0], 4),
            "lattice_vector_2_ang": np.round(lengths[:, 1], 4),
            "lattice_vector_3_ang": np.round(lengths[:, 2], 4),
            "lattice_angle_alpha_degree": np.round(angles[:, 0], 4),
            "lattice_angle_beta_degree": np.round(angles[:, 1], 4),
            "lattice_angle_gamma_degree": np.round(angles[:, 2], 4),
            "formation_energy_ev_natom": np.round(np.clip(formation, 0.0, 0.66), 4),
            "bandgap_energy_ev": np.round(np.clip(gap, 0.0001, 5.29), 4),
        }
    )[COLUMNS]
    geometry = {
        i + 1: _geometry_text(rng, _cell_vectors(lengths[i], angles[i]), counts[i])
        for i in range(n)
    }
    return table, geometry


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate synthetic sesquioxide materials and write them like :func:`prepare` does.

    Full size: 2,400 labelled materials with Kaggle's train.csv columns and
    number formats (cell sizes as floats such as ``80.0``, shares of 1/16 or
    1/32 rounded to four decimals) and one ``geometry.xyz`` each. They go
    through :func:`split_and_write`, so the files, the 2,160/240 split, the id
    renumbering and the geometry folders are MLE-bench's. Deterministic: the
    same ``seed`` gives byte-identical files.
    """
    table, geometry = _replica_data(seed)

    def write_geometry(old_id: int, destination: Path) -> None:
        destination.write_text(geometry[old_id], encoding="utf-8")

    split_and_write(table, public_dir, private_dir, write_geometry)
