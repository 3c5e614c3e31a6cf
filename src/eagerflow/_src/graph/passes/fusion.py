"""Fusion: ``activation(product + bias)`` becomes one ``_FusedMatMul`` or ``_FusedConv2D``.

The chain is a product, a ``MatMul`` or a channels-last ``Conv2D`` (as TF's
remapper fuses on CPU), then a ``BiasAdd`` or an ``AddV2`` with a 1-D operand
as long as the product's last axis (the same sum), then optionally one of
``Relu``, ``Relu6``, ``Elu``, ``LeakyRelu``, ``Tanh``, ``Sigmoid``. Every
intermediate result must be read by the next op of the chain alone (and not
be returned), since it is never materialised. The fused op takes the
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

from eagerflow._src.graph.graph import SymbolicTensor
from eagerflow._src.graph.passes.program import Rewriter, derive
from eagerflow._src.ops.fused_ops import _FUSED_CONV2D, _FUSED_MATMUL, ACTIVATIONS

# The product op types, and the op each is fused into.
_FUSED = {"MatMul": _FUSED_MATMUL, "Conv2D": _FUSED_CONV2D}


def fuse_bias_activation(program):
    """`program` with each product + bias (+ activation) chain computed by one op."""
    users = program.users()
    chains, absorbed = {}, set()
    for op in program.operations:
        chain = _chain(op, users)
        if chain is not None:
            chains[id(chain[-1])] = chain
            absorbed.update(id(o) for o in chain)
    out = Rewriter(program)
    for op in program.operations:
        chain = chains.get(id(op))
        if chain is not None:
            fused = _fused(chain, out.read)
            out.emit(fused)
            out.replace(op.outputs[0], fused.outputs[0])
        elif id(op) not in absorbed:
            out.emit(out.current(op))
    return out.program()


def _chain(op, users):
    """(product, bias add[, activation]) starting at `op`, or None."""
    fused = _FUSED.get(op.type)
    if (fused is None or op.attrs.get("data_format", "NHWC") != "NHWC"
            or np.dtype(op.outputs[0].dtype.as_numpy_dtype) not in fused.allowed):
        return None
    product = op.outputs[0]
    add = _sole_user(product, users)
    if add is None or _bias(add, product) is None:
        return None
    activation = _sole_user(add.outputs[0], users)
    if activation is None or activation.type.encode() not in ACTIVATIONS:
        return op, add
    return op, add, activation


def _sole_user(t, users):
    readers = users.get(id(t), ())
    return readers[0] if len(readers) == 1 else None  # a returned tensor has None as a reader


def _bias(add, product):
    """The bias `add` adds to `product` along its last axis, or None."""
    if add.type == "BiasAdd":
        if add.attrs.get("data_format", "NHWC") != "NHWC" or add.inputs[0] is not product:
            return None
        bias = add.inputs[1]
    elif add.type == "AddV2":
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


def _fused(chain, read):
    """The fused op computing `chain`, reading the current tensors through `read`."""
    product, add = chain[:2]
    fused_ops = [b"BiasAdd"]
    attrs = {**product.attrs, "fused_ops": fused_ops, "num_args": 1}
    if len(chain) == 3:
        fused_ops.append(chain[2].type.encode())
        if chain[2].type == "LeakyRelu":
            attrs["leakyrelu_alpha"] = chain[2].attrs["alpha"]
    inputs = (*map(read, product.inputs), read(_bias(add, product.outputs[0])))
    return derive(product, _FUSED[product.type], inputs, attrs,
                  specs=[(t.shape, t.dtype) for t in chain[-1].outputs])
