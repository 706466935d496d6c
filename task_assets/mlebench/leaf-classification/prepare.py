"""Data preparation for leaf-classification.

Kaggle's zip holds inner archives: ``train.csv.zip`` (990 leaves: ``id``,
``species`` and 192 pre-computed features ``margin1..64``, ``shape1..64``,
``texture1..64``), ``test.csv.zip``, ``sample_submission.csv.zip`` and
``images.zip`` (``images/<id>.jpg``, binary leaf silhouettes of every leaf,
labelled or not). Only ``train.csv.zip`` and ``images.zip`` are used.

MLE-bench splits ``train.csv`` with scikit-learn's ``train_test_split(test_size=0.1,
random_state=0)`` (891 / 99 rows). Public: ``train.csv`` (new train, all columns),
``test.csv`` (held-out rows without ``species``), ``sample_submission.csv``
(held-out ids, 1/99 for every species) and ``images/`` holding the images of
both parts (copied as they are). Private: ``test.csv``, the held-out rows one-hot
encoded over the 99 species (``id`` then :data:`SPECIES`, integers 0/1), and an
empty ``images/`` folder that MLE-bench creates but never fills.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.authoring import (
    copy_images,
    extract_zip,
    one_hot,
    read_csv_exact,
    train_test_split_like_sklearn,
)

ID = "id"
LABEL = "species"

# The 99 classes, in the column order of Kaggle's sample submission.
SPECIES = (
    "Acer_Capillipes",
    "Acer_Circinatum",
    "Acer_Mono",
    "Acer_Opalus",
    "Acer_Palmatum",
    "Acer_Pictum",
    "Acer_Platanoids",
    "Acer_Rubrum",
    "Acer_Rufinerve",
    "Acer_Saccharinum",
    "Alnus_Cordata",
    "Alnus_Maximowiczii",
    "Alnus_Rubra",
    "Alnus_Sieboldiana",
    "Alnus_Viridis",
    "Arundinaria_Simonii",
    "Betula_Austrosinensis",
    "Betula_Pendula",
    "Callicarpa_Bodinieri",
    "Castanea_Sativa",
    "Celtis_Koraiensis",
    "Cercis_Siliquastrum",
    "Cornus_Chinensis",
    "Cornus_Controversa",
    "Cornus_Macrophylla",
    "Cotinus_Coggygria",
    "Crataegus_Monogyna",
    "Cytisus_Battandieri",
    "Eucalyptus_Glaucescens",
    "Eucalyptus_Neglecta",
    "Eucalyptus_Urnigera",
    "Fagus_Sylvatica",
    "Ginkgo_Biloba",
    "Ilex_Aquifolium",
    "Ilex_Cornuta",
    "Liquidambar_Styraciflua",
    "Liriodendron_Tulipifera",
    "Lithocarpus_Cleistocarpus",
    "Lithocarpus_Edulis",
    "Magnolia_Heptapeta",
    "Magnolia_Salicifolia",
    "Morus_Nigra",
    "Olea_Europaea",
    "Phildelphus",
    "Populus_Adenopoda",
    "Populus_Grandidentata",
    "Populus_Nigra",
    "Prunus_Avium",
    "Prunus_X_Shmittii",
    "Pterocarya_Stenoptera",
    "Quercus_Afares",
    "Quercus_Agrifolia",
    "Quercus_Alnifolia",
    "Quercus_Brantii",
    "Quercus_Canariensis",
    "Quercus_Castaneifolia",
    "Quercus_Cerris",
    "Quercus_Chrysolepis",
    "Quercus_Coccifera",
    "Quercus_Coccinea",
    "Quercus_Crassifolia",
    "Quercus_Crassipes",
    "Quercus_Dolicholepis",
    "Quercus_Ellipsoidalis",
    "Quercus_Greggii",
    "Quercus_Hartwissiana",
    "Quercus_Ilex",
    "Quercus_Imbricaria",
    "Quercus_Infectoria_sub",
    "Quercus_Kewensis",
    "Quercus_Nigra",
    "Quercus_Palustris",
    "Quercus_Phellos",
    "Quercus_Phillyraeoides",
    "Quercus_Pontica",
    "Quercus_Pubescens",
    "Quercus_Pyrenaica",
    "Quercus_Rhysophylla",
    "Quercus_Rubra",
    "Quercus_Semecarpifolia",
    "Quercus_Shumardii",
    "Quercus_Suber",
    "Quercus_Texana",
    "Quercus_Trojana",
    "Quercus_Variabilis",
    "Quercus_Vulcanica",
    "Quercus_x_Hispanica",
    "Quercus_x_Turneri",
    "Rhododendron_x_Russellianum",
    "Salix_Fragilis",
    "Salix_Intergra",
    "Sorbus_Aria",
    "Tilia_Oliveri",
    "Tilia_Platyphyllos",
    "Tilia_Tomentosa",
    "Ulmus_Bergmanniana",
    "Viburnum_Tinus",
    "Viburnum_x_Rhytidophylloides",
    "Zelkova_Serrata",
)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    extract_zip(raw_dir / "train.csv.zip", raw_dir)
    extract_zip(raw_dir / "images.zip", raw_dir)

    labelled = read_csv_exact(raw_dir / "train.csv")
    new_train, new_test = train_test_split_like_sklearn(labelled, test_size=0.1, random_state=0)
    answers = one_hot(new_test, ID, LABEL, SPECIES, "train.csv has species")

    copy_images(new_train[ID], raw_dir / "images", public_dir / "images", ".jpg")
    copy_images(new_test[ID], raw_dir / "images", public_dir / "images", ".jpg")
    (private_dir / "images").mkdir(exist_ok=True)

    sample = answers.copy()
    sample[list(SPECIES)] = 1 / len(SPECIES)
    new_train.to_csv(public_dir / "train.csv", index=False)
    answers.to_csv(private_dir / "test.csv", index=False)
    new_test.drop(columns=[LABEL]).to_csv(public_dir / "test.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
