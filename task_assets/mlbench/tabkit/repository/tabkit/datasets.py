"""The datasets tabkit knows: the classification sets bundled with scikit-learn (no download)."""

from __future__ import annotations

from sklearn import datasets as _sk

_LOADERS = {
    "iris": _sk.load_iris,
    "wine": _sk.load_wine,
    "breast_cancer": _sk.load_breast_cancer,
    "digits": _sk.load_digits,
}
DATASETS = tuple(_LOADERS)


def load_dataset(name: str):
    """Return ``(X, y, class_names)`` for one of :data:`DATASETS`."""
    try:
        loader = _LOADERS[name]
    except KeyError:
        raise ValueError(f"unknown dataset {name!r}; choose one of {', '.join(DATASETS)}") from None
    bunch = loader()
    return bunch.data, bunch.target, [str(c) for c in bunch.target_names]
