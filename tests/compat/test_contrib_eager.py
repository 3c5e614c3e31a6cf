"""``tf.contrib.eager`` (``tfe``): TF 1's documented eager helpers on TF 2's machinery."""
import logging
import os
import subprocess
import sys

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.contrib.eager as tfe

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_gradients_function_documented_examples():
    grad = tfe.gradients_function(lambda x: x * x)
    assert [float(g) for g in grad(3.0)] == [6.0]
    # the guide's second derivative, nesting gradients_function
    gradgrad = tfe.gradients_function(lambda x: grad(x)[0])
    assert [float(g) for g in gradgrad(3.0)] == [2.0]
    f = tfe.gradients_function(lambda x, y: x * y * y, params=[1])
    assert [float(g) for g in f(2.0, 3.0)] == [12.0]
    dy = tfe.gradients_function(lambda x: 3.0 * x)(tf.constant([1.0, 2.0]), dy=[2.0, 5.0])
    np.testing.assert_allclose(dy[0].numpy(), [6.0, 15.0])


def test_value_and_gradients_function():
    value, grads = tfe.value_and_gradients_function(lambda x, y: x * y)(3.0, 4.0)
    assert float(value) == 12.0 and [float(g) for g in grads] == [4.0, 3.0]


def test_implicit_gradients_pair_gradients_with_used_variables():
    w, b, unused = tf.Variable(2.0), tf.Variable(1.0), tf.Variable(7.0)
    value, pairs = tfe.implicit_value_and_gradients(lambda x: w * x + b)(3.0)
    assert float(value) == 7.0
    assert [(float(g), v) for g, v in pairs] == [(3.0, w), (1.0, b)]
    assert all(v is not unused for _, v in pairs)
    pairs = tfe.implicit_gradients(lambda x: w * x * x)(tf.constant(2.0))
    assert [(float(g), v is w) for g, v in pairs] == [(4.0, True)]
    with pytest.raises(ValueError, match="No trainable variables were accessed"):
        tfe.implicit_gradients(lambda x: x * 2.0)(1.0)


def test_implicit_gradients_with_an_optimizer():
    w = tf.Variable(1.0)
    opt = tf.keras.optimizers.SGD(0.5)
    opt.apply_gradients(tfe.implicit_gradients(lambda: (w - 3.0) ** 2)())
    assert float(w) == 3.0


def test_thin_aliases():
    v = tfe.Variable(1.0)
    assert isinstance(v, tf.Variable) and float(v) == 1.0
    assert isinstance(tfe.Checkpoint(v=v), tf.train.Checkpoint)
    m = tfe.metrics.Mean()
    m([1.0, 2.0, 6.0])
    assert float(m.result()) == 3.0
    acc = tfe.metrics.Accuracy()
    acc([1, 2, 3], [1, 0, 3])
    assert float(acc.result()) == pytest.approx(2 / 3)
    it = tfe.Iterator(tf.data.Dataset.range(3))
    assert [int(x) for x in it] == [0, 1, 2]
    f = tfe.defun(lambda x: x + 1)
    assert int(f(tf.constant(1))) == 2
    out = tfe.py_func(lambda x: x * 2, [tf.constant(2)], tf.int32)
    assert int(out) == 4
    assert tfe.num_gpus() == 0 and tfe.executing_eagerly() is True
    tfe.enable_eager_execution()
    assert tf.executing_eagerly()
    with pytest.raises(SystemExit) as exit_info:
        tfe.run(lambda argv: len(argv), argv=["a", "b"])
    assert exit_info.value.code == 2


def test_each_name_notes_its_replacement_once(caplog):
    from eagerflow.contrib.eager import metrics  # noqa: F401
    code = ("import logging, eagerflow.contrib.eager as tfe; logging.basicConfig(); "
            "tfe.gradients_function(abs); tfe.gradients_function(abs); tfe.defun(abs); "
            "tfe.num_gpus()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.path.join(_ROOT, "src")})
    lines = [ln for ln in out.stderr.splitlines() if "deprecated" in ln]
    assert len(lines) == 3, out.stderr
    assert "gradients_function" in lines[0] and "tf.GradientTape" in lines[0]
    assert "defun" in lines[1] and "tf.function" in lines[1]
    assert "len(tf.config.list_physical_devices('GPU'))" in lines[2]
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        tf.contrib.eager.value_and_gradients_function(abs)
    assert all("value_and_gradients_function" in r.getMessage() for r in caplog.records)


def test_contrib_loads_on_first_use():
    code = "import sys, eagerflow; print('eagerflow.contrib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.path.join(_ROOT, "src")})
    assert out.stdout.strip() == "False"
    assert tf.contrib.eager.defun is tfe.defun
