"""Fusion: ``activation(product + bias)`` becomes one ``_FusedMatMul``, ``_FusedConv2D``,
``_FusedDepthwiseConv2dNative`` or ``_FusedConv3D``.

The chain is a product, an op with a rule in `registry.fusion_rules` naming
the op it fuses into (``MatMul``, channels-last ``Conv2D``,
``DepthwiseConv2dNative`` and ``Conv3D``, as TF's remapper fuses on CPU), then a
``BiasAdd`` or an ``AddV2`` with a 1-D operand as long as the product's last axis
(the same sum), or for a product in `BATCH_NORM_FUSIONS` (``Conv2D``, float32) an
inference ``FusedBatchNormV3`` whose statistics outputs are unread, then
optionally one of ``Relu``, ``Relu6``, ``Elu``, ``LeakyRelu``, ``Tanh``,
``Sigmoid`` (not a dilated convolution TF computes by space to batch, see
`conv_ops.BY_SPACE_TO_BATCH`). Every
intermediate result must be read by the next op of the chain alone (and not
be returned), since it is never materialised; as TF's remapper, no op that
another runs after (`control_dependencies`) joins a chain. The fused op takes the
product's attrs, name and user location: shape errors come from the product.

>>> from eagerflow._src.graph.passes.program import Program
>>> def program_of(fn, *shapes):
...     specs = [tf.TensorSpec(s, tf.float32) for s in shapes]
...     cf = tf.function(fn).get_concrete_function(*specs)
...     return Program.from_graph(cf.graph, cf.inputs, cf.outputs)
>>> program = program_of(lambda x, w, b: tf.nn.relu(tf.nn.bias_add(x @ w, b)), [2, 2], [2, 2], [2])
>>> [op.type for op in fuse_bias_activation(program).operations]
['Placeholder', 'Placeholder', 'Placeholder', '_FusedMatMul', 'Identity']
"""
import numpy as np

from eagerflow._src.core.registry import fusion_rules
from eagerflow._src.graph.graph import SymbolicTensor
from eagerflow._src.graph.passes.program import derive, substitute
from eagerflow._src.ops.conv_ops import BY_SPACE_TO_BATCH
from eagerflow._src.ops.fused_batch_norm_ops import _FUSED_BATCH_NORM
from eagerflow._src.ops.fused_ops import ACTIVATION_OPS, BATCH_NORM_FUSIONS
from eagerflow._src.ops.math_ops import _ADD
from eagerflow._src.ops.nn_ops import _BIAS_ADD


def fuse_bias_activation(program):
    """`program` with each product + bias (+ activation) chain computed by one op."""
    users = program.users()
    controlling = _controlling(program)
    builders, absorbed = {}, set()
    for op in program.operations:
        found = _chain(op, users, controlling)
        if found is not None:
            chain, operands = found
            builders[id(chain[-1])] = lambda read, chain=chain, operands=operands: (
                _fused(chain, operands, read), chain[-1].outputs[:1])
            absorbed.update(id(o) for o in chain)
    return substitute(program, builders, absorbed)


def _controlling(program):
    """The ids of the operations of `program` that others run after (control inputs)."""
    graphs = {id(op.graph): op.graph for op in program.operations}
    held = {(key, name) for key, graph in graphs.items()
            for names in (getattr(graph, "control_inputs", None) or {}).values()
            for name in names}
    return {id(op) for op in program.operations if (id(op.graph), op.name) in held}


def _chain(op, users, controlling):
    """((product, bias add[, activation]) starting at `op`, the bias add's operands), or
    None."""
    fused = fusion_rules.get(op.op_def)
    if (fused is None or op.attrs.get("data_format", "NHWC") not in ("NHWC", "NDHWC")
            or op in BY_SPACE_TO_BATCH or id(op) in controlling
            or np.dtype(op.outputs[0].dtype.as_numpy_dtype) not in fused.allowed):
        return None
    product = op.outputs[0]
    add = _sole_user(product, users)
    operands = None if add is None or id(add) in controlling else \
        _operands(add, product, users)
    if operands is None:
        return None
    activation = _sole_user(add.outputs[0], users)
    if (activation is None or activation.op_def not in ACTIVATION_OPS
            or id(activation) in controlling):
        return (op, add), operands
    return (op, add, activation), operands


def _sole_user(t, users):
    readers = users.get(id(t), ())
    return readers[0] if len(readers) == 1 else None  # a returned tensor has None as a reader


def _operands(add, product, users):
    """The operands `add` (a bias add, or a batch normalization) applies to `product` in
    the fused op, or None where it does not fuse."""
    if add.op_def is not _FUSED_BATCH_NORM:
        bias = _bias(add, product)
        return None if bias is None else [bias]
    dtypes = BATCH_NORM_FUSIONS.get(product.op.op_def, ())
    if (np.dtype(product.dtype.as_numpy_dtype) not in dtypes or add.inputs[0] is not product
            or add.attrs.get("is_training", True)
            or add.attrs.get("data_format", "NHWC") != "NHWC"
            or any(users.get(id(t)) for t in add.outputs[1:])):
        return None
    return list(add.inputs[1:5])


def _bias(add, product):
    """The bias `add` adds to `product` along its last axis, or None."""
    if add.op_def is _BIAS_ADD:
        if add.attrs.get("data_format", "NHWC") != "NHWC" or add.inputs[0] is not product:
            return None
        bias = add.inputs[1]
    elif add.op_def is _ADD:
        x, y = add.inputs
        bias = y if x is product else x
        if bias is product:
            return None
    else:
        return None
    columns = product.shape[-1]
    if (not isinstance(bias, SymbolicTensor) or columns is None or bias.shape.rank != 1
            or bias.shape[0] != columns
            or add.outputs[0].shape.as_list() != product.shape.as_list()):
        return None
    return bias


def _fused(chain, operands, read):
    """The fused op computing `chain`, whose bias add applies `operands`, reading the
    current tensors through `read`."""
    product, add = chain[:2]
    fused_ops = [b"BiasAdd"]
    attrs = {**product.attrs, "fused_ops": fused_ops, "num_args": len(operands)}
    if add.op_def is _FUSED_BATCH_NORM:
        fused_ops[0] = b"FusedBatchNorm"
        attrs["epsilon"] = add.attrs.get("epsilon", 1e-4)
    if len(chain) == 3:
        fused_ops.append(ACTIVATION_OPS[chain[2].op_def])
        if "alpha" in chain[2].attrs:  # LeakyRelu's
            attrs["leakyrelu_alpha"] = chain[2].attrs["alpha"]
    inputs = (*map(read, product.inputs), *map(read, operands))
    return derive(product, fusion_rules.get(product.op_def), inputs, attrs,
                  specs=[(t.shape, t.dtype) for t in chain[-1].outputs[:1]])
