"""Data preparation for jigsaw-toxic-comment-classification-challenge.

Kaggle's zip holds four inner archives, each with a single CSV at its root:
``train.csv.zip`` (159,571 labelled comments: ``id``, ``comment_text`` and the six
0/1 label columns), ``test.csv.zip`` (153,164 unlabelled comments),
``test_labels.csv.zip`` (the labels Kaggle published after the competition, ``-1``
in every column for the rows that were never scored) and
``sample_submission.csv.zip``.

MLE-bench does not split anything: Kaggle's test set is the test set. The agent
gets ``train.csv``, ``test.csv`` and a sample submission whose six columns are all
0.5; the private answers are ``test_labels.csv`` as it is, -1 rows included (the
grader drops them, see grade.py).
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.authoring import extract_zip, read_csv_exact

ID = "id"
LABELS = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]
_INNER = ("train.csv", "test.csv", "test_labels.csv", "sample_submission.csv")


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    for name in _INNER:
        if not (raw_dir / name).is_file():
            extract_zip(raw_dir / f"{name}.zip", raw_dir)

    train = read_csv_exact(raw_dir / "train.csv")
    test = read_csv_exact(raw_dir / "test.csv")
    answers = read_csv_exact(raw_dir / "test_labels.csv")
    sample = read_csv_exact(raw_dir / "sample_submission.csv")
    sample[LABELS] = 0.5

    if len(answers) != len(sample) or sorted(answers[ID]) != sorted(test[ID]):
        raise ValueError("test_labels.csv and test.csv do not hold the same ids")
    if sorted(sample[ID]) != sorted(test[ID]):
        raise ValueError("sample_submission.csv and test.csv do not hold the same ids")
    if set(train[ID]) & set(test[ID]):
        raise ValueError("train.csv and test.csv share ids")

    train.to_csv(public_dir / "train.csv", index=False)
    test.to_csv(public_dir / "test.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    answers.to_csv(private_dir / "test.csv", index=False)
