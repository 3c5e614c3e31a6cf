"""The oneDNN binding: loading on demand, the switch, layouts, the primitive cache, threads."""
import subprocess
import sys

import numpy as np
import pytest

from tests.concurrency import in_threads
from tests.internals import needs_onednn, onednn, onednn_api as api


def _run(code, **env):
    import os
    environment = dict(os.environ, **env)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=environment, check=True)
    return result.stdout.strip(), result.stderr


def _transpose(shape):
    x_desc = onednn.describe(shape, np.float32, onednn.plain_strides(shape, np.float32))
    y_desc = onednn.describe(shape, np.float32,
                             onednn.plain_strides(shape, np.float32, order=(1, 0)))
    return onednn.Primitive.reorder(x_desc, y_desc)


def test_import_does_not_load_the_library():
    out, _ = _run("import eagerflow as tf\n"
                  "tf.constant([1.0]) + 1\n"
                  "print(any('libdnnl' in line for line in open('/proc/self/maps')))")
    assert out == "False"


def test_tensorflow_switch_turns_it_off():
    out, _ = _run("from eagerflow._src.backend import onednn; print(onednn.enabled())",
                  TF_ENABLE_ONEDNN_OPTS="0")
    assert out == "False"


@needs_onednn
def test_tensorflow_switch_is_read_at_each_call(monkeypatch):
    # (read from the environment's raw dict, each value's meaning remembered)
    for value, allowed in [("0", False), ("1", True), (" False ", False), ("true", True),
                           ("0", False), ("", True)]:
        monkeypatch.setenv("TF_ENABLE_ONEDNN_OPTS", value)
        assert onednn.enabled() is allowed, value
    monkeypatch.delenv("TF_ENABLE_ONEDNN_OPTS")
    assert onednn.enabled() is True


def test_missing_library_warns_once_and_falls_back():
    code = ("import warnings\n"
            "warnings.simplefilter('always')\n"
            "from eagerflow._src.backend import onednn\n"
            "with warnings.catch_warnings(record=True) as seen:\n"
            "    warnings.simplefilter('always')\n"
            "    states = [onednn.enabled(), onednn.enabled()]\n"
            "print(states, len(seen), seen[0].category.__name__ if seen else None)")
    out, _ = _run(code, EAGERFLOW_ONEDNN_LIBRARY="/nonexistent/libdnnl.so.3")
    expected_warnings = 1 if api.expected() else 0
    assert out.startswith(f"[False, False] {expected_warnings}")


def test_set_enabled_overrides_and_restores():
    before = onednn.enabled()
    try:
        onednn.set_enabled(False)
        assert onednn.enabled() is False
    finally:
        onednn.set_enabled(None)
    assert onednn.enabled() == before


def test_plain_strides_follow_the_given_axis_order():
    assert onednn.plain_strides((2, 3, 4), np.float32) == (48, 16, 4)
    assert onednn.plain_strides((2, 3, 4, 5), np.float32, order=(0, 2, 3, 1)) == (240, 4, 60, 12)
    assert onednn.plain_strides((0, 3), np.float64) == (24, 8)


@needs_onednn
@pytest.mark.parametrize("shape", [(2, 3), (1, 1), (17, 5)])
def test_reorder_between_layouts(shape):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    y = np.empty(shape[::-1], np.float32)
    _transpose(shape)({api.ARG_SRC: x}, {api.ARG_DST: y})
    np.testing.assert_array_equal(y, x.T)


@needs_onednn
@pytest.mark.parametrize("source", ["writable", "read-only", "offset view", "frombuffer"])
def test_primitives_read_every_kind_of_contiguous_array(source):
    x = np.random.default_rng(1).standard_normal((5, 3)).astype(np.float32)
    if source == "read-only":
        x.flags.writeable = False
    elif source == "offset view":  # a view starting inside a larger array
        x = np.concatenate([np.zeros((2, 3), np.float32), x])[2:]
    elif source == "frombuffer":
        x = np.frombuffer(x.tobytes(), np.float32).reshape(5, 3)
    y = np.empty((3, 5), np.float32)
    _transpose((5, 3))({api.ARG_SRC: x}, {api.ARG_DST: y})
    np.testing.assert_array_equal(y, x.T)


@needs_onednn
def test_empty_arrays_are_left_to_numpy():
    assert onednn.cached(("test-empty",), lambda: _transpose((0, 4))) is None


@needs_onednn
def test_cache_builds_once_and_remembers_unsupported():
    calls = []

    def build():
        calls.append(1)
        return _transpose((2, 3))

    first = onednn.cached(("test-cache", 1), build)
    assert onednn.cached(("test-cache", 1), build) is first and len(calls) == 1

    def unsupported():
        calls.append(2)
        raise api.Unsupported("dnnl_test", api.UNIMPLEMENTED)

    assert onednn.cached(("test-cache", 2), unsupported) is None
    assert onednn.cached(("test-cache", 2), unsupported) is None
    assert calls == [1, 2]


@needs_onednn
def test_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(onednn, "CACHE_SIZE", 3)
    onednn.clear_cache()
    for i in range(5):
        onednn.cached(("test-bound", i), lambda: _transpose((2, 2)))
    assert len(onednn._cache) == 3
    onednn.clear_cache()


@needs_onednn
def test_failed_calls_raise_a_status_error():
    bad = onednn.describe((2, 3), np.float32, onednn.plain_strides((2, 3), np.float32))
    other = onednn.describe((4, 5), np.float32, onednn.plain_strides((4, 5), np.float32))
    with pytest.raises(api.DnnlError, match="dnnl_reorder_primitive_desc_create"):
        onednn.Primitive.reorder(bad, other)


@needs_onednn
def test_one_primitive_from_several_threads():
    reorder = onednn.cached(("test-threads",), lambda: _transpose((64, 48)))
    rng = np.random.default_rng(1)
    inputs = [rng.standard_normal((64, 48)).astype(np.float32) for _ in range(4)]

    def check(x):
        y = np.empty((48, 64), np.float32)
        reorder({api.ARG_SRC: x}, {api.ARG_DST: y})
        np.testing.assert_array_equal(y, x.T)

    in_threads(check, [(x,) for x in inputs], repeat=50)


@needs_onednn
def test_bindings_are_kept_for_arrays_at_the_same_address(monkeypatch):
    # (binding an array to its memory object costs microseconds: an in-place update passes
    # the same arrays at every step)
    shape = (4, 6)
    reorder = onednn.Primitive.reorder(
        onednn.describe(shape, np.float32, onednn.plain_strides(shape, np.float32)),
        onednn.describe(shape, np.float32, onednn.plain_strides(shape, np.float32, (1, 0))))
    binds, bind = [], onednn.lib().dnnl_memory_set_data_handle
    monkeypatch.setattr(onednn.lib(), "dnnl_memory_set_data_handle",
                        lambda memory, address: binds.append(address) or bind(memory, address))
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((4, 6)).astype(np.float32), np.empty((6, 4), np.float32)
    reorder({api.ARG_SRC: x}, {api.ARG_DST: y})
    assert len(binds) == 2
    x[...] = rng.standard_normal((4, 6))
    reorder({api.ARG_SRC: x}, {api.ARG_DST: y})
    np.testing.assert_array_equal(y, x.T)
    assert len(binds) == 2
    other = rng.standard_normal((4, 6)).astype(np.float32)
    reorder({api.ARG_SRC: other}, {api.ARG_DST: y})
    np.testing.assert_array_equal(y, other.T)
    assert len(binds) == 3
    # once the caller binds a memory object itself, every call binds every array
    reorder.memory(api.ARG_SRC)
    for _ in range(2):
        reorder({api.ARG_SRC: x}, {api.ARG_DST: y})
    np.testing.assert_array_equal(y, x.T)
    assert len(binds) == 7


def _conv_case(seed):
    """A convolution whose filter oneDNN reorders to a blocked layout and which has a
    scratchpad: input, filter, and the NumPy result."""
    from tests.internals import conv_ops
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, 9, 9, 3)).astype(np.float32)
    w = rng.standard_normal((3, 3, 3, 16)).astype(np.float32)
    onednn.set_enabled(False)
    try:
        want = conv_ops.conv2d(x, w, [1, 1, 1, 1], "SAME").numpy()
    finally:
        onednn.set_enabled(None)
    return x, w, want


def _conv(x, w):
    from tests.internals import conv_ops
    return conv_ops.onednn_conv.forward(x, w, (1, 1), (1, 1), [(1, 1), (1, 1)], False, 1)


def _conv_primitive():
    return next(p for key, p in onednn._cache.items() if key[0] == "conv"
                and key[1] == (2, 9, 9, 3))


@needs_onednn
@pytest.mark.parametrize("keep_bytes", [onednn.KEEP_BYTES, 0])
def test_reordered_arguments_and_scratchpad_in_buffers_kept_or_fresh(monkeypatch, keep_bytes):
    # a primitive's own buffers (its layout of the filter, its scratchpad) are bound once
    # when small, allocated at each call when large: the same results either way, and
    # the kept ones serve one call at a time when threads share the primitive
    monkeypatch.setattr(onednn, "KEEP_BYTES", keep_bytes)
    onednn.clear_cache()
    cases = [_conv_case(seed) for seed in range(4)]
    _conv(*cases[0][:2])
    primitive = _conv_primitive()
    assert primitive._inner  # (the filter is reordered)
    assert (primitive._buffers is not None) == (keep_bytes > 0)

    def check(x, w, want):
        np.testing.assert_allclose(_conv(x, w), want, rtol=1e-4, atol=1e-4)

    in_threads(check, cases, repeat=30)
    assert _conv_primitive() is primitive
    onednn.clear_cache()


@needs_onednn
def test_kept_buffers_are_bound_once(monkeypatch):
    onednn.clear_cache()
    x, w, want = _conv_case(5)
    _conv(x, w)
    binds, bind = [], onednn.lib().dnnl_memory_set_data_handle
    monkeypatch.setattr(onednn.lib(), "dnnl_memory_set_data_handle",
                        lambda memory, address: binds.append(address) or bind(memory, address))
    y = _conv(x, w)
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-4)
    # at most the caller's three arrays: the filter's layout and the scratchpad stay bound
    assert len(binds) <= 3
    w[...] = np.random.default_rng(6).standard_normal(w.shape)  # in place, at one address
    onednn.set_enabled(False)
    try:
        from tests.internals import conv_ops
        want = conv_ops.conv2d(x, w, [1, 1, 1, 1], "SAME").numpy()
    finally:
        onednn.set_enabled(None)
    np.testing.assert_allclose(_conv(x, w), want, rtol=1e-4, atol=1e-4)
    onednn.clear_cache()


@needs_onednn
def test_arguments_of_oneDNN_s_own_layout_are_bound_at_every_call(monkeypatch):
    # (a workspace's layout is oneDNN's, perhaps padded, and binding zeroes the padding:
    # only the layouts the caller described keep their bindings)
    from tests.internals import fused_batch_norm_ops
    norm = fused_batch_norm_ops.onednn_normalization
    shape = (2, 3, 3, 8)
    prim = norm._primitive(False, shape, False, 1e-3, True, relu=True)
    rng = np.random.default_rng(7)
    x = rng.standard_normal(shape).astype(np.float32)
    scale, offset = np.ones(8, np.float32), np.zeros(8, np.float32)
    y, mean, variance = (np.empty(shape, np.float32), np.empty(8, np.float32),
                         np.empty(8, np.float32))
    workspace = np.empty(norm._workspace_items(prim), np.float32)
    arrays = ({api.ARG_SRC: x, api.ARG_SCALE: scale, api.ARG_SHIFT: offset},
              {api.ARG_DST: y, api.ARG_MEAN: mean, api.ARG_VARIANCE: variance,
               api.ARG_WORKSPACE: workspace})
    prim(*arrays)
    want = y.copy()
    binds, bind = [], onednn.lib().dnnl_memory_set_data_handle
    monkeypatch.setattr(onednn.lib(), "dnnl_memory_set_data_handle",
                        lambda memory, address: binds.append(address) or bind(memory, address))
    prim(*arrays)
    assert binds == [onednn._address(workspace)]
    np.testing.assert_array_equal(y, want)
    np.testing.assert_allclose(want, np.maximum((x - x.mean((0, 1, 2))) / np.sqrt(
        x.var((0, 1, 2)) + 1e-3), 0), rtol=1e-4, atol=1e-4)
