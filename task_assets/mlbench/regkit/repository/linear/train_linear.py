"""Fit a penalised linear regression and report R2, RMSE and MAE on a held-out split.

Example:
    python train_linear.py --dataset diabetes --penalty lasso --alpha 0.1
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from regkit.data import DATASETS, load_regression
from regkit.fit import LINEAR_PENALTIES, linear_model, scores
from sklearn.model_selection import train_test_split


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--dataset", default="diabetes", choices=DATASETS)
    p.add_argument("--penalty", default="ridge", choices=LINEAR_PENALTIES)
    p.add_argument("--alpha", type=float, default=1.0)
    p.add_argument("--l1-ratio", type=float, default=0.5, help="elasticnet mixing (0..1)")
    p.add_argument("--no-standardize", action="store_true", help="do not scale the features")
    p.add_argument("--test-size", type=float, default=0.2)
    p.add_argument("--n-samples", type=int, default=500, help="generated datasets only")
    p.add_argument("--noise", type=float, default=1.0, help="generated datasets only")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--save-model", default=None, help="pickle the fitted model here")
    p.add_argument("--metrics", default="metrics.json")
    args = p.parse_args(argv)
    if args.alpha < 0:
        p.error("--alpha must be non-negative")

    X, y = load_regression(args.dataset, n_samples=args.n_samples, noise=args.noise, seed=args.seed)
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=args.test_size, random_state=args.seed
    )
    model = linear_model(
        args.penalty, args.alpha, args.l1_ratio, standardize=not args.no_standardize
    )
    model.fit(X_tr, y_tr)
    result = {
        "dataset": args.dataset,
        "penalty": args.penalty,
        "alpha": args.alpha,
        **scores(y_te, model.predict(X_te)),
    }
    with open(args.metrics, "w") as f:
        json.dump(result, f, indent=2)
    if args.save_model:
        os.makedirs(os.path.dirname(os.path.abspath(args.save_model)), exist_ok=True)
        with open(args.save_model, "wb") as f:
            pickle.dump(model, f)
    print(
        f"{args.penalty} (alpha={args.alpha}) on {args.dataset}: r2={result['r2']:.4f} "
        f"rmse={result['rmse']:.3f} mae={result['mae']:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
