"""K-fold cross-validation of one model; prints the mean and spread and writes a JSON report.

Example:
    python cross_validate.py --dataset iris --model knn --folds 10 --scoring f1_macro
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from sklearn.model_selection import StratifiedKFold, cross_val_score
from tabkit import DATASETS, MODELS, build_model, load_dataset

SCORINGS = ("accuracy", "balanced_accuracy", "f1_macro")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--dataset", required=True, choices=DATASETS)
    p.add_argument("--model", default="logreg", choices=MODELS)
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--scoring", default="accuracy", choices=SCORINGS)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--n-estimators", type=int, default=100)
    p.add_argument("--C", type=float, default=1.0)
    p.add_argument("--report", default="cv_report.json")
    args = p.parse_args(argv)
    if args.folds < 2:
        p.error("--folds must be at least 2")

    X, y, _ = load_dataset(args.dataset)
    model = build_model(args.model, seed=args.seed, C=args.C, n_estimators=args.n_estimators)
    cv = StratifiedKFold(n_splits=args.folds, shuffle=True, random_state=args.seed)
    scores = cross_val_score(model, X, y, cv=cv, scoring=args.scoring)
    report = {
        "dataset": args.dataset,
        "model": args.model,
        "scoring": args.scoring,
        "folds": args.folds,
        "scores": [float(s) for s in scores],
        "mean": float(scores.mean()),
        "std": float(scores.std()),
    }
    with open(args.report, "w") as f:
        json.dump(report, f, indent=2)
    print(
        f"{args.model} on {args.dataset}: {args.scoring} {report['mean']:.4f} "
        f"+/- {report['std']:.4f} over {args.folds} folds"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
