"""Specs of CTC (ctc_ops.py): the loss against a sum over every alignment."""
import itertools

import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec, rand


def _collapse(path, blank):
    out, previous = [], None
    for k in path:
        if k != blank and k != previous:
            out.append(k)
        previous = k
    return out


def brute_force_ctc(logits, labels, label_length, logit_length, blank=0):
    """-log of the summed probability of every path (time-major logits) collapsing to the
    labels."""
    losses = []
    for b in range(logits.shape[1]):
        steps = int(logit_length[b])
        x = logits[:steps, b].astype(np.float64)
        log_p = x - np.log(np.exp(x).sum(-1, keepdims=True))
        target = list(labels[b, :label_length[b]])
        total = sum(np.exp(sum(log_p[t, k] for t, k in enumerate(path)))
                    for path in itertools.product(range(x.shape[1]), repeat=steps)
                    if _collapse(path, blank) == target)
        losses.append(-np.log(total))
    return np.asarray(losses, logits.dtype)


_LABELS = np.array([[1, 2], [2, 2]], np.int32)
_LABEL_LENGTH = np.array([2, 1], np.int32)
_LOGIT_LENGTH = np.array([4, 3], np.int32)

SPECS = [
    OpSpec("CTCLossDense", lambda x, y, n, m: tf.nn.ctc_loss(y, x, n, m),
           [rand(4, 2, 3, dtype=d), _LABELS, _LABEL_LENGTH, _LOGIT_LENGTH], brute_force_ctc,
           name=f"CTCLossDense-{np.dtype(d).name}", rtol=1e-5, atol=1e-5)
    for d in (np.float32, np.float64)
] + [
    OpSpec("CTCLossDense", lambda x, y, n, m: tf.nn.ctc_loss(y, x, n, m, blank_index=2),
           [rand(4, 2, 3, dtype=np.float64, seed=1), np.array([[0, 1], [1, 1]], np.int32),
            _LABEL_LENGTH, _LOGIT_LENGTH],
           lambda x, y, n, m: brute_force_ctc(x, y, n, m, blank=2), name="CTCLossDense-blank2"),
]
