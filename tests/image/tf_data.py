"""TensorFlow's recorded outputs (data/*_tf.npz, written by record_tf.py) and the comparison
of eagerflow's results with them."""
import os

import numpy as np

DATA = os.path.join(os.path.dirname(__file__), "data")


def load(name):
    """{case: [outputs] or an exception class name} of data/<name>_tf.npz."""
    out = {}
    with np.load(os.path.join(DATA, f"{name}_tf.npz")) as data:
        for key in data.files:
            case, index = key.split("#")
            if index == "error":
                out[case] = str(data[key])
                continue
            value = data[key]
            if index.endswith("@bytes"):
                index, value = index[:-len("@bytes")], np.array(value.tobytes(), dtype=object)
            out.setdefault(case, {})[int(index)] = value
    return {k: v if isinstance(v, str) else [v[i] for i in sorted(v)] for k, v in out.items()}


def assert_matches(got, want, rtol=3e-5, atol=None, name=""):
    got = np.asarray(got) if not isinstance(got, bytes) else np.array(got, dtype=object)
    assert got.shape == want.shape, f"{name}: shape {got.shape} != TF's {want.shape}"
    assert got.dtype == want.dtype, f"{name}: dtype {got.dtype} != TF's {want.dtype}"
    if want.dtype.kind == "f":
        finite = np.nan_to_num(want.astype(np.float64), nan=0, posinf=0, neginf=0)
        scale = max(1.0, float(np.max(np.abs(finite), initial=0)))
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * scale if atol is None
                                   else atol, err_msg=name)
    else:
        np.testing.assert_array_equal(got, want, err_msg=name)


def outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]
