"""Small raw files in the real formats of MLAgentBench tasks' sources (shared by tests)."""

from __future__ import annotations

import gzip
import io
import json
import struct
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd


def write_zip(path: Path, files: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return path


def write_tar(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, content in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return path


def safetensors_bytes(shape: tuple[int, ...] = (2, 2)) -> bytes:
    data = np.zeros(shape, dtype=np.float32).tobytes()
    header = json.dumps(
        {"w": {"dtype": "F32", "shape": list(shape), "data_offsets": [0, len(data)]}}
    ).encode()
    return struct.pack("<Q", len(header)) + header + data


def _gz(values: list[str]) -> bytes:
    return gzip.compress(("\n".join(values) + "\n").encode())


def arxiv_zip(path: Path, n: int = 60, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 40, n)
    centres = rng.normal(size=(40, 128))
    feats = centres[labels] + rng.normal(scale=0.3, size=(n, 128))
    edges = rng.integers(0, n, (3 * n, 2))
    order = np.arange(n)
    files = {
        "arxiv/raw/edge.csv.gz": _gz([f"{a},{b}" for a, b in edges]),
        "arxiv/raw/node-feat.csv.gz": _gz([",".join(f"{v:.6f}" for v in row) for row in feats]),
        "arxiv/raw/node-label.csv.gz": _gz([str(v) for v in labels]),
        "arxiv/raw/node_year.csv.gz": _gz([str(2010 + i % 10) for i in order]),
        "arxiv/raw/num-node-list.csv.gz": _gz([str(n)]),
        "arxiv/raw/num-edge-list.csv.gz": _gz([str(len(edges))]),
        "arxiv/split/time/train.csv.gz": _gz([str(i) for i in order[: n // 2]]),
        "arxiv/split/time/valid.csv.gz": _gz([str(i) for i in order[n // 2 : 3 * n // 4]]),
        "arxiv/split/time/test.csv.gz": _gz([str(i) for i in order[3 * n // 4 :]]),
        "arxiv/mapping/labelidx2arxivcategeory.csv.gz": _gz(
            ["label idx,arxiv category", "0,cs na"]
        ),
    }
    return write_zip(path, files)


def parkinsons_zip(path: Path, patients: int = 10, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    clinical, proteins, peptides = [], [], []
    for p in range(1, patients + 1):
        for month in (0, 6, 12, 24, 36):
            visit = f"{p}_{month}"
            row = {"visit_id": visit, "patient_id": p, "visit_month": month}
            base = 5 + month / 12
            for k in range(1, 5):
                row[f"updrs_{k}"] = (
                    float(round(base * k / 2 + rng.normal())) if k < 4 or month else np.nan
                )
            row["upd23b_clinical_state_on_medication"] = "On" if month else ""
            clinical.append(row)
            for uniprot in ("O00391", "P00441"):
                proteins.append(
                    {
                        "visit_id": visit,
                        "visit_month": month,
                        "patient_id": p,
                        "UniProt": uniprot,
                        "NPX": float(rng.lognormal(10)),
                    }
                )
                peptides.append(
                    {
                        "visit_id": visit,
                        "visit_month": month,
                        "patient_id": p,
                        "UniProt": uniprot,
                        "Peptide": "NEQEQPLGQWHLS",
                        "PeptideAbundance": float(rng.lognormal(9)),
                    }
                )
    supplemental = [
        {
            "visit_id": f"{p}_3",
            "patient_id": p,
            "visit_month": 3,
            "updrs_1": 4.0,
            "updrs_2": 5.0,
            "updrs_3": 10.0,
            "updrs_4": 0.0,
            "upd23b_clinical_state_on_medication": "",
        }
        for p in range(1, patients + 1)
    ]
    files = {
        "train_clinical_data.csv": pd.DataFrame(clinical).to_csv(index=False),
        "train_proteins.csv": pd.DataFrame(proteins).to_csv(index=False),
        "train_peptides.csv": pd.DataFrame(peptides).to_csv(index=False),
        "supplemental_clinical_data.csv": pd.DataFrame(supplemental).to_csv(index=False),
        "public_timeseries_testing_util.py": "# API stub of the competition\n",
    }
    return write_zip(path, files)


def feedback_train(n: int, seed: int = 0) -> str:
    rng = np.random.default_rng(seed)
    words = [
        "good",
        "bad",
        "because",
        "however",
        "therefore",
        "i",
        "think",
        "school",
        "student",
        "very",
    ]
    rows = []
    for i in range(n):
        level = rng.integers(2, 9) / 2
        length = int(20 + 30 * level)
        text = " ".join(rng.choice(words, length))
        scores = {
            m: min(5.0, max(1.0, round((level + rng.normal(0, 0.3)) * 2) / 2))
            for m in ("cohesion", "syntax", "vocabulary", "phraseology", "grammar", "conventions")
        }
        rows.append({"text_id": f"{i:012X}", "full_text": text, **scores})
    return pd.DataFrame(rows).to_csv(index=False)
