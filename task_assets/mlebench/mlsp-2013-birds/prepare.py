"""Data preparation for mlsp-2013-birds.

Kaggle's zip holds ``mlsp_contest_dataset.zip`` (plus the PDF documentation),
which unpacks to ``mlsp_contest_dataset/`` with ``essential_data/`` (the 645
ten-second recordings as ``src_wavs/<filename>.wav``, ``rec_id2filename.txt``,
``CVfolds_2.txt``, ``rec_labels_test_hidden.txt``, ``species_list.txt``) and
``supplemental_data/`` (spectrogram BMPs in four folders, segment features,
rectangles and histograms, two overview BMPs).

MLE-bench keeps only Kaggle's training fold (fold 0, 322 recordings) and renumbers
it ``0..n-1`` in file order. ``DataFrame.sample(frac=0.2, random_state=0)`` on that
fold picks the new test recordings (64), marked fold 1. Every per-recording file
is filtered to those recordings and rewritten with the new ids; test labels are
replaced by ``?`` in the public label file. Audio and images are copied, never
decoded.

The answers hold one row per (test recording, species) pair for the 19 species,
``Id = rec_id * 100 + species`` and ``Probability`` 1 if the species is present,
else 0; the sample submission lists the same ids with 0.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd

from mle_gym.authoring import extract_zip, read_csv_exact

N_SPECIES = 19
DATASET = "mlsp_contest_dataset"
SPECTROGRAM_FOLDERS = ("filtered_spectrograms", "spectrograms", "supervised_segmentation")
# MLE-bench writes this header on all three filtered feature files, whatever their own was.
FEATURE_HEADER = "rec_id,[histogram of segment features]"
FEATURE_FILES = ("histogram_of_segments.txt", "segment_features.txt", "segment_rectangles.txt")


def _lines(path: Path) -> list[str]:
    """The lines of a text file after its header line."""
    return path.read_text(encoding="utf-8").splitlines()[1:]


def _write_lines(path: Path, header: str, lines: list[str]) -> None:
    path.write_text("".join(f"{line}\n" for line in [header, *lines]), encoding="utf-8")


def _renumbered(path: Path, new_id: dict[int, int]) -> list[str]:
    """Rows of a ``rec_id,...`` text file for kept recordings, with their new ids."""
    out = []
    for line in _lines(path):
        old, _, rest = line.partition(",")
        if int(old) in new_id:
            out.append(f"{new_id[int(old)]},{rest}")
    return out


def _labels(path: Path, new_id: dict[int, int]) -> list[tuple[int, str]]:
    """(new rec_id, comma-separated species or "") for the kept recordings, in file order."""
    out = []
    for line in _lines(path):
        old, _, rest = line.partition(",")
        if int(old) in new_id:
            out.append((new_id[int(old)], rest))
    return out


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    if not (raw_dir / DATASET).is_dir():
        extract_zip(raw_dir / f"{DATASET}.zip", raw_dir)
    src = raw_dir / DATASET
    essential_in, supplemental_in = src / "essential_data", src / "supplemental_data"
    essential, supplemental = public_dir / "essential_data", public_dir / "supplemental_data"
    essential.mkdir()
    supplemental.mkdir()

    # Kaggle's training fold, renumbered, with 20% of it moved to the new test fold.
    folds = read_csv_exact(essential_in / "CVfolds_2.txt")
    folds = folds[folds["fold"] == 0].reset_index(drop=True)
    folds.loc[folds.sample(frac=0.2, random_state=0).index, "fold"] = 1
    new_id = {int(old): new for new, old in enumerate(folds["rec_id"])}
    folds["rec_id"] = folds.index
    folds.to_csv(essential / "CVfolds_2.txt", index=False)
    test_ids = [int(i) for i in folds.loc[folds["fold"] == 1, "rec_id"]]
    test_set = set(test_ids)

    names = read_csv_exact(essential_in / "rec_id2filename.txt")
    names = names[names["rec_id"].isin(list(new_id))].copy()
    names["rec_id"] = names["rec_id"].map(new_id)
    names.to_csv(essential / "rec_id2filename.txt", index=False)
    if len(names) != len(folds):
        raise ValueError(f"rec_id2filename.txt names {len(names)} of the {len(folds)} recordings")

    labels = _labels(essential_in / "rec_labels_test_hidden.txt", new_id)
    public_labels = []
    for rec_id, species in labels:
        shown = "?" if rec_id in test_set else species
        public_labels.append(f"{rec_id},{shown}" if shown else str(rec_id))
    _write_lines(essential / "rec_labels_test_hidden.txt", "rec_id,[labels]", public_labels)

    answers: dict[str, list[int]] = {"Id": [], "Probability": []}
    for rec_id, species in labels:
        if rec_id not in test_set:
            continue
        present = {int(s) for s in species.split(",") if s != ""}
        for k in range(N_SPECIES):
            answers["Id"].append(rec_id * 100 + k)
            answers["Probability"].append(int(k in present))
    pd.DataFrame(answers).to_csv(private_dir / "answers.csv", index=False)

    sample = pd.DataFrame(
        {"Id": [r * 100 + k for r in test_ids for k in range(N_SPECIES)], "Probability": 0}
    )
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    if len(answers["Id"]) != len(sample):
        raise ValueError("the label file does not list every test recording exactly once")

    shutil.copyfile(essential_in / "species_list.txt", essential / "species_list.txt")
    wavs = essential / "src_wavs"
    wavs.mkdir()
    for filename in names["filename"]:
        shutil.copyfile(essential_in / "src_wavs" / f"{filename}.wav", wavs / f"{filename}.wav")

    for folder in (*SPECTROGRAM_FOLDERS, "segmentation_examples"):
        (supplemental / folder).mkdir()
    for filename in names["filename"]:
        bmp = f"{filename}.bmp"
        for folder in SPECTROGRAM_FOLDERS:
            shutil.copyfile(supplemental_in / folder / bmp, supplemental / folder / bmp)
        example = supplemental_in / "segmentation_examples" / bmp
        if example.exists():  # only a few training recordings have one
            shutil.copyfile(example, supplemental / "segmentation_examples" / bmp)
    for overview in ("segment_clusters.bmp", "segment_mosaic.bmp"):
        shutil.copyfile(supplemental_in / overview, supplemental / overview)
    for name in FEATURE_FILES:
        rows = _renumbered(supplemental_in / name, new_id)
        _write_lines(supplemental / name, FEATURE_HEADER, rows)
