"""The slot through which tapes run compiled backward passes.

Compiling a backward pass needs the graph layer, which autodiff may not
import; the graph layer fills this slot when it loads
(`graph.tape_compiler`).  ``run(entries, targets, weightings, sources)``
returns one list of source gradients per weighting, or None when the tape
must be played op by op.  For `Rows` weightings it may instead return
`Stacked` gradients: the passes' results already stacked, one array per
source.
"""
from eagerflow._src.core.tensor import EagerTensor

run = None
# ``map_rows(fn, elems, fn_output_signature=...)``: `map_fn`, set by the graph layer; jacobians
# of targets whose size is known only when a function runs take one backward pass per row in it.
map_rows = None


class Rows:
    """The weightings of many backward passes held stacked: per target, an array whose
    leading axis runs over the passes (a jacobian's one-hot rows).

    ``rows[i]`` is pass i's weights, one tensor per target, as a list of
    weightings would hold them; a compiled pass reads `stacked` directly.

    >>> len(Rows([np.eye(3, dtype=np.float32)]))
    3
    """

    __slots__ = ("stacked",)

    def __init__(self, stacked):
        self.stacked = stacked

    def __len__(self):
        return len(self.stacked[0])

    def __getitem__(self, i):
        return [EagerTensor._wrap(a[i]) for a in self.stacked]  # a[i] raises IndexError past the end


class Stacked(list):
    """``run``'s result for `Rows`: per source, the stacked gradients of every pass (a tensor
    with the passes' leading axis), or None where no pass reaches the source."""
