"""`print_summary`: Keras's table of a model's layers, output shapes and parameter counts.

Columns are cut at fixed fractions of the line; text too long for its
column wraps onto further lines, preferably after a closing bracket.
"""
import numpy as np


def count_params(weights):
    """The number of scalars in `weights` (each counted once)."""
    seen = {id(w): w for w in weights}
    return int(sum(np.prod(w.shape.as_list(), dtype=np.int64) for w in seen.values()))


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
    seen = {id(w): w for w in weights}
    return sum(np.prod(w.shape.as_list(), dtype=np.int64) * w.dtype.size for w in seen.values())


def _row(fields, positions, print_fn):
    """Prints `fields` in columns ending at `positions`, wrapping what does not fit."""
    pending = [str(f) for f in fields]
    while any(pending):
        line = ""
        for col, text in enumerate(pending):
            start = positions[col - 1] if col else 0
            last = col == len(positions) - 1
            gap = 0 if last else 2
            # Columns but the last keep one more space: the row's leading one, or alignment.
            width = positions[col] - start - gap - (0 if last else 1)
            piece = text[:width]
            breaks = [piece.find(b) + len(b) for b in ("),", "},", "],", "',")
                      if piece.find(b) >= 0]
            if breaks:
                width = min(breaks)
                piece = piece[:width]
            if col == 0:
                line += " "
            line += piece + " " * gap
            pending[col] = text[width:]
            line += " " * (positions[col] - len(line))
        print_fn(line)


def _shape_text(layer):
    try:
        shape = layer.output_shape
    except AttributeError:
        return "multiple"
    except RuntimeError:
        return "?"
    return str(shape)


def _is_sequential_like(model):
    if getattr(model, "_is_sequential", False) or not hasattr(model, "_steps"):
        return True
    # Keras's rule: one call per depth, each with one input, and no layer called twice
    if any(len(s.keras_inputs) > 1 for s in model._steps):
        return False
    depths = list(model._depths.values())
    if len(depths) != len(set(depths)):
        return False
    return all(len(layer._inbound_nodes) <= 1 for layer in model.layers)


def print_summary(model, line_length=None, positions=None, print_fn=None,
                  show_trainable=False, expand_nested=False, layer_range=None):
    """Prints the summary table of `model` (see `Model.summary`)."""
    print_fn = print_fn or print
    sequential_like = _is_sequential_like(model)
    if sequential_like:
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
    layers = model.layers
    if layer_range is not None:
        names = [layer.name for layer in layers]
        layers = layers[names.index(layer_range[0]):names.index(layer_range[1]) + 1]
    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    _row(header, positions, print_fn)
    print_fn("=" * line_length)
    for layer in layers:
        fields = [f"{layer.name} ({type(layer).__name__})", _shape_text(layer),
                  layer.count_params() if layer.built else 0]
        if not sequential_like:
            fields.append(str([
                f"{x._keras_history[0].name}[{x._keras_history[1]}][{x._keras_history[2]}]"
                for node in layer._inbound_nodes for x in node.keras_inputs
                if hasattr(x, "_keras_history")]))
        if show_trainable:
            fields.append("Y" if layer.trainable else "N")
        _row(fields, positions, print_fn)
        print_fn(" " * line_length)
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

