"""Data of MLAgentBench/parkinsons (Kaggle's "amp-parkinsons-disease-progression-prediction").

The competition zip holds ``train_clinical_data.csv`` (visit_id, patient_id,
visit_month, updrs_1..updrs_4, upd23b_clinical_state_on_medication),
``train_proteins.csv`` (visit_id, visit_month, patient_id, UniProt, NPX),
``train_peptides.csv`` (visit_id, visit_month, patient_id, UniProt, Peptide,
PeptideAbundance) and ``supplemental_clinical_data.csv``.

``prepare`` holds out whole patients, as MLAgentBench does (it held out 2; we hold out
20%, at least 2, for a steadier score; seeded): their protein and peptide measurements
and visits become ``test_*.csv`` and the ratings to predict stay private. A prediction
is wanted for every test visit, UPDRS part (1-4) and horizon (0, 6, 12, 24 months later)
whose rating is known: ``prediction_id`` = ``<patient>_<month>_updrs_<k>_plus_<m>_months``.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlagentbench.authoring import fetch_kaggle, find_one

COMPETITION = "amp-parkinsons-disease-progression-prediction"
TASK = "MLAgentBench/parkinsons"
FILES = ["train_clinical_data.csv", "train_proteins.csv", "train_peptides.csv",
         "supplemental_clinical_data.csv"]  # fmt: skip
TEST_FRACTION = 0.2
HORIZONS = (0, 6, 12, 24)
SEED = 42


def download(raw_dir: Path) -> None:
    fetch_kaggle(COMPETITION, raw_dir, task=TASK)


def _tables(raw_dir: Path) -> dict[str, pd.DataFrame]:
    found = find_one(
        raw_dir, ("train_clinical_data.csv", "*.zip"), task=TASK, what="train_clinical_data.csv"
    )
    if found.suffix == ".zip":
        with zipfile.ZipFile(found) as archive:
            names = {n.rsplit("/", 1)[-1]: n for n in archive.namelist()}
            missing = [f for f in FILES if f not in names]
            if missing:
                raise FileNotFoundError(f"{TASK}: {found.name} lacks {missing}")
            return {f: pd.read_csv(archive.open(names[f])) for f in FILES}
    missing = [f for f in FILES if not (found.parent / f).is_file()]
    if missing:
        raise FileNotFoundError(f"{TASK}: {found.parent} lacks {missing}")
    return {f: pd.read_csv(found.parent / f) for f in FILES}


def targets(clinical: pd.DataFrame) -> pd.DataFrame:
    """One row per (visit, UPDRS part, horizon) whose future rating is known."""
    rows = []
    known = clinical.set_index(["patient_id", "visit_month"])
    for visit in clinical.itertuples(index=False):
        for part in range(1, 5):
            for plus in HORIZONS:
                key = (visit.patient_id, visit.visit_month + plus)
                if key not in known.index:
                    continue
                rating = known.loc[key, f"updrs_{part}"]
                if isinstance(rating, pd.Series):
                    rating = rating.iloc[0]
                if pd.isna(rating):
                    continue
                rows.append(
                    {
                        "prediction_id": f"{visit.patient_id}_{visit.visit_month}_updrs_{part}"
                        f"_plus_{plus}_months",
                        "rating": float(rating),
                    }
                )
    return pd.DataFrame(rows, columns=["prediction_id", "rating"])


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    tables = _tables(raw_dir)
    clinical = tables["train_clinical_data.csv"]
    patients = np.sort(clinical["patient_id"].unique())
    rng = np.random.default_rng(SEED)
    n_test = max(2, round(len(patients) * TEST_FRACTION))
    test_patients = set(rng.choice(patients, size=n_test, replace=False).tolist())

    def split(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
        mask = frame["patient_id"].isin(test_patients)
        return frame[~mask], frame[mask]

    train_clinical, test_clinical = split(clinical)
    train_clinical.to_csv(public_dir / "train_clinical_data.csv", index=False)
    split(tables["supplemental_clinical_data.csv"])[0].to_csv(
        public_dir / "supplemental_clinical_data.csv", index=False
    )
    for name, test_name in (("train_proteins.csv", "test_proteins.csv"),
                            ("train_peptides.csv", "test_peptides.csv")):  # fmt: skip
        train_part, test_part = split(tables[name])
        train_part.to_csv(public_dir / name, index=False)
        test_part.to_csv(public_dir / test_name, index=False)
    test_clinical[["visit_id", "patient_id", "visit_month"]].to_csv(
        public_dir / "test_visits.csv", index=False
    )
    answers = targets(test_clinical)
    answers.to_csv(private_dir / "answers.csv", index=False)
    sample = answers.assign(rating=0.0)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
