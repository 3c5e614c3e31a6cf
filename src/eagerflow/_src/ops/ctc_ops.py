"""Connectionist temporal classification: `tf.nn.ctc_loss` (with its gradient) and the greedy
decoder.

>>> logits = tf.zeros([2, 1, 3])  # 2 steps, 1 sequence, 3 classes (blank 0)
>>> tf.nn.ctc_loss(tf.constant([[1]]), logits, tf.constant([1]), tf.constant([2]))
<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.0986123], dtype=float32)>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register, \
    register_gradient
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, math_ops, reduction_ops, shape_rules, sparse_tensor
from eagerflow._src.ops.cast_ops import cast, stop_gradient
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ops.wrappers import as_tensor


def _logsumexp(*terms):
    stacked = np.stack(terms)
    top = np.max(stacked, axis=0)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(stacked - safe), axis=0)) + safe


def _one_sequence(log_probs, label, blank, merge_repeated=True, impossible_grad=None):
    """(negative log-likelihood, gradient wrt the logits) of one sequence, by the
    forward-backward recursions over the label interleaved with blanks (in log space).

    Without `merge_repeated` (TF 1's ``ctc_merge_repeated=False``) a path's repeated labels
    are not merged: only a blank may last several steps, and two equal labels need no blank
    between them. `impossible_grad`: the gradient when the label cannot be emitted (zeros
    by default)."""
    steps = log_probs.shape[0]
    ext = np.full(2 * len(label) + 1, blank, np.int64)
    ext[1::2] = label
    size = len(ext)
    stay = np.ones(size, bool) if merge_repeated else ext == blank
    # a skip over a blank is allowed between different labels (any labels when unmerged)
    skip = np.zeros(size, bool)
    skip[2:] = (ext[2:] != blank) & ((ext[2:] != ext[:-2]) | (not merge_repeated))
    emit = log_probs[:, ext]  # [T, S]
    alpha = np.full((steps, size), -np.inf)
    beta = np.full((steps, size), -np.inf)
    if steps == 0:
        return np.inf, np.zeros_like(log_probs)
    alpha[0, :2] = emit[0, :2]
    for t in range(1, steps):
        prev = alpha[t - 1]
        one = np.concatenate([[-np.inf], prev[:-1]])
        two = np.where(skip, np.concatenate([[-np.inf, -np.inf], prev[:-2]]), -np.inf)
        alpha[t] = _logsumexp(np.where(stay, prev, -np.inf), one, two) + emit[t]
    beta[-1, -2:] = emit[-1, -2:]
    skip_next = np.concatenate([skip[2:], [False, False]])  # may s jump to s + 2
    for t in range(steps - 2, -1, -1):
        nxt = beta[t + 1]
        one = np.concatenate([nxt[1:], [-np.inf]])
        two = np.where(skip_next, np.concatenate([nxt[2:], [-np.inf, -np.inf]]), -np.inf)
        beta[t] = _logsumexp(np.where(stay, nxt, -np.inf), one, two) + emit[t]
    loglik = _logsumexp(alpha[-1, -1], alpha[-1, -2] if size > 1 else -np.inf)
    if not np.isfinite(loglik):
        return np.inf, (np.zeros_like(log_probs) if impossible_grad is None
                        else impossible_grad)
    occupancy = alpha + beta - emit  # [T, S]: log P(path at s at t, label)
    posterior = np.full(log_probs.shape, -np.inf)
    for k in np.unique(ext):
        posterior[:, k] = _logsumexp(*occupancy[:, ext == k].T)
    grad = np.exp(log_probs) - np.exp(posterior - loglik)
    return -loglik, grad


def _ctc_loss_dense(xp, logits, labels, label_length, logit_length, blank_index=0,
                    ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=None):
    """Per-sequence CTC losses and their gradients wrt time-major `logits` [T, B, C].

    `ignore_longer_outputs_than_inputs` None: TF 2's loss; a bool: TF 1's (the blank is
    the last class, empty labels and labels longer than their sequence are errors, or the
    latter a zero loss and gradient when ignored)."""
    v1 = ignore_longer_outputs_than_inputs is not None
    if logits.ndim != 3:
        raise errors.InvalidArgumentError(None, None, f"logits must be 3-D (time, batch, "
                                                      f"classes), got {logits.shape}")
    steps, batch, classes = logits.shape
    if blank_index < 0:
        blank_index += classes
    wide = logits.astype(np.float64)
    shifted = wide - wide.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    loss = np.zeros(batch, np.float64)
    grad = np.zeros(wide.shape, np.float64)
    for b in range(batch):
        length = int(logit_length[b])
        if v1 and not length <= steps:
            raise errors.op_error(errors.InvalidArgumentError, "CTCLoss",
                                  f"sequence_length({b}) <= {steps}")
        if not 0 <= length <= steps:
            raise errors.InvalidArgumentError(
                None, None, f"logit_length({b}) = {length} is out of the range [0, {steps}]")
        label = np.asarray(labels[b, :int(label_length[b])], np.int64)
        if v1:
            if not label.size:
                raise errors.op_error(errors.InvalidArgumentError, "CTCLoss",
                                      f"Labels length is zero in batch {b}")
            if label.min() < 0:
                raise errors.op_error(
                    errors.InvalidArgumentError, "CTCLoss",
                    f"All labels must be nonnegative integers, batch: {b} labels: "
                    + ",".join(str(k) for k in label))
            if len(label) > length:
                if ignore_longer_outputs_than_inputs:
                    continue  # (a zero loss and gradient)
                raise errors.op_error(
                    errors.InvalidArgumentError, "CTCLoss",
                    f"Not enough time for target transition sequence (required: "
                    f"{len(label)}, available: {length}){b}You can turn this error into a "
                    f"warning by using the flag ignore_longer_outputs_than_inputs")
        if label.size and (label.min() < 0 or label.max() >= classes):
            raise errors.InvalidArgumentError(
                None, None, f"labels of sequence {b} must lie in [0, {classes})")
        if blank_index > 0 and not v1:  # TF 2 moves the blank first, the labels below it
            label[label == blank_index] = blank_index - 1  # up one: one equal to it is below
        loss[b], grad[:length, b] = _one_sequence(
            log_probs[:length, b], label, blank_index, ctc_merge_repeated,
            # (TF 1's gradient of an impossible label is the softmax)
            np.exp(log_probs[:length, b]) if v1 else None)
    return loss.astype(logits.dtype), grad.astype(logits.dtype)


def _ctc_rule(logits, labels, label_length, logit_length, ignore_longer_outputs_than_inputs=None,
              **_):
    shape = logits.shape
    batch = TensorShape([None if shape.rank is None else shape[1]])
    if ignore_longer_outputs_than_inputs is not None:  # (TF 1's op: the batch of the lengths too)
        batch = batch.merge_with(logit_length.shape.with_rank(1))
        if shape.rank is not None:
            shape = TensorShape([shape[0], batch[0], shape[2]])
    return [(batch, logits.dtype), (shape if shape.rank is not None else TensorShape(None),
                                    logits.dtype)]


_CTC_LOSS = register("CTCLossDense", _ctc_loss_dense, _ctc_rule, multi=True,
                     dtypes=(_d.float32, _d.float64), tied=(0,))
tf_args[_CTC_LOSS] = None  # (dense labels, blank anywhere: no raw op of TF's takes these)
batching_rules[_CTC_LOSS] = PER_ELEMENT


@register_gradient("CTCLossDense")
def _ctc_loss_grad(op, grad_loss, _):
    # the gradient output is a constant of the loss (no second derivative, as in TF)
    gradient = stop_gradient(op.outputs[1])
    return (array_ops.expand_dims(array_ops.expand_dims(grad_loss, 0), -1) * gradient,
            None, None, None)


def _dense_labels(labels):
    """A SparseTensor of labels as padded dense labels and the length of each row (ops, so
    that labels of a graph being built work too)."""
    dense = sparse_tensor.to_dense(labels)
    rows = array_ops.shape(dense)[0]
    ends = cast(labels.indices[:, 1] + 1, _d.int32)  # a row is as long as its last label
    lengths = reduction_ops.unsorted_segment_max(ends, labels.indices[:, 0], rows)
    return dense, math_ops.maximum(lengths, 0)  # (0, not the lowest int, for an empty row)


@export("nn.ctc_loss")
def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """The negative log-likelihood of each label sequence under CTC, one per batch entry.

    labels: ``[batch, max_label_length]`` int labels (`label_length` of each used), or a
    SparseTensor (then `blank_index` is required); logits: ``[time, batch, classes]``
    (``[batch, time, classes]`` unless `logits_time_major`), unnormalized; logit_length:
    the steps of each sequence; blank_index: the blank class (default 0).
    """
    if isinstance(labels, SparseTensor):
        if blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when `labels` is a "
                             "`SparseTensor`.")
        labels, label_length = _dense_labels(labels)
    logits = as_tensor(logits)
    if blank_index is None:
        blank_index = 0
    classes = logits.shape[-1]
    if blank_index < 0 and classes is not None:
        blank_index += classes
    if not logits_time_major:
        logits = array_ops.transpose(logits, [1, 0, 2])
    labels = as_tensor(labels)
    label_length = cast(as_tensor(label_length), _d.int32)
    logit_length = cast(as_tensor(logit_length), _d.int32)
    loss, _ = dispatch(_CTC_LOSS, (logits, labels, label_length, logit_length),
                       {"blank_index": int(blank_index)}, name)
    return loss


@export("compat.v1.nn.ctc_loss")
def ctc_loss_v1(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False,
                ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False,
                time_major=True, logits=None):
    """TF 1's CTC loss: `labels` a SparseTensor of int32 labels, `inputs` (or `logits`)
    unnormalized ``[time, batch, classes]`` (``[batch, time, classes]`` unless
    `time_major`), the last class the blank; `sequence_length` the steps of each sequence.

    `preprocess_collapse_repeated` merges repeated labels first; without
    `ctc_merge_repeated` a path's repeated labels count separately.

    >>> labels = tf.SparseTensor([[0, 0]], tf.constant([0]), [1, 1])
    >>> tf.compat.v1.nn.ctc_loss(labels, tf.zeros([2, 1, 2]), [2]).numpy()
    array([0.2876821], dtype=float32)
    """
    if inputs is None:
        inputs = logits
    elif logits is not None:
        raise ValueError("Cannot pass both `logits` and `inputs`.")
    if not isinstance(labels, SparseTensor):
        raise TypeError(f"Expected argument `labels` to be a SparseTensor. Received "
                        f"labels={labels} of type: {type(labels).__name__}")
    if labels.values.dtype != _d.int32:
        raise errors.op_error(errors.InvalidArgumentError, "CTCLoss",
                              f"cannot compute CTCLoss as input #2(zero-based) was expected "
                              f"to be a int32 tensor but is a {labels.values.dtype.name} tensor")
    inputs = as_tensor(inputs)
    if not time_major:
        inputs = array_ops.transpose(inputs, [1, 0, 2])
    sequence_length = cast(as_tensor(sequence_length), _d.int32)
    dense, lengths = _dense_labels(labels)
    if preprocess_collapse_repeated:
        dense, lengths = collapse_repeated(dense, lengths)
    loss, _ = dispatch(_CTC_LOSS, (inputs, dense, lengths, sequence_length),
                       {"blank_index": -1,  # (the last class, whether or not known yet)
                        "ctc_merge_repeated": bool(ctc_merge_repeated),
                        "ignore_longer_outputs_than_inputs":
                            bool(ignore_longer_outputs_than_inputs)}, None)
    return loss


def _decoder_inputs(op_name, inputs, sequence_length):
    """``(steps, batch, classes, lengths)`` of a decoder's inputs, checked as TF's kernels
    check them."""
    if inputs.ndim != 3:
        raise errors.op_error(errors.InvalidArgumentError, op_name, "inputs is not a 3-Tensor")
    steps, batch, classes = inputs.shape
    lengths = np.asarray(sequence_length)
    if lengths.ndim != 1 or len(lengths) != batch:
        raise errors.op_error(
            errors.FailedPreconditionError, op_name, f"len(sequence_length) != batch_size.  "
                                                     f"len(sequence_length):  {lengths.size} "
                                                     f"batch_size: {batch}")
    for b in range(batch):
        if not lengths[b] <= steps:
            raise errors.op_error(errors.FailedPreconditionError, op_name,
                                  f"sequence_length({b}) <= {steps}")
    return steps, batch, classes, lengths


def _sparse_parts(paths, batch):
    """The (indices, values, dense shape) arrays of one decoded label sequence per batch
    entry."""
    indices = [[b, j] for b, p in enumerate(paths) for j in range(len(p))]
    flat = [k for p in paths for k in p]
    longest = max((len(p) for p in paths), default=0)
    return (np.asarray(indices, np.int64).reshape(-1, 2), np.asarray(flat, np.int64),
            np.asarray([batch, longest], np.int64))


def _greedy_decode(xp, inputs, sequence_length, merge_repeated=True, blank_index=-1):
    steps, batch, classes, lengths = _decoder_inputs("CTCGreedyDecoder", inputs, sequence_length)
    blank = blank_index + classes if blank_index < 0 else blank_index
    log_probability = np.zeros((batch, 1), inputs.dtype)
    paths = []
    for b in range(batch):
        n = int(lengths[b])
        best = inputs[:n, b].argmax(axis=-1) if classes else np.zeros(0, np.int64)
        log_probability[b, 0] = -inputs[:n, b].max(axis=-1).sum() if n and classes else 0
        out, previous = [], None
        for k in best:
            if k != blank and not (merge_repeated and k == previous):
                out.append(int(k))
            previous = k
        paths.append(out)
    return (*_sparse_parts(paths, batch), log_probability)


def _decoded_rules(op_name, inputs, sequence_length, top_paths):
    for t, rank in ((inputs, 3), (sequence_length, 1)):
        if t.shape.rank is not None and t.shape.rank != rank:
            raise shape_rules.shape_error(
                op_name, f"Shape must be rank {rank} but is rank {t.shape.rank}",
                [inputs.shape, sequence_length.shape])
    batch = inputs.shape[1] if inputs.shape.rank is not None else None
    i64 = _d.int64
    return ([(TensorShape([None, 2]), i64)] * top_paths + [(TensorShape([None]), i64)] *
            top_paths + [(TensorShape([2]), i64)] * top_paths +
            [(TensorShape([batch, top_paths]), inputs.dtype)])


def _greedy_rule(inputs, sequence_length, **_):
    return _decoded_rules("CTCGreedyDecoder", inputs, sequence_length, 1)


_NOT_DIFFERENTIABLE = "decoding has no gradient"
_DECODED = ("decoded_indices", "decoded_values", "decoded_shape", "log_probability")
_GREEDY = register("CTCGreedyDecoder", _greedy_decode, _greedy_rule, multi=True,
                   dtypes=(_d.float32, _d.float64), not_differentiable=_NOT_DIFFERENTIABLE)
tf_args[_GREEDY] = ("inputs", "sequence_length")
tf_nodes[_GREEDY] = NodeForm(types={"T": 0}, outputs=_DECODED)
tf_defaults[_GREEDY] = {"merge_repeated": False, "blank_index": -1}
batching_rules[_GREEDY] = PER_ELEMENT


@export("nn.ctc_greedy_decoder")
def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """Best-path decoding of time-major `inputs` [time, batch, classes]: the most likely class
    of each step, repeats merged (with `merge_repeated`), blanks dropped.

    Returns ``([SparseTensor of the decoded int64 labels], log_probability [batch, 1])``,
    the log-probability being minus the sum of each step's largest input.
    """
    # As TF's op wrapper: a non-tensor is taken as the attr's default type, float32.
    inputs = convert_to_tensor(inputs, dtype_hint=_d.float32)
    sequence_length = cast(as_tensor(sequence_length), _d.int32)
    indices, values, shape, log_probability = dispatch(
        _GREEDY, (inputs, sequence_length),
        {"merge_repeated": bool(merge_repeated),
         "blank_index": -1 if blank_index is None else int(blank_index)}, None)
    return [SparseTensor(indices, values, shape)], log_probability


def _log_add(a, b):
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    top = max(a, b)
    return top + np.log1p(np.exp(-abs(a - b)))


class _Prefix:
    """A label sequence of the search: its log-probabilities of ending in a blank and in its
    last label, now (`new`) and one step back (`old`), each ``[blank, label]``."""
    __slots__ = ("labels", "old", "new")

    def __init__(self, labels):
        self.labels = labels
        self.old = [-np.inf, -np.inf]
        self.new = [-np.inf, -np.inf]

    @property
    def total(self):
        return _log_add(*self.new)

    def active(self):
        return self.new != [-np.inf, -np.inf]


def _beam_search(log_probs, beam_width, blank):
    """Prefix beam search over one sequence's per-step log-probabilities [T, C], pruned as
    TF's decoder prunes: the label sequences kept, each with (log P(ends in blank),
    log P(ends in a label)).

    Each step first carries the kept sequences on (a blank, their last label repeated, or
    that label added to their kept parent), then grows them by one label, best first, into
    sequences not kept. A grown sequence better than the worst kept one takes its place, and
    the one it displaces loses its probability: grown again later in the step, it counts only
    that growth, as in TF (so a narrow beam can score a sequence lower than a wide one).
    """
    prefixes = {(): _Prefix(())}
    prefixes[()].new = [0.0, -np.inf]
    kept = [prefixes[()]]
    for step in log_probs:
        branches = sorted(kept, key=lambda e: -e.total)
        for entry in branches:
            entry.old = list(entry.new)
        kept = []
        for entry in branches:
            if entry.labels:
                parent = prefixes.get(entry.labels[:-1])
                label = entry.new[1]
                if parent is not None and parent.active():
                    repeated = parent.labels and parent.labels[-1] == entry.labels[-1]
                    label = _log_add(label, parent.old[0] if repeated else
                                     _log_add(*parent.old))
                label += step[entry.labels[-1]]
            else:
                label = -np.inf
            entry.new = [_log_add(*entry.old) + step[blank], label]
            kept.append(entry)

        def worth_keeping(score):
            return score > -np.inf and (len(kept) < beam_width or
                                        score > min(e.total for e in kept))
        for entry in branches:
            if not worth_keeping(_log_add(*entry.old)):
                continue
            for k in range(len(step)):
                if k == blank:
                    continue
                labels = entry.labels + (k,)
                child = prefixes.setdefault(labels, _Prefix(labels))
                if child.active():
                    continue
                repeated = entry.labels and entry.labels[-1] == k
                child.new = [-np.inf, step[k] + (entry.old[0] if repeated else
                                                  _log_add(*entry.old))]
                if worth_keeping(child.new[1]):
                    if len(kept) == beam_width:
                        worst = min(kept, key=lambda e: e.total)
                        worst.new = [-np.inf, -np.inf]
                        kept.remove(worst)
                    kept.append(child)
                else:
                    child.old = [-np.inf, -np.inf]
                    child.new = [-np.inf, -np.inf]
    return {entry.labels: tuple(entry.new) for entry in kept}


def _beam_decode(xp, inputs, sequence_length, beam_width, top_paths, merge_repeated=True):
    steps, batch, classes, lengths = _decoder_inputs("CTCBeamSearchDecoder", inputs, sequence_length)
    if top_paths > beam_width:
        raise errors.op_error(errors.InvalidArgumentError, "CTCBeamSearchDecoder",
                              "requested more paths than the beam width.")
    # the inputs are taken through log-softmax, as TF's decoder normalizes each step
    wide = inputs.astype(np.float64)
    top = wide.max(axis=-1, keepdims=True)
    log_probs = wide - top - np.log(np.exp(wide - top).sum(-1, keepdims=True))
    paths = [[] for _ in range(top_paths)]
    scores = np.full((batch, top_paths), -np.inf, inputs.dtype)
    for b in range(batch):
        beams = _beam_search(log_probs[:int(lengths[b]), b], beam_width, classes - 1)
        ranked = sorted(beams.items(), key=lambda item: -_log_add(*item[1]))[:top_paths]
        if len(ranked) < top_paths:
            raise errors.op_error(errors.InvalidArgumentError, "CTCBeamSearchDecoder",
                                  "Less leaves in the beam search than requested.")
        for i, (prefix, parts) in enumerate(ranked):
            if merge_repeated:  # (TF's: a path's repeated labels are merged once decoded)
                prefix = [k for j, k in enumerate(prefix) if j == 0 or k != prefix[j - 1]]
            paths[i].append(prefix)
            scores[b, i] = _log_add(*parts)
    parts = [_sparse_parts(per_batch, batch) for per_batch in paths]
    return (*(p[0] for p in parts), *(p[1] for p in parts), *(p[2] for p in parts), scores)


def _beam_rule(inputs, sequence_length, *, top_paths, **_):
    return _decoded_rules("CTCBeamSearchDecoder", inputs, sequence_length, top_paths)


_BEAM = register("CTCBeamSearchDecoder", _beam_decode, _beam_rule, multi=True,
                 dtypes=(_d.float32, _d.float64), not_differentiable=_NOT_DIFFERENTIABLE)
tf_args[_BEAM] = ("inputs", "sequence_length")
tf_nodes[_BEAM] = NodeForm(types={"T": 0}, outputs=(
    *((name, "top_paths") for name in _DECODED[:3]), "log_probability"))
tf_defaults[_BEAM] = {"merge_repeated": True}
batching_rules[_BEAM] = PER_ELEMENT


@export("nn.ctc_beam_search_decoder")
def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """Beam search decoding of time-major `inputs` [time, batch, classes] (log-probabilities;
    the last class is the blank).

    Returns ``(decoded, log_probabilities)``: `top_paths` SparseTensors of int64 labels, the
    most likely first, and ``[batch, top_paths]`` their log-probabilities.
    """
    return ctc_beam_search_decoder_v1(inputs, sequence_length, beam_width, top_paths,
                                      merge_repeated=False)


@export("compat.v1.nn.ctc_beam_search_decoder")
def ctc_beam_search_decoder_v1(inputs, sequence_length, beam_width=100, top_paths=1,
                               merge_repeated=True):
    """TF 1's beam search decoder: as `tf.nn.ctc_beam_search_decoder`, with a decoded
    path's repeated labels merged into one unless `merge_repeated` is False.

    >>> x = tf.math.log([[[0.1, 0.8, 0.1]], [[0.1, 0.1, 0.8]], [[0.1, 0.8, 0.1]]])
    >>> decoded, _ = tf.compat.v1.nn.ctc_beam_search_decoder(x, [3])
    >>> tf.sparse.to_dense(decoded[0]).numpy().tolist()
    [[1]]
    """
    inputs = convert_to_tensor(inputs, dtype_hint=_d.float32)
    sequence_length = cast(as_tensor(sequence_length), _d.int32)
    outputs = dispatch(_BEAM, (inputs, sequence_length),
                       {"beam_width": int(beam_width), "top_paths": int(top_paths),
                        "merge_repeated": bool(merge_repeated)}, None)
    n = int(top_paths)
    decoded = [SparseTensor(outputs[i], outputs[n + i], outputs[2 * n + i]) for i in range(n)]
    return decoded, outputs[-1]


@export("nn.collapse_repeated")
def collapse_repeated(labels, seq_length, name=None):
    """Each row of `labels` ([batch, time]) with runs of a repeated label merged into one,
    over its first `seq_length` entries, left-aligned and padded with 0 to the longest
    result; and the new lengths.

    >>> y, n = tf.nn.collapse_repeated([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]], [5, 3])
    >>> y.numpy().tolist(), n.numpy().tolist()
    ([[1, 2, 3], [4, 0, 0]], [3, 1])
    """
    labels = as_tensor(labels)
    seq_length = as_tensor(seq_length)
    width = array_ops.shape(labels, out_type=seq_length.dtype)[1]
    changed = math_ops.not_equal(labels[:, 1:], labels[:, :-1])
    first = array_ops.ones_like(changed[:, :1])
    keep = math_ops.logical_and(array_ops.concat([first, changed], 1),
                                array_ops.sequence_mask(seq_length, width))
    new_length = reduction_ops.reduce_sum(cast(keep, seq_length.dtype), axis=1)
    kept = array_ops.where(keep)  # (row, time) of each kept label, row-major
    column = array_ops.gather_nd(reduction_ops.cumsum(cast(keep, _d.int64), axis=1), kept) - 1
    out_width = reduction_ops.reduce_max(array_ops.concat(
        [new_length, array_ops.zeros([1], seq_length.dtype)], 0))
    collapsed = array_ops.scatter_nd(
        array_ops.stack([kept[:, 0], column], 1), array_ops.gather_nd(labels, kept),
        array_ops.stack([cast(array_ops.shape(labels)[0], _d.int64),
                         cast(out_width, _d.int64)]))
    return collapsed, new_length


@export("nn.ctc_unique_labels")
def ctc_unique_labels(labels, name=None):
    """Each row's distinct labels in order of first appearance (int64, padded with 0 to
    the row's width), and each label's index among them (int32).

    >>> u, i = tf.nn.ctc_unique_labels([[3, 4, 4, 3]])
    >>> u.numpy().tolist(), i.numpy().tolist()
    ([[3, 4, 0, 0]], [[0, 1, 1, 0]])
    """
    labels = as_tensor(labels)
    same = math_ops.equal(array_ops.expand_dims(labels, 2), array_ops.expand_dims(labels, 1))
    first = reduction_ops.argmax(cast(same, _d.int32), axis=2, output_type=_d.int32)
    width = array_ops.shape(labels)[1]
    is_first = math_ops.equal(first, array_ops.range(width)[None, :])
    slot = reduction_ops.cumsum(cast(is_first, _d.int32), axis=1) - 1
    index = array_ops.gather(slot, first, batch_dims=1)
    at = array_ops.where(is_first)
    unique = array_ops.scatter_nd(
        array_ops.stack([at[:, 0], cast(array_ops.gather_nd(slot, at), _d.int64)], 1),
        cast(array_ops.gather_nd(labels, at), _d.int64), cast(array_ops.shape(labels), _d.int64))
    unique.set_shape(labels.shape.merge_with([None, None]))  # (TF's is a matrix at any rank)
    return unique, index

