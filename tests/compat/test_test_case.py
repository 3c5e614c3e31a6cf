"""tf.test.TestCase: TF's per-test set-up, its assertions and the ones it inherits from absl.
Expected values were recorded from TF 2.21."""
import collections
import io
import os
import random
import sys
import threading
import unittest

import numpy as np
import pytest

import eagerflow as tf


def _run(case_class, *names):
    result = unittest.TestResult()
    unittest.TestSuite([case_class(n) for n in names]).run(result)
    return result


def _case():
    class Case(tf.test.TestCase):
        def runTest(self):
            pass
    case = Case()
    case.setUp()
    return case


def test_each_test_starts_from_tfs_seeds():
    draws = []

    class Case(tf.test.TestCase):
        def test_a(self):
            draws.append((np.random.rand(), random.random(), tf.random.uniform([2]).numpy()))

        def test_b(self):
            tf.random.uniform([5])  # (advances this test's stream only)
            self.test_a()

    result = _run(Case, "test_a", "test_b", "test_a")
    assert result.wasSuccessful()
    for n, r, t in draws:
        assert n == 0.18463433217903202 and r == 0.3499765785632496
    np.testing.assert_allclose(draws[0][2], [0.5836375, 0.2972299], rtol=1e-6)
    np.testing.assert_array_equal(draws[0][2], draws[2][2])
    assert not np.array_equal(draws[0][2], draws[1][2])


def test_test_session_is_skipped_as_a_test_and_named_as_absl_names_tests():
    class Case(tf.test.TestCase):
        def test_x(self):
            """Checks x."""

    result = _run(Case, "test_session", "test_x")
    assert result.testsRun == 2 and [r for _, r in result.skipped] == ["Not a test."]
    assert Case("test_x").shortDescription().endswith("Case.test_x\nChecks x.")


def test_assert_all_close_compares_shapes_and_structures_as_tf():
    case = _case()
    with pytest.raises(AssertionError, match="Shape mismatch"):
        case.assertAllClose([1.0, 1.0], 1.0)  # (no broadcasting)
    with pytest.raises(AssertionError, match="Shape mismatch"):
        case.assertAllClose([[1.0], [2.0]], [[1.0]])
    point = collections.namedtuple("Point", "a b")
    case.assertAllClose(point(1.0, [2.0]), point(1.0, [2.0 + 1e-9]))
    with pytest.raises(ValueError, match="Can't compare dict to non-dict"):
        case.assertAllClose(point(1.0, [2.0]), (1.0, [2.0]))
    with pytest.raises(AssertionError, match="mismatched keys"):
        case.assertAllClose({"a": 1.0}, {"b": 1.0})
    case.assertAllClose(tf.ragged.constant([[1.0], [2.0, 3.0]]), [[1.0], [2.0, 3.0]])
    with pytest.raises(AssertionError):
        case.assertAllClose(tf.ragged.constant([[1.0], [2.0, 3.5]]), [[1.0], [2.0, 3.0]])
    case.assertAllClose([tf.constant(1.0), tf.Variable(2.0)], (1.0, 2.0))
    case.assertAllClose([np.nan, np.inf], [np.nan, np.inf])
    with pytest.raises(AssertionError):
        case.assertAllClose([np.inf], [-np.inf])
    with pytest.raises(AssertionError, match=r"not close lhs = \[2.\]\nnot close rhs = \[2.5\]"):
        case.assertAllClose([1.0, 2.0], [1.0, 2.5])
    with pytest.raises(TypeError, match="Error: a has"):
        case.assertAllClose(None, None)
    with pytest.raises(AssertionError):
        case.assertAllClose(np.float16([1.0]), [1.0005])  # (no tolerance for the dtype)
    case.assertAllCloseAccordingToType(np.float16([1.0]), [1.0005])
    case.assertAllCloseAccordingToType(tf.constant([1.0], tf.bfloat16), [1.005])
    with pytest.raises(AssertionError):
        case.assertAllCloseAccordingToType(np.float64([1.0]), [1.0005])
    with pytest.raises(AssertionError, match="close at all elements"):
        case.assertNotAllClose([1.0], [1.0])


def test_assert_all_equal_takes_strings_ragged_and_nan():
    case = _case()
    case.assertAllEqual([b"a"], ["a"])
    case.assertAllEqual(tf.constant(["a", "b"]), ["a", "b"])
    case.assertAllEqual(tf.constant("a"), "a")
    case.assertAllEqual([np.nan, 1.0], [np.nan, 1.0])
    case.assertAllEqual(tf.ragged.constant([[1], [2, 3]]), [[1], [2, 3]])
    with pytest.raises(AssertionError):
        case.assertAllEqual(tf.ragged.constant([[1], [2, 3]]), [[1], [2, 4]])
    with pytest.raises(AssertionError, match="Shape mismatch"):
        case.assertAllEqual([1, 1], 1)
    with pytest.raises(AssertionError):
        case.assertAllEqual(["a"], ["b"])


def test_range_set_and_near_assertions():
    case = _case()
    case.assertAllInRange([1, 2], 1, 2)
    with pytest.raises(AssertionError, match=r"outside the range \(1, 2\]"):
        case.assertAllInRange(tf.constant([1, 2]), 1, 2, open_lower_bound=True)
    with pytest.raises(AssertionError, match="are NaN"):
        case.assertAllInRange([np.nan], 0, 1)
    with pytest.raises(AssertionError, match="not greater than 1"):
        case.assertAllGreater([1, 2], 1)
    case.assertAllLessEqual(tf.constant([1, 2]), 2)
    with pytest.raises(AssertionError, match="not in the set"):
        case.assertAllInSet([1, 4], [1, 2])
    case.assertNear(1.0, 1.05, 0.1)
    with pytest.raises(AssertionError, match=r"1.000000 != 1.200000 \+/- 0.100000"):
        case.assertNear(1.0, 1.2, 0.1)
    case.assertArrayNear([1.0, 2.0], [1.0, 2.001], 0.01)
    with pytest.raises(AssertionError):
        case.assertArrayNear([1.0], [1.2], 0.1)
    case.assertNDArrayNear(np.ones([2, 2]), np.ones([2, 2]) + 0.01, 0.1)
    case.assertShapeEqual(np.zeros([2, 3]), tf.zeros([2, 3]))
    with pytest.raises(AssertionError):
        case.assertShapeEqual(np.zeros([2]), tf.zeros([3]))
    case.assertDTypeEqual(tf.zeros([2]), np.float32)
    with pytest.raises(AssertionError):
        case.assertDTypeEqual(np.zeros([2]), np.float32)


def test_proto_device_and_error_assertions():
    case = _case()
    case.assertProtoEquals("dim { size: 2 }", tf.TensorShape([2]).as_proto())
    with pytest.raises(AssertionError, match="size: 3"):
        case.assertProtoEquals("dim { size: 3 }", tf.TensorShape([2]).as_proto())
    attr = tf.compat.v1.AttrValue(f=1.0000001)
    case.assertProtoEquals("f: 1.0", attr, relative_tolerance=1e-5)
    with pytest.raises(AssertionError):
        case.assertProtoEquals("f: 1.0", attr)
    graph = tf.function(lambda: tf.constant(1)).get_concrete_function().graph.as_graph_def()
    del graph.node[:]
    case.assertProtoEqualsVersion("", graph)
    case.assertDeviceEqual("/cpu:0", "/device:CPU:0")
    with pytest.raises(AssertionError, match="are not equal"):
        case.assertDeviceEqual("/cpu:0", "/job:localhost/replica:0/task:0/device:CPU:0")
    with case.assertRaisesIncompatibleShapesError():
        tf.add(tf.ones([2]), tf.ones([3]))
    with pytest.raises(AssertionError, match="not raised"):
        with case.assertRaisesIncompatibleShapesError():
            tf.add(tf.ones([2]), tf.ones([2]))
    a, b = tf.constant(1), tf.constant(2)
    assert case.evaluate_if_both_tensors(a, b) == (a, b)


def test_temp_dirs_captured_writes_and_checked_threads():
    seen = {}

    class Case(tf.test.TestCase):
        def test_files(self):
            d = self.get_temp_dir()
            self.assertEqual(d, self.get_temp_dir())
            self.assertTrue(os.path.isdir(d))
            f = self.create_tempfile("sub/a.txt", content="hi")
            self.assertEqual(f.read_text(), "hi")
            folder = self.create_tempdir()
            g = folder.create_file("b.bin", content=b"\x00\x01")
            self.assertEqual(g.read_bytes(), b"\x00\x01")
            seen["paths"] = (f.full_path, os.fspath(folder))

        def test_capture(self):
            with self.captureWritesToStream(sys.stderr) as printed:
                tf.print("hello", tf.constant([1, 2]))
            seen["printed"] = printed.contents()

        def test_thread_failure(self):
            def boom():
                raise ValueError("boom")
            thread = self.checkedThread(target=boom)
            thread.start()
            thread.join()

        def test_thread_ok(self):
            box = []
            thread = self.checkedThread(target=box.append, args=(1,))
            thread.start()
            thread.join()
            self.assertFalse(thread.is_alive())
            self.assertEqual(box, [1])

    result = _run(Case, "test_files", "test_capture", "test_thread_ok")
    assert result.wasSuccessful(), result.errors + result.failures
    assert not any(os.path.exists(p) for p in seen["paths"])  # (removed with the test)
    assert seen["printed"] == "hello [1 2]\n"
    result = _run(Case, "test_thread_failure")
    assert "Error in checkedThread: boom" in result.failures[0][1]


def test_assertions_from_absl():
    case = _case()
    case.assertLen([1, 2], 2)
    with pytest.raises(AssertionError, match=r"\[1, 2\] has length of 2, expected 3."):
        case.assertLen([1, 2], 3)
    case.assertEmpty([])
    with pytest.raises(AssertionError, match="has length of 1"):
        case.assertEmpty([1])
    with pytest.raises(AssertionError, match="has length of 0"):
        case.assertNotEmpty({})
    case.assertStartsWith("abc", "ab")
    with pytest.raises(AssertionError, match="does not start with 'b'"):
        case.assertStartsWith("abc", "b")
    case.assertEndsWith("abc", "c")
    case.assertNotStartsWith("abc", "b")
    case.assertContainsSubset([1], [1, 2])
    with pytest.raises(AssertionError, match="Missing elements"):
        case.assertContainsSubset([3], [1, 2])
    case.assertNoCommonElements([1], [2])
    case.assertSameElements([1, 2, 2], [2, 1])
    with pytest.raises(AssertionError):
        case.assertItemsEqual([1, 2, 2], [2, 1])
    case.assertBetween(3, 1, 4)
    with pytest.raises(AssertionError, match="unexpectedly not between"):
        case.assertBetween(5, 1, 4)
    case.assertSequenceAlmostEqual([1.0], [1.1], delta=0.2)
    with pytest.raises(AssertionError, match="within 7 places"):
        case.assertDictAlmostEqual({"a": 1.0}, {"a": 1.0000001})
    case.assertSameStructure({"a": [1.0]}, {"a": [1]})
    with pytest.raises(AssertionError, match=r"a\['a'\]\[0\] is 1 but b\['a'\]\[0\] is 2"):
        case.assertSameStructure({"a": [1]}, {"a": [2]})
    case.assertContainsInOrder(["a", "c"], "abc")
    with pytest.raises(AssertionError):
        case.assertContainsInOrder(["c", "a"], "abc")
    case.assertContainsSubsequence([1, 2, 3], [1, 3])
    case.assertContainsExactSubsequence([1, 2, 3], [2, 3])
    with pytest.raises(AssertionError):
        case.assertContainsExactSubsequence([1, 2, 3], [1, 3])
    case.assertSequenceStartsWith([1], [1, 2])
    case.assertRegexMatch("abc", ["x", "b.*"])
    with case.assertRaisesWithLiteralMatch(ValueError, "x (1)"):
        raise ValueError("x (1)")
    with pytest.raises(AssertionError, match="does not match"):
        with case.assertRaisesWithLiteralMatch(ValueError, "x"):
            raise ValueError("y")
    case.assertIsSubclass(bool, int)
    case.assertNotIsSubclass(int, str)
    case.assertJsonEqual('{"a": 1}', '{"a":1}')
    case.assertMappingEqual({"a": 1}, {"a": 1})
    lock = threading.Lock()
    assert case.enter_context(lock) is True and lock.locked()
    case.doCleanups()
    assert not lock.locked()


def test_test_case_output_lines_under_a_verbose_runner():
    class Case(tf.test.TestCase):
        def test_one(self):
            pass

    stream = io.StringIO()
    unittest.TextTestRunner(stream=stream, verbosity=2).run(Case("test_one"))
    assert "Case.test_one ... ok" in stream.getvalue()
