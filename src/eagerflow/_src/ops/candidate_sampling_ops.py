"""Candidate samplers (``tf.random.log_uniform_candidate_sampler``,
``uniform_candidate_sampler``): the negative classes of sampled losses, with the expected
number of times each true and sampled class is drawn.

A seeded sampler draws the candidates TF draws: one at a time from its Philox stream, as TF's
kernels do.

>>> s = tf.random.uniform_candidate_sampler([[1]], 1, 3, True, 5, seed=1)
>>> sorted(set(s.sampled_candidates.numpy().tolist())) == sorted(s.sampled_candidates.numpy())
True
"""
import collections
import threading
import math

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, kernel_type_name, \
    register
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, float_math, linalg_ops, math_ops, nn_ops, philox, \
    random_ops, reduction_ops, shape_rules
from eagerflow._src.ops.cast_ops import cast, stop_gradient
from eagerflow._src.ops.wrappers import as_tensor


def _result_type(name):
    return collections.namedtuple(name, ["sampled_candidates", "true_expected_count",
                                         "sampled_expected_count"])


_LOG_UNIFORM = _result_type("LogUniformCandidateSampler")
_UNIFORM = _result_type("UniformCandidateSampler")
_FIXED_UNIGRAM = _result_type("FixedUnigramCandidateSampler")
_LEARNED_UNIGRAM = _result_type("LearnedUnigramCandidateSampler")
_ALL = _result_type("AllCandidateSampler")


def _check_candidates(true, op_name, limit):
    outside = true[(true < 0) | (true >= limit)]
    if outside.size:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"`true_candidate` out of range [0, {limit}), received "
                              f"{int(outside[0])}")


_F32 = np.float32
# The blocks of its stream a call reserves: TF's kernels reserve 2048 words per sample (more
# than rejections take but in rare cases), whatever they use.
_BLOCKS_PER_SAMPLE = 512


class _LogUniform:
    """Class k with probability ``log((k + 2) / (k + 1)) / log(range_max + 1)``: the
    integer part of ``exp(u * log(range_max + 1))``, less 1, for a uniform double u."""

    def __init__(self, range_max, op_name):
        self.range, self.log_range = range_max, math.log1p(range_max)

    def sample(self, words):
        return (int(math.exp(philox.next_double(words) * self.log_range)) - 1) % self.range

    def probability(self, k):
        return _F32(math.log((k + 2.0) / (k + 1.0)) / self.log_range)


class _Uniform:
    """Every class of ``[0, range_max)`` equally likely: 64 random bits modulo the range."""

    def __init__(self, range_max, op_name):
        self.range, self.p = range_max, _F32(1.0 / range_max)

    def sample(self, words):
        return philox.next_uint64(words) % self.range

    def probability(self, k):
        return self.p


class _FixedUnigram:
    """Classes in proportion to float32 weights (the reserved ids' zeros, then the counts,
    `unigrams` or the last field of each line of `vocab_file`, raised to `distortion`, of
    the ids ``i`` this `shard` of `num_shards` holds, ``i % num_shards``), drawn through an
    alias table (Walker's method: a uniform bucket, then a uniform float32 against the
    bucket's share, else the bucket's alias)."""

    def __init__(self, range_max, op_name, vocab_file, distortion, num_reserved_ids,
                 num_shards, shard, unigrams):
        if vocab_file:
            with open(vocab_file, encoding="utf-8") as f:
                counts = [float(line.rstrip("\n").split(",")[-1]) for line in f
                          if line.strip()]
        elif unigrams:
            counts = [float(u) for u in unigrams]
        else:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  "Must provide either vocab_file or unigrams.")
        weights = [_F32(0)] * num_reserved_ids + [_F32(math.pow(_F32(c), _F32(distortion)))
                                                  for c in counts]
        self.weights = [w for i, w in enumerate(weights) if i % num_shards == shard]
        if len(self.weights) != range_max:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"range is {range_max} must be equal to weights size  "
                                  f"{len(self.weights)}")
        self.total = _F32(0)
        for w in self.weights:
            self.total = _F32(self.total + w)
        self.range = range_max
        self.share, self.alias = self._alias_table(self.weights)

    @staticmethod
    def _alias_table(weights):
        n, total = len(weights), sum(float(w) for w in weights)  # (in double, in order)
        share = [float(_F32(w * _F32(n))) / total for w in weights]
        alias = [-1] * n
        low = [i for i in range(n) if share[i] < 1.0]
        high = [i for i in range(n) if share[i] >= 1.0]
        while high and low:
            small, big = low.pop(), high.pop()
            alias[small] = big
            share[big] -= 1.0 - share[small]
            (low if share[big] < 1.0 else high).append(big)
        share = [_F32(v) for v in share]
        for i in high + low:  # (rounding left them near 1)
            share[i], alias[i] = _F32(1), i
        return share, alias

    def sample(self, words):
        u = philox.next_float(words)
        bucket = next(words) % self.range
        return bucket if u < self.share[bucket] else self.alias[bucket]

    def probability(self, k):
        return _F32(self.weights[k] / self.total)


def _check_call(op_name, true, num_true, num_sampled, unique, range_max):
    """TF's checks of a sampler's call, before it draws: the true classes (a NumPy array)
    and the range."""
    if true.ndim != 2:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              "true_classes must be a matrix")
    if true.shape[1] != num_true:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"true_classes must have num_true columns, expected: "
                              f"{true.shape[1]} was: {num_true}")
    if unique and num_sampled > range_max:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              "Sampler's range is too small.")
    _check_candidates(true, op_name, range_max)


class _LearnedUnigram:
    """Classes in proportion to how often each was a true class so far, plus one: the
    counts of its kernel (one per op and attrs eagerly, as TF caches kernels, one per
    node of a graph; `set_seed` starts them again), which each call adds its true
    classes to after it draws. A draw is a uniform integer below the total count (TF's
    unbiased one: 32 bits, those below ``2**32 % total`` rejected), the class whose
    cumulative count first exceeds it."""

    _kernels = {}  # kernel -> (set_seed epoch, its counts)

    def __init__(self, range_max, op_name, kernel):
        if range_max >= 2**31 - 1:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"range_max must be below {2**31 - 1}, got {range_max}")
        epoch = random_ops._STATE.epoch
        found = self._kernels.get(kernel)
        if found is None or found[0] != epoch:
            found = self._kernels[kernel] = (epoch, np.ones(range_max, np.int64))
        self.counts = found[1]
        self.cumulative = np.cumsum(self.counts)
        self.total = int(self.cumulative[-1])

    def sample(self, words):
        n = self.total
        if n & (n - 1) == 0:
            position = next(words) & (n - 1)
        else:
            reject = (2**32 - 1) % n + 1
            word = next(words)
            while word < reject:
                word = next(words)
            position = word % n
        return int(np.searchsorted(self.cumulative, position, side="right"))

    def probability(self, k):
        return _F32(_F32(self.counts[k]) / _F32(self.total))

    def update(self, true):
        for k in true.reshape(-1)[:max(2**31 - 1 - self.total, 0)].tolist():
            self.counts[k] += 1


def _expected_counts(p, num_sampled, tries):
    """How often classes of probabilities `p` (float32) are expected among `num_sampled`
    candidates drawn in `tries` tries (float32 arithmetic): ``p * num_sampled`` when no try
    was rejected, else ``1 - (1 - p) ** tries``."""
    p = np.asarray(p, _F32).reshape(-1)
    if tries == num_sampled:
        return p * _F32(num_sampled)
    return -float_math.c_expm1f(_F32(tries) * float_math.c_log1pf(-p))


def _sampler(kind, op_name):
    """The kernel of a sampler drawing from `kind` (built from ``range_max`` and the op's own
    attrs beyond the samplers' common ones), as TF's kernel draws: one value at a time from
    its Philox stream, retrying repeats when `unique`."""
    def kernel(xp, true_classes, num_true, num_sampled, unique, range_max, seed, seed2,
               stream, **attrs):
        true = np.asarray(true_classes, np.int64)
        if kind is _LearnedUnigram:  # (its kernel's counts: an eager call's are its attrs')
            _check_call(op_name, true, num_true, num_sampled, unique, range_max)
            # (an unseeded eager call's attrs are TF's seed pair 0, 0: one kernel for all)
            pair = (0, 0) if getattr(_unseeded, "call", False) else (seed, seed2)
            sampler = kind(range_max, op_name, (
                op_name, *pair, num_true, num_sampled, unique, range_max,
                None if type(stream) is int else id(stream)))
        else:  # (TF makes the sampler with the kernel, before any call)
            sampler = kind(range_max, op_name, **attrs)
            _check_call(op_name, true, num_true, num_sampled, unique, range_max)
        if unique and isinstance(sampler, _FixedUnigram) and \
                num_sampled > np.count_nonzero(sampler.weights):
            # (TF's kernel would never finish)
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  "Sampler's range is too small.")
        if type(stream) is not int:  # an op of a graph: its state picks this run's stream
            seed, seed2, stream = stream.take(seed, seed2, _BLOCKS_PER_SAMPLE * num_sampled)
        words = philox.word_stream(seed, ((seed2 & (2**64 - 1)) << 64) + stream)
        if unique:
            picked, seen, tries = [], set(), 0
            while len(picked) < num_sampled:
                k = sampler.sample(words)
                tries += 1
                if k not in seen:
                    seen.add(k)
                    picked.append(k)
        else:
            picked = [sampler.sample(words) for _ in range(num_sampled)]
            tries = num_sampled
        classes = true.reshape(-1).tolist() + picked
        counts = _expected_counts([sampler.probability(k) for k in classes], num_sampled,
                                  tries)
        if kind is _LearnedUnigram:
            sampler.update(true)
        return (np.asarray(picked, np.int64).reshape(-1),
                counts[:true.size].reshape(true.shape), counts[true.size:])
    return kernel


def _sampler_rule(op_name):
    def rule(true_classes, *, num_true, num_sampled, **_):
        rank = true_classes.shape.rank
        if rank is not None and rank != 2:
            raise shape_rules.shape_error(op_name, f"Shape must be rank 2 but is rank {rank}",
                                          [true_classes.shape])
        batch = true_classes.shape[0] if rank == 2 else None
        return [(TensorShape([num_sampled]), _d.int64),
                (TensorShape([batch, num_true]), _d.float32),
                (TensorShape([num_sampled]), _d.float32)]
    return rule


_SAMPLERS = {}
_FIXED_UNIGRAM_DEFAULTS = {"vocab_file": "", "distortion": 1.0, "num_reserved_ids": 0,
                           "num_shards": 1, "shard": 0, "unigrams": ()}
for _name, _kind, _defaults in (
        ("LogUniformCandidateSampler", _LogUniform, {}),
        ("UniformCandidateSampler", _Uniform, {}),
        ("FixedUnigramCandidateSampler", _FixedUnigram, _FIXED_UNIGRAM_DEFAULTS),
        ("LearnedUnigramCandidateSampler", _LearnedUnigram, {})):
    _op = register(_name, _sampler(_kind, _name),
                   _sampler_rule(_name), multi=True, dtypes=(_d.int64,), stateful=True,
                   not_differentiable="sampling", input_names=("true_classes",))
    tf_args[_op] = ("true_classes",)
    tf_nodes[_op] = NodeForm(types={}, outputs=("sampled_candidates", "true_expected_count",
                                                "sampled_expected_count"),
                             local={"stream": random_ops._OpState},
                             defaults={"seed": 0, "seed2": 0, **_defaults})
    tf_defaults[_op] = {"seed": 0, "seed2": 0, **_defaults}
    random_ops._SAMPLES[_name] = lambda shapes, attrs: _BLOCKS_PER_SAMPLE * attrs["num_sampled"]
    _SAMPLERS[_name] = _op


def _all_candidates(xp, true_classes, num_true, num_sampled, unique, seed, seed2):
    true = np.asarray(true_classes, np.int64)
    _check_candidates(true, "AllCandidateSampler", num_sampled)
    return (np.arange(num_sampled, dtype=np.int64), np.ones(true.shape, np.float32),
            np.ones(num_sampled, np.float32))


_ALL_CANDIDATES = register("AllCandidateSampler", _all_candidates,
                           _sampler_rule("AllCandidateSampler"), multi=True,
                           dtypes=(_d.int64,), not_differentiable="sampling",
                           input_names=("true_classes",))
tf_args[_ALL_CANDIDATES] = ("true_classes",)
tf_nodes[_ALL_CANDIDATES] = NodeForm(types={}, outputs=(
    "sampled_candidates", "true_expected_count", "sampled_expected_count"))
tf_defaults[_ALL_CANDIDATES] = {"seed": 0, "seed2": 0}
batching_rules[_ALL_CANDIDATES] = PER_ELEMENT


_unseeded = threading.local()  # whether this thread's sampler call is eager and unseeded


def _sample(true_classes, num_true, num_sampled, unique, range_max, seed, result, op_name,
            name, **extra):
    op = _SAMPLERS[op_name]
    inputs = (convert_to_tensor(true_classes, dtype_hint=_d.int64),)
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled),
             "unique": bool(unique), "range_max": int(range_max), **extra}
    seeds = random_ops._seed_attrs(seed)
    unseeded = seeds["stream"] == 0  # (eager and unseeded: a drawn pair, stream 0)
    if seeds["stream"] is None:  # eager and seeded: the next part of the pair's stream
        if inputs[0].dtype == _d.int64:  # (a call that fails takes none of it)
            try:
                if op_name == "FixedUnigramCandidateSampler":  # (its kernel's making first)
                    _FixedUnigram(int(range_max), op_name, **extra)
                _check_call(op_name, inputs[0].numpy(), int(num_true), int(num_sampled),
                            bool(unique), int(range_max))
            except errors.InvalidArgumentError as e:
                raise errors.eager_error(type(e), op_name, errors.bare_message(e.message),
                                         name or "") from None
        seeds = random_ops._eager_stream(op, inputs, attrs, seeds)
    _unseeded.call = unseeded
    try:
        outputs = dispatch(op, inputs, {**attrs, **seeds}, name)
    finally:
        _unseeded.call = False
    return result(*outputs)


@export("random.log_uniform_candidate_sampler")
def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """Samples `num_sampled` classes in ``[0, range_max)`` from the log-uniform (Zipfian)
    distribution ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``, without repeats
    when `unique`."""
    return _sample(true_classes, num_true, num_sampled, unique, range_max, seed, _LOG_UNIFORM,
                   "LogUniformCandidateSampler", name)


@export("random.uniform_candidate_sampler")
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                              seed=None, name=None):
    """Samples `num_sampled` classes uniformly from ``[0, range_max)``, without repeats when
    `unique`."""
    return _sample(true_classes, num_true, num_sampled, unique, range_max, seed, _UNIFORM,
                   "UniformCandidateSampler", name)


_HITS = collections.namedtuple("ComputeAccidentalHits", ["indices", "ids", "weights"])


def _hits_input(value, index, parameter):
    """`value` as an int64 tensor, input `index` of TF's ComputeAccidentalHits: Python values
    convert; a tensor of another dtype is TF's error (a TypeError while a graph is built)."""
    t = convert_to_tensor(value, dtype_hint=_d.int64)
    if t.dtype == _d.int64:
        return t
    if not context.executing_eagerly():
        raise TypeError(f"Input '{parameter}' of 'ComputeAccidentalHits' Op has type "
                        f"{t.dtype.name} that does not match expected type of int64.")
    raise errors.before_kernel(errors.InvalidArgumentError(
        None, None, f"cannot compute ComputeAccidentalHits as input #{index}(zero-based) was "
        f"expected to be a int64 tensor but is a {kernel_type_name(t.dtype)} tensor "
        f"[Op:ComputeAccidentalHits] name: "))


@export("nn.compute_accidental_hits")
def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """Where a sampled candidate is one of a row's true classes: ``(indices, ids, weights)``,
    the row, the candidate's position, and the most negative float32 (to add to that
    logit), ordered by row, then by true class. A candidate sampled more than once is
    found at its last position only.

    >>> hits = tf.nn.compute_accidental_hits([[1, 2], [3, 1]],
    ...                                      tf.constant([1, 5, 3, 1], tf.int64), 2)
    >>> hits.indices.numpy().tolist(), hits.ids.numpy().tolist()
    ([0, 1, 1], [3, 2, 3])
    """
    random_ops.get_seed(seed)  # (TF's op takes a seed it never uses)
    true_classes = _hits_input(true_classes, 0, "true_classes")
    sampled = _hits_input(sampled_candidates, 1, "sampled_candidates")
    rank = true_classes.shape.rank
    if rank not in (None, 2) and not context.executing_eagerly():  # (TF's shape inference)
        raise ValueError(f"Shape must be rank 2 but is rank {rank}")
    if rank not in (None, 2) or rank == 2 and true_classes.shape[1] not in (None, int(num_true)):
        raise errors.eager_error(errors.InvalidArgumentError, "ComputeAccidentalHits",
                                 "true_candidates must be a batch_size * num_true matrix")
    positions = array_ops.range(array_ops.shape(sampled, out_type=_d.int64)[0])
    hits = math_ops.equal(array_ops.expand_dims(true_classes, 2),
                          array_ops.reshape(sampled, [1, 1, -1]))
    # (each true class's hit: the last position holding it)
    last = reduction_ops.reduce_max(
        array_ops.where(hits, array_ops.reshape(positions, [1, 1, -1]),
                        as_tensor(-1, _d.int64)), axis=2)
    found = array_ops.where(last >= 0)
    weights = array_ops.fill(array_ops.shape(found)[:1], np.finfo(np.float32).min)
    return _HITS(cast(found[:, 0], _d.int32), array_ops.gather_nd(last, found), weights)


@export("random.fixed_unigram_candidate_sampler", "nn.fixed_unigram_candidate_sampler")
def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
    """Samples `num_sampled` classes in ``[0, range_max)`` in proportion to their counts
    (`unigrams`, or the last comma-separated field of each line of `vocab_file`) raised to
    `distortion`; the first `num_reserved_ids` ids are never drawn. Without repeats when
    `unique`.

    >>> s = tf.random.fixed_unigram_candidate_sampler([[1]], 1, 2, True, 3, unigrams=[0, 1, 1])
    >>> sorted(s.sampled_candidates.numpy().tolist())
    [1, 2]
    """
    return _sample(true_classes, num_true, num_sampled, unique, range_max, seed, _FIXED_UNIGRAM,
                   "FixedUnigramCandidateSampler", name, vocab_file=str(vocab_file),
                   distortion=float(distortion), num_reserved_ids=int(num_reserved_ids),
                   num_shards=int(num_shards), shard=int(shard),
                   unigrams=tuple(float(u) for u in unigrams))


@export("random.learned_unigram_candidate_sampler", "nn.learned_unigram_candidate_sampler")
def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
    """Samples `num_sampled` classes in ``[0, range_max)`` in proportion to how often each
    was among the true classes of this sampler's calls so far (plus one, so that each
    class may be drawn), without repeats when `unique`.

    >>> s = tf.random.learned_unigram_candidate_sampler([[1]], 1, 2, False, 4, seed=1)
    >>> s.true_expected_count.numpy().tolist()
    [[0.5]]
    """
    return _sample(true_classes, num_true, num_sampled, unique, range_max, seed,
                   _LEARNED_UNIGRAM, "LearnedUnigramCandidateSampler", name)


@export("random.all_candidate_sampler", "nn.all_candidate_sampler")
def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Every class of ``[0, num_sampled)``, each expected once: a test stand-in for the
    other samplers.

    >>> tf.random.all_candidate_sampler([[1]], 1, 3, True).sampled_candidates.numpy()
    array([0, 1, 2])
    """
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled),
             "unique": bool(unique), "seed": 0, "seed2": 0}
    return _ALL(*dispatch(_ALL_CANDIDATES, (as_tensor(true_classes, _d.int64),), attrs, name))


def _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                    sampled_values, subtract_log_q, remove_accidental_hits, lookup=None):
    """The logits of the true and the sampled classes, ``[batch, num_true + num_sampled]``,
    and their labels (1 / num_true for each true class, 0 for the sampled ones).

    `lookup`: ``lookup(weights, ids)``, the rows of weights in shards (TF 1's take a
    partition strategy); by default the shards hold consecutive rows."""
    if lookup is None and isinstance(weights, (list, tuple)):
        weights = array_ops.concat(list(weights), 0)
    if isinstance(biases, (list, tuple)):
        biases = array_ops.concat(list(biases), 0)
    inputs = as_tensor(inputs)
    labels = cast(as_tensor(labels), _d.int64)
    if labels.shape.rank == 1:
        labels = array_ops.expand_dims(labels, -1)
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True,
                                                       num_classes)
    sampled, true_expected, sampled_expected = (stop_gradient(as_tensor(v))
                                                for v in sampled_values)
    sampled = cast(sampled, _d.int64)
    flat_labels = array_ops.reshape(labels, [-1])
    all_ids = array_ops.concat([flat_labels, sampled], 0)
    all_w = array_ops.gather(weights, all_ids) if lookup is None else lookup(weights, all_ids)
    all_b = array_ops.gather(biases, all_ids)
    n_true = array_ops.shape(flat_labels)[0]
    true_w, sampled_w = all_w[:n_true], all_w[n_true:]
    true_b, sampled_b = all_b[:n_true], all_b[n_true:]
    dim = array_ops.shape(true_w)[1]
    true_w = array_ops.reshape(true_w, array_ops.stack([-1, num_true, dim]))
    true_logits = reduction_ops.reduce_sum(array_ops.expand_dims(inputs, 1) * true_w, -1) + \
        array_ops.reshape(true_b, [-1, num_true])
    sampled_logits = linalg_ops.matmul(inputs, sampled_w, transpose_b=True) + sampled_b
    if remove_accidental_hits:
        hits = compute_accidental_hits(labels, sampled, num_true)
        at = array_ops.stack([cast(hits.indices, _d.int64), hits.ids], 1)
        sampled_logits += array_ops.tensor_scatter_nd_update(
            array_ops.zeros_like(sampled_logits), at, cast(hits.weights, sampled_logits.dtype))
    if subtract_log_q:
        true_logits = true_logits - math_ops.log(cast(true_expected, true_logits.dtype))
        sampled_logits = sampled_logits - math_ops.log(cast(sampled_expected,
                                                            sampled_logits.dtype))
    logits = array_ops.concat([true_logits, sampled_logits], 1)
    targets = array_ops.concat([array_ops.ones_like(true_logits) / num_true,
                                array_ops.zeros_like(sampled_logits)], 1)
    return logits, targets


@export("nn.nce_loss")
def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, name="nce_loss"):
    """Noise-contrastive estimation loss of each example ``[batch]``: logistic losses of its
    true classes against `num_sampled` sampled ones (log-uniform by default)."""
    return nce_loss_by(None, weights, biases, labels, inputs, num_sampled, num_classes,
                       num_true, sampled_values, remove_accidental_hits)


def nce_loss_by(lookup, weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                sampled_values, remove_accidental_hits):
    """`nce_loss`, the rows of weights in shards looked up by `lookup` (see
    `_sampled_logits`)."""
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                      num_classes, num_true, sampled_values, True,
                                      remove_accidental_hits, lookup)
    losses = nn_ops.sigmoid_cross_entropy_with_logits(labels=targets, logits=logits)
    return reduction_ops.reduce_sum(losses, 1)


@export("nn.sampled_softmax_loss")
def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                         num_true=1, sampled_values=None, remove_accidental_hits=True,
                         seed=None, name="sampled_softmax_loss"):
    """Softmax cross-entropy of each example ``[batch]`` over its true classes and
    `num_sampled` sampled ones (log-uniform by default), a cheap estimate of the full
    softmax loss while training."""
    return sampled_softmax_loss_by(None, weights, biases, labels, inputs, num_sampled,
                                   num_classes, num_true, sampled_values,
                                   remove_accidental_hits, seed)


def sampled_softmax_loss_by(lookup, weights, biases, labels, inputs, num_sampled, num_classes,
                            num_true, sampled_values, remove_accidental_hits, seed):
    """`sampled_softmax_loss`, the rows of weights in shards looked up by `lookup`."""
    if sampled_values is None and seed is not None:
        # Labels of any integer or float dtype are class ids, cast as `_sampled_logits` does.
        labels_t = cast(as_tensor(labels), _d.int64)
        sampled_values = log_uniform_candidate_sampler(
            labels_t if labels_t.shape.rank == 2 else labels_t[:, None], num_true, num_sampled,
            True, num_classes, seed=seed)
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                      num_classes, num_true, sampled_values, True,
                                      remove_accidental_hits, lookup)
    return nn_ops.softmax_cross_entropy_with_logits(labels=stop_gradient(targets),
                                                    logits=logits)
