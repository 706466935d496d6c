"""Train one classifier and save its metrics and the fitted model.

Example:
    python train.py --dataset wine --model random_forest --n-estimators 200
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from tabkit import DATASETS, MODELS, train_and_evaluate


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--dataset", required=True, choices=DATASETS)
    p.add_argument("--model", default="logreg", choices=MODELS)
    p.add_argument("--test-size", type=float, default=0.25)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--C", type=float, default=1.0, help="inverse regularisation (logreg, svm)")
    p.add_argument("--kernel", default="rbf", choices=("linear", "rbf", "poly", "sigmoid"))
    p.add_argument("--n-neighbors", type=int, default=5)
    p.add_argument("--n-estimators", type=int, default=100)
    p.add_argument("--max-depth", type=int, default=None)
    p.add_argument("--learning-rate", type=float, default=0.1)
    p.add_argument("--max-iter", type=int, default=100)
    p.add_argument("--output-dir", default="runs")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    result = train_and_evaluate(
        args.dataset,
        args.model,
        test_size=args.test_size,
        seed=args.seed,
        C=args.C,
        kernel=args.kernel,
        n_neighbors=args.n_neighbors,
        n_estimators=args.n_estimators,
        max_depth=args.max_depth,
        learning_rate=args.learning_rate,
        max_iter=args.max_iter,
    )
    run_dir = os.path.join(args.output_dir, f"{args.dataset}_{args.model}")
    os.makedirs(run_dir, exist_ok=True)
    with open(os.path.join(run_dir, "model.pkl"), "wb") as f:
        pickle.dump(result.pop("estimator"), f)
    result["args"] = vars(args)
    with open(os.path.join(run_dir, "metrics.json"), "w") as f:
        json.dump(result, f, indent=2)
    print(
        f"dataset={args.dataset} model={args.model} accuracy={result['accuracy']:.4f} "
        f"f1_macro={result['f1_macro']:.4f}"
    )
    print(f"saved {run_dir}/model.pkl and {run_dir}/metrics.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
