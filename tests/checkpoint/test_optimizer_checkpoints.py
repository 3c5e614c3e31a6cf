"""Every Keras optimizer's state saved by tf_keras's ``save_weights`` resumes training here.

data/tf/optimizers/ was written by data/make_optimizer_checkpoints.py with real
TF: the weights and optimizer state after two steps, and what one more step
gave TF.
"""
import importlib.util
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.checkpoint.reference import DATA

HERE = os.path.join(DATA, "tf", "optimizers")
_spec = importlib.util.spec_from_file_location(
    "make_optimizer_checkpoints", os.path.join(DATA, "make_optimizer_checkpoints.py"))
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)


@pytest.fixture(scope="module")
def expected():
    with np.load(os.path.join(HERE, "expected.npz")) as f:
        return dict(f)


@pytest.mark.parametrize("name", sorted(make.OPTIMIZERS))
def test_training_resumed_from_tf_checkpoint_takes_tfs_next_step(name, expected):
    model = make.build(tf.keras, name)
    status = model.load_weights(os.path.join(HERE, name, "w"))
    x, y = make.data()
    model.train_on_batch(x[:8], y[:8])
    status.assert_consumed()
    for i, w in enumerate(model.get_weights()):
        np.testing.assert_allclose(w, expected[f"{name}/weights/{i}"], rtol=1e-5, atol=1e-6)
    variables = model.optimizer.variables
    variables = variables() if callable(variables) else variables  # (a legacy optimizer's)
    assert f"{name}/optimizer/{len(variables)}" not in expected
    for i, v in enumerate(variables):
        np.testing.assert_allclose(v.numpy(), expected[f"{name}/optimizer/{i}"],
                                   rtol=1e-5, atol=1e-6, err_msg=v.name)
    if f"{name}/loss_scale" in expected:
        assert model.optimizer.loss_scale.numpy() == expected[f"{name}/loss_scale"]
        assert model.optimizer.dynamic_counter.numpy() == expected[f"{name}/good_steps"]


@pytest.mark.parametrize("name", sorted(make.OPTIMIZERS))
def test_our_checkpoint_has_tfs_keys_shapes_and_dtypes(name, tmp_path):
    tf.keras.utils.set_random_seed(1)
    model = make.build(tf.keras, name)
    x, y = make.data()
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    model.save_weights(str(tmp_path / "w"))
    ours, theirs = str(tmp_path / "w"), os.path.join(HERE, name, "w")
    assert dict(tf.train.list_variables(ours)) == dict(tf.train.list_variables(theirs))
    dtypes = tf.train.load_checkpoint(theirs).get_variable_to_dtype_map()
    assert tf.train.load_checkpoint(ours).get_variable_to_dtype_map() == dtypes


def test_slots_made_to_restore_a_checkpoint_are_named_as_a_step_names_them():
    # as tf_keras's, made (and restored) by the first step in the optimizer's name scope:
    # ``Adam/m/<variable>``
    model = make.build(tf.keras, "adam")
    model.load_weights(os.path.join(HERE, "adam", "w"))
    assert [v.name for v in model.optimizer.variables] == ["iteration:0"]
    x, y = make.data()
    model.train_on_batch(x[:8], y[:8])
    kernel = model.trainable_variables[0].name.partition(":")[0]
    names = [v.name for v in model.optimizer.variables]
    assert names[:3] == ["iteration:0", f"Adam/m/{kernel}:0", f"Adam/v/{kernel}:0"]
