"""`plot_model` and `model_to_dot`: drawing needs pydot and graphviz, which eagerflow does not
use, so they raise tf_keras's ImportError (in IPython, print its message and return None).
"""
import importlib.util
import sys

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.utils.io_utils import print_msg


def _missing(message):
    if "IPython.core.magics.namespace" in sys.modules:
        print_msg(message)
        return None
    if importlib.util.find_spec("pydot") is None:
        raise ImportError(message)
    raise NotImplementedError("eagerflow does not draw models: plot_model and model_to_dot "
                              "are not implemented.")


@export("keras.utils.model_to_dot")
def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True,
                 rankdir="TB", expand_nested=False, dpi=96, subgraph=False, layer_range=None,
                 show_layer_activations=False, show_trainable=False):
    """Would convert `model` to a pydot graph; raises ImportError without pydot."""
    return _missing("You must install pydot (`pip install pydot`) for model_to_dot to work.")


@export("keras.utils.plot_model")
def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False,
               show_layer_names=True, rankdir="TB", expand_nested=False, dpi=96,
               layer_range=None, show_layer_activations=False, show_trainable=False):
    """Would draw `model` into `to_file`; raises ImportError without pydot and graphviz."""
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by "
                         "calling `build()` or by calling the model on a batch of data.")
    return _missing("You must install pydot (`pip install pydot`) and install graphviz (see "
                    "instructions at https://graphviz.gitlab.io/download/) for plot_model to "
                    "work.")

