"""`ExportArchive` and `Model.export`: inference-only SavedModels of Keras models and layers.

An archive tracks the layers whose variables (and lookup tables) its endpoints use, holds
each endpoint as a `tf.function` of its input signature, and writes a SavedModel whose
``signatures`` are the endpoints (``serving_default`` the first, unless one is named so).
`tf.saved_model.load` reads it back without the Keras code.

>>> import tempfile, os
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones",
...                                                    input_shape=(2,))])
>>> archive = tf.keras.export.ExportArchive()
>>> archive.track(model)
>>> archive.add_endpoint("serve", model.call, [tf.TensorSpec([None, 2], tf.float32)])
>>> path = os.path.join(tempfile.mkdtemp(), "artifact")
>>> archive.write_out(path)  # doctest: +ELLIPSIS
Saved artifact at '...'. The following endpoints are available:
<BLANKLINE>
* Endpoint 'serve'
...
>>> tf.saved_model.load(path).serve(tf.ones([1, 2])).numpy()
array([[2.]], dtype=float32)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import trackable
from eagerflow._src.core import nest
from eagerflow._src.core.module import wrap
from eagerflow._src.core.versions import VERSION
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.function.polymorphic_function import Function, function
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.functional import Functional
from eagerflow._src.keras.engine.sequential import Sequential
from eagerflow._src.keras.utils.io_utils import print_msg
from eagerflow._src.ops import lookup_ops
from eagerflow._src.saved_model import save as saved_model_save


@export("keras.export.ExportArchive")
class ExportArchive:
    """Writes a SavedModel of chosen endpoints (e.g. for serving).

    `track` the layers or models the endpoints use, `add_endpoint` each function (with its
    input signature, unless it is a `tf.function` already called), optionally
    `add_variable_collection`, then `write_out`. The variables of the tracked layers are
    the archive's `variables`, `trainable_variables` and `non_trainable_variables`.
    """

    def __init__(self):
        self._endpoint_names = []
        self._endpoint_signatures = {}
        self._tracked = []
        self.tensorflow_version = VERSION
        self.variables = wrap([])
        self.trainable_variables = wrap([])
        self.non_trainable_variables = wrap([])

    def track(self, resource):
        """Tracks `resource` (a built layer or model, or another trackable) for export."""
        if not trackable.is_trackable(resource):
            raise ValueError(f"Invalid resource type. Expected an instance of a TensorFlow "
                             f"`Trackable` (such as a TF-Keras `Layer` or `Model`). Received "
                             f"instead an object of type '{type(resource)}'. Object received: "
                             f"{resource}")
        if isinstance(resource, Layer):
            if not resource.built:
                raise ValueError("The layer provided has not yet been built. It must be "
                                 "built before export.")
        self._tracked.append(resource)
        if isinstance(resource, Layer):
            self.variables += resource.variables
            self.trainable_variables += resource.trainable_variables
            self.non_trainable_variables += resource.non_trainable_variables

    def add_endpoint(self, name, fn, input_signature=None):
        """Adds endpoint `name`: `fn` traced for `input_signature` (a `tf.function` with
        its own input signature, or already called, needs none: its traces are the
        endpoint's)."""
        if name in self._endpoint_names:
            raise ValueError(f"Endpoint name '{name}' is already taken.")
        if input_signature:
            decorated = function(fn, input_signature=input_signature)
            self._endpoint_signatures[name] = input_signature
        elif isinstance(fn, Function) and fn.input_signature is not None:
            decorated = fn
            self._endpoint_signatures[name] = fn.input_signature
        elif isinstance(fn, Function):
            if not fn._signatures:
                raise ValueError(
                    f"The provided tf.function '{fn}' has never been called. To specify the "
                    f"expected shape and dtype of the function's arguments, you must either "
                    f"provide a function that has been called at least once, or alternatively "
                    f"pass an `input_signature` argument in `add_endpoint()`.")
            decorated = fn
        else:
            raise ValueError(
                "If the `fn` argument provided is not a `tf.function`, you must provide an "
                "`input_signature` argument to specify the shape and dtype of the function "
                "arguments. Example:\n\nexport_archive.add_endpoint(\n    name='call',\n    "
                "fn=model.call,\n    input_signature=[\n        tf.TensorSpec(\n            "
                "shape=(None, 224, 224, 3),\n            dtype=tf.float32,\n        )\n    "
                "],\n)")
        setattr(self, name, decorated)
        self._endpoint_names.append(name)

    def add_variable_collection(self, name, variables):
        """Saves `variables` (a list, tuple or set of variables) as attribute `name`."""
        if not isinstance(variables, (list, tuple, set)):
            raise ValueError(f"Expected `variables` to be a list/tuple/set. Received instead "
                             f"object of type '{type(variables)}'.")
        if not all(isinstance(v, Variable) for v in variables):
            raise ValueError(f"Expected all elements in `variables` to be `tf.Variable` "
                             f"instances. Found instead the following types: "
                             f"{list(set(type(v) for v in variables))}")
        setattr(self, name, list(variables))

    def write_out(self, filepath, options=None):
        """Writes the SavedModel to `filepath` and prints its endpoints."""
        if not self._endpoint_names:
            raise ValueError("No endpoints have been set yet. Call add_endpoint().")
        concretes = [self._concrete(name) for name in self._endpoint_names]
        self._all_variables = _variables_used_by(concretes)
        self._misc_assets = [t for root in self._tracked for t in _descendants(root)
                             if isinstance(t, (lookup_ops._Table, lookup_ops.TableInitializerBase))]
        signatures = dict(zip(self._endpoint_names, concretes))
        if "serving_default" not in signatures:
            signatures["serving_default"] = concretes[0]
        saved_model_save.save(self, filepath, signatures=signatures, options=options)
        endpoints = "\n\n".join(_printed_endpoint(c, name)
                                for c, name in zip(concretes, self._endpoint_names))
        print_msg(f"Saved artifact at '{filepath}'. The following endpoints are available:"
                  f"\n\n{endpoints}")

    def _concrete(self, name):
        endpoint = getattr(self, name)
        if name in self._endpoint_signatures:
            return endpoint.get_concrete_function()
        return endpoint._signatures[0]

    def _trackable_children(self):
        # (the tracked layers themselves are not saved: only what the endpoints use)
        return [(k, v) for k, v in vars(self).items()
                if k not in ("_tracked", "_endpoint_names", "_endpoint_signatures")
                and (trackable.is_trackable(v) or trackable._holds(v))]


def export_model(model, filepath):
    """`Model.export`: an archive of the model's call, its endpoint ``serve``."""
    archive = ExportArchive()
    archive.track(model)
    if isinstance(model, (Functional, Sequential)):
        signature = nest.map_structure(
            lambda x: TensorSpec(x.shape, x.dtype, name=x.name), model.inputs)
        if isinstance(signature, list) and len(signature) > 1:
            signature = [signature]
    else:
        found = model.save_spec()
        if not found:
            raise ValueError("The model provided has never called. It must be called at "
                             "least once before export.")
        signature = [found[0][0]]
    archive.add_endpoint("serve", model.__call__, signature)
    archive.write_out(filepath)


def _descendants(root):
    seen, stack, found = {id(root)}, [root], []
    while stack:
        obj = stack.pop()
        found.append(obj)
        for _, child in trackable.children(obj):
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    return found


def _variables_used_by(concretes):
    """The variables the concrete functions capture, trainable ones first, each once."""
    trainable, others, seen = [], [], set()
    for concrete in concretes:
        for v in concrete.trainable_variables:
            if id(v) not in seen:
                seen.add(id(v))
                trainable.append(v)
    for concrete in concretes:
        for v in concrete.variables:
            if id(v) not in seen:
                seen.add(id(v))
                others.append(v)
    return trainable + others


def _printed_endpoint(concrete, name):
    lines = concrete.pretty_printed_signature(verbose=True).split("\n")
    return "\n".join([f"* Endpoint '{name}'"] + lines[1:])

