"""`print_summary`: Keras's table of a model's layers, output shapes and parameter counts.

Columns are cut at fixed fractions of the line; text too long for its
column wraps onto further lines, preferably after a closing bracket.
"""
import re

import numpy as np
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.convert import constant
from eagerflow._src.keras import late
from eagerflow._src.keras.utils import io_utils


def count_params(weights):
    """The number of scalars in `weights` (each counted once; an unknown dim counts 0, a
    weight without a shape, as a lookup layer's vocabulary, none). Not public: tf_keras
    keeps it inside `tf.keras.utils`' modules."""
    return int(sum(np.prod([d or 0 for d in w.shape.as_list()], dtype=np.int64)
                   for w in _shaped(weights)))


def _shaped(weights):
    """`weights` each once, without those that have no shape."""
    return [w for w in {id(w): w for w in weights}.values() if hasattr(w, "shape")]


def readable_memory_size(size):
    """``104.00 Byte``, ``1.53 KB``, ... (powers of 1024)."""
    units = ["Byte", "KB", "MB", "GB", "TB", "PB"]
    scale = 1024
    for unit in units:
        if size / scale < 1:
            return f"{size:.2f} {unit}"
        size /= scale
    return f"{size:.2f} {units[-1]}"


def _weight_memory(weights):
    """The bytes of `weights` whose shapes are known."""
    return sum(np.prod(w.shape.as_list(), dtype=np.int64) * w.dtype.size
               for w in _shaped(weights) if None not in w.shape.as_list())


def _row(fields, positions, print_fn, level=0):
    """Prints `fields` in columns ending at `positions`, wrapping what does not fit.

    A row of a layer nested `level` deep is framed by `level` bars on each side.
    """
    pending = [str(f) for f in fields]
    last = len(positions) - 1
    while any(pending):
        line = ""
        for col, text in enumerate(pending):
            start = positions[col - 1] if col else 0
            gap = 0 if col == last else 2
            # Columns but the last keep one more space: the row's leading one, or alignment.
            width = positions[col] - start - gap - (0 if col == last else 1)
            if col == 0:
                width -= level
            piece = text[:width]
            breaks = [piece.find(b) + len(b) for b in ("),", "},", "],", "',")
                      if piece.find(b) >= 0]
            if breaks:
                width = min(breaks)
                piece = piece[:width]
            if col == 0:
                line += "|" * level + " "
            line += piece + " " * gap
            pending[col] = text[width:]
            line += " " * (positions[col] - len(line) - (level if col == last else 0))
        print_fn(line + "|" * level)


def _shape_text(layer):
    try:
        shape = layer.output_shape
    except AttributeError:
        return "multiple"
    except RuntimeError:
        return "?"
    return str(shape)


def _is_sequential_like(model):
    if type(model).__name__ == "Sequential" or not hasattr(model, "_steps"):
        return True
    # Keras's rule: one call per depth, each with one input, and no layer called twice
    if any(len(s.keras_inputs) > 1 for s in model._steps):
        return False
    depths = list(model._depths.values())
    if len(depths) != len(set(depths)):
        return False
    # (calls made in other models, as a layer shared with another model, do not count)
    steps = {id(step) for step in model._steps}
    return all(sum(id(node) in steps for node in layer._inbound_nodes) <= 1
               for layer in model.layers)


def _layer_range(layers, layer_range):
    """The layers from the first whose name matches ``layer_range[0]`` (a regular expression,
    matched at the start) to the last matching ``layer_range[1]``."""
    if layer_range is None:
        return layers
    if len(layer_range) != 2:
        raise ValueError(f"layer_range must be a list or tuple of length 2. Received: "
                         f"layer_range = {layer_range} of length {len(layer_range)}")
    if not all(isinstance(name, str) for name in layer_range):
        raise ValueError(f"layer_range should contain string type only. Received: "
                         f"{layer_range}")
    lower, upper = ([i for i, layer in enumerate(layers) if re.match(pattern, layer.name)]
                    for pattern in layer_range)
    if not lower or not upper:
        raise ValueError(f"Passed layer_names do not match the layer names in the model. "
                         f"Received: {layer_range}")
    if min(lower) > max(upper):
        return layers[min(upper):max(lower) + 1]
    return layers[min(lower):max(upper) + 1]


class _Table:
    """The rows of one summary: the layers of a model, and (when expanded) of nested models."""

    def __init__(self, model, line_length, positions, print_fn, show_trainable,
                 expand_nested):
        self.line_length, self.positions, self.print_fn = line_length, positions, print_fn
        self.show_trainable, self.expand_nested = show_trainable, expand_nested
        # Connections are listed for the calls made in `model` only.
        self.nodes = None if _is_sequential_like(model) else \
            {id(step) for step in model._steps}

    def layer(self, layer, level=0, last_in_nested=False):
        self._fields(layer, level)
        if self.expand_nested and getattr(layer, "layers", None):
            width = self.line_length - 2 * level
            self.print_fn("|" * (level + 1) + "\u00af" * (width - 2) + "|" * (level + 1))
            inner = layer.layers
            for i, sublayer in enumerate(inner):
                self.layer(sublayer, level + 1, i == len(inner) - 1)
            self.print_fn("|" * level + "\u00af" * width + "|" * level)
            last_in_nested = True  # as Keras: a nested block needs no blank line after it
        if not last_in_nested:
            self.print_fn("|" * level + " " * (self.line_length - 2 * level) + "|" * level)

    def _fields(self, layer, level):
        if self.nodes is None:
            unused = not layer.built and not hasattr(layer, "_steps")
            params = "0 (unused)" if unused else layer.count_params()
            fields = [f"{layer.name} ({type(layer).__name__})", _shape_text(layer), params]
        else:
            fields = [f"{layer.name} ({type(layer).__name__})", _shape_text(layer),
                      layer.count_params(), str(self._connections(layer))]
        if self.show_trainable:
            fields.append("Y" if layer.trainable else "N")
        _row(fields, self.positions, self.print_fn, level)

    def _connections(self, layer):
        return [f"{x._keras_history[0].name}[{x._keras_history[1]}][{x._keras_history[2]}]"
                for node in layer._inbound_nodes if id(node) in self.nodes
                for x in node.keras_inputs if hasattr(x, "_keras_history")]


def print_summary(model, line_length=None, positions=None, print_fn=None,
                  show_trainable=False, expand_nested=False, layer_range=None):
    """Prints the summary table of `model` (see `Model.summary`)."""
    print_fn = print_fn or io_utils.print_msg  # (as Keras: quiet without interactive logging)
    if _is_sequential_like(model):
        line_length = line_length or 65
        positions = positions or [0.45, 0.85, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
    else:
        line_length = line_length or 98
        positions = positions or [0.3, 0.6, 0.7, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    if show_trainable:  # a column of 11 more characters
        line_length += 11
        positions = [*positions, line_length]
        header.append("Trainable")
    layers = _layer_range(model.layers, layer_range)
    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    _row(header, positions, print_fn)
    print_fn("=" * line_length)
    table = _Table(model, line_length, positions, print_fn, show_trainable, expand_nested)
    for layer in layers:
        table.layer(layer)
    trainable = model.trainable_weights
    non_trainable = model.non_trainable_weights
    n_train, n_fixed = count_params(trainable), count_params(non_trainable)
    mem_train, mem_fixed = _weight_memory(trainable), _weight_memory(non_trainable)
    print_fn("=" * line_length)
    print_fn(f"Total params: {n_train + n_fixed} "
             f"({readable_memory_size(mem_train + mem_fixed)})")
    print_fn(f"Trainable params: {n_train} ({readable_memory_size(mem_train)})")
    print_fn(f"Non-trainable params: {n_fixed} ({readable_memory_size(mem_fixed)})")
    print_fn("_" * line_length)


@export("keras.utils.get_source_inputs")
def get_source_inputs(tensor, layer=None, node_index=None):
    """The `Input` tensors that `tensor` (a Keras tensor) was computed from, in order."""
    if not hasattr(tensor, "node"):
        return tensor
    node = tensor.node
    if node is None or not node.keras_inputs:  # an Input, or a tensor made of none
        return [tensor]
    found = []
    for x in node.keras_inputs:
        for source in get_source_inputs(x):
            if all(source is not f for f in found):
                found.append(source)
    return found


@export("keras.utils.warmstart_embedding_matrix")
def warmstart_embedding_matrix(base_vocabulary, new_vocabulary, base_embeddings,
                               new_embeddings_initializer="uniform"):
    """An embedding matrix for `new_vocabulary`: the row of `base_embeddings` for each term
    that `base_vocabulary` has, a row `new_embeddings_initializer` makes for the others (to
    carry a trained embedding over when a vocabulary changes).

    >>> tf.keras.utils.warmstart_embedding_matrix(
    ...     ["unk", "a"], ["a", "new"], np.array([[0.0], [1.0]]), "zeros").numpy()
    array([[1.],
           [0.]])
    """
    def terms(vocabulary):
        values = vocabulary.numpy() if hasattr(vocabulary, "numpy") else vocabulary
        return [t.decode() if isinstance(t, bytes) else str(t) for t in np.ravel(values)]

    base = np.asarray(base_embeddings.numpy() if hasattr(base_embeddings, "numpy")
                      else base_embeddings)
    new_terms = terms(new_vocabulary)
    initializer = late.initializers.get(new_embeddings_initializer)
    matrix = np.array(initializer(shape=(len(new_terms), base.shape[1]), dtype=base.dtype))
    index = {}
    for i, term in enumerate(terms(base_vocabulary)):
        index.setdefault(term, i)
    for i, term in enumerate(new_terms):
        if term in index:
            matrix[i] = base[index[term]]
    return constant(matrix)
