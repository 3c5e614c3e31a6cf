"""Writes eagerflow's public namespaces from the ``@export`` declarations in ``eagerflow._src``.

Run from the project root after adding, renaming or removing a declaration:

    python tools/gen_api.py           # rewrites src/eagerflow/**/__init__.py and
                                      # src/eagerflow/_src/backend/dispatch_wrappers.py
    python tools/gen_api.py --check   # exit status 1 when a file is out of date

Each namespace (``math``, ``nn``, ``keras.layers``, ...) becomes a package of
plain re-exports: one ``from eagerflow._src.<module> import <names>`` per
defining module, then its sub-namespaces. ``tf.keras`` loads on first use, and so
do Keras's classes that another namespace offers (``tf.nn.RNNCellDropoutWrapper``).
The dispatch wrappers of the public functions are written as source too.
"""
import hashlib
import importlib
import os
import pkgutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "src", "eagerflow")

# Docstrings of the public namespaces ("" is the package itself).
DOCS = {
    "": '''eagerflow: TensorFlow 2's programming model, eager-first, on NumPy.

>>> import eagerflow as tf
>>> tf.constant([1, 2]) * 2
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 4], dtype=int32)>
''',
    "__internal__": "``tf.__internal__``: the base of composite values (`CompositeTensor`).",
    "autodiff": "Automatic differentiation (``tf.autodiff``).",
    "audio": "Audio encoding (``tf.audio``).",
    "autograph": "AutoGraph: Python control flow on tensors turned into graph control flow "
                 "(``tf.autograph``).",
    "autograph.experimental": "``tf.autograph.experimental``: loop options and opting out of "
                              "conversion.",
    "bitwise": "Bitwise ops on integer tensors (``tf.bitwise``).",
    "compat": "Compatibility namespaces (``tf.compat``).",
    "python": "Paths of TF's own package that programs import from (``tensorflow.python``).",
    "python.client": "``tensorflow.python.client``: the local devices (`device_lib`).",
    "python.client.device_lib": "The devices this process runs on.",
    "python.framework": "``tensorflow.python.framework``: graphs and freezing a function's "
                        "variables.",
    "python.framework.ops": "``tensorflow.python.framework.ops``: TF 1's graph functions.",
    "python.ops": "``tensorflow.python.ops``: the NumPy behaviour switch.",
    "python.ops.numpy_ops": "``tensorflow.python.ops.numpy_ops``.",
    "python.ops.numpy_ops.np_config": "The switch to NumPy's behaviour of tensors.",
    "python.platform": "``tensorflow.python.platform``: files (`gfile`).",
    "python.platform.gfile": "TF 1's file API under its older path.",
    "python.framework.convert_to_constants": "A TF 2 function frozen: its variables' "
                                             "values as constants in its graph.",
    "compat.v1": "TF 1's API kept in TF 2 (``tf.compat.v1``): frozen graphs, graph messages.",
    "compat.v2": "TF 2's API under its compatibility name (``import tensorflow.compat.v2 as tf``).",
    "compat.v1.graph_util": "Graph utilities (``tf.compat.v1.graph_util``).",
    "compat.v1.data.experimental": "TF 1's ``tf.compat.v1.data.experimental``: the names of "
                                   "``tf.data.experimental``.",
    "compat.v1.profiler": "TF 1's model analyzer (``tf.compat.v1.profiler``): float operations "
                          "and parameters of a graph.",
    "compat.v1.gfile": "TF 1's file system API (``tf.compat.v1.gfile``).",
    "compat.v1.io": "TF 1's file and parsing API (``tf.compat.v1.io``).",
    "compat.v1.train": "TF 1's training utilities kept in TF 2 (``tf.compat.v1.train``): "
                       "reading event files.",
    "compat.v1.metrics": "TF 1's streaming metrics (``tf.compat.v1.metrics``): (value, update_op) "
                         "pairs over local variables.",
    "compat.v1.logging": "TF 1's logging functions and levels (``tf.compat.v1.logging``).",
    "compat.v1.flags": "TF 1's command-line flags (``tf.compat.v1.flags``).",
    "compat.v1.app": "TF 1's program entry point (``tf.compat.v1.app.run``) and flags.",
    "compat.v1.app.flags": "TF 1's command-line flags (``tf.compat.v1.app.flags``).",
    "compat.v1.python_io": "TF 1's TFRecord API (``tf.compat.v1.python_io``).",
    "config": "Devices and runtime settings (``tf.config``).",
    "contrib": "TF 1's contributed modules that TF 2 programs may still name (``tf.contrib``).",
    "contrib.eager": "TF 1's eager helpers (``tf.contrib.eager``), deprecated.",
    "contrib.eager.metrics": "TF 1's eager metrics (``tf.contrib.eager.metrics``), deprecated: "
                             "the ``tf.keras.metrics`` classes.",
    "config.experimental": "``tf.config.experimental``.",
    "config.optimizer": "``tf.config.optimizer``: switches of the graph passes run before a "
                        "function executes.",
    "config.threading": "``tf.config.threading``.",
    "data": "Input pipelines (``tf.data``).",
    "data.experimental": "``tf.data.experimental``.",
    "debugging": "Runtime checks (``tf.debugging``).",
    "dtypes": "Tensor element types (``tf.dtypes``).",
    "errors": "TensorFlow's exception types (``tf.errors``).",
    "experimental": "``tf.experimental``.",
    "graph_util": "Graph utilities (``tf.graph_util``).",
    "image": "Image ops (``tf.image``): colour, augmentation, metrics and box suppression.",
    "io": "Files and formats (``tf.io``): TFRecord files, ``tf.train.Example`` parsing, "
          "tensor serialization, CSV, raw bytes and file access (``gfile``).",
    "io.gfile": "File system access with TF's errors (``tf.io.gfile``).",
    "keras": "Keras (``tf.keras``) with tf_keras (Keras 2) semantics.",
    "keras.activations": "Activation functions (``tf.keras.activations``).",
    "keras.applications": "Keras's ImageNet models (``tf.keras.applications``).",
    "keras.applications.imagenet_utils": "Preprocessing and decoding shared by the ImageNet "
                                         "models (``tf.keras.applications.imagenet_utils``).",
    "keras.applications.mobilenet_v2": "MobileNetV2 (``tf.keras.applications.mobilenet_v2``).",
    "keras.applications.resnet": "ResNet (``tf.keras.applications.resnet``).",
    "keras.applications.resnet50": "ResNet-50 (``tf.keras.applications.resnet50``).",
    "keras.applications.vgg16": "VGG-16 (``tf.keras.applications.vgg16``).",
    "keras.backend": "Keras backend functions (``tf.keras.backend``).",
    "keras.callbacks": "Keras callbacks (``tf.keras.callbacks``).",
    "keras.constraints": "Weight constraints (``tf.keras.constraints``).",
    "keras.datasets": "Keras's small datasets (``tf.keras.datasets``).",
    "keras.datasets.cifar10": "CIFAR-10 (``tf.keras.datasets.cifar10``).",
    "keras.datasets.fashion_mnist": "Fashion-MNIST (``tf.keras.datasets.fashion_mnist``).",
    "keras.datasets.imdb": "IMDB reviews (``tf.keras.datasets.imdb``).",
    "keras.datasets.mnist": "MNIST digits (``tf.keras.datasets.mnist``).",
    "keras.initializers": "Weight initializers (``tf.keras.initializers``).",
    "keras.layers": "Keras layers (``tf.keras.layers``).",
    "keras.losses": "Loss classes and functions (``tf.keras.losses``).",
    "keras.metrics": "Metrics (``tf.keras.metrics``).",
    "keras.mixed_precision": "Mixed precision policies and loss scaling "
                             "(``tf.keras.mixed_precision``).",
    "keras.models": "Keras models (``tf.keras.models``).",
    "keras.optimizers": "Keras optimizers (``tf.keras.optimizers``).",
    "keras.optimizers.legacy": "The pre-2.11 optimizers (``tf.keras.optimizers.legacy``): "
                               "tf_keras's OptimizerV2 classes.",
    "keras.optimizers.schedules": "Learning-rate schedules (``tf.keras.optimizers.schedules``).",
    "keras.preprocessing": "Keras's preprocessing utilities (``tf.keras.preprocessing``).",
    "keras.preprocessing.sequence": "Sequence preprocessing "
                                    "(``tf.keras.preprocessing.sequence``).",
    "keras.regularizers": "Weight penalties (``tf.keras.regularizers``).",
    "keras.saving": "Saving and loading Keras models (``tf.keras.saving``).",
    "keras.utils": "Keras utilities (``tf.keras.utils``): progress bar, downloads, arrays, "
                   "serialization.",
    "distribute": "``tf.distribute``: strategies that run training steps on replicas; "
                  "eagerflow runs one replica on the host.",
    "distribute.cluster_resolver": "``tf.distribute.cluster_resolver``: descriptions of the "
                                   "cluster a program runs in (``TF_CONFIG``).",
    "distribute.experimental": "``tf.distribute.experimental``: further strategies and "
                               "communication options.",
    "lite": "TensorFlow Lite (``tf.lite``): converting models to ``.tflite`` files and running them.",
    "linalg": "Linear algebra (``tf.linalg``).",
    "math": "Math ops (``tf.math``).",
    "math.special": "Special functions (``tf.math.special``).",
    "nest": "Nested structures of lists, tuples, namedtuples and dicts (``tf.nest``).",
    "nn": "Neural-network ops (``tf.nn``).",
    "random": "Random numbers with TF's seeding semantics (``tf.random``).",
    "random.experimental": "``tf.random.experimental``: generators and stateless seed and "
                           "shuffle utilities.",
    "raw_ops": "TF's ops by their op names (``tf.raw_ops``), called with keyword arguments "
               "only.",
    "saved_model": "SavedModels (``tf.saved_model``): objects with their functions and "
                   "variables in TensorFlow's format.",
    "sparse": "Sparse tensors (``tf.sparse``).",
    "signal": "Signal processing (``tf.signal``): FFTs, windows and framing.",
    "strings": "String ops (``tf.strings``).",
    "test": "Testing utilities (``tf.test``).",
    "summary": "TensorBoard summaries (``tf.summary``): event file writers and the scalar, "
               "histogram, image, text and audio summaries.",
    "summary.experimental": "``tf.summary.experimental``: the default step and summary "
                            "scopes.",
    "train": "Training utilities (``tf.train``): the ``Example`` protos, object-based "
             "checkpoints (``Checkpoint``, ``CheckpointManager``) and checkpoint readers.",
    "version": '''``tf.version``: the TensorFlow API version eagerflow implements.

Programs compare ``tf.__version__`` to decide which API to use; eagerflow
answers with the TensorFlow release whose API and printed behaviour it
follows.  Its own release is the package's metadata
(``importlib.metadata.version("eagerflow")``).

>>> import eagerflow as tf
>>> tf.version.VERSION == tf.__version__
True
''',
}

# Modules the package imports for what they install, not for names.
SIDE_EFFECTS = {
    "": ["eagerflow._src.ops.overloads",  # Tensor's operators
         "eagerflow._src.graph.tape_compiler"],  # compiles repeated backward passes
}

# Sub-namespaces loaded on first attribute access, keeping ``import eagerflow`` fast
# (``tf.compat.v1``, ``tf.saved_model``, ``tf.summary`` and ``tf.train`` import protobuf,
# ``tf.feature_column`` Keras's initializers,
# ``tf.data`` the function machinery, ``tf.lite`` the SavedModel reader and writer).
LAZY = {"": ["contrib", "data", "feature_column", "keras", "lite", "profiler", "python",
             "raw_ops", "saved_model", "summary", "test", "train"],
        "compat": ["v1", "v2"]}

# Lazy sub-namespaces that are another namespace under a second name (TF 2's ``tf.metrics``
# is ``tf.keras.metrics``), loaded on first use like those of `LAZY`.
ALIASES = {"": {"initializers": "keras.initializers", "losses": "keras.losses",
                "metrics": "keras.metrics", "optimizers": "keras.optimizers"}}

# Packages of eagerflow._src whose objects a namespace outside their own public tree offers
# on first attribute access, not at import: {package: its public tree}.  ``tf.nn`` loads at
# ``import eagerflow``, and its RNN cell wrappers are Keras classes (Keras loads on first use).
DEFERRED = {"eagerflow._src.keras": "keras"}

# Namespaces whose names a module of eagerflow._src makes on first use: its
# ``attribute(name)`` gives one, ``names()`` lists them (``tf.raw_ops``: every registered op).
DYNAMIC = {"raw_ops": ("eagerflow._src.compat.raw_ops", "raw_op", "op_names")}

# Namespaces that also offer the names of another (``tf.compat.v1.matmul`` is ``tf.matmul``;
# ``tf.compat.v2`` is TF 2's whole API, for ``import tensorflow.compat.v2 as tf``).
FALLBACK = {"compat.v1": "eagerflow", "compat.v2": "eagerflow", "compat.v1.nn": "eagerflow.nn",
            "compat.v1.math": "eagerflow.math", "compat.v1.io": "eagerflow.io",
            "compat.v1.image": "eagerflow.image", "compat.v1.sets": "eagerflow.sets",
            "compat.v1.random": "eagerflow.random", "compat.v1.sparse": "eagerflow.sparse",
            "compat.v1.strings": "eagerflow.strings",
            "compat.v1.data.experimental": "eagerflow.data.experimental",
            "compat.v1.keras": "eagerflow.keras",
            "compat.v1.keras.backend": "eagerflow.keras.backend",
            "compat.v1.keras.initializers": "eagerflow.keras.initializers",
            "compat.v1.keras.layers": "eagerflow.keras.layers",
            "compat.v1.keras.losses": "eagerflow.keras.losses",
            "compat.v1.keras.metrics": "eagerflow.keras.metrics",
            "compat.v1.keras.models": "eagerflow.keras.models",
            "compat.v1.keras.optimizers": "eagerflow.keras.optimizers",
            "compat.v1.keras.utils": "eagerflow.keras.utils",
            "compat.v1.debugging": "eagerflow.debugging", "compat.v1.dtypes": "eagerflow.dtypes",
            "compat.v1.linalg": "eagerflow.linalg", "compat.v1.errors": "eagerflow.errors",
            "compat.v1.test": "eagerflow.test",
            "python.framework.ops": "eagerflow.compat.v1",
            "python.platform.gfile": "eagerflow.compat.v1.gfile"}

HEADER = "# Generated by tools/gen_api.py from the @export declarations: do not edit.\n"
WIDTH = 100


def declarations():
    """Imports every module of eagerflow._src and returns its `EXPORTS` list."""
    src = os.path.join(ROOT, "src")
    if src not in sys.path:
        sys.path.insert(0, src)
    import eagerflow._src  # noqa: PLC0415
    for info in pkgutil.walk_packages(eagerflow._src.__path__, "eagerflow._src."):
        if info.name != "eagerflow._src.backend.dispatch_wrappers":  # written here, maybe broken
            importlib.import_module(info.name)
    from eagerflow._src.backend.api_export import EXPORTS  # noqa: PLC0415
    return EXPORTS


def _attribute(obj, module, names):
    """The name by which `module` holds `obj` (a function or class)."""
    found = [k for k, v in vars(module).items() if v is obj]
    if getattr(obj, "__name__", None) in found:
        return obj.__name__
    last = [n.rsplit(".", 1)[-1] for n in names]
    found.sort(key=lambda k: (k not in last, k.startswith("_"), k))
    if not found:
        raise ValueError(f"{module.__name__} declares {names} for an object it does not hold")
    return found[0]


def namespaces(exports):
    """{namespace: {public name: (module, attribute)}}, every namespace with its parents."""
    tree = {ns: {} for ns in DOCS}
    for obj, module_name, attr, names in exports:
        module = sys.modules[module_name]
        if attr is None:
            attr = _attribute(obj, module, names)
        for path in names:
            ns, _, name = path.rpartition(".")
            entries = tree.setdefault(ns, {})
            if entries.get(name, (module_name, attr)) != (module_name, attr):
                raise ValueError(f"{path!r} is declared twice: in {entries[name][0]} "
                                 f"and {module_name}")
            entries[name] = (module_name, attr)
    for ns in list(tree):
        while ns:
            ns = ns.rpartition(".")[0]
            tree.setdefault(ns, {})
    return tree


def _wrapped(head, names, tail="  # noqa: F401"):
    """``head (names)`` wrapped at WIDTH columns, or on one line when it fits."""
    line = f"{head}{', '.join(names)}{tail}"
    if len(line) <= WIDTH:
        return [line]
    lines, current = [f"{head}({tail}"], "   "
    for i, name in enumerate(names):
        piece = f" {name}" + ("," if i < len(names) - 1 else ")")
        if len(current) + len(piece) > WIDTH:
            lines.append(current)
            current = "   "
        current += piece
    lines.append(current)
    return lines


def deferred(ns, module):
    """Whether namespace `ns` offers the objects of `module` on first use (see `DEFERRED`)."""
    return any(module.startswith(package + ".") and (ns + ".").split(".")[0] != tree
               for package, tree in DEFERRED.items())


def render(ns, entries, children):
    """The text of namespace `ns`'s ``__init__.py``."""
    doc = DOCS.get(ns) or f"``tf.{ns}``."
    out = [f'"""{doc}"""', HEADER.rstrip("\n")]
    later = {name: entry for name, entry in entries.items() if deferred(ns, entry[0])}
    by_module = {}
    for name, (module, attr) in sorted(entries.items()):
        if name in later:
            continue
        by_module.setdefault(module, []).append((name, attr))
    for module in sorted(by_module):
        plain = [name for name, attr in by_module[module] if name == attr]
        if plain:
            out += _wrapped(f"from {module} import ", plain)
        for name, attr in by_module[module]:
            if name != attr:
                out.append(f"from {module} import {attr} as {name}  # noqa: F401")
    for module in SIDE_EFFECTS.get(ns, ()):
        # (bound to a private name: ``import a.b`` would put ``a`` among the public names)
        parent, _, leaf = module.rpartition(".")
        out.append(f"from {parent} import {leaf} as _{leaf}  # noqa: F401")
    lazy = LAZY.get(ns, [])
    aliases = ALIASES.get(ns, {})
    eager = [c for c in children if c not in lazy]
    if eager:
        package = "eagerflow" + (f".{ns}" if ns else "")
        out += _wrapped(f"from {package} import ", eager)
    if lazy:
        package = "eagerflow" + (f".{ns}" if ns else "")
        quoted = ", ".join(f'"{c}"' for c in lazy)
        listing = _wrapped("_LAZY = ", [f'"{c}"' for c in lazy], tail="")
        if len(listing) == 1:  # (on one line: the tuple's parentheses, and its comma)
            listing = [f"_LAZY = ({quoted},)"]
        out += ["", ""] + listing
        target, test = "{name}", "name in _LAZY"
        if aliases:
            out += ["", "", "_ALIASES = {"] + [
                f'    "{k}": "{v}",' for k, v in sorted(aliases.items())] + ["}"]
            target, test = "{_ALIASES.get(name, name)}", f"name in _ALIASES or {test}"
        comment = f"    # {', '.join(lazy)} loads on first use, keeping ``import {package}`` fast."
        if len(comment) > WIDTH:
            comment = f"    # These load on first use, keeping ``import {package}`` fast."
        out += ["", "", "def __getattr__(name):", comment,
                f"    if {test}:",
                "        import importlib  # noqa: PLC0415",
                f"        return importlib.import_module(f\"{package}.{target}\")",
                f"    raise AttributeError(f\"module '{package}' has no attribute {{name!r}}\")"]
        listed = "{*globals(), *_LAZY" + (", *_ALIASES" if aliases else "") + "}"
        if not later:  # (a namespace with deferred names lists these in its own __dir__)
            out += ["", "", "def __dir__():", f"    return sorted({listed})"]
    dynamic = DYNAMIC.get(ns)
    if dynamic:
        module, attribute, names = dynamic
        out += ["", "", "def __getattr__(name):",
                f"    from {module} import {attribute}  # noqa: PLC0415 (loads on first use)",
                f"    return {attribute}(name)",
                "", "", "def __dir__():",
                f"    from {module} import {names}  # noqa: PLC0415",
                f"    return list({names}())"]
    fallback = FALLBACK.get(ns)
    if fallback:
        out += ["", "", "def __getattr__(name):",
                f"    # The names of ``{fallback}`` too.",
                f"    import {fallback}  # noqa: PLC0415",
                f"    if not name.startswith(\"_\") and hasattr({fallback}, name):",
                f"        return getattr({fallback}, name)",
                f"    raise AttributeError(f\"module 'eagerflow.{ns}' has no attribute "
                f"{{name!r}}\")",
                "", "", "def __dir__():",
                f"    import {fallback}  # noqa: PLC0415",
                f"    names = (name for name in dir({fallback}) if not name.startswith(\"_\"))",
                f"    return sorted({{*globals(), {'*_DEFERRED, ' if later else ''}*names}})"]
    if later:
        out = _with_deferred(ns, later, out, bool(lazy), bool(aliases))
    return "\n".join(out) + "\n"


def _with_deferred(ns, later, out, lazy=False, aliases=False):
    """`out` (a namespace's lines) offering `later`, {name: (module, attribute)}, on first
    use: a table of them, a clause of the module's ``__getattr__`` that imports one and keeps
    it, and a ``__dir__`` that lists them (and the `lazy` sub-namespaces and `aliases`, when
    the namespace has them)."""
    package = "eagerflow" + (f".{ns}" if ns else "")
    if "def __dir__():" in out and not FALLBACK.get(ns):  # (a fallback's lists them too)
        raise ValueError(f"{package} lists its names itself: it cannot defer {sorted(later)}")
    table = ["", "", "_DEFERRED = {"] + [
        f'    "{name}": ("{module}", "{attr}"),' for name, (module, attr) in sorted(later.items())
    ] + ["}"]
    clause = ["    # Objects of a part loaded on first use (see tools/gen_api.py's DEFERRED).",
              "    if name in _DEFERRED:",
              "        import importlib  # noqa: PLC0415",
              "        module, attribute = _DEFERRED[name]",
              "        value = globals()[name] = getattr(importlib.import_module(module), attribute)",
              "        return value"]
    extra = (", *_LAZY" if lazy else "") + (", *_ALIASES" if aliases else "")
    listing = [] if FALLBACK.get(ns) else [
        "", "", "def __dir__():", f"    return sorted({{*globals(), *_DEFERRED{extra}}})"]
    if "def __getattr__(name):" not in out:
        return out + table + ["", "", "def __getattr__(name):"] + clause + [
            f"    raise AttributeError(f\"module '{package}' has no attribute {{name!r}}\")"
        ] + listing
    at = out.index("def __getattr__(name):")
    return out[:at - 2] + table + out[at - 2:at + 1] + clause + out[at + 1:] + listing


WRAPPERS = os.path.join("src", "eagerflow", "_src", "backend", "dispatch_wrappers.py")
WRAPPERS_DOC = """Dispatch wrappers of the public functions (see `api_export`), one factory per
signature, written as source so that they load from bytecode at import."""


def render_wrappers(exports):
    """The text of the module of dispatch wrappers: one factory per signature (parameter
    names and kinds), and `WRAPPERS`, {canonical name: factory} of every wrapped function."""
    from eagerflow._src.backend.api_export import wrapper_source  # noqa: PLC0415
    sources, wrapped = {}, set()
    for obj, _, _, names in exports:
        fn = getattr(obj, "__dict__", {}).get("_undispatched")
        if fn is not None and fn not in wrapped:  # its first declaration, which wrapped it
            wrapped.add(fn)
            canonical = next(n for n in names if not n.startswith("keras."))
            sources[canonical] = wrapper_source(fn, "_factory")[0]
    # Named by their source's hash: a new signature adds a factory without renaming others.
    factories = {source: "_w" + hashlib.sha1(source.encode()).hexdigest()[:10]
                 for source in set(sources.values())}
    out = [f'"""{WRAPPERS_DOC}"""', HEADER.rstrip("\n")]
    for source, factory in sorted(factories.items(), key=lambda item: item[1]):
        out += ["", "", source.replace("def _factory(", f"def {factory}(", 1).rstrip("\n")]
    out += ["", "", "WRAPPERS = {"]
    out += [f"    {name!r}: {factories[sources[name]]}," for name in sorted(sources)]
    out.append("}")
    return "\n".join(out) + "\n"


def generate():
    """{path relative to the project root: text} of every public module and of the module
    of dispatch wrappers."""
    exports = declarations()
    tree = namespaces(exports)
    files = {}
    for ns, entries in tree.items():
        children = sorted(c.rpartition(".")[2] for c in tree
                          if c and c.rpartition(".")[0] == ns)
        rel = os.path.join("src", "eagerflow", *(ns.split(".") if ns else []), "__init__.py")
        files[rel] = render(ns, entries, children)
    files[WRAPPERS] = render_wrappers(exports)
    return files


def public_files():
    """Paths (relative to the project root) of the public modules on disk."""
    found = []
    for folder, dirs, names in os.walk(PACKAGE):
        dirs[:] = [d for d in dirs if d not in ("_src", "__pycache__")]
        found += [os.path.relpath(os.path.join(folder, n), ROOT) for n in names
                  if n.endswith(".py")]
    return sorted(found)


def stale(files):
    """Paths whose text differs from `files`, and public modules no declaration makes."""
    out = []
    for rel, text in sorted(files.items()):
        path = os.path.join(ROOT, rel)
        if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
            out.append(rel)
    return out + [rel for rel in public_files() if rel not in files]


def main(argv):
    files = generate()
    if "--check" in argv:
        for rel in stale(files):
            print(f"{rel}: out of date; run python tools/gen_api.py")
        return 1 if stale(files) else 0
    for rel in stale(files):
        path = os.path.join(ROOT, rel)
        if rel not in files:
            os.remove(path)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(files[rel])
        print(f"wrote {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
