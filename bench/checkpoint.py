"""Saving and restoring a 25M-parameter model's checkpoint, beside TF.

    python bench/checkpoint.py [--reps 5]

* ``save_25M``: `Checkpoint.write` of a model of 25.2M float32 parameters (24 dense
  layers of 1024 x 1024 with their biases, and an int64 step), per checkpoint;
* ``restore_25M``: `Checkpoint.read` of that checkpoint into the same variables;
* ``save_small``: the same for a model of 200 small variables (the per-variable cost);
* ``save_restore_25M``: the anchor benchmark's workload: 10 variables of 2500 x 1000
  float32, `write` then `read(...).assert_consumed()`, again and again at one prefix.

With ``EF_BENCH_TF_PYTHON`` naming TensorFlow's interpreter, each case shows TF's time and
its ratio to ours; ``--rounds n`` times the libraries in turn, for a machine whose load
changes (compare rounds taken in the same minute only).

NumPy's floor writes (reads) the same bytes with ``tofile`` (``fromfile``), no
checksum nor index: what the format costs beyond moving the bytes.
"""
import os
import sys
import tempfile

import numpy as np

import harness

_DIR = tempfile.mkdtemp(prefix="ef_bench_checkpoint_")
_RNG = np.random.default_rng(0)
_BIG = [_RNG.standard_normal((1024, 1024), np.float32) for _ in range(24)] + \
    [_RNG.standard_normal(1024, np.float32) for _ in range(24)]
_SMALL = [_RNG.standard_normal(16, np.float32) for _ in range(200)]


def _model(lib, arrays):
    module = lib.Module()
    module.layers = [lib.Variable(a) for a in arrays]
    module.step = lib.Variable(0, dtype=lib.int64)
    return lib.train.Checkpoint(model=module)


def _floor(arrays, path, read):
    if read:
        def run():
            with open(path, "rb") as f:
                return [np.fromfile(f, a.dtype, a.size) for a in arrays]
        _floor(arrays, path, False)[0]()
        return run, 1

    def run():
        with open(path, "wb") as f:
            for a in arrays:
                a.tofile(f)
    return run, 1


def _case(arrays, read):
    def build(lib, make):
        name = f"{getattr(lib, '__name__', 'x')}_{len(arrays)}_{read}"
        path = os.path.join(_DIR, name)
        if lib is np:
            return _floor(arrays, path, read)
        if not hasattr(lib, "train") or not hasattr(lib.train, "Checkpoint"):
            return None
        ckpt = _model(lib, arrays)
        if not read:
            return (lambda: ckpt.write(path)), 1
        ckpt.write(path)
        return (lambda: ckpt.read(path).assert_consumed()), 1
    return build


def _save_restore(lib, make):
    rng = np.random.default_rng(0)
    arrays = [rng.random((2500, 1000), dtype=np.float32) for _ in range(10)]
    if lib is np:
        path = os.path.join(_DIR, "numpy_anchor")
        write, _ = _floor(arrays, path, False)
        read, _ = _floor(arrays, path, True)
        return (lambda: (write(), read())), 1
    if not hasattr(lib, "train") or not hasattr(lib.train, "Checkpoint"):
        return None
    ckpt = lib.train.Checkpoint(vars=[lib.Variable(a) for a in arrays])
    prefix = os.path.join(_DIR, f"{getattr(lib, '__name__', 'x')}_anchor")

    def run():
        ckpt.read(ckpt.write(prefix)).assert_consumed()
    return run, 1


CASES = {
    "save_25M": _case(_BIG, False),
    "restore_25M": _case(_BIG, True),
    "save_small": _case(_SMALL, False),
    "restore_small": _case(_SMALL, True),
    "save_restore_25M": _save_restore,
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__))
