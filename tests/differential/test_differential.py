"""eagerflow against TensorFlow's recorded outcomes, op by op and mode by mode.

The bounded CI run: every eager case, every KNOWN entry and a fixed sample
of the other modes (check.in_ci).  `python -m tests.differential.run --all`
runs everything.  TF is not needed: its outcomes are in data/.
"""
import pytest

import eagerflow as tf
from tests.differential import check
from tests.differential.cases import all_cases
from tests.differential.coverage import NAMESPACES, paths, public_names
from tests.differential.known import KNOWN, NOT_COMPARED, NOT_SWEPT, TF_WRONG

CASES = {c.id: c for c in all_cases()}
RECORDED = check.recorded()
RESULTS = RECORDED["results"]
ALL_KEYS = check.keys()


def _params():
    out = []
    for key in ALL_KEYS:
        if not check.in_ci(key) or check.tf_wrong(key):
            continue
        known = check.known_reason(key)
        marks = [pytest.mark.xfail(strict=True, reason=known[1])] if known else []
        out.append(pytest.param(key, id=key, marks=marks))
    return out


@pytest.fixture(scope="module", autouse=True)
def _functions_traced():
    """The function modes need real tracing, whatever an earlier test left set."""
    was = tf.config.functions_run_eagerly()
    tf.config.run_functions_eagerly(False)
    yield
    tf.config.run_functions_eagerly(was)


@pytest.mark.parametrize("key", _params())
def test_matches_tf(key):
    mismatch = check.check(key, RESULTS, CASES)
    assert mismatch is None, f"{mismatch[0]}: {mismatch[1]}"


def test_every_key_is_recorded():
    missing = [k for k in ALL_KEYS if k not in RESULTS]
    assert not missing, f"{len(missing)} cases lack TF outcomes (run record_tf): {missing[:5]}"


def test_known_entries_are_live():
    """Every KNOWN / TF_WRONG pattern still names at least one case of the table."""
    keys = set(ALL_KEYS) | {k.rsplit("@", 1)[0] for k in ALL_KEYS}
    for pat in list(KNOWN) + list(TF_WRONG) + list(NOT_COMPARED):
        if pat in keys:
            continue
        assert any(check.matches(pat, k) for k in ALL_KEYS), f"stale entry {pat!r}"


def test_every_public_op_is_swept():
    """Each public function that both libraries have is swept or excluded with a reason."""
    ours = paths({ns: public_names(tf, ns) for ns in NAMESPACES})
    theirs = paths(RECORDED["meta"]["names"])
    swept = {c.fn for c in CASES.values()}
    missing = sorted((ours & theirs) - swept - set(NOT_SWEPT))
    assert not missing, f"public ops neither swept nor in NOT_SWEPT: {missing}"
