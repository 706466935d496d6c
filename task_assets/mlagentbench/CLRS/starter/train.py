"""Train a graph neural network to execute the Floyd-Warshall algorithm (CLRS-30 benchmark)
and save the best model (by validation score) to checkpoints/.

The model is the CLRS library's baseline (an encode-process-decode network with a
message-passing processor); the evaluator restores it from checkpoints/spec.pkl,
checkpoints/model_params.pkl and checkpoints/best.pkl. A model.py defining
build_model(spec, features, params) replaces the baseline when present.
"""

import os
import pickle

import clrs
import jax
import numpy as np

SEED = int(os.environ.get("SEED", "0"))
DATA = "data/CLRS30"
TRAIN_STEPS = 500
EVAL_EVERY = 50
CHECKPOINTS = os.path.abspath("checkpoints")
os.makedirs(CHECKPOINTS, exist_ok=True)

train_data, _, spec = clrs.create_dataset(
    folder=DATA, algorithm="floyd_warshall", split="train", batch_size=32
)
val_data, _, _ = clrs.create_dataset(
    folder=DATA, algorithm="floyd_warshall", split="val", batch_size=32
)
train_batches = train_data.repeat().as_numpy_iterator()
val_batches = list(val_data.as_numpy_iterator())

model_params = dict(
    processor_factory=clrs.get_processor_factory("triplet_gmpnn", use_ln=True, nb_triplet_fts=8),
    hidden_dim=128,
    encode_hints=True,
    decode_hints=True,
    encoder_init="xavier_on_scalars",
    use_lstm=False,
    learning_rate=0.001,
    grad_clip_max_norm=1.0,
    checkpoint_path=CHECKPOINTS,
    freeze_processor=False,
    dropout_prob=0.0,
    hint_teacher_forcing=0.0,
    hint_repred_mode="soft",
    nb_msg_passing_steps=1,
)
first = next(train_batches)
model = clrs.models.BaselineModel(spec=spec, dummy_trajectory=first, **model_params)
model.init(first.features, SEED)


def validation_score(key):
    outputs, predictions = [], []
    for batch in val_batches:
        key, sub = jax.random.split(key)
        predicted, _ = model.predict(sub, batch.features)
        outputs.append(batch.outputs)
        predictions.append(predicted)
    joined = [
        jax.tree_util.tree_map(lambda *x: np.concatenate(x), *v) for v in (outputs, predictions)
    ]
    return clrs.evaluate(*joined)["score"]


key = jax.random.PRNGKey(SEED)
best = -1.0
for step in range(TRAIN_STEPS):
    key, sub = jax.random.split(key)
    loss = model.feedback(sub, next(train_batches))
    if step % EVAL_EVERY == 0 or step == TRAIN_STEPS - 1:
        score = validation_score(sub)
        print(f"step {step}: loss {float(loss):.4f}, validation score {score:.4f}")
        if score > best:
            best = score
            model.save_model("best.pkl")

with open(os.path.join(CHECKPOINTS, "spec.pkl"), "wb") as handle:
    pickle.dump(spec, handle)
with open(os.path.join(CHECKPOINTS, "model_params.pkl"), "wb") as handle:
    pickle.dump(model_params, handle)
print(f"best validation score {best:.4f}; model saved to checkpoints/")
