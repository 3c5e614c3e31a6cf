"""``tf.test``: `TestCase` with TF's array assertions, `main`, and the device queries.

>>> tf.test.is_built_with_cuda(), tf.test.gpu_device_name()
(False, '')
"""
import atexit
import contextlib
import os
import re
import shutil
import sys
import tempfile
import unittest

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors, nest


@export("test.is_built_with_cuda")
def is_built_with_cuda():
    """False: eagerflow runs on NumPy, not CUDA."""
    return False


@export("test.is_built_with_gpu_support")
def is_built_with_gpu_support():
    """False: eagerflow has no GPU kernels."""
    return False


@export("test.is_built_with_xla")
def is_built_with_xla():
    """True, as TF's CPU builds answer: ``tf.function(jit_compile=True)`` is accepted (and
    compiled as any function is), so programs that check before asking for it run."""
    return True


@export("test.is_built_with_rocm")
def is_built_with_rocm():
    """False: eagerflow has no ROCm kernels."""
    return False


@export("test.is_cpu_target_available")
def is_cpu_target_available(target):
    """Whether kernels run on CPU `target` (``'x86'``, ``'aarch64'``, ``'arm'``, ``'ppc'`` or
    ``'powerpc'``, ``'s390x'``): True for each, as NumPy kernels run on all of them, as TF's
    builds answer; an AssertionError for another name, as TF's."""
    if target.startswith(("arm", "aarch64", "ppc", "powerpc", "x86", "s390x")):
        return True
    raise AssertionError("Unknown CPU target: " + target)


@export("test.is_gpu_available")
def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """False: no GPU device (deprecated in TF: use ``tf.config.list_physical_devices('GPU')``)."""
    del cuda_only, min_cuda_compute_capability
    return False


@export("test.gpu_device_name")
def gpu_device_name():
    """The name of a GPU device, ``''`` when there is none (always here)."""
    return ""


@export("test.main")
def main(argv=None):
    """Runs the tests of ``__main__`` (``unittest.main``)."""
    return unittest.main(argv=argv)


_temp_dir = []


@export("compat.v1.test.get_temp_dir")
def get_temp_dir():
    """A directory for the program's temporary files: made once (under the system's
    temporary directory, named after the program) and removed when the program ends."""
    if not _temp_dir:
        base = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
        path = tempfile.mkdtemp(prefix=base)
        atexit.register(shutil.rmtree, path, ignore_errors=True)
        _temp_dir.append(path)
    return _temp_dir[0]


def _numpy(value):
    if hasattr(value, "numpy"):
        return value.numpy()
    return np.asarray(value)


class _EagerSession:
    """What `TestCase.session` yields eagerly: `run` evaluates what is already computed."""

    def __init__(self, case):
        self._case = case

    def run(self, fetches, *args, **kwargs):
        return self._case.evaluate(fetches)


@export("test.TestCase")
class TestCase(unittest.TestCase):
    """``unittest.TestCase`` with TF's assertions on tensors and arrays.

    >>> class T(tf.test.TestCase):
    ...     def runTest(self):
    ...         self.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.0 + 1e-8])
    >>> T().runTest()
    """

    def __init__(self, methodName="runTest"):  # noqa: N803 (unittest's name)
        super().__init__(methodName)
        self._cached = None

    def tearDown(self):
        if self._cached is not None:
            self._cached.close()
            self._cached = None
        super().tearDown()

    # -- running -------------------------------------------------------------------------
    def evaluate(self, tensors):
        """`tensors` (any nested structure) as NumPy values: computed eagerly, or run in
        the test's session while a TF 1 graph is the default."""
        if context.executing_eagerly():
            return nest.map_structure(
                lambda t: _numpy(t) if hasattr(t, "numpy") else t, tensors)
        from eagerflow._src.compat import session as _session  # noqa: PLC0415
        from eagerflow._src.graph.graph import Operation, SymbolicTensor  # noqa: PLC0415
        sess = _session.get_default_session() or self._session()
        # Values already computed (arrays, eager tensors) pass through; graph elements run.
        return nest.map_structure(
            lambda t: sess.run(t) if isinstance(t, (SymbolicTensor, Operation))
            or hasattr(t, "_snapshot") else (_numpy(t) if hasattr(t, "numpy") else t), tensors)

    def _session(self):
        from eagerflow._src.compat import graph_mode, session  # noqa: PLC0415
        graph = graph_mode.default_v1_graph()
        if self._cached is None or self._cached.graph is not graph:
            if self._cached is not None:
                self._cached.close()
            self._cached = session.Session(graph=graph)
        return self._cached

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """The test's session (a ``tf.compat.v1.Session`` of the default TF 1 graph, kept
        for the test), made the default in the block; eagerly, one whose `run` evaluates."""
        del config, use_gpu, force_gpu
        if context.executing_eagerly() and graph is None:
            yield _EagerSession(self)
            return
        from eagerflow._src.compat import graph_mode  # noqa: PLC0415
        with contextlib.ExitStack() as stack:
            if graph is not None:
                stack.enter_context(graph.as_default())
            elif graph_mode.v1_graph() is None:
                stack.enter_context(graph_mode.default_v1_graph().as_default())
            sess = self._session()
            with sess.as_default():
                yield sess

    session = cached_session

    # -- assertions ----------------------------------------------------------------------
    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """Asserts that `a` and `b` (tensors, arrays, nested structures) are elementwise close."""
        if isinstance(a, dict) and isinstance(b, dict):
            self.assertEqual(sorted(a), sorted(b), msg)
            for k in a:
                self.assertAllClose(a[k], b[k], rtol, atol, msg)
            return
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and any(
                isinstance(x, (dict, list, tuple)) or hasattr(x, "numpy") for x in a):
            self.assertEqual(len(a), len(b), msg)
            for x, y in zip(a, b):
                self.assertAllClose(x, y, rtol, atol, msg)
            return
        a, b = self.evaluate(a), self.evaluate(b)
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=rtol, atol=atol,
                                   err_msg=msg or "", equal_nan=True)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        try:
            self.assertAllClose(a, b, rtol, atol)
        except AssertionError:
            return
        raise AssertionError(msg or "The two values are close at all elements")

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        """Asserts that `a` and `b` have the same shape and elements."""
        a, b = np.asarray(self.evaluate(a)), np.asarray(self.evaluate(b))
        self.assertEqual(a.shape, b.shape, msg or f"Shape mismatch: {a.shape} vs {b.shape}")
        np.testing.assert_array_equal(a, b, err_msg=msg or "")

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError(msg or "The two values are equal at all elements")

    def _compare(self, a, test, msg):
        a = np.asarray(self.evaluate(a))
        if not np.all(test(a)):
            raise AssertionError(msg + f": {a}")

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        self._compare(a, lambda x: x > comparison_target, f"not all > {comparison_target}")

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        self._compare(a, lambda x: x >= comparison_target, f"not all >= {comparison_target}")

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        self._compare(a, lambda x: x < comparison_target, f"not all < {comparison_target}")

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        self._compare(a, lambda x: x <= comparison_target, f"not all <= {comparison_target}")

    def assertAllInRange(self, target, lower_bound, upper_bound):  # noqa: N802
        self._compare(target, lambda x: (x >= lower_bound) & (x <= upper_bound),
                      f"not all in [{lower_bound}, {upper_bound}]")

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        allowed = list(expected_set)
        self._compare(target, lambda x: np.isin(x, allowed), f"not all in {expected_set}")

    def assertShapeEqual(self, np_array, tf_tensor, msg=None):  # noqa: N802
        self.assertEqual(tuple(np.shape(np_array)), tuple(tf_tensor.shape.as_list()), msg)

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        self.assertEqual(np.asarray(self.evaluate(target)).dtype, np.dtype(expected_dtype))

    def assertRaisesWithPredicateMatch(  # noqa: N802
            self, exception_type, expected_err_re_or_predicate):
        """A block that must raise `exception_type` whose message matches (``re.search``)
        the pattern, or satisfies the predicate."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e):
                return re.search(expected_err_re_or_predicate, str(e)) is not None
        return _Raises(self, exception_type, predicate)

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        """A block that must raise a ``tf.errors.OpError`` matching the pattern."""
        return self.assertRaisesWithPredicateMatch(errors.OpError, expected_err_re_or_predicate)


class _Raises:
    def __init__(self, case, exception_type, predicate):
        self._case, self._type, self._predicate = case, exception_type, predicate

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            raise AssertionError(f"{self._type.__name__} not raised")
        if not issubclass(kind, self._type):
            return False
        if not self._predicate(value):
            raise AssertionError(f"Exception of type {kind}: {value}")
        return True


# -- benchmarks and test decorators ---------------------------------------------------------

def _entry_text(name, iters, cpu_time, wall_time, throughput, extras, metrics):
    """One entry of TF's BenchmarkEntries message, in protobuf text format."""
    lines = [f'  name: "{name}"']
    for field, value in (("iters", iters), ("cpu_time", cpu_time), ("wall_time", wall_time),
                         ("throughput", throughput)):
        if value is not None:
            lines.append(f"  {field}: {int(value) if field == 'iters' else float(value)!r}")
    for key, value in sorted((extras or {}).items()):
        kind = "string_value" if isinstance(value, str) else "double_value"
        shown = f'"{value}"' if isinstance(value, str) else repr(float(value))
        lines.append(f'  extras {{\n    key: "{key}"\n    value {{\n      {kind}: {shown}\n'
                     f"    }}\n  }}")
    for metric in metrics or ():
        lines.append(f'  metrics {{\n    name: "{metric["name"]}"\n    value: '
                     f'{float(metric["value"])!r}\n  }}')
    return "entry {\n" + "\n".join(lines) + "\n}\n"


@export("test.Benchmark")
class TensorFlowBenchmark:
    """A benchmark: `report_benchmark` prints each measurement as TF's BenchmarkEntries
    text; `run_op_benchmark` times a session's runs of an op.

    >>> tf.test.Benchmark().report_benchmark(iters=3, wall_time=0.5, name="x")
    entry {
      name: "TensorFlowBenchmark.x"
      iters: 3
      wall_time: 0.5
    }
    <BLANKLINE>
    """

    @classmethod
    def is_abstract(cls):
        return False

    def _name(self, name):
        if name is None:  # the benchmark method that called
            import inspect  # noqa: PLC0415 (needed only here)
            name = next((f.function for f in inspect.stack()[2:]
                         if f.function.startswith("benchmark")), "benchmark")
        return f"{type(self).__name__}.{name}"

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None,
                         extras=None, name=None, metrics=None):
        """Reports one measurement (printed, as TF does without a report file)."""
        print(_entry_text(self._name(name), iters, cpu_time, wall_time, throughput, extras,
                          metrics))

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10,
                         store_trace=False, store_memory_usage=True, name=None, extras=None,
                         mbs=0):
        """Runs `op_or_tensor` `burn_iters` times, then times `min_iters` runs; reports and
        returns the median wall time per run."""
        import time  # noqa: PLC0415 (needed only here)
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        times = []
        for _ in range(min_iters):
            start = time.perf_counter()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            times.append(time.perf_counter() - start)
        wall_time = float(np.median(times))
        extras = dict(extras or {})
        if mbs:
            extras["throughput_mb_per_sec"] = float(mbs) / wall_time
        name = self._name(name)
        self.report_benchmark(iters=min_iters, wall_time=wall_time, extras=extras,
                              name=name.split(".", 1)[1])
        return {"iters": min_iters, "wall_time": wall_time, "extras": extras, "name": name}

    def evaluate(self, tensors):
        """The values of `tensors` (a nest) as NumPy."""
        return nest.map_structure(_numpy, tensors)


@export("test.benchmark_config")
def benchmark_config():
    """The session config TF's benchmarks use (dependency optimization off)."""
    from eagerflow._src.compat.session import ConfigProto  # noqa: PLC0415 (v1 sessions)
    config = ConfigProto()
    config.graph_options.rewrite_options.dependency_optimization = 2  # (OFF)
    return config


@export("test.disable_with_predicate")
def disable_with_predicate(pred, skip_message):
    """Decorates a test method to skip with `skip_message` when ``pred()`` is true."""
    def decorator(test):
        def wrapped(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            return test(self, *args, **kwargs)
        wrapped.__name__, wrapped.__doc__ = test.__name__, test.__doc__
        return wrapped
    return decorator


@export("test.with_eager_op_as_function")
def with_eager_op_as_function(cls=None, only_as_function=False):
    """A test class as it is: TF reruns its tests with eager ops run as functions, which
    is how every eager op runs here already."""
    if cls is None:
        return lambda c: c
    return cls


@export("test.experimental.sync_devices")
def sync_devices():
    """Waits for the devices' pending work: ops here finish before they return."""


@export("test.assert_equal_graph_def")
def assert_equal_graph_def(expected, actual):
    """Asserts two GraphDefs hold the same nodes (in any order) and library.

    >>> g = tf.function(lambda x: x + 1).get_concrete_function(tf.TensorSpec([])).graph
    >>> tf.test.assert_equal_graph_def(g.as_graph_def(), g.as_graph_def())
    """
    for label, graph in (("expected", expected), ("actual", actual)):
        if type(graph).__name__ != "GraphDef":
            raise TypeError(f"Expected tf.GraphDef for {label}, got {type(graph).__name__}")
    mine = {n.name: n for n in expected.node}
    theirs = {n.name: n for n in actual.node}
    problems = [f"{name} is missing from actual" for name in mine if name not in theirs]
    problems += [f"{name} is unexpected in actual" for name in theirs if name not in mine]
    problems += [f"{name} differs:\nexpected:\n{mine[name]}\nactual:\n{theirs[name]}"
                 for name in mine if name in theirs and mine[name] != theirs[name]]
    if expected.library != actual.library:
        problems.append("the function libraries differ")
    if problems:
        raise AssertionError("\n".join(problems))

