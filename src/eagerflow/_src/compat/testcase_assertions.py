"""The general-purpose assertions and temporary files that ``tf.test.TestCase`` has from its
base class in TF (absl's ``TestCase``): container, string, sequence and structure checks,
`create_tempdir`/`create_tempfile` and `enter_context`.

>>> class T(GeneralAssertions):
...     def runTest(self):
...         self.assertLen([1, 2], 2)
...         self.assertStartsWith("eager", "ea")
...         self.assertSameStructure({"a": [1.0]}, {"a": [1]})
>>> T().runTest()
"""
import collections.abc
import json
import math
import os
import re
import shutil
import unittest


def _fail_text(msg, standard):
    """unittest's ``msg`` rule: the standard text, then the user's after " : "."""
    return standard if msg is None else f"{standard} : {msg}"


class GeneralAssertions(unittest.TestCase):
    """`unittest.TestCase` with the assertions TF test cases inherit from absl."""

    def shortDescription(self):  # noqa: N802 (unittest's name)
        """``Class.test_name`` (what a verbose run prints under each test), then the first
        line of the test's docstring if it has one."""
        name = self.id().removeprefix("__main__.")
        doc = super().shortDescription()
        return name if doc is None else f"{name}\n{doc}"

    # -- containers ---------------------------------------------------------------------
    def assertLen(self, container, expected_len, msg=None):  # noqa: N802
        """Asserts ``len(container) == expected_len``."""
        if len(container) != expected_len:
            self.fail(_fail_text(msg, f"{container!r} has length of {len(container)}, "
                                      f"expected {expected_len}."))

    def assertEmpty(self, container, msg=None):  # noqa: N802
        if not isinstance(container, collections.abc.Sized):
            self.fail(_fail_text(msg, f"Expected a Sized object, got: {type(container).__name__!r}"))
        if len(container):
            self.fail(_fail_text(msg, f"{container!r} has length of {len(container)}."))

    def assertNotEmpty(self, container, msg=None):  # noqa: N802
        if not isinstance(container, collections.abc.Sized):
            self.fail(_fail_text(msg, f"Expected a Sized object, got: {type(container).__name__!r}"))
        if not len(container):
            self.fail(_fail_text(msg, f"{container!r} has length of 0."))

    def assertContainsSubset(self, expected_subset, actual_set, msg=None):  # noqa: N802
        """Asserts every element of `expected_subset` is in `actual_set`."""
        missing = set(expected_subset) - set(actual_set)
        if missing:
            self.fail(_fail_text(msg, f"Missing elements {missing!r}\nExpected: "
                                      f"{expected_subset!r}\nActual: {actual_set!r}"))

    def assertNoCommonElements(self, expected_seq, actual_seq, msg=None):  # noqa: N802
        common = set(expected_seq) & set(actual_seq)
        if common:
            self.fail(_fail_text(msg, f"Common elements {common!r}\nExpected: "
                                      f"{expected_seq!r}\nActual: {actual_seq!r}"))

    def assertSameElements(self, expected_seq, actual_seq, msg=None):  # noqa: N802
        """Asserts both hold the same distinct elements (counts ignored)."""
        if isinstance(expected_seq, str) or isinstance(actual_seq, str):
            raise AssertionError("Passing string/bytes to assertSameElements is usually a bug. "
                                 "Did you mean to use assertEqual?")
        expected, actual = set(expected_seq), set(actual_seq)
        if expected != actual:
            self.fail(_fail_text(msg, f"Expected, but missing:\n  {sorted(expected - actual, key=repr)!r}\n"
                                      f"Unexpected, but present:\n  "
                                      f"{sorted(actual - expected, key=repr)!r}"))

    def assertItemsEqual(self, expected_seq, actual_seq, msg=None):  # noqa: N802
        """Asserts both hold the same elements, each as many times (`assertCountEqual`)."""
        self.assertCountEqual(expected_seq, actual_seq, msg)

    def assertBetween(self, value, minv, maxv, msg=None):  # noqa: N802
        """Asserts ``minv <= value <= maxv``."""
        text = f'"{value}" unexpectedly not between "{minv}" and "{maxv}"'
        self.assertGreaterEqual(value, minv, text if msg is None else f"{text} : {msg}")
        self.assertLessEqual(value, maxv, text if msg is None else f"{text} : {msg}")

    # -- strings and sequences ----------------------------------------------------------
    def assertStartsWith(self, actual, expected_start, msg=None):  # noqa: N802
        if not actual.startswith(expected_start):
            self.fail(_fail_text(msg, f"{actual!r} does not start with {expected_start!r}"))

    def assertNotStartsWith(self, actual, unexpected_start, msg=None):  # noqa: N802
        if actual.startswith(unexpected_start):
            self.fail(_fail_text(msg, f"{actual!r} does start with {unexpected_start!r}"))

    def assertEndsWith(self, actual, expected_end, msg=None):  # noqa: N802
        if not actual.endswith(expected_end):
            self.fail(_fail_text(msg, f"{actual!r} does not end with {expected_end!r}"))

    def assertNotEndsWith(self, actual, unexpected_end, msg=None):  # noqa: N802
        if actual.endswith(unexpected_end):
            self.fail(_fail_text(msg, f"{actual!r} does end with {unexpected_end!r}"))

    def assertContainsInOrder(self, strings, target, msg=None):  # noqa: N802
        """Asserts the `strings` occur in `target` one after another (gaps allowed)."""
        if isinstance(strings, (bytes, str)):
            strings = (strings,)
        at = 0
        for s in strings:
            found = target.find(s, at)
            if found == -1:
                self.fail(_fail_text(msg, f"Did not find {s!r} in order in {target!r}"))
            at = found + len(s)

    def assertContainsSubsequence(self, container, subsequence, msg=None):  # noqa: N802
        """Asserts `subsequence`'s elements occur in `container` in order (gaps allowed)."""
        items = iter(container)
        for want in subsequence:
            if not any(item == want for item in items):
                self.fail(_fail_text(msg, f"{container!r} does not contain the subsequence "
                                          f"{subsequence!r}"))

    def assertContainsExactSubsequence(self, container, subsequence, msg=None):  # noqa: N802
        """Asserts `subsequence` occurs in `container` as one contiguous run."""
        container, subsequence = list(container), list(subsequence)
        n = len(subsequence)
        if not any(container[i:i + n] == subsequence for i in range(len(container) - n + 1)):
            self.fail(_fail_text(msg, f"{container!r} does not contain the exact "
                                      f"subsequence {subsequence!r}"))

    def assertSequenceStartsWith(self, prefix, whole, msg=None):  # noqa: N802
        prefix, whole = list(prefix), list(whole)
        if whole[:len(prefix)] != prefix:
            self.fail(_fail_text(msg, f"{whole!r} does not start with {prefix!r}"))

    def assertRegexMatch(self, actual_str, regexes, message=None):  # noqa: N802
        """Asserts one of `regexes` matches `actual_str` (``re.search``)."""
        if isinstance(regexes, (str, bytes)):
            raise AssertionError("regexes is a string; use assertRegex instead.")
        if not regexes:
            raise AssertionError("No regexes specified.")
        if not any(re.search(r, actual_str, re.MULTILINE) for r in regexes):
            self.fail(_fail_text(message, f'"{actual_str}" does not contain any of these '
                                          f"regexes: {list(regexes)!r}."))

    def assertSequenceAlmostEqual(self, expected_seq, actual_seq, places=None,  # noqa: N802
                                  msg=None, delta=None):
        """Asserts equal lengths and `assertAlmostEqual` element by element."""
        self.assertEqual(len(expected_seq), len(actual_seq), msg)
        for e, a in zip(expected_seq, actual_seq):
            self.assertAlmostEqual(e, a, places=places, msg=msg, delta=delta)

    def assertDictAlmostEqual(self, a, b, places=None, msg=None, delta=None):  # noqa: N802
        """Asserts the same keys and `assertAlmostEqual` values."""
        self.assertEqual(set(a), set(b), msg)
        bad = []
        for key in a:
            try:
                self.assertAlmostEqual(a[key], b[key], places=places, delta=delta)
            except AssertionError as e:
                bad.append(f"{key!r}: {e}")
        if bad:
            self.fail(_fail_text(msg, f"{a!r} != {b!r}\n" + "\n".join(bad)))

    def assertMappingEqual(self, a, b, msg=None,  # noqa: N802
                           mapping_type=collections.abc.Mapping,
                           check_values_equality=lambda x, y: x == y):
        for name, value in (("a", a), ("b", b)):
            if not isinstance(value, mapping_type):
                self.fail(_fail_text(msg, f"{name} should be a {mapping_type.__name__}, found "
                                          f"type: {type(value).__name__}"))
        if set(a) != set(b) or any(not check_values_equality(a[k], b[k]) for k in a):
            self.fail(_fail_text(msg, f"{a!r} != {b!r}"))

    def assertSameStructure(self, a, b, aname="a", bname="b", msg=None):  # noqa: N802
        """Asserts `a` and `b` are the same nesting of dicts and lists with equal leaves;
        the failure names each difference by its path."""
        problems = []
        _structure_problems(a, b, aname, bname, problems)
        if problems:
            self.fail(_fail_text(msg, "; ".join(problems)))

    def assertJsonEqual(self, first, second, msg=None):  # noqa: N802
        """Asserts the two JSON texts hold the same value."""
        try:
            first_value, second_value = json.loads(first), json.loads(second)
        except (TypeError, ValueError) as e:
            self.fail(_fail_text(msg, f"could not decode JSON: {e}"))
        self.assertEqual(first_value, second_value, msg)

    # -- exceptions and classes ---------------------------------------------------------
    def assertRaisesWithLiteralMatch(self, expected_exception,  # noqa: N802
                                     expected_exception_message, callable_obj=None,
                                     *args, **kwargs):
        """Asserts `expected_exception` is raised with exactly that message (as a context
        manager, or calling `callable_obj`)."""
        def check(e):
            if str(e) != expected_exception_message:
                raise AssertionError(f"Exception message does not match.\nExpected: "
                                     f"{expected_exception_message!r}\nActual: {str(e)!r}")
            return True
        context = _RaisesMatching(expected_exception, check)
        if callable_obj is None:
            return context
        with context:
            callable_obj(*args, **kwargs)
        return None

    def assertIsSubclass(self, cls, superclass, msg=None):  # noqa: N802
        if not issubclass(cls, superclass):
            self.fail(_fail_text(msg, f"{cls!r} is not a subclass of {superclass!r}"))

    def assertNotIsSubclass(self, cls, superclass, msg=None):  # noqa: N802
        if issubclass(cls, superclass):
            self.fail(_fail_text(msg, f"{cls!r} is a subclass of {superclass!r}"))

    # -- temporary files ----------------------------------------------------------------
    def _test_temp_root(self):
        """This test's own directory of temporary files, removed when the test ends."""
        root = getattr(self, "_absl_temp_root", None)
        if root is None:
            from eagerflow._src.compat.test_util import get_temp_dir  # noqa: PLC0415
            root = os.path.join(get_temp_dir(), type(self).__qualname__, self._testMethodName)
            shutil.rmtree(root, ignore_errors=True)
            os.makedirs(root)
            self._absl_temp_root = root
            self.addCleanup(shutil.rmtree, root, True)
        return root

    def create_tempdir(self, name=None, cleanup=None):
        """A new directory for this test (`name` under its own directory, else a fresh
        one), removed when the test ends. Returns a `TempDir`."""
        del cleanup  # (removed with the test's directory)
        root = self._test_temp_root()
        if name is None:
            import tempfile  # noqa: PLC0415
            path = tempfile.mkdtemp(dir=root)
        else:
            path = os.path.join(root, name)
            shutil.rmtree(path, ignore_errors=True)
            os.makedirs(path)
        return TempDir(path)

    def create_tempfile(self, file_path=None, content=None, mode="w", encoding="utf8",
                        errors="strict", cleanup=None):
        """A new file for this test, holding `content`, removed when the test ends.
        Returns a `TempFile`."""
        del cleanup
        return TempDir(self._test_temp_root()).create_file(file_path, content, mode,
                                                           encoding, errors)

    def enter_context(self, manager):
        """Enters `manager` and exits it when the test ends; returns what it gave."""
        return self.enterContext(manager)


class _RaisesMatching:
    """A block that must raise `kind`, with an exception `check` accepts."""

    def __init__(self, kind, check):
        self._kind, self._check = kind, check

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            name = getattr(self._kind, "__name__", str(self._kind))
            raise AssertionError(f"{name} not raised")
        if not issubclass(kind, self._kind):
            return False
        if not self._check(value):
            raise AssertionError(f"Exception of type {kind}: {value}")
        return True


def _structure_problems(a, b, aname, bname, problems):
    if isinstance(a, collections.abc.Mapping) and isinstance(b, collections.abc.Mapping):
        for key in a:
            if key in b:
                _structure_problems(a[key], b[key], f"{aname}[{key!r}]", f"{bname}[{key!r}]",
                                    problems)
            else:
                problems.append(f"{aname} has [{key!r}] with value {a[key]!r} but it's missing "
                                f"in {bname}")
        problems.extend(f"{aname} lacks [{key!r}] but {bname} has it with value {b[key]!r}"
                        for key in b if key not in a)
    elif (isinstance(a, collections.abc.Sequence) and isinstance(b, collections.abc.Sequence)
          and not isinstance(a, (str, bytes)) and not isinstance(b, (str, bytes))):
        for i, (x, y) in enumerate(zip(a, b)):
            _structure_problems(x, y, f"{aname}[{i}]", f"{bname}[{i}]", problems)
        for i in range(len(b), len(a)):
            problems.append(f"{aname} has [{i}] with value {a[i]!r} but {bname} does not")
        for i in range(len(a), len(b)):
            problems.append(f"{aname} lacks [{i}] but {bname} has it with value {b[i]!r}")
    elif type(a) is not type(b) and not (isinstance(a, (int, float)) and
                                         isinstance(b, (int, float))):
        problems.append(f"{aname} is a {type(a)!r} but {bname} is a {type(b)!r}")
    elif a != b and not (isinstance(a, float) and isinstance(b, float) and math.isnan(a)
                         and math.isnan(b)):
        problems.append(f"{aname} is {a!r} but {bname} is {b!r}")


class _TempPath:
    """A path made for a test: `full_path`, usable wherever a path is (``os.fspath``)."""

    def __init__(self, path):
        self.full_path = path

    def __fspath__(self):
        return self.full_path

    def __str__(self):
        return self.full_path


class TempDir(_TempPath):
    """A test's temporary directory (`create_tempdir`): `full_path`, and files made in it."""

    def create_file(self, file_path=None, content=None, mode="w", encoding="utf8",
                    errors="strict"):
        """A file in this directory (a fresh name when `file_path` is None), holding
        `content`."""
        if file_path is None:
            import tempfile  # noqa: PLC0415
            fd, path = tempfile.mkstemp(dir=self.full_path)
            os.close(fd)
        else:
            path = os.path.join(self.full_path, file_path)
            os.makedirs(os.path.dirname(path), exist_ok=True)
        f = TempFile(path)
        if content is None:
            open(path, "a").close()
        elif "b" in mode or isinstance(content, bytes):
            f.write_bytes(content if isinstance(content, bytes) else content.encode(encoding),
                          mode="ab" if "a" in mode else "wb")
        else:
            f.write_text(content, mode=mode, encoding=encoding, errors=errors)
        return f

    def mkdir(self, dir_path=None):
        """A directory in this one (a fresh name when `dir_path` is None)."""
        if dir_path is None:
            import tempfile  # noqa: PLC0415
            return TempDir(tempfile.mkdtemp(dir=self.full_path))
        path = os.path.join(self.full_path, dir_path)
        os.makedirs(path, exist_ok=True)
        return TempDir(path)


class TempFile(_TempPath):
    """A test's temporary file (`create_tempfile`): `full_path`, read and written whole."""

    def read_text(self, encoding="utf8", errors="strict"):
        with open(self.full_path, encoding=encoding, errors=errors) as f:
            return f.read()

    def read_bytes(self):
        with open(self.full_path, "rb") as f:
            return f.read()

    def write_text(self, text, mode="w", encoding="utf8", errors="strict"):
        with open(self.full_path, mode, encoding=encoding, errors=errors) as f:
            f.write(text)

    def write_bytes(self, data, mode="wb"):
        with open(self.full_path, mode) as f:
            f.write(data)

    def open_text(self, mode="rt", encoding="utf8", errors="strict"):
        return open(self.full_path, mode, encoding=encoding, errors=errors)

    def open_bytes(self, mode="rb"):
        return open(self.full_path, mode)
