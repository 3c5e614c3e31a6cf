"""Sums of products: ``a1 @ b1 + a2 @ b2 + ...`` become one product of concatenations.

``sum_i A_i @ B_i = [A_1 ... A_n] @ [B_1; ...; B_n]``: the operands are joined
along the inner dimension and multiplied once.  A weight shared by the steps
of an unrolled loop (a recurrent layer's kernel) gets its gradient as such a
sum, one small product per step; merged, it is one large product, which BLAS
runs several times faster than the small ones, and the additions are gone.

A sum is a tree of ``AddV2``/``AddN`` of one shape (nothing broadcasts) whose
inner results only the tree reads.  Its ``MatMul`` leaves that only the tree
reads, with the same transposes, merge when they are small (at most 2**21
multiply-adds each: larger ones run near BLAS's peak by themselves, and
joining them would only add the copies) and wide enough for the copies of
the operands to cost little next to the product (an ``m x n`` result with
``m * n / (m + n) >= 16``).  Where the program already stacks one side's
operands (a ``Pack`` along axis 0, as the gradient of an unstacked sequence
does), that stack, reshaped, stands for their concatenation.  The float sums
are added in another order: equal within rounding.

>>> from eagerflow._src.graph.passes.program import Program
>>> def program_of(fn, *shapes):
...     specs = [tf.TensorSpec(s, tf.float32) for s in shapes]
...     cf = tf.function(fn).get_concrete_function(*specs)
...     return Program.from_graph(cf.graph, cf.inputs, cf.outputs)
>>> program = program_of(lambda a, b, c, d: a @ b + c @ d, *[[32, 32]] * 4)
>>> [op.type for op in merge_matmul_sums(program).operations]
['Placeholder', 'Placeholder', 'Placeholder', 'Placeholder', 'ConcatV2', 'ConcatV2', 'MatMul',
 'Identity']
"""
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.graph.graph import SymbolicTensor
from eagerflow._src.graph.passes.program import Rewriter, derive
from eagerflow._src.ops.array_ops import _CONCAT, _PACK, _RESHAPE
from eagerflow._src.ops.linalg_ops import _MATMUL
from eagerflow._src.ops.math_ops import _ADD
from eagerflow._src.ops.reduction_ops import _ADD_N

_SUMS = frozenset({_ADD, _ADD_N})
_MIN_WIDTH = 16  # m * n / (m + n) of the product: below it the copies cost as much as it
_MAX_PRODUCT = 1 << 21  # multiply-adds of one product worth merging


def merge_matmul_sums(program):
    """`program` with each sum of two or more matching products computed as one product."""
    users = program.users()
    returned = {id(t) for t in program.outputs}
    packs = {}  # frozenset of input ids -> a Pack along axis 0 of those tensors
    for op in program.operations:
        if op.op_def is _PACK and op.attrs.get("axis") == 0 and len(op.inputs) > 1:
            packs.setdefault(frozenset(id(t) for t in op.inputs), op)
    plans, absorbed = {}, set()
    for op in program.operations:
        if not _is_sum(op) or _inner(op.outputs[0], users, returned):
            continue
        plan = _Plan.of(op, users, returned, packs)
        if plan is not None:
            plans[id(op)] = plan
            absorbed.update(plan.absorbed)
    if not plans:
        return program
    out = Rewriter(program)
    done = set()  # ids of the operations emitted: a reused Pack may be emitted early
    for op in program.operations:
        plan = plans.get(id(op))
        if plan is not None:
            out.replace(op.outputs[0], plan.emit(out, done))
        elif id(op) not in absorbed and id(op) not in done:
            out.emit(out.current(op))
            done.add(id(op))
    return out.program()


def _is_sum(op):
    """An AddV2/AddN whose inputs all have its output's known shape and dtype."""
    if op.op_def not in _SUMS:
        return False
    out = op.outputs[0]
    if not out.shape.is_fully_defined():
        return False
    dims = out.shape.as_list()
    return all(isinstance(t, SymbolicTensor) and t.dtype == out.dtype
               and t.shape.is_fully_defined() and t.shape.as_list() == dims for t in op.inputs)


def _sole_reader(t, users, returned):
    readers = users.get(id(t), ())
    return readers[0] if len(readers) == 1 and id(t) not in returned else None


def _inner(t, users, returned):
    """Whether `t` is an inner node of a sum tree: a sum that only a sum reads."""
    if not isinstance(t, SymbolicTensor) or not _is_sum(t.op):
        return False
    reader = _sole_reader(t, users, returned)
    return reader is not None and _is_sum(reader)


class _Plan:
    """How one sum tree is computed: merged products plus the other terms."""

    def __init__(self, root, groups, others, absorbed):
        self.root, self.groups, self.others, self.absorbed = root, groups, others, absorbed

    @classmethod
    def of(cls, root, users, returned, packs):
        """The plan of the tree rooted at `root`, or None when nothing merges."""
        terms, inner, seen = [], [], {}
        stack = [root]
        while stack:
            op = stack.pop()
            inner.append(op)
            for t in op.inputs:
                seen[id(t)] = seen.get(id(t), 0) + 1
                # (by identity: == on tensors is an elementwise op)
                if _inner(t, users, returned) and sum(x is t for x in op.inputs) == 1:
                    stack.append(t.op)
                else:
                    terms.append(t)
        groups = {}
        for t in terms:
            if seen[id(t)] == 1 and _mergeable(t, users, returned):
                attrs = t.op.attrs
                key = attrs.get("transpose_a", False), attrs.get("transpose_b", False)
                groups.setdefault(key, []).append(t.op)
        groups = {key: products for key, products in groups.items() if len(products) > 1}
        if not groups:
            return None
        merged = {id(p.outputs[0]) for products in groups.values() for p in products}
        others = [t for t in terms if id(t) not in merged]
        absorbed = {id(op) for op in inner} | {id(p) for ps in groups.values() for p in ps}
        return cls(root, [_Group(key, products, packs) for key, products in groups.items()],
                   others, absorbed)

    def emit(self, out, done):
        """Emits the operations computing the sum into `out`; returns its tensor."""
        terms = [group.emit(out, done, self.root) for group in self.groups]
        terms += [out.read(t) for t in self.others]
        total = terms[0]
        for t in terms[1:]:
            add = derive(self.root, _ADD, (total, t), {})
            out.emit(add)
            total = add.outputs[0]
        return total


class _Group:
    """Products with the same transposes, merged into one."""

    def __init__(self, transposes, products, packs):
        self.transposes = transposes
        # the inner dimension: axis 0 of a transposed `a` / a plain `b`, else axis 1
        self.axes = (0 if transposes[0] else 1, 1 if transposes[1] else 0)
        self.pack = None
        for side in (1, 0):  # a stack of either side's operands fixes the order of both
            if self.axes[side] == 0:
                pack = packs.get(frozenset(id(p.inputs[side]) for p in products))
                if pack is not None and len(pack.inputs) == len(products):
                    order = {id(t): i for i, t in enumerate(pack.inputs)}
                    products = sorted(products, key=lambda p: order[id(p.inputs[side])])
                    self.pack = side, pack
                    break
        self.products = products

    def emit(self, out, done, root):
        operands = [self._joined(side, out, done, root) for side in (0, 1)]
        first = self.products[0]
        matmul = derive(first, _MATMUL, operands,
                        {"transpose_a": self.transposes[0], "transpose_b": self.transposes[1]},
                        specs=[(root.outputs[0].shape, root.outputs[0].dtype)])
        out.emit(matmul)
        return matmul.outputs[0]

    def _joined(self, side, out, done, root):
        """The operands of `side` joined along the inner dimension."""
        axis = self.axes[side]
        parts = [out.read(p.inputs[side]) for p in self.products]
        dims = parts[0].shape.as_list()
        dims[axis] = sum(t.shape.as_list()[axis] for t in parts)
        shape, dtype = TensorShape(dims), parts[0].dtype
        if self.pack is not None and self.pack[0] == side:
            pack = self.pack[1]
            if id(pack) not in done:  # it comes after the root, its inputs all ready here
                done.add(id(pack))
                out.emit(out.current(pack))
            stacked = out.read(pack.outputs[0])
            reshape = derive(root, _RESHAPE, (stacked,),
                             {"shape": tuple(dims)}, specs=[(shape, dtype)],
                             name=f"{root.name}/stacked")
            out.emit(reshape)
            return reshape.outputs[0]
        concat = derive(root, _CONCAT, parts, {"axis": axis},
                        specs=[(shape, dtype)], name=f"{root.name}/concat")
        out.emit(concat)
        return concat.outputs[0]


def _mergeable(t, users, returned):
    """Whether `t` is a small, wide rank-2 product of known shapes that only its sum reads."""
    op = t.op
    if op.op_def is not _MATMUL or _sole_reader(t, users, returned) is None:
        return False
    a = op.inputs[0]
    if not all(isinstance(x, SymbolicTensor) and x.shape.is_fully_defined()
               and x.shape.rank == 2 for x in op.inputs):
        return False
    m, n = t.shape.as_list()
    k = a.shape.as_list()[0 if op.attrs.get("transpose_a", False) else 1]
    return m * n >= _MIN_WIDTH * (m + n) and m * n * k <= _MAX_PRODUCT
