"""Candidate samplers (``tf.random.log_uniform_candidate_sampler``,
``uniform_candidate_sampler``): the negative classes of sampled losses, with the expected
number of times each true and sampled class is drawn.

The draws follow TF's distributions, not its random streams: a seed gives reproducible
candidates, though not the ones TF picks.

>>> s = tf.random.uniform_candidate_sampler([[1]], 1, 3, True, 5, seed=1)
>>> sorted(set(s.sampled_candidates.numpy().tolist())) == sorted(s.sampled_candidates.numpy())
True
"""
import collections

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.ops import random_ops
from eagerflow._src.ops.wrappers import as_tensor


def _result_type(name):
    return collections.namedtuple(name, ["sampled_candidates", "true_expected_count",
                                         "sampled_expected_count"])


_LOG_UNIFORM = _result_type("LogUniformCandidateSampler")
_UNIFORM = _result_type("UniformCandidateSampler")


def _sample(true_classes, num_true, num_sampled, unique, range_max, seed, probability,
            result, op_name):
    true = np.asarray(as_tensor(true_classes, _d.int64).numpy(), np.int64)
    if true.ndim != 2 or true.shape[1] != num_true:
        raise errors.InvalidArgumentError(
            None, op_name, f"true_classes must be a matrix with num_true={num_true} columns, "
                           f"got shape {list(true.shape)} [Op:{op_name}]")
    if unique and num_sampled > range_max:
        raise errors.InvalidArgumentError(None, op_name,
                                          f"Sampler's range is too small. [Op:{op_name}]")
    global_seed, op_seed = random_ops.get_seed(seed)
    rng = np.random.default_rng(None if global_seed is None else [global_seed, op_seed])
    classes = np.arange(range_max)
    weights = probability(classes)
    weights = weights / weights.sum()
    if unique:
        picked, tries = [], 0
        while len(picked) < num_sampled:
            k = int(rng.choice(range_max, p=weights))
            tries += 1
            if k not in picked:
                picked.append(k)

        def expected(p):
            return -np.expm1(tries * np.log1p(-p))
    else:
        picked = rng.choice(range_max, size=num_sampled, p=weights).tolist()

        def expected(p):
            return num_sampled * p
    sampled = np.asarray(picked, np.int64)
    true_p = probability(np.clip(true, 0, range_max - 1)) / probability(classes).sum()
    return result(as_tensor(sampled), as_tensor(expected(true_p).astype(np.float32)),
                  as_tensor(expected(weights[sampled]).astype(np.float32)))


def _log_uniform(k):
    return np.log((k + 2.0) / (k + 1.0))


@export("random.log_uniform_candidate_sampler")
def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """Samples `num_sampled` classes in ``[0, range_max)`` from the log-uniform (Zipfian)
    distribution ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``, without repeats
    when `unique`."""
    return _sample(true_classes, num_true, num_sampled, unique, range_max, seed, _log_uniform,
                   _LOG_UNIFORM, "LogUniformCandidateSampler")


@export("random.uniform_candidate_sampler")
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                              seed=None, name=None):
    """Samples `num_sampled` classes uniformly from ``[0, range_max)``, without repeats when
    `unique`."""
    return _sample(true_classes, num_true, num_sampled, unique, range_max, seed,
                   lambda k: np.ones(np.shape(k)), _UNIFORM, "UniformCandidateSampler")
