#!/usr/bin/env bash
# Cross-validate several models on one dataset and collect the reports.
# Usage: bash compare_models.sh <dataset> <folds> [models...]
set -euo pipefail
if [ "$#" -lt 2 ]; then
  echo "usage: bash compare_models.sh <dataset> <folds> [models...]" >&2
  exit 2
fi
dataset="$1"
folds="$2"
shift 2
models=("$@")
if [ "${#models[@]}" -eq 0 ]; then
  models=(logreg knn random_forest)
fi
here="$(cd "$(dirname "$0")" && pwd)"
out="comparison_${dataset}"
mkdir -p "$out"
for model in "${models[@]}"; do
  python "$here/../examples/cross_validation/cross_validate.py" \
    --dataset "$dataset" --model "$model" --folds "$folds" --n-estimators 50 \
    --report "$out/${model}.json"
done
echo "reports written to $out/"
