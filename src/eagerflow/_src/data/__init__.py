"""``tf.data``: input pipelines.

The node protocol
-----------------
A `Dataset` is an immutable Python object; each kind of node is a subclass
defining:

* ``element_spec`` (``self._spec``): a nest (tuple, named tuple, dict) of
  `TensorSpec`, TF's element spec.  Python lists are values, not nests.
* ``_iterator()``: a **fresh** Python iterator over the dataset's elements.
  Each element is a *flat tuple of backend arrays* (NumPy arrays), one per
  leaf of ``structure.flatten(element_spec)`` in that order (dicts by sorted
  key).  Nodes call their inputs' ``_iterator()`` and never see tensors;
  `structure.Packer` turns a flat tuple into the user-facing nest of
  `EagerTensor`s at the iterator boundary (`iterator_ops.OwnedIterator`).
  A `SparseTensor` leaf (spec `SparseTensorSpec`) travels as one eager
  `SparseTensor` (`structure.sparse_value`); nodes that cut or join elements
  take it apart with `structure.sparse_rows` and `structure.stack_sparse`
  (TF's batch of sparse tensors), functions receive it as its three components.
  Exhaustion is ``StopIteration``; errors are `eagerflow.errors` classes
  raised from ``next()``.  An iterator holding threads (``prefetch``,
  parallel ``map``) is a generator whose ``finally`` stops them: dropping
  or ``close()``-ing it shuts them down.
* ``_cardinality()``: an int, `INFINITE` (-1) or `UNKNOWN` (-2).
* ``_inputs()``: the input datasets (for options and graph walks).
* optionally ``_batches(batch_size, drop_remainder)``: whole batches as
  flat tuples, made faster than stacking elements one by one (sources over
  arrays slice them, maps over those map each batch at once), or None.

User functions (``map``, ``filter``, ...) are traced once with `function`
(AutoGraph on) by `structured_function.StructuredFunction` from the input
spec; calling it maps one element's flat arrays to the result's (running the
compiled graph on them directly).  A ``map`` over a source of arrays runs its
function on a chunk of elements at once instead (`StructuredFunction.chunked`:
the graph vectorized by `graph.vectorize`, each seeded random op drawing every
element's values as running element by element would), and a ``batch`` after
it on each whole batch; a chunk that fails is mapped again element by element
after giving its draws back (`random_ops.Draws`).  As in TF, a seeded random
op's state lives with the top-level iterator and the op's place in the pipeline:
an iterator keeps its ops' states in its own table (`random_ops.draw_scope`,
a context variable set around each element), keyed by the input path from the
top (``branch_iterator``: a zip's or a concatenation's inputs, the datasets a
flat_map or interleave makes) and by the op's key in its function, alike in
every trace.  So two iterators or two zipped copies draw the same values, and a
repeat's epochs and a flat_map's datasets go on with one sequence; threads
(``prefetch``, parallel maps) take the consumer's scope with them.
Functions that return datasets
(``flat_map``, ``interleave``, ``group_by_window``, and ``map`` over or to
datasets) are traced once, as a graph computing the tensors their datasets
are built from; each element runs it and the datasets are built again from
its values (`dataset_spec.DatasetFunction`, `dataset_spec.ElementFunction`).
One the graph cannot stand for (an op reading a dataset argument) is called
eagerly per element.  Elements that are datasets travel in the flat tuples as
`Dataset` objects.

A file-reading source (``TFRecordDataset``, ...) subclasses `Dataset`, sets
``_spec`` and implements ``_iterator()`` (plus ``_cardinality()`` when
known).  Its constructor must accept symbolic tensors (``interleave(lambda
f: TFRecordDataset(f))`` builds it while tracing, for the spec only): read
nothing before ``_iterator()``, and turn arguments into Python values with
``dataset_ops._int`` (None when symbolic) or by checking for `EagerTensor`.
Errors reading a file are `eagerflow.errors` classes raised from ``next()``.

Checkpointing an eager iterator (``tf.train.Checkpoint(iterator=it)``,
`iterator_state`) needs nothing more of a node: the iterator saves how many
elements it handed out and the seed state of the pipeline's ``shuffle``
nodes, and a restore makes a fresh iterator past that many elements
(`iterator_state.skipped`: per-node rules skip without producing the elements
where they can, other nodes replay ``_iterator()``).  So ``_iterator()`` must
be deterministic given the shuffles' seeds (a node with outside state sets
``_unsaveable`` to TF's reason, raised on save; traced functions with stateful
ops are refused the same way), and shuffles keep their seed stream in
``_seeds`` (`shuffle._Stream`).  A new node whose elements map one to one to
its input's can add itself to ``iterator_state._SKIPS``.  The saved
tensors are eagerflow's own, not TF's variant ``ITERATOR_STATE``.

Iterating a dataset inside a traced `function` is a graph loop over the
stateful iterator ops of `iterator_graph` (``MakeIterator``,
``IteratorGetNextAsOptional``, ...), whose iterator resource wraps
``_iterator()``: a new iteration on every call of the function.
"""
