"""Candidate samplers (``tf.random.log_uniform_candidate_sampler``,
``uniform_candidate_sampler``, ``learned_unigram_candidate_sampler``): the negative classes of
sampled losses, with the expected number of times each true and sampled class is drawn.

The draws follow TF's distributions, not its random streams: a seed gives reproducible
candidates, though not the ones TF picks.

>>> s = tf.random.uniform_candidate_sampler([[1]], 1, 3, True, 5, seed=1)
>>> sorted(set(s.sampled_candidates.numpy().tolist())) == sorted(s.sampled_candidates.numpy())
True
"""
import collections
import threading

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, linalg_ops, math_ops, nn_ops, random_ops, \
    reduction_ops, shape_rules
from eagerflow._src.ops.cast_ops import cast, stop_gradient
from eagerflow._src.ops.wrappers import as_tensor


def _result_type(name):
    return collections.namedtuple(name, ["sampled_candidates", "true_expected_count",
                                         "sampled_expected_count"])


_LOG_UNIFORM = _result_type("LogUniformCandidateSampler")
_UNIFORM = _result_type("UniformCandidateSampler")
_FIXED_UNIGRAM = _result_type("FixedUnigramCandidateSampler")
_ALL = _result_type("AllCandidateSampler")
_LEARNED_UNIGRAM = _result_type("LearnedUnigramCandidateSampler")


def _check_candidates(true, op_name, limit):
    outside = true[(true < 0) | (true >= limit)]
    if outside.size:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"`true_candidate` out of range [0, {limit}), received "
                              f"{int(outside[0])}")


def _expected_count(p, num_sampled, tries):
    """TF's expected number of times a class of probability `p` is among `num_sampled`
    candidates drawn in `tries` draws: ``p * num_sampled`` when no draw was repeated (always
    so without `unique`), else the chance it was drawn, ``1 - (1 - p) ** tries``."""
    if tries == num_sampled:
        return p * num_sampled
    return -np.expm1(tries * np.log1p(-p))


def _sampler(weights_of, op_name, checks_range=False, learns=False):
    """The kernel of a sampler drawing from ``weights_of(range_max, **attrs)`` (unnormalized
    class weights; `attrs` the op's own, beyond the samplers' common ones); with
    `checks_range`, true classes outside the range are errors; with `learns`, the run's true
    classes are then counted into its `counts` attr (a `_Counts`)."""
    def kernel(xp, true_classes, num_true, num_sampled, unique, range_max, seed, seed2,
               stream, **attrs):
        true = np.asarray(true_classes, np.int64)
        if true.ndim != 2:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  "true_classes must be a matrix")
        if true.shape[1] != num_true:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"true_classes must have num_true columns, expected: "
                                  f"{true.shape[1]} was: {num_true}")
        weights = np.asarray(weights_of(range_max, op_name, **attrs), np.float64)
        if checks_range:
            _check_candidates(true, op_name, range_max)
        if unique and num_sampled > np.count_nonzero(weights):
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  "Sampler's range is too small.")
        if type(stream) is not int:  # an op of a graph: its state picks this run's stream
            seed, seed2, stream = stream.take(seed, seed2, 1)
        rng = np.random.default_rng([seed, seed2, stream])
        p = weights / weights.sum()
        if unique:
            picked, tries = [], 0
            while len(picked) < num_sampled:
                k = int(rng.choice(range_max, p=p))
                tries += 1
                if k not in picked:
                    picked.append(k)
        else:
            picked, tries = rng.choice(range_max, size=num_sampled, p=p).tolist(), num_sampled
        sampled = np.asarray(picked, np.int64).reshape(-1)
        true_p = p[np.clip(true, 0, range_max - 1)]
        if learns:
            attrs["counts"].add(true, range_max)
        return (sampled, _expected_count(true_p, num_sampled, tries).astype(np.float32),
                _expected_count(p[sampled], num_sampled, tries).astype(np.float32))
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


def _log_uniform(range_max, op_name):
    k = np.arange(range_max)
    return np.log((k + 2.0) / (k + 1.0))


def _uniform(range_max, op_name):
    return np.ones(range_max)


def _fixed_unigram(range_max, op_name, vocab_file, distortion, num_reserved_ids, num_shards,
                   shard, unigrams):
    """The weights of TF's FixedUnigramCandidateSampler: zero for the reserved ids, then the
    counts (`unigrams`, or the last field of each line of `vocab_file`) raised to
    `distortion`, of the ids ``i`` this `shard` of `num_shards` holds (``i % num_shards``)."""
    if vocab_file:
        with open(vocab_file, encoding="utf-8") as f:
            counts = [float(line.rstrip("\n").split(",")[-1]) for line in f if line.strip()]
    elif unigrams:
        counts = [float(u) for u in unigrams]
    else:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              "Must provide either vocab_file or unigrams.")
    weights = np.concatenate([np.zeros(num_reserved_ids), np.power(counts, distortion)])
    weights = weights[np.arange(len(weights)) % num_shards == shard]
    if len(weights) != range_max:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"range is {range_max} must be equal to weights size  "
                              f"{len(weights)}")
    return weights


class _Counts:
    """The class counts of one ``LearnedUnigramCandidateSampler`` kernel, as TF's learned
    sampler keeps them: each class starts at 1 and gains 1 for every true class a run sees
    (after its draw). `set_seed` starts them again, as it restarts TF's kernels."""

    def __init__(self):
        self._lock = threading.Lock()
        self._epoch, self._counts = None, None

    def _current(self, range_max):
        if self._epoch != random_ops._STATE.epoch or self._counts is None:
            self._epoch, self._counts = random_ops._STATE.epoch, np.ones(range_max)
        return self._counts

    def weights(self, range_max):
        with self._lock:
            return self._current(range_max).copy()

    def add(self, true, range_max):
        with self._lock:
            np.add.at(self._current(range_max), true.reshape(-1), 1.0)


def _learned_unigram(range_max, op_name, counts):
    return counts.weights(range_max)


# TF's eager kernels (one per op and attrs, seeds included), each with its own counts; the
# oldest are forgotten past _MAX_EAGER_KERNELS (a global seed makes one per call).
_eager_counts = collections.OrderedDict()
_MAX_EAGER_KERNELS = 256


def _eager_kernel_counts(attrs, seeds):
    seed_pair = (0, 0) if seeds["stream"] == 0 else (seeds["seed"], seeds["seed2"])
    key = (seed_pair, tuple(sorted(attrs.items())))
    with random_ops._STATE.lock:
        counts = _eager_counts.get(key)
        if counts is None:
            counts = _eager_counts[key] = _Counts()
            while len(_eager_counts) > _MAX_EAGER_KERNELS:
                _eager_counts.popitem(last=False)
        return counts


_SAMPLERS = {}
_FIXED_UNIGRAM_DEFAULTS = {"vocab_file": "", "distortion": 1.0, "num_reserved_ids": 0,
                           "num_shards": 1, "shard": 0, "unigrams": ()}
for _name, _weights, _defaults, _local in (
        ("LogUniformCandidateSampler", _log_uniform, {}, {}),
        ("UniformCandidateSampler", _uniform, {}, {}),
        ("FixedUnigramCandidateSampler", _fixed_unigram, _FIXED_UNIGRAM_DEFAULTS, {}),
        ("LearnedUnigramCandidateSampler", _learned_unigram, {}, {"counts": _Counts})):
    _op = register(_name, _sampler(_weights, _name,
                                   checks_range=_weights in (_fixed_unigram, _learned_unigram),
                                   learns=bool(_local)),
                   _sampler_rule(_name), multi=True,
                   dtypes=(_d.int64,), stateful=True, not_differentiable="sampling")
    tf_args[_op] = ("true_classes",)
    tf_nodes[_op] = NodeForm(types={}, outputs=("sampled_candidates", "true_expected_count",
                                                "sampled_expected_count"),
                             local={"stream": random_ops._OpState, **_local},
                             defaults={"seed": 0, "seed2": 0, **_defaults})
    tf_defaults[_op] = {"seed": 0, "seed2": 0, **_defaults}
    random_ops._SAMPLES[_name] = lambda shapes, attrs: 1  # (one stream per call)
    _SAMPLERS[_name] = _op


def _all_candidates(xp, true_classes, num_true, num_sampled, unique, seed, seed2):
    true = np.asarray(true_classes, np.int64)
    _check_candidates(true, "AllCandidateSampler", num_sampled)
    return (np.arange(num_sampled, dtype=np.int64), np.ones(true.shape, np.float32),
            np.ones(num_sampled, np.float32))


_ALL_CANDIDATES = register("AllCandidateSampler", _all_candidates,
                           _sampler_rule("AllCandidateSampler"), multi=True,
                           dtypes=(_d.int64,), not_differentiable="sampling")
tf_args[_ALL_CANDIDATES] = ("true_classes",)
tf_nodes[_ALL_CANDIDATES] = NodeForm(types={}, outputs=(
    "sampled_candidates", "true_expected_count", "sampled_expected_count"))
tf_defaults[_ALL_CANDIDATES] = {"seed": 0, "seed2": 0}
batching_rules[_ALL_CANDIDATES] = PER_ELEMENT


def _sample(true_classes, num_true, num_sampled, unique, range_max, seed, result, op_name,
            name, **extra):
    op = _SAMPLERS[op_name]
    inputs = (as_tensor(true_classes, _d.int64),)
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled),
             "unique": bool(unique), "range_max": int(range_max), **extra}
    seeds = random_ops._seed_attrs(seed)
    if op_name == "LearnedUnigramCandidateSampler":  # (its kernel's counts)
        attrs["counts"] = (_Counts() if context.get().graph is not None
                           else _eager_kernel_counts(attrs, seeds))
    if seeds["stream"] is None:  # eager and seeded: the next part of the pair's stream
        seeds = random_ops._eager_stream(op, inputs, attrs, seeds)
    outputs = dispatch(op, inputs, {**attrs, **seeds}, name)
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


@export("random.learned_unigram_candidate_sampler", "nn.learned_unigram_candidate_sampler")
def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
    """Samples `num_sampled` classes in ``[0, range_max)`` in proportion to how often the op
    saw each as a true class (every class counted once to begin with), without repeats when
    `unique`. The counts grow with each run, after its draw: in eager mode they are the
    kernel's of the same arguments and seed, in a `function` the op's own.

    >>> t = tf.constant([[1]], tf.int64)
    >>> s = tf.random.learned_unigram_candidate_sampler(t, 1, 1, False, 2, seed=7)
    >>> s.true_expected_count.numpy()
    array([[0.5]], dtype=float32)
    >>> s = tf.random.learned_unigram_candidate_sampler(t, 1, 1, False, 2, seed=7)
    >>> s.true_expected_count.numpy()  # (class 1 seen once: weights 1 and 2)
    array([[0.6666667]], dtype=float32)
    """
    return _sample(true_classes, num_true, num_sampled, unique, range_max, seed,
                   _LEARNED_UNIGRAM, "LearnedUnigramCandidateSampler", name)


@export("nn.compute_accidental_hits")
def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """Where a sampled candidate is one of a row's true classes: ``(indices, ids, weights)``,
    the row, the candidate's position, and the most negative float32 (to add to that
    logit), ordered by row, then by true class, then by position.

    >>> i, ids, w = tf.nn.compute_accidental_hits([[1, 2], [3, 1]],
    ...                                           tf.constant([1, 5, 3], tf.int64), 2)
    >>> i.numpy().tolist(), ids.numpy().tolist()
    ([0, 1, 1], [0, 2, 0])
    """
    true_classes = as_tensor(true_classes, _d.int64)
    sampled = as_tensor(sampled_candidates, _d.int64)
    if true_classes.shape.rank not in (None, 2):
        raise ValueError(f"Shape must be rank 2 but is rank {true_classes.shape.rank}")
    if true_classes.shape.rank == 2 and true_classes.shape[1] not in (None, int(num_true)):
        raise errors.InvalidArgumentError(
            None, "ComputeAccidentalHits",
            f"true_classes must have num_true columns, expected: "
            f"{true_classes.shape[1]} was: {int(num_true)}")
    hits = array_ops.where(math_ops.equal(array_ops.expand_dims(true_classes, 2),
                                          array_ops.reshape(sampled, [1, 1, -1])))
    weights = array_ops.fill(array_ops.shape(hits)[:1], np.finfo(np.float32).min)
    return cast(hits[:, 0], _d.int32), hits[:, 2], weights


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
                    sampled_values, subtract_log_q, remove_accidental_hits):
    """The logits of the true and the sampled classes, ``[batch, num_true + num_sampled]``,
    and their labels (1 / num_true for each true class, 0 for the sampled ones)."""
    if isinstance(weights, (list, tuple)):
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
    all_w = array_ops.gather(weights, all_ids)
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
        hits = math_ops.equal(array_ops.expand_dims(labels, -1),
                              array_ops.reshape(sampled, [1, 1, -1]))
        hit = reduction_ops.reduce_any(hits, axis=1)
        sampled_logits = array_ops.where(hit, sampled_logits + cast(
            np.finfo(np.float32).min, sampled_logits.dtype), sampled_logits)
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
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                      num_classes, num_true, sampled_values, True,
                                      remove_accidental_hits)
    losses = nn_ops.sigmoid_cross_entropy_with_logits(labels=targets, logits=logits)
    return reduction_ops.reduce_sum(losses, 1)


@export("nn.sampled_softmax_loss")
def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                         num_true=1, sampled_values=None, remove_accidental_hits=True,
                         seed=None, name="sampled_softmax_loss"):
    """Softmax cross-entropy of each example ``[batch]`` over its true classes and
    `num_sampled` sampled ones (log-uniform by default), a cheap estimate of the full
    softmax loss while training."""
    if sampled_values is None and seed is not None:
        labels_t = as_tensor(labels, _d.int64)
        sampled_values = log_uniform_candidate_sampler(
            labels_t if labels_t.shape.rank == 2 else labels_t[:, None], num_true, num_sampled,
            True, num_classes, seed=seed)
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                      num_classes, num_true, sampled_values, True,
                                      remove_accidental_hits)
    return nn_ops.softmax_cross_entropy_with_logits(labels=stop_gradient(targets),
                                                    logits=logits)
