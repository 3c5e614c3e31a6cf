"""Eagerflow's internals that tests reach: the one module of tests/ that imports ``eagerflow._src``.

Tests use the public API (``import eagerflow as tf``) wherever a public name
exists. Tests of internal mechanisms (the op registry and dispatch, graph
passes, executor, tape compiler, vectorization, kernels below the public
functions, Keras's private helpers) import what they need from here, so that
when a module moves or a name is renamed, this file is the only one of tests/
to update. ``tests/test_internals.py`` checks that no other test file imports
``eagerflow._src``.
"""
import pytest

from eagerflow._src import keras as keras_package, ops as ops_package
from eagerflow._src.autodiff import compiled_backward, eager_compat, tape
from eagerflow._src.autograph import conversion
from eagerflow._src.autograph.pyct import analysis, parser, templates
from eagerflow._src.backend import api_export, canonical_device, host_memory, onednn, onednn_api
from eagerflow._src.backend.special import _FALLBACKS, gammainc_grad_a
from eagerflow._src.compat import readers as compat_readers
from eagerflow._src.core import config, context, dtypes, registry
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.function import polymorphic_function
from eagerflow._src.function.call_gradient import CallGradient
from eagerflow._src.core.errors import exception_type_from_error_code, InaccessibleTensorError
from eagerflow._src.core.module import DictWrapper, ListWrapper, TupleWrapper
from eagerflow._src.core.protos import checkpoint as checkpoint_protos
from eagerflow._src.core.protos import saved_model as saved_model_protos
from eagerflow._src.summary.profiler import XSpace as profiler_xspace
from eagerflow._src.summary.writer import state as summary_state
from eagerflow._src.core.registry import OpDef, same_shape
from eagerflow._src.data import iterator_ops as data_iterator_ops
from eagerflow._src.data import structured_function as data_structured_function
from eagerflow._src.core.tensor_shape import Dimension, unknown_shape
from eagerflow._src.data import iterator_graph
from eagerflow._src.data import parallel as data_parallel
from eagerflow._src.graph import executor, graph_def, specialize, tape_compiler, vectorize
from eagerflow._src.graph.graph import Graph
from eagerflow._src.graph.passes import constant_folding, inline_calls
from eagerflow._src.graph.passes.algebraic import _lossless, simplify
from eagerflow._src.graph.passes import buffer_reuse
from eagerflow._src.graph.passes.buffer_reuse import plan_buffer_reuse
from eagerflow._src.graph.passes.broadcast_relu_grad_fusion import fuse_broadcast_relu_gradients
from eagerflow._src.graph.passes.common_subexpressions import eliminate_common_subexpressions
from eagerflow._src.graph.passes.constant_folding import fold_constants
from eagerflow._src.graph.passes.dead_code import eliminate_dead_code
from eagerflow._src.graph.passes.batch_norm_add_fusion import fuse_batch_norm_add_relu
from eagerflow._src.graph.passes.batch_norm_fusion import fuse_batch_norm_relu
from eagerflow._src.graph.passes.conv_bias_grad_fusion import fuse_conv_bias_gradients
from eagerflow._src.graph.passes.fusion import fuse_bias_activation
from eagerflow._src.graph.passes.matmul_sums import merge_matmul_sums
from eagerflow._src.graph.passes.pipeline import optimize
from eagerflow._src.graph.passes.program import Program
from eagerflow._src.keras import backend as keras_backend, initializers, metrics, optimizers
from eagerflow._src.keras.datasets import remote
from eagerflow._src.keras.engine.data_adapter import DataHandler
from eagerflow._src.keras.layers import normalization, recurrent, reshaping
from eagerflow._src.keras.losses import (
    compute_weighted_loss, get_mask, LossFunctionWrapper, set_mask)
from eagerflow._src.keras.metrics import confusion_metrics
from eagerflow._src.keras.optimizers import schedules
from eagerflow._src.keras.saving import safetensors_format, weights
from eagerflow._src.keras.saving.weights import checkpoint_keys
from eagerflow._src.lite import schema as lite_schema
from eagerflow._src.keras.utils import progbar, steps_per_execution_tuning
from eagerflow._src.ops import (
    array_ops, conv_ops, fused_batch_norm_ops, half_sums, linalg_ops, list_ops, math_ops, nn_ops,
    philox, random_ops, reduction_ops, signal_ops, slicing, training_ops)
from eagerflow._src.ops.fused_batch_norm_ops import fused_batch_norm, fused_batch_norm_v3
from eagerflow._src.ops.fused_batch_norm_ops import (
    _FUSED_BATCH_NORM_EX, _FUSED_BATCH_NORM_GRAD_EX)
from eagerflow._src.ops import rnn_ops
from eagerflow._src.ops.fused_ops import _FUSED_CONV2D, _FUSED_MATMUL, ACTIVATION_OPS
from eagerflow._src.ops.fused_ops import _FUSED_CONV3D, _FUSED_DEPTHWISE
from eagerflow._src.ops.fused_ops import _BROADCAST_RELU_GRAD, _CONV2D_BACKPROP_FILTER_WITH_BIAS
from eagerflow._src.ops.indexed_slices import add_sparse_or_dense
from eagerflow._src.ops.list_ops import TensorList
from eagerflow._src.ops.logging_ops import tensor_text
from eagerflow._src.ops.reduction_ops import _MEAN, unbroadcast
from eagerflow._src.ops.shape_rules import broadcast_shapes
from eagerflow._src.io.crc32c import crc32c, crc32c_many, masked_crc32c
from eagerflow._src.io import crc32c as crc32c_module
from eagerflow._src.checkpoint import bundle as checkpoint_bundle
from eagerflow._src.saved_model import fingerprinting
from eagerflow._src.saved_model import structure as saved_model_structure
from eagerflow._src.io.tf_record import RecordReader, read_records
from eagerflow._src.ops.slicing import getitem
from eagerflow._src.backend import threads

# Marks a test that needs oneDNN's native kernels (loaded here, once, on first use).
needs_onednn = pytest.mark.skipif(not onednn.enabled(), reason="oneDNN is not available here")
