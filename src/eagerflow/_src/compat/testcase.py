"""``tf.test.TestCase``: unittest with TF's assertions on tensors, arrays and nested
structures, sessions for TF 1 graphs, and TF's per-test set-up (every test starts from the
same random seeds, as in TF).

>>> class T(tf.test.TestCase):
...     def runTest(self):
...         self.assertAllClose({"w": tf.constant([1.0, 2.0])}, {"w": [1.0, 2.0 + 1e-8]})
...         self.assertAllInRange(tf.constant([0.5, 1.0]), 0.0, 1.0)
>>> T().runTest()
"""
import contextlib
import math
import os
import random
import re
import tempfile
import threading

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat.testcase_assertions import GeneralAssertions, _RaisesMatching
from eagerflow._src.compat.test_util import _numpy, get_temp_dir
from eagerflow._src.core import context, errors, nest

# The seed every test starts from (Python's, NumPy's and TF's global seed), TF's choice
DEFAULT_SEED = 87654321


def _is_ragged(value):
    from eagerflow._src.ragged.ragged_tensor import RaggedTensor  # noqa: PLC0415
    return isinstance(value, RaggedTensor)


def _as_mapping(value):
    """A dict or namedtuple as a mapping (TF compares namedtuples by field), else None."""
    if isinstance(value, dict):
        return value
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return value._asdict()
    return None


def _path_text(path):
    return "".join(f"[{p}]" for p in path)


def _as_bytes(array):
    """A string array as an object array of bytes (str elements UTF-8 encoded), so that
    ``b"a"`` and ``"a"`` compare equal, as TF's assertions take them."""
    return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s, otypes=[object])(
        array) if array.size else array.astype(object)


def _is_text(array):
    return array.dtype.kind in "SU" or (array.dtype == object and array.size and isinstance(
        array.reshape(-1)[0], (bytes, str)))


class _EagerSession:
    """What `TestCase.session` yields eagerly: `run` evaluates what is already computed."""

    def __init__(self, case):
        self._case = case

    def run(self, fetches, *args, **kwargs):
        return self._case.evaluate(fetches)


@export("test.TestCase")
class TestCase(GeneralAssertions):
    """``unittest.TestCase`` with TF's assertions on tensors and arrays.

    Each test starts from seed 87654321 for Python's `random`, NumPy and ``tf.random``, with
    a new default TF 1 graph, as TF's test cases do; `get_temp_dir` gives the test its own
    directory.

    >>> class T(tf.test.TestCase):
    ...     def runTest(self):
    ...         self.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.0 + 1e-8])
    >>> T().runTest()
    """

    def __init__(self, methodName="runTest"):  # noqa: N803 (unittest's name)
        super().__init__(methodName)
        self._cached = None
        self._tempdir = None
        self._threads = []

    def setUp(self):
        super().setUp()
        if self._testMethodName == "test_session":
            self.skipTest("Not a test.")  # (TF's deprecated `test_session` is no test)
        self._close_session()
        random.seed(DEFAULT_SEED)
        np.random.seed(DEFAULT_SEED)
        from eagerflow._src.compat import graph_mode  # noqa: PLC0415
        from eagerflow._src.ops import random_ops  # noqa: PLC0415
        graph_mode.reset_default_graph()
        random_ops.set_seed(DEFAULT_SEED)

    def tearDown(self):
        for thread in self._threads:
            thread.check_termination()
        self._close_session()
        super().tearDown()

    def _close_session(self):
        if self._cached is not None:
            self._cached.close()
            self._cached = None

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

    def evaluate_if_both_tensors(self, a, b):
        """``(a, b)``, evaluated when both are graph tensors."""
        from eagerflow._src.graph.graph import SymbolicTensor  # noqa: PLC0415
        if isinstance(a, SymbolicTensor) and isinstance(b, SymbolicTensor):
            return self.evaluate((a, b))
        return a, b

    def _session(self):
        from eagerflow._src.compat import graph_mode, session  # noqa: PLC0415
        graph = graph_mode.default_v1_graph()
        if self._cached is None or self._cached.graph is not graph:
            self._close_session()
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
    test_session = cached_session  # (deprecated in TF; run as a test, it is skipped)

    def get_temp_dir(self):
        """This test's directory for temporary files (the same for each call)."""
        if self._tempdir is None:
            self._tempdir = tempfile.mkdtemp(dir=get_temp_dir())
        return self._tempdir

    @contextlib.contextmanager
    def captureWritesToStream(self, stream):  # noqa: N802
        """Captures what is written to `stream` (``sys.stderr``, ``sys.stdout``), by this
        process at the file-descriptor level, in the block; `contents()` of what it yields
        gives the text.

        >>> import sys
        >>> class T(tf.test.TestCase):
        ...     def runTest(self):
        ...         with self.captureWritesToStream(sys.stderr) as printed:
        ...             tf.print("hi")
        ...         self.assertIn("hi", printed.contents())
        >>> T().runTest()
        """
        stream.flush()
        fd = stream.fileno()
        path = os.path.join(self.get_temp_dir(), f"captured_{id(stream)}")
        saved = os.dup(fd)
        with open(path, "wb") as capture:
            os.dup2(capture.fileno(), fd)
        try:
            yield CapturedWrites(path)
        finally:
            stream.flush()
            os.dup2(saved, fd)
            os.close(saved)

    def checkedThread(self, target, args=None, kwargs=None):  # noqa: N802
        """A thread running ``target(*args, **kwargs)`` whose `join` fails the test when
        the target raised; a thread left unjoined fails it at the end."""
        thread = _CheckedThread(self, target, args, kwargs)
        self._threads.append(thread)
        return thread

    # -- assertions ----------------------------------------------------------------------
    def _array(self, value):
        return np.asarray(self.evaluate(value))

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """Asserts that `a` and `b` are elementwise close: tensors, arrays, Python numbers
        and nested lists, tuples, dicts and namedtuples of them, with the same shapes."""
        self._all_close(a, b, rtol, atol, [], msg)

    def _all_close(self, a, b, rtol, atol, path, msg):
        if _is_ragged(a) or _is_ragged(b):
            self._lists_close(self._list(a), self._list(b), rtol, atol, path, msg)
            return
        here = _path_text(path)
        a_map, b_map = _as_mapping(a), _as_mapping(b)
        if (a_map is None) != (b_map is None):
            raise ValueError(f"Can't compare dict to non-dict, a{here} vs b{here}. "
                             f"{msg or ''}")
        if a_map is not None:
            self.assertCountEqual(a_map.keys(), b_map.keys(),
                                  f"mismatched keys: a{here} has keys {a_map.keys()}, but "
                                  f"b{here} has keys {b_map.keys()}. {msg or ''}")
            for key in a_map:
                self._all_close(a_map[key], b_map[key], rtol, atol, path + [key], msg)
            return
        if isinstance(a, (list, tuple)):
            try:  # (a list of tensors or numbers is one array; else element by element)
                a_array, b_array = self._array(a), self._array(b)
            except (ValueError, TypeError, NotImplementedError):
                self.assertEqual(len(a), len(b), f"Length of a{here} is {len(a)}; length "
                                                 f"of b{here} is {len(b)}. {msg or ''}")
                for i, (x, y) in enumerate(zip(a, b)):
                    self._all_close(x, y, rtol, atol, path + [i], msg)
                return
            self._arrays_close(a_array, b_array, rtol, atol, msg)
            return
        try:
            self._arrays_close(a, b, rtol, atol, msg)
        except (ValueError, TypeError, NotImplementedError) as e:
            # (what failed to compare, and where)
            e.args = ((e.args[0] + " : " if e.args else "") +
                      f"Error: a{here} has {type(a)}, but b{here} has {type(b)}. {msg or ''}",)
            raise

    def _arrays_close(self, a, b, rtol, atol, msg):
        a, b = self._array(a), self._array(b)
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got "
                                           f"{b.shape}. {msg or ''}")
        if not np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol,
                                       err_msg=_mismatch_text(a, b, rtol, atol, msg),
                                       equal_nan=True)

    def _list(self, value):
        """A ragged tensor, tensor or array as nested Python lists."""
        if _is_ragged(value):
            return value.to_list() if context.executing_eagerly() else \
                self.evaluate(value).to_list()
        value = self.evaluate(value)
        return value.tolist() if isinstance(value, np.ndarray) else value

    def _lists_close(self, a, b, rtol, atol, path, msg):
        here = _path_text(path)
        if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
            self.assertTrue(isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)),
                            f"Mismatched structure at a{here}: {a!r} vs {b!r}. {msg or ''}")
            self.assertEqual(len(a), len(b), f"Length of a{here} is {len(a)}; length of "
                                             f"b{here} is {len(b)}. {msg or ''}")
            for i, (x, y) in enumerate(zip(a, b)):
                self._lists_close(x, y, rtol, atol, path + [i], msg)
        elif isinstance(a, (bytes, str)) or isinstance(b, (bytes, str)):
            self.assertEqual(*(s.encode() if isinstance(s, str) else s for s in (a, b)), msg)
        else:
            self._arrays_close(a, b, rtol, atol, msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6,  # noqa: N802
                                      float_rtol=1e-6, float_atol=1e-6, half_rtol=1e-3,
                                      half_atol=1e-3, bfloat16_rtol=1e-2, bfloat16_atol=1e-2,
                                      msg=None):
        """`assertAllClose` with tolerances raised for the least precise dtype of `a` and
        `b`: float32/complex64, float16 and bfloat16 each have their own."""
        a, b = self._array(a), self._array(b)
        names = {a.dtype.name, b.dtype.name}
        for kinds, kind_rtol, kind_atol in (({"float32", "complex64"}, float_rtol, float_atol),
                                            ({"float16"}, half_rtol, half_atol),
                                            ({"bfloat16"}, bfloat16_rtol, bfloat16_atol)):
            if names & kinds:
                rtol, atol = max(rtol, kind_rtol), max(atol, kind_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """Asserts that `a` and `b` differ somewhere, beyond the tolerances."""
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        self.fail(msg or "The two values are close at all elements.")

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        """Asserts that `a` and `b` have the same shape and elements (NaN equal to NaN;
        bytes equal to the str they encode)."""
        if _is_ragged(a) or _is_ragged(b):
            self.assertEqual(self._list(a), self._list(b), msg)
            return
        a, b = self._array(a), self._array(b)
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got "
                                           f"{b.shape}. {msg or ''}")
        if _is_text(a) or _is_text(b):
            a, b = _as_bytes(a), _as_bytes(b)
        same = a == b
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            same = same | (np.isnan(a) & np.isnan(b))
        if not np.all(same):
            np.testing.assert_array_equal(a, b, err_msg=msg or "")

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        try:
            self.assertAllEqual(a, b, msg)
        except AssertionError:
            return
        self.fail(msg or "The two values are equal at all elements.")

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        """Asserts every element of `a` is greater than `comparison_target`."""
        self.assertGreater(np.min(self._array(a)), comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        self.assertGreaterEqual(np.min(self._array(a)), comparison_target)

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        self.assertLess(np.max(self._array(a)), comparison_target)

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        self.assertLessEqual(np.max(self._array(a)), comparison_target)

    def assertAllInRange(self, target, lower_bound, upper_bound,  # noqa: N802
                         open_lower_bound=False, open_upper_bound=False):
        """Asserts every element of `target` is in the range (bounds included unless
        open); NaN is never in it."""
        target = self._array(target)
        if target.dtype.kind not in "iuf" and target.dtype.name != "bfloat16":
            self.fail(f"{target.dtype} is not a numeric type.")
        flat = target.reshape(-1)
        nans = np.nonzero(np.isnan(flat.astype(np.float64)))[0]
        if nans.size:
            self.fail(f"{nans.size} of the {flat.size} element(s) are NaN. Subscripts and "
                      f"values of the NaN elements:\n" + _listing(target, nans))
        low = flat > lower_bound if open_lower_bound else flat >= lower_bound
        high = flat < upper_bound if open_upper_bound else flat <= upper_bound
        outside = np.nonzero(~(low & high))[0]
        if outside.size:
            bounds = (f"{'(' if open_lower_bound else '['}{lower_bound}, {upper_bound}"
                      f"{')' if open_upper_bound else ']'}")
            self.fail(f"{outside.size} of the {flat.size} element(s) are outside the range "
                      f"{bounds}. Subscripts and values of the offending elements:\n" +
                      _listing(target, outside))

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        """Asserts every element of `target` is in `expected_set`."""
        target = self._array(target)
        allowed = list(expected_set)
        extra = np.setdiff1d(target.reshape(-1), allowed)
        if extra.size:
            self.fail(f"{extra.size} unique element(s) are not in the set {expected_set}: "
                      f"{extra}")

    def assertShapeEqual(self, input_a, input_b, msg=None):  # noqa: N802
        """Asserts the two (arrays or tensors) have the same shape."""
        shapes = []
        for value in (input_a, input_b):
            shape = getattr(value, "shape", None)
            if shape is None:
                raise TypeError(f"input must be an ndarray or a Tensor, got {type(value)}")
            shapes.append(list(shape.as_list() if hasattr(shape, "as_list") else shape))
        self.assertAllEqual(shapes[0], shapes[1], msg)

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        """Asserts `target` (or each array of a list of them) has `expected_dtype`."""
        for array in target if isinstance(target, list) else [target]:
            self.assertEqual(self._array(array).dtype, expected_dtype)

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        """Asserts ``|f1 - f2| <= err`` (or that they are equal, infinities included)."""
        self.assertTrue(f1 == f2 or math.fabs(f1 - f2) <= err,
                        f"{f1:f} != {f2:f} +/- {err:f} (difference: {abs(f1 - f2)})" +
                        (f" ({msg})" if msg else ""))

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        """`assertNear` for each pair of elements of two equally long sequences."""
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):  # noqa: N802
        """Asserts the Euclidean norm of the difference is below `err`."""
        self.assertTrue(np.linalg.norm(np.asarray(ndarray1) - np.asarray(ndarray2)) < err,
                        msg=msg)

    def assertDeviceEqual(self, device1, device2, msg=None):  # noqa: N802
        """Asserts two device names are the same once written canonically
        (``'/cpu:0'`` is ``'/device:CPU:0'``)."""
        from eagerflow._src.backend.devices import DeviceSpec  # noqa: PLC0415
        names = [DeviceSpec.from_string(d or "").to_string() for d in (device1, device2)]
        self.assertEqual(names[0], names[1], f"Devices {names[0]} and {names[1]} are not "
                                             f"equal. {msg}")

    def assertProtoEquals(self, expected_message_maybe_ascii, validate_message,  # noqa: N802
                          msg=None, relative_tolerance=None):
        """Asserts a protocol buffer equals another, or the message its text format (a
        string) gives; floats within `relative_tolerance` when one is given."""
        from google.protobuf import text_format  # noqa: PLC0415
        expected = expected_message_maybe_ascii
        if isinstance(expected, (str, bytes)):
            expected = type(validate_message)()
            text_format.Merge(expected_message_maybe_ascii, expected)
        if relative_tolerance is not None:
            _round_floats(expected, validate_message, relative_tolerance)
        if expected != validate_message:
            self.assertMultiLineEqual(text_format.MessageToString(expected),
                                      text_format.MessageToString(validate_message), msg)

    def assertProtoEqualsVersion(self, expected, actual, producer=None,  # noqa: N802
                                 min_consumer=None, msg=None):
        """`assertProtoEquals` of a GraphDef, with this version's ``versions`` field put
        before the `expected` text."""
        from eagerflow._src.core import versions  # noqa: PLC0415
        producer = versions.GRAPH_DEF_VERSION if producer is None else producer
        min_consumer = versions.GRAPH_DEF_VERSION_MIN_CONSUMER if min_consumer is None \
            else min_consumer
        self.assertProtoEquals(f"versions {{ producer: {producer} min_consumer: "
                               f"{min_consumer} }};\n{expected}", actual, msg=msg)

    def assertRaisesWithPredicateMatch(  # noqa: N802
            self, exception_type, expected_err_re_or_predicate):
        """A block that must raise `exception_type` whose message matches (``re.search``)
        the pattern, or satisfies the predicate."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e):
                return re.search(expected_err_re_or_predicate, str(e)) is not None
        return _RaisesMatching(exception_type, predicate)

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        """A block that must raise a ``tf.errors.OpError`` matching the pattern."""
        return self.assertRaisesWithPredicateMatch(errors.OpError, expected_err_re_or_predicate)

    def assertRaisesIncompatibleShapesError(  # noqa: N802
            self, exception_type=errors.InvalidArgumentError):
        """A block that must raise `exception_type` for operands of incompatible shapes."""
        return self.assertRaisesWithPredicateMatch(
            exception_type, r"Incompatible shapes|Dimensions must be equal|required "
                            r"broadcastable shapes")


def _mismatch_text(a, b, rtol, atol, msg):
    """Where numeric arrays `a` and `b` are not close, and by how much, as TF reports it."""
    lines = [msg] if msg else []
    if a.dtype.kind in "biufc" and b.dtype.kind in "biufc":
        wide = np.complex128 if "c" in a.dtype.kind + b.dtype.kind else np.float64
        with np.errstate(all="ignore"):
            a64, b64 = np.atleast_1d(a).astype(wide), np.atleast_1d(b).astype(wide)
            dif, tol = np.abs(a64 - b64), atol + rtol * np.abs(b64)
            bad = (dif > tol) | (np.isnan(a64) != np.isnan(b64))
        where = np.where(bad)
        lines += [f"not close where = {where}", f"not close lhs = {np.atleast_1d(a)[where]}",
                  f"not close rhs = {np.atleast_1d(b)[where]}", f"not close dif = {dif[where]}",
                  f"not close tol = {tol[where]}"]
    lines.append(f"dtype = {a.dtype}, shape = {a.shape}")
    return "\n".join(lines)


def _listing(array, flat_positions):
    """``  [i, j] : value`` lines for the given positions of `array`'s flattened form."""
    return "\n".join(f"  {[int(j) for j in np.unravel_index(i, array.shape)]} : "
                     f"{array.reshape(-1)[i]}" for i in flat_positions)


def _round_floats(expected, actual, tolerance):
    """Sets `expected`'s float fields to `actual`'s where they agree within `tolerance`
    (relative), recursively, so that the messages compare equal there."""
    from google.protobuf import descriptor  # noqa: PLC0415
    floats = (descriptor.FieldDescriptor.TYPE_FLOAT, descriptor.FieldDescriptor.TYPE_DOUBLE)
    for field, value in expected.ListFields():
        other = getattr(actual, field.name)
        repeated = not isinstance(value, (int, float, str, bytes)) and hasattr(value, "__len__")
        if field.type == field.TYPE_MESSAGE:
            pairs = zip(value, other) if repeated else [(value, other)]
            for e, a in pairs:
                if not hasattr(e, "ListFields"):
                    break  # (a map of scalars)
                _round_floats(e, a, tolerance)
        elif field.type in floats:
            if repeated:
                if len(value) == len(other):
                    for i, (e, a) in enumerate(zip(value, other)):
                        if math.isclose(e, a, rel_tol=tolerance):
                            value[i] = a
            elif math.isclose(value, other, rel_tol=tolerance):
                setattr(expected, field.name, other)


class CapturedWrites:
    """What `TestCase.captureWritesToStream` captured: `contents()` reads it."""

    def __init__(self, path):
        self._path = path

    def contents(self):
        with open(self._path, encoding="utf-8", errors="replace") as f:
            return f.read()


class _CheckedThread:
    """`TestCase.checkedThread`'s thread."""

    def __init__(self, case, target, args, kwargs):
        self._case, self._target = case, target
        self._args, self._kwargs = args or (), kwargs or {}
        self._thread = threading.Thread(target=self._run)
        self._error = None

    def _run(self):
        try:
            self._target(*self._args, **self._kwargs)
        except Exception as e:  # noqa: BLE001 (handed to the test by `join`)
            self._error = e

    def start(self):
        self._thread.start()

    def join(self):
        """Waits for the thread; fails the test if its target raised."""
        self._thread.join()
        if self._error is not None:
            self._case.fail(f"Error in checkedThread: {self._error}")

    def is_alive(self):
        return self._thread.is_alive()

    def check_termination(self):
        """Fails the test if the thread is still running."""
        if self._thread.is_alive():
            self._case.fail("Thread was not joined.")

