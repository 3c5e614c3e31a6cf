"""The colour, augmentation, metric and suppression ops of ``tf.image`` give TensorFlow's values
(recorded by record_tf_color.py), eagerly and inside `function` with static and unknown dims."""
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.image.color_cases import CASES, INPUTS

DATA = np.load(os.path.join(os.path.dirname(__file__), "data", "color_tf.npz"))
_BY_NAME = {c.name: c for c in CASES}


def _outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _expected(name):
    keys = sorted((k for k in DATA.files if k.startswith(name + "|")),
                  key=lambda k: k.rsplit("|", 1)[1])
    assert keys, f"no recorded TF output for {name}"
    return keys


def _tolerance(dtype):
    if dtype == np.float16:
        return dict(rtol=2e-3, atol=2e-3)
    return dict(rtol=2e-5, atol=2e-5)


def _compare(name, result):
    keys = _expected(name)
    if keys == [f"{name}|error"]:
        pytest.fail(f"{name}: TF raised {DATA[keys[0]]}, eagerflow returned a value")
    outs = _outputs(result)
    assert len(outs) == len(keys), name
    for key, got in zip(keys, outs):
        want = DATA[key]
        got = np.asarray(got)
        assert got.dtype == want.dtype, f"{key}: dtype {got.dtype} vs TF's {want.dtype}"
        assert got.shape == want.shape, f"{key}: shape {got.shape} vs TF's {want.shape}"
        if want.dtype.kind in "iub":
            np.testing.assert_array_equal(got, want, err_msg=key)
        else:
            np.testing.assert_allclose(got, want, equal_nan=True, err_msg=key,
                                       **_tolerance(want.dtype))


def _run_eager(case):
    if case.seeded:
        tf.random.set_seed(1)
    return case.fn(tf, *[tf.constant(INPUTS[i]) for i in case.inputs])


@pytest.mark.parametrize("name", [c.name for c in CASES])
def test_eager(name):
    case = _BY_NAME[name]
    error = f"{name}|error"
    if error in DATA.files:
        with pytest.raises(getattr(tf.errors, str(DATA[error]), None) or Exception) as info:
            _run_eager(case)
        assert type(info.value).__name__ == str(DATA[error])
        return
    _compare(name, _run_eager(case))


_TRACED = [c.name for c in CASES if c.traced and f"{c.name}|error" not in DATA.files]


@pytest.mark.parametrize("unknown", [False, True], ids=["static", "unknown"])
@pytest.mark.parametrize("name", _TRACED)
def test_traced(name, unknown):
    case = _BY_NAME[name]
    if unknown and case.traced == "static":
        pytest.skip("needs static batch dimensions")
    arrays = [INPUTS[i] for i in case.inputs]
    signature = [tf.TensorSpec([None] * a.ndim if unknown else a.shape, tf.as_dtype(a.dtype))
                 for a in arrays]
    fn = tf.function(lambda *xs: case.fn(tf, *xs), input_signature=signature)
    _compare(name, fn(*[tf.constant(a) for a in arrays]))


def test_variables_are_read():
    x = tf.Variable(INPUTS["rgb"])
    _compare("adjust_hue/rgb/0.2", tf.image.adjust_hue(x, 0.2))
    _compare("rgb_to_hsv/rgb", tf.image.rgb_to_hsv(x))


@pytest.mark.parametrize("name", [c.name for c in CASES if c.name.startswith(
    ("adjust_contrast/", "stateless_random_contrast"))])
def test_contrast_rounds_as_tf(name):
    """The channel means are summed in TF's order, so float32 pixels equal TF's bit for bit."""
    want = DATA[_expected(name)[0]]
    if want.dtype != np.float32:
        pytest.skip("only float32 is computed in TF's exact order")
    np.testing.assert_array_equal(np.asarray(_run_eager(_BY_NAME[name])), want)
