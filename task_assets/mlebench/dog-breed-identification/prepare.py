"""Data preparation for dog-breed-identification.

Kaggle's zip holds ``labels.csv`` (10,222 photographs: ``id``, ``breed``),
``sample_submission.csv`` and the folders ``train/`` and ``test/`` with one
``<id>.jpg`` per image (``test/`` is unlabelled and unused here).

MLE-bench splits ``labels.csv`` with scikit-learn's ``train_test_split(test_size=0.1,
random_state=0)`` (9,199 / 1,023 rows). Public: ``labels.csv`` (new train),
``train/`` and ``test/`` (the JPEGs of each part, copied as they are) and
``sample_submission.csv`` (held-out ids, 1/120 for every breed). Private:
``test.csv``, the held-out rows one-hot encoded over the 120 breeds (columns
``id`` then :data:`BREEDS`, integers 0/1), in split order.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.authoring import (
    copy_images,
    one_hot,
    read_csv_exact,
    train_test_split_like_sklearn,
)

ID = "id"
LABEL = "breed"

# The 120 classes, in the column order of Kaggle's sample submission.
BREEDS = (
    "affenpinscher",
    "afghan_hound",
    "african_hunting_dog",
    "airedale",
    "american_staffordshire_terrier",
    "appenzeller",
    "australian_terrier",
    "basenji",
    "basset",
    "beagle",
    "bedlington_terrier",
    "bernese_mountain_dog",
    "black-and-tan_coonhound",
    "blenheim_spaniel",
    "bloodhound",
    "bluetick",
    "border_collie",
    "border_terrier",
    "borzoi",
    "boston_bull",
    "bouvier_des_flandres",
    "boxer",
    "brabancon_griffon",
    "briard",
    "brittany_spaniel",
    "bull_mastiff",
    "cairn",
    "cardigan",
    "chesapeake_bay_retriever",
    "chihuahua",
    "chow",
    "clumber",
    "cocker_spaniel",
    "collie",
    "curly-coated_retriever",
    "dandie_dinmont",
    "dhole",
    "dingo",
    "doberman",
    "english_foxhound",
    "english_setter",
    "english_springer",
    "entlebucher",
    "eskimo_dog",
    "flat-coated_retriever",
    "french_bulldog",
    "german_shepherd",
    "german_short-haired_pointer",
    "giant_schnauzer",
    "golden_retriever",
    "gordon_setter",
    "great_dane",
    "great_pyrenees",
    "greater_swiss_mountain_dog",
    "groenendael",
    "ibizan_hound",
    "irish_setter",
    "irish_terrier",
    "irish_water_spaniel",
    "irish_wolfhound",
    "italian_greyhound",
    "japanese_spaniel",
    "keeshond",
    "kelpie",
    "kerry_blue_terrier",
    "komondor",
    "kuvasz",
    "labrador_retriever",
    "lakeland_terrier",
    "leonberg",
    "lhasa",
    "malamute",
    "malinois",
    "maltese_dog",
    "mexican_hairless",
    "miniature_pinscher",
    "miniature_poodle",
    "miniature_schnauzer",
    "newfoundland",
    "norfolk_terrier",
    "norwegian_elkhound",
    "norwich_terrier",
    "old_english_sheepdog",
    "otterhound",
    "papillon",
    "pekinese",
    "pembroke",
    "pomeranian",
    "pug",
    "redbone",
    "rhodesian_ridgeback",
    "rottweiler",
    "saint_bernard",
    "saluki",
    "samoyed",
    "schipperke",
    "scotch_terrier",
    "scottish_deerhound",
    "sealyham_terrier",
    "shetland_sheepdog",
    "shih-tzu",
    "siberian_husky",
    "silky_terrier",
    "soft-coated_wheaten_terrier",
    "staffordshire_bullterrier",
    "standard_poodle",
    "standard_schnauzer",
    "sussex_spaniel",
    "tibetan_mastiff",
    "tibetan_terrier",
    "toy_poodle",
    "toy_terrier",
    "vizsla",
    "walker_hound",
    "weimaraner",
    "welsh_springer_spaniel",
    "west_highland_white_terrier",
    "whippet",
    "wire-haired_fox_terrier",
    "yorkshire_terrier",
)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    labels = read_csv_exact(raw_dir / "labels.csv")
    new_train, new_test = train_test_split_like_sklearn(labels, test_size=0.1, random_state=0)
    answers = one_hot(new_test, ID, LABEL, BREEDS, "labels.csv has breeds")

    new_train.to_csv(public_dir / "labels.csv", index=False)
    answers.to_csv(private_dir / "test.csv", index=False)
    copy_images(new_train[ID], raw_dir / "train", public_dir / "train", ".jpg")
    copy_images(new_test[ID], raw_dir / "train", public_dir / "test", ".jpg")

    sample = answers.astype({breed: "float64" for breed in BREEDS})
    sample[list(BREEDS)] = 1 / len(BREEDS)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
