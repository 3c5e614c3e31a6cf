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


def _greedy_parts(x, n):
    (decoded,), log_probability = tf.nn.ctc_greedy_decoder(x, n)
    return decoded.indices, decoded.values, decoded.dense_shape, log_probability


def _beam_parts(x, n):
    decoded, log_probability = tf.nn.ctc_beam_search_decoder(x, n, beam_width=64, top_paths=2)
    return (*(d.indices for d in decoded), *(d.values for d in decoded),
            *(d.dense_shape for d in decoded), log_probability)


# step 0 best class 1, step 1 best class 1 (merged), step 2 the blank (2), step 3 class 0
_STEPS = np.log(np.array([[[0.2, 0.7, 0.1]], [[0.1, 0.8, 0.1]], [[0.1, 0.2, 0.7]],
                          [[0.6, 0.3, 0.1]]], np.float32))


def _greedy_ref(x, n):
    return (np.array([[0, 0], [0, 1]]), np.array([1, 0]), np.array([1, 2]),
            -x[:, 0].max(-1).sum(keepdims=True)[None])


def _beam_check(out, args):
    """Each path's log-probability is that of every alignment collapsing to it."""
    x = args[0][:, 0].astype(np.float64)
    log_p = x - np.log(np.exp(x).sum(-1, keepdims=True))
    for i in range(2):
        label = list(out[2 + i])
        assert out[4 + i].tolist() == [1, len(label)]
        total = sum(np.exp(sum(log_p[t, k] for t, k in enumerate(path)))
                    for path in itertools.product(range(3), repeat=4)
                    if _collapse(path, 2) == label)
        np.testing.assert_allclose(out[6][0, i], np.log(total), rtol=1e-5)


SPECS += [
    OpSpec("CTCGreedyDecoder", _greedy_parts, [_STEPS, np.array([4], np.int32)], _greedy_ref,
           grad="decoding has no gradient"),
    OpSpec("CTCBeamSearchDecoder", _beam_parts, [_STEPS, np.array([4], np.int32)],
           check=_beam_check, grad="decoding has no gradient"),
]
