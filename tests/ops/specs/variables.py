"""Specs of the variable ops (core/variables.py): reads and writes through handles."""
import numpy as np

import eagerflow as tf
from tests.internals import dispatch, registry
from tests.ops.spec import OpSpec, rand


def _assign(method):
    def fn(x):
        v = tf.Variable(np.zeros(x.shape, x.dtype.as_numpy_dtype))
        getattr(v, method)(x)
        return v.read_value()
    return fn


def _slice_assign(x):
    v = tf.Variable(np.zeros((3,) + x.shape, x.dtype.as_numpy_dtype))
    v[1].assign(x)
    return v.read_value()


def _slice_assign_ref(x):
    out = np.zeros((3,) + x.shape, x.dtype)
    out[1] = x
    return out


def _resource_gather(batch_dims):
    """TF's ResourceGather (Keras's Embedding in a TF SavedModel) on a new variable."""
    def fn(x, indices):
        return dispatch(registry.get("ResourceGather"), (tf.Variable(x), indices),
                        {"batch_dims": batch_dims})
    return fn


def _batched_take(x, indices):
    return np.stack([np.take(x[b], indices[b], axis=0) for b in range(len(x))])


def _is_initialized(x):
    variable = tf.Variable(x)  # (kept alive while its handle is used)
    return tf.raw_ops.VarIsInitializedOp(resource=variable.handle)


def _by_name(x):
    """A variable made by name (``VarHandleOp``), assigned `x` and read back."""
    h = tf.raw_ops.VarHandleOp(dtype=x.dtype, shape=x.shape, shared_name="spec_by_name")
    tf.raw_ops.AssignVariableOp(resource=h, value=x)
    return tf.raw_ops.ReadVariableOp(resource=h, dtype=x.dtype)


def _destroyed(x):
    """Whether a variable made by name holds a value once destroyed (no)."""
    h = tf.raw_ops.VarHandleOp(dtype=x.dtype, shape=x.shape, shared_name="spec_destroyed")
    tf.raw_ops.AssignVariableOp(resource=h, value=x)
    tf.raw_ops.DestroyResourceOp(resource=h)
    return tf.raw_ops.VarIsInitializedOp(resource=h)


def _scatter(op):
    """Raw op `op` on a variable of `x`'s value (rows 0, 2, 0 updated), read back."""
    def fn(x, updates):
        v = tf.Variable(x)
        getattr(tf.raw_ops, op)(resource=v.handle, indices=[0, 2, 0], updates=updates)
        return v.read_value()
    return fn


def _scatter_ref(ufunc):
    def ref(x, updates):
        out = x.copy()
        if ufunc is None:
            out[[0, 2, 0]] = updates
        else:
            ufunc.at(out, [0, 2, 0], updates)
        return out
    return ref


def _shape_of(x):
    return tf.raw_ops.VariableShape(input=tf.Variable(x).handle, out_type=tf.int64)


_ROWS = [rand(3, 2), rand(3, 2) + 1.0]
SPECS = [
    *[OpSpec(f"ResourceScatter{name}", _scatter(f"ResourceScatter{name}"), _ROWS,
             _scatter_ref(ufunc), grad="variable update")
      for name, ufunc in (("Update", None), ("Add", np.add), ("Sub", np.subtract),
                          ("Mul", np.multiply), ("Div", np.divide), ("Min", np.minimum),
                          ("Max", np.maximum))],
    OpSpec("VariableShape", _shape_of, [rand(4, 3)], lambda x: np.array(x.shape, np.int64),
           grad="a shape"),
    OpSpec("VarHandleOp", _by_name, [rand(2, 3)], lambda x: x, grad="resource"),
    OpSpec("DestroyResourceOp", _destroyed, [rand(3)], lambda x: np.array(False),
           grad="resource"),
    OpSpec("ReadVariableOp", lambda x: tf.Variable(x).read_value(), [rand(2, 3)], lambda x: x,
           grad="a variable copies its initial value: checked in tests/autodiff"),
    OpSpec("ReadVariableOp", lambda x: tf.Variable(x) * 1, [rand(4, dtype=np.int32)],
           lambda x: x, name="ReadVariableOp-int", grad="integer"),
    OpSpec("AssignVariableOp", _assign("assign"), [rand(2, 2)], lambda x: x,
           grad="variable update"),
    OpSpec("AssignAddVariableOp", _assign("assign_add"), [rand(3)], lambda x: x,
           grad="variable update"),
    OpSpec("AssignSubVariableOp", _assign("assign_sub"), [rand(3, dtype=np.float64)],
           lambda x: -x, grad="variable update"),
    OpSpec("VarIsInitializedOp", _is_initialized, [rand(2, 3)], lambda x: np.array(True),
           grad="boolean"),
    OpSpec("ResourceStridedSliceAssign", _slice_assign, [rand(2, 2)], _slice_assign_ref,
           grad="variable update"),
    OpSpec("ResourceStridedSliceAssign", _slice_assign, [rand(4, dtype=np.int32)],
           _slice_assign_ref, name="ResourceStridedSliceAssign-int", grad="variable update"),
    OpSpec("ResourceGather", _resource_gather(0), [rand(5, 3), np.array([[4, 0], [1, 1]])],
           lambda x, i: x[i], grad="reads a variable: checked in tests/saved_model"),
    OpSpec("ResourceGather", _resource_gather(1),
           [rand(2, 4, 3, dtype=np.float64), np.array([[3, 0, 0], [1, 2, 3]], np.int32)],
           _batched_take, name="ResourceGather-batch_dims", grad="reads a variable"),
]
