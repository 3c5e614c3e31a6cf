"""Runs the sweep on eagerflow and compares it with TF's recording."""
import contextlib
import fnmatch
import signal
import threading
import zlib

from .cases import all_cases
from .compare import compare
from .harness import modes_for, run
from .known import KNOWN, NOT_COMPARED, TF_WRONG
from .record_tf import load

# The CI run takes every known discrepancy (so a fix forces its entry out),
# half of the eager cases and a fixed 1-in-CI_EVERY sample of the other modes,
# chosen by a hash of the key so the sample is stable and spread over all ops.
CI_EVERY = 8


# A case that takes longer than this is reported as a hang (all take
# milliseconds; the margin is for loaded machines).  Known failures, which
# include the known hangs, get a short budget so that they cost little.
CASE_SECONDS = 30
KNOWN_CASE_SECONDS = 2


class _Hang(BaseException):
    """Raised by the alarm; a BaseException so the harness's `except Exception` lets it through."""


@contextlib.contextmanager
def _deadline(seconds):
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(signum, frame):
        raise _Hang()

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def keys(cases=None):
    """Every "case@mode" key of the table."""
    return [f"{c.id}@{m}" for c in (cases or all_cases()) for m in modes_for(c)]


def matches(pattern, key):
    """A KNOWN pattern names "case@mode" keys, or case ids (every mode)."""
    return fnmatch.fnmatchcase(key, pattern) or fnmatch.fnmatchcase(key.rsplit("@", 1)[0], pattern)


class _Table:
    """Pattern lookup: exact entries by dict, only the few wildcards by fnmatch."""

    def __init__(self, *tables):
        self.exact, self.wild = {}, []
        for table in tables:
            for pat, reason in table.items():
                if any(c in pat for c in "*?["):
                    self.wild.append((pat, reason))
                else:
                    self.exact.setdefault(pat, (pat, reason))

    def find(self, key):
        hit = self.exact.get(key) or self.exact.get(key.rsplit("@", 1)[0])
        if hit:
            return hit
        for pat, reason in self.wild:
            if matches(pat, key):
                return pat, reason
        return None


_KNOWN = _Table(KNOWN)
_SKIPPED = _Table(TF_WRONG, NOT_COMPARED)


def known_reason(key):
    """The KNOWN entry (pattern, reason) covering `key`, or None."""
    return _KNOWN.find(key)


def tf_wrong(key):
    """Why `key` is not compared (known.TF_WRONG or known.NOT_COMPARED), or None."""
    hit = _SKIPPED.find(key)
    return hit and hit[1]


def in_ci(key):
    mode = key.rsplit("@", 1)[1]
    every = 2 if mode == "eager" else CI_EVERY
    return known_reason(key) is not None or zlib.crc32(key.encode()) % every == 0


def check(key, recorded, case_by_id):
    """(category, detail) or None for one key, running eagerflow now."""
    import eagerflow
    cid, mode = key.rsplit("@", 1)
    case = case_by_id[cid]
    expected = recorded.get(key)
    if expected is None:
        return "unrecorded", "no TF outcome recorded: run record_tf"
    if expected.get("err") == "TFCrash":
        return None
    seconds = KNOWN_CASE_SECONDS if known_reason(key) else CASE_SECONDS
    try:
        with _deadline(seconds):
            actual = run(eagerflow, case, mode)
    except _Hang:
        return "hang", f"no result after {seconds} s"
    return compare(expected, actual, case.fn, mode)


def recorded():
    return load()
