"""The eager calls TF2 programs make most, each beside its NumPy equivalent (the floor).

    python bench/eager_sweep.py [--reps 5] [--cases a,b] [--rounds 3]

Every call runs on a small tensor (4x8: per-call overhead dominates) and a medium
one (100x100: 10K elements), named ``<call>/small`` and ``<call>/medium``.
Prints seconds per call and the ratio to NumPy; the project aims for <= 2x.
"""
import sys

import numpy as np

import harness

SIZES = {"small": ((4, 8), 2000), "medium": ((100, 100), 200)}  # shape, calls per timing


def _data(shape):
    rng = np.random.default_rng(0)
    return {"x": rng.random(shape, dtype=np.float32) + 0.1,
            "y": rng.random(shape, dtype=np.float32) + 0.1,
            "i": rng.integers(0, shape[0], shape[0]).astype(np.int32),  # one index per row
            "list": rng.random(shape).tolist(),
            "w": rng.random((shape[1], shape[1]), dtype=np.float32)}


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def _log_softmax(x):
    s = x - x.max(-1, keepdims=True)
    return s - np.log(np.exp(s).sum(-1, keepdims=True))


def _xent(labels, logits):
    return -_log_softmax(logits)[np.arange(len(labels)), labels]


# name: (numpy version, TF version); each gets the tensors `d` (made by the library) and
# the library `tf`, and is called once per timed call.
CALLS = {
    "constant_list": (lambda d, np: np.asarray(d["list"], np.float32),
                      lambda d, tf: tf.constant(d["list"])),
    "constant_numpy": (lambda d, np: np.asarray(d["xa"]),
                       lambda d, tf: tf.constant(d["xa"])),
    "convert_to_tensor_numpy": (lambda d, np: np.asarray(d["xa"]),
                                lambda d, tf: tf.convert_to_tensor(d["xa"])),
    "mul_scalar": (lambda d, np: d["x"] * 2.0, lambda d, tf: d["x"] * 2.0),
    "radd_scalar": (lambda d, np: 1.0 + d["x"], lambda d, tf: 1.0 + d["x"]),
    "sub_tensor": (lambda d, np: d["x"] - d["y"], lambda d, tf: d["x"] - d["y"]),
    "truediv_tensor": (lambda d, np: d["x"] / d["y"], lambda d, tf: d["x"] / d["y"]),
    "pow_scalar": (lambda d, np: d["x"] ** 2, lambda d, tf: d["x"] ** 2),
    "neg": (lambda d, np: -d["x"], lambda d, tf: -d["x"]),
    "add": (lambda d, np: np.add(d["x"], d["y"]), lambda d, tf: tf.add(d["x"], d["y"])),
    "multiply": (lambda d, np: np.multiply(d["x"], d["y"]),
                 lambda d, tf: tf.multiply(d["x"], d["y"])),
    "matmul": (lambda d, np: np.matmul(d["x"], d["w"]), lambda d, tf: tf.matmul(d["x"], d["w"])),
    "matmul_operator": (lambda d, np: d["x"] @ d["w"], lambda d, tf: d["x"] @ d["w"]),
    "reduce_sum": (lambda d, np: np.sum(d["x"]), lambda d, tf: tf.reduce_sum(d["x"])),
    "reduce_sum_axis": (lambda d, np: np.sum(d["x"], axis=1),
                        lambda d, tf: tf.reduce_sum(d["x"], axis=1)),
    "reduce_mean": (lambda d, np: np.mean(d["x"]), lambda d, tf: tf.reduce_mean(d["x"])),
    "reduce_mean_keepdims": (lambda d, np: np.mean(d["x"], axis=-1, keepdims=True),
                             lambda d, tf: tf.reduce_mean(d["x"], axis=-1, keepdims=True)),
    "reduce_max": (lambda d, np: np.max(d["x"], axis=0),
                   lambda d, tf: tf.reduce_max(d["x"], axis=0)),
    "argmax": (lambda d, np: np.argmax(d["x"], axis=1), lambda d, tf: tf.argmax(d["x"], axis=1)),
    "concat": (lambda d, np: np.concatenate([d["x"], d["y"]], 0),
               lambda d, tf: tf.concat([d["x"], d["y"]], 0)),
    "stack": (lambda d, np: np.stack([d["x"], d["y"]]), lambda d, tf: tf.stack([d["x"], d["y"]])),
    "reshape": (lambda d, np: np.reshape(d["x"], [-1]), lambda d, tf: tf.reshape(d["x"], [-1])),
    "transpose": (lambda d, np: np.transpose(d["x"]), lambda d, tf: tf.transpose(d["x"])),
    "expand_dims": (lambda d, np: np.expand_dims(d["x"], 0),
                    lambda d, tf: tf.expand_dims(d["x"], 0)),
    "squeeze": (lambda d, np: np.squeeze(d["x1"]), lambda d, tf: tf.squeeze(d["x1"])),
    "gather": (lambda d, np: np.take(d["x"], d["i"], axis=0),
               lambda d, tf: tf.gather(d["x"], d["i"])),
    "gather_nd": (lambda d, np: d["x"][tuple(d["nd"].T)], lambda d, tf: tf.gather_nd(d["x"], d["nd"])),
    "where": (lambda d, np: np.where(d["x"] > 0.5, d["x"], d["y"]),
              lambda d, tf: tf.where(d["x"] > 0.5, d["x"], d["y"])),
    "cast": (lambda d, np: d["x"].astype(np.int32), lambda d, tf: tf.cast(d["x"], tf.int32)),
    "clip_by_value": (lambda d, np: np.clip(d["x"], 0.2, 0.8),
                      lambda d, tf: tf.clip_by_value(d["x"], 0.2, 0.8)),
    "one_hot": (lambda d, np: np.eye(10, dtype=np.float32)[d["i10"]],
                lambda d, tf: tf.one_hot(d["i10"], 10)),
    "range": (lambda d, np: np.arange(100, dtype=np.int32), lambda d, tf: tf.range(100)),
    "zeros": (lambda d, np: np.zeros(d["shape"], np.float32), lambda d, tf: tf.zeros(d["shape"])),
    "ones": (lambda d, np: np.ones(d["shape"], np.float32), lambda d, tf: tf.ones(d["shape"])),
    "zeros_like": (lambda d, np: np.zeros_like(d["x"]), lambda d, tf: tf.zeros_like(d["x"])),
    "fill": (lambda d, np: np.full(d["shape"], 3.0, np.float32),
             lambda d, tf: tf.fill(d["shape"], 3.0)),
    "tile": (lambda d, np: np.tile(d["x"], [2, 1]), lambda d, tf: tf.tile(d["x"], [2, 1])),
    "slice_strided": (lambda d, np: d["x"][1:, ::2], lambda d, tf: d["x"][1:, ::2]),
    "slice_newaxis": (lambda d, np: d["x"][..., None], lambda d, tf: d["x"][..., None]),
    "index_int": (lambda d, np: d["x"][0], lambda d, tf: d["x"][0]),
    "boolean_mask": (lambda d, np: d["x"][d["x"] > 0.5],
                     lambda d, tf: tf.boolean_mask(d["x"], d["x"] > 0.5)),
    "relu": (lambda d, np: np.maximum(d["x"], 0), lambda d, tf: tf.nn.relu(d["x"])),
    "sigmoid": (lambda d, np: 1 / (1 + np.exp(-d["x"])), lambda d, tf: tf.nn.sigmoid(d["x"])),
    "softmax": (lambda d, np: _softmax(d["x"]), lambda d, tf: tf.nn.softmax(d["x"])),
    "log_softmax": (lambda d, np: _log_softmax(d["x"]), lambda d, tf: tf.nn.log_softmax(d["x"])),
    "sparse_softmax_xent": (
        lambda d, np: _xent(d["i"], d["x"]),
        lambda d, tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=d["i"],
                                                                     logits=d["x"])),
    "math_exp": (lambda d, np: np.exp(d["x"]), lambda d, tf: tf.math.exp(d["x"])),
    "math_log": (lambda d, np: np.log(d["x"]), lambda d, tf: tf.math.log(d["x"])),
    "math_sqrt": (lambda d, np: np.sqrt(d["x"]), lambda d, tf: tf.math.sqrt(d["x"])),
    "math_square": (lambda d, np: np.square(d["x"]), lambda d, tf: tf.math.square(d["x"])),
    "math_abs": (lambda d, np: np.abs(d["x"]), lambda d, tf: tf.math.abs(d["x"])),
    "math_tanh": (lambda d, np: np.tanh(d["x"]), lambda d, tf: tf.math.tanh(d["x"])),
    "math_maximum": (lambda d, np: np.maximum(d["x"], d["y"]),
                     lambda d, tf: tf.math.maximum(d["x"], d["y"])),
    "math_reduce_logsumexp": (
        lambda d, np: np.log(np.sum(np.exp(d["x"]), axis=-1)),
        lambda d, tf: tf.math.reduce_logsumexp(d["x"], axis=-1)),
    "math_equal": (lambda d, np: np.equal(d["x"], d["y"]),
                   lambda d, tf: tf.math.equal(d["x"], d["y"])),
    "math_reduce_any": (lambda d, np: np.any(d["x"] > 0.9), lambda d, tf: tf.math.reduce_any(d["x"] > 0.9)),
    "compare_gt": (lambda d, np: d["x"] > d["y"], lambda d, tf: d["x"] > d["y"]),
    "compare_le_scalar": (lambda d, np: d["x"] <= 0.5, lambda d, tf: d["x"] <= 0.5),
    "shape": (lambda d, np: np.array(d["x"].shape, np.int32), lambda d, tf: tf.shape(d["x"])),
    "size": (lambda d, np: np.int32(d["x"].size), lambda d, tf: tf.size(d["x"])),
    "rank": (lambda d, np: np.int32(d["x"].ndim), lambda d, tf: tf.rank(d["x"])),
    "static_shape": (lambda d, np: d["x"].shape, lambda d, tf: d["x"].shape),
    "numpy": (lambda d, np: np.asarray(d["x"]), lambda d, tf: d["x"].numpy()),
    "float": (lambda d, np: float(d["s"]), lambda d, tf: float(d["s"])),
    "len": (lambda d, np: len(d["x"]), lambda d, tf: len(d["x"])),
    "iterate": (lambda d, np: [r for r in d["x"][:4]], lambda d, tf: [r for r in d["x4"]]),
    "variable_read": (lambda d, np: d["v"] + 0, lambda d, tf: d["v"] + 0),
    "variable_assign": (lambda d, np: np.copyto(d["v"], d["x"]),
                        lambda d, tf: d["v"].assign(d["x"])),
    "variable_assign_add": (lambda d, np: np.add(d["v"], d["x"], out=d["v"]),
                            lambda d, tf: d["v"].assign_add(d["x"])),
    "random_uniform": (lambda d, np: d["rng"].random(d["shape"], dtype=np.float32),
                       lambda d, tf: tf.random.uniform(d["shape"])),
    "random_normal": (lambda d, np: d["rng"].standard_normal(d["shape"], dtype=np.float32),
                      lambda d, tf: tf.random.normal(d["shape"])),
    "tape_gradient": (
        # loss = sum((x @ w - y) ** 2) and d loss / d w, derived by hand
        lambda d, np: 2 * d["x"].T @ (d["x"] @ d["w"] - d["y"][:, :d["w"].shape[1]]),
        lambda d, tf: _tape(d, tf)),
}


def _tape(d, tf):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.matmul(d["x"], d["v2"]) - d["y"]))
    return tape.gradient(loss, d["v2"])


def _inputs(lib, make, shape):
    data = _data(shape)
    d = {k: make(v) if isinstance(v, np.ndarray) else v for k, v in data.items()}
    d["xa"] = data["x"]  # a NumPy array for the converting calls
    d["x1"] = make(data["x"][:, None])
    d["x4"] = make(data["x"][:4])
    d["i10"] = make(data["i"] % 10)  # labels of 10 classes
    d["nd"] = make(np.stack([np.arange(shape[0]), data["i"]], 1).astype(np.int32))
    d["s"] = make(np.float32(2.5))
    d["shape"] = list(shape)
    if lib is np:
        d["v"] = data["x"].copy()
        d["rng"] = np.random.default_rng(0)
    else:
        d["v"] = lib.Variable(data["x"])
        d["v2"] = lib.Variable(data["w"])
    return d


def _case(np_call, tf_call, shape, n):
    def build(lib, make):
        d = _inputs(lib, make, shape)
        f = np_call if lib is np else tf_call
        lib_arg = np if lib is np else lib

        def run():
            for _ in range(n):
                f(d, lib_arg)
        return run, n
    return build


CASES = {f"{name}/{size}": _case(np_call, tf_call, shape, n)
         for size, (shape, n) in SIZES.items()
         for name, (np_call, tf_call) in CALLS.items()}


if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__, reps=3))
