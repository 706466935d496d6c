"""Hidden evaluator of MLAgentBench/identify-contrails: the Dice coefficient of each test
record's predicted contrail mask against the private human mask, averaged over records
(as MLAgentBench scores it; an empty prediction of an empty mask counts 1).

submission.csv has ``record_id,encoded_pixels``: one row per test record, the mask
run-length encoded as space-separated ``start length`` pairs over the pixels in
column-major order, starts 1-based (``-`` for an empty mask)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mle_gym.families.mlagentbench.authoring import (
    EvalJob,
    Evaluation,
    EvaluationFailed,
    check_file,
    read_predictions,
    submission_spec,
)

SUBMISSION = submission_spec("submission.csv", "record_id", ["encoded_pixels"], "label")
SMOOTH = 1e-6


def rle_decode(text: str, shape: tuple[int, int], record: str) -> np.ndarray:
    """A 0/1 mask from ``start length`` pairs (1-based, column-major); ``-`` is empty."""
    mask = np.zeros(shape[0] * shape[1], dtype=np.uint8)
    text = text.strip()
    if text in ("-", ""):
        return mask.reshape(shape, order="F")
    try:
        numbers = np.asarray([int(v) for v in text.split()], dtype=np.int64)
    except ValueError:
        raise EvaluationFailed(f"record {record}: encoded_pixels must be integers") from None
    if len(numbers) % 2:
        raise EvaluationFailed(f"record {record}: encoded_pixels needs start/length pairs")
    starts, lengths = numbers[0::2] - 1, numbers[1::2]
    if (starts < 0).any() or (lengths < 0).any() or (starts + lengths > mask.size).any():
        raise EvaluationFailed(f"record {record}: a run falls outside the {shape} image")
    for start, length in zip(starts, lengths, strict=True):
        mask[start : start + length] = 1
    return mask.reshape(shape, order="F")


def dice(predicted: np.ndarray, truth: np.ndarray) -> float:
    intersection = float(np.sum(predicted * truth))
    return (2 * intersection + SMOOTH) / (float(predicted.sum() + truth.sum()) + SMOOTH)


def _ids(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.is_dir())


def evaluate(job: EvalJob) -> Evaluation:
    assert job.private is not None
    answers = job.private / "answers"
    predicted = read_predictions(job.outputs, SUBMISSION, _ids(answers))
    scores = []
    for record, text in zip(predicted["record_id"], predicted["encoded_pixels"], strict=True):
        truth = np.load(answers / record / "human_pixel_masks.npy")[:, :, 0].astype(np.uint8)
        scores.append(dice(rle_decode(str(text), truth.shape, record), truth))
    return Evaluation(score=float(np.mean(scores)), details={"records": len(scores)})


def check(outputs: Path, public: Path | None) -> str:
    assert public is not None
    ids = _ids(public / "test")
    message = check_file(outputs, SUBMISSION, ids)
    frame = read_predictions(outputs, SUBMISSION, ids)
    for record, text in zip(frame["record_id"], frame["encoded_pixels"], strict=True):
        shape = np.load(public / "test" / record / "band_11.npy", mmap_mode="r").shape[:2]
        rle_decode(str(text), shape, record)
    return message
