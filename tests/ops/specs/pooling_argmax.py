"""Specs of max_pool_with_argmax (pooling_argmax_ops.py): against a loop over windows."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec, rand


def _reference(x, k, s, padding, with_batch):
    batch, height, width, channels = x.shape
    if padding == "VALID":
        out_h, out_w, top, left = (height - k) // s + 1, (width - k) // s + 1, 0, 0
    else:
        out_h, out_w = -(-height // s), -(-width // s)
        top = max((out_h - 1) * s + k - height, 0) // 2
        left = max((out_w - 1) * s + k - width, 0) // 2
    out = np.zeros((batch, out_h, out_w, channels), x.dtype)
    where = np.zeros(out.shape, np.int64)
    for b, i, j, c in np.ndindex(*out.shape):
        best = None
        for dy in range(k):
            for dx in range(k):
                y, xx = i * s - top + dy, j * s - left + dx
                if 0 <= y < height and 0 <= xx < width and (best is None or x[b, y, xx, c] > best):
                    best = x[b, y, xx, c]
                    where[b, i, j, c] = ((b * height if with_batch else 0) + y) * width * channels \
                        + xx * channels + c
        out[b, i, j, c] = best
    return out, where


SPECS = [
    OpSpec("MaxPoolWithArgmax", lambda x, p=p, w=w: tuple(tf.nn.max_pool_with_argmax(
        x, 3, 2, p, include_batch_in_index=w)), [rand(2, 5, 5, 2, dtype=d)],
        lambda x, p=p, w=w: _reference(x, 3, 2, p, w),
        name=f"MaxPoolWithArgmax-{p}-{w}-{np.dtype(d).name}")
    for p in ("VALID", "SAME") for w in (False, True) for d in (np.float32, np.float64)
]
