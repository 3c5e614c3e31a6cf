"""``tf.test``: `TestCase` with TF's array assertions, `main`, and the device queries.

>>> tf.test.is_built_with_cuda(), tf.test.gpu_device_name()
(False, '')
"""
import contextlib
import re
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
        graph = graph_mode.get_default_graph()
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
                stack.enter_context(graph_mode.get_default_graph().as_default())
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
