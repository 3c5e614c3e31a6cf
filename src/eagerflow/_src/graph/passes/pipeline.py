"""`optimize`: the passes a traced graph goes through before it is compiled.

Calls of library functions are inlined first (`inlined_operations`), as
TensorFlow's function optimizer does. Operations that neither the outputs nor a
side effect need never run, as in TensorFlow's functions. Then each pass runs under its ``tf.config.optimizer``
switch (on unless set off; all off with ``disable_meta_optimizer``):

* ``constant_folding``: `fold_and_push_down_constants` (divisions by constants kept in a
  ``tf.data`` function's graph, marked ``keeps_divisions``, as TF's);
* ``arithmetic_optimization``: `eliminate_common_subexpressions`, `simplify`,
  `merge_matmul_sums`;
* ``dependency_optimization``: `eliminate_dead_code` of what the rewrites
  orphaned (also off with ``disable_model_pruning``);
* ``remapping``: `fuse_bias_activation`, `fuse_batch_norm_relu`,
  `fuse_batch_norm_add_relu`, `fuse_broadcast_relu_gradients`, `fuse_conv_bias_gradients`;
* ``memory_optimization``: `plan_buffer_reuse`.

>>> cf = tf.function(lambda x: x * 2.0).get_concrete_function(tf.TensorSpec([2], tf.float32))
>>> program = optimize(cf.graph, cf.inputs, cf.outputs)
>>> [op.type for op in program.operations]
['Placeholder', 'Const', 'Mul']
"""
from eagerflow._src.core.config import optimizer_option
from eagerflow._src.graph.passes.algebraic import simplify
from eagerflow._src.graph.passes.batch_norm_add_fusion import fuse_batch_norm_add_relu
from eagerflow._src.graph.passes.batch_norm_fusion import fuse_batch_norm_relu
from eagerflow._src.graph.passes.broadcast_relu_grad_fusion import (
    fuse_broadcast_relu_gradients)
from eagerflow._src.graph.passes.buffer_reuse import plan_buffer_reuse
from eagerflow._src.graph.passes.common_subexpressions import eliminate_common_subexpressions
from eagerflow._src.graph.passes.constant_folding import fold_and_push_down_constants
from eagerflow._src.graph.passes.conv_bias_grad_fusion import fuse_conv_bias_gradients
from eagerflow._src.graph.passes.dead_code import eliminate_dead_code
from eagerflow._src.graph.passes.fusion import fuse_bias_activation
from eagerflow._src.graph.passes.inline_calls import inlined_operations
from eagerflow._src.graph.passes.matmul_sums import merge_matmul_sums
from eagerflow._src.graph.passes.program import Program


def optimize(graph, inputs, outputs):
    """The `Program` that runs `graph` from `inputs` to `outputs`, optimized as configured."""
    program = eliminate_dead_code(Program(inlined_operations(graph), inputs, outputs))
    keeps_divisions = getattr(graph, "keeps_divisions", False)
    for pass_, on in _passes():
        if on and pass_ is fold_and_push_down_constants and keeps_divisions:
            program = fold_and_push_down_constants(program, reciprocals=False)
        elif on:
            program = pass_(program)
    return program


def _passes():
    """(pass, whether it runs), in pipeline order, from the current switches."""
    enabled = not optimizer_option("disable_meta_optimizer", False)

    def on(name):
        return enabled and optimizer_option(name, True)

    arithmetic = on("arithmetic_optimization")
    pruning = on("dependency_optimization") and not optimizer_option("disable_model_pruning",
                                                                     False)
    return [(fold_and_push_down_constants, on("constant_folding")),
            (eliminate_common_subexpressions, arithmetic),
            (simplify, arithmetic),
            (merge_matmul_sums, arithmetic),
            (eliminate_dead_code, pruning),
            (fuse_bias_activation, on("remapping")),
            (fuse_batch_norm_relu, on("remapping")),
            (fuse_batch_norm_add_relu, on("remapping")),
            (fuse_broadcast_relu_gradients, on("remapping")),
            (fuse_conv_bias_gradients, on("remapping")),
            (plan_buffer_reuse, on("memory_optimization"))]
