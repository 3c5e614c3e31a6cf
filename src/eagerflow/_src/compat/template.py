"""TF 1's `make_template`: a function whose `get_variable` calls make their variables on the
first call and share them on every later one, in a variable scope of its own.

>>> def scale(x):
...     w = tf.compat.v1.get_variable("w", [], initializer=tf.compat.v1.ones_initializer())
...     return x * w
>>> g = tf.Graph()
>>> with g.as_default():
...     scale_twice = tf.compat.v1.make_template("scale", scale)
...     a, b = scale_twice(tf.constant(2.0)), scale_twice(tf.constant(3.0))
...     [v.name for v in scale_twice.variables], a.name, b.name
(['scale/w:0'], 'scale/mul:0', 'scale_1/mul:0')
"""
import functools

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode, logging_v1, variable_scope
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import context


@export("compat.v1.make_template")
def make_template(name_, func_, create_scope_now_=False, unique_name_=None,
                  custom_getter_=None, **kwargs):
    """`func_` (with `kwargs` bound) wrapped so that the variables its `get_variable` calls
    make on the first call, in the variable scope ``name_`` (made unique, or
    ``unique_name_``), are reused by every later call.

    With `create_scope_now_`, the scope is made now (under the scope in force here)
    instead of at the first call. A later call that makes a new trainable variable
    raises ValueError. Executing eagerly, the template keeps its variables itself.

    >>> dense = tf.compat.v1.make_template("dense", lambda x: x * tf.compat.v1.get_variable(
    ...     "k", [], initializer=tf.compat.v1.constant_initializer(3.0)))
    >>> float(dense(tf.constant(2.0))), float(dense(tf.constant(1.0))), len(dense.variables)
    (6.0, 3.0, 1)
    """
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    kind = EagerTemplate if context.executing_eagerly() else Template
    return kind(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                custom_getter=custom_getter_)


class Template:
    """What `make_template` returns in a graph: a callable sharing its variables."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None,
                 custom_getter=None):
        self._name, self._func = name, func
        self._unique_name, self._custom_getter = unique_name, custom_getter
        self._variables_created = False
        self._variable_scope = None
        if create_scope_now:
            with self._scope() as scope:
                self._variable_scope = scope

    name = property(lambda self: self._name)
    func = property(lambda self: self._func)
    variable_scope = property(lambda self: self._variable_scope)

    @property
    def variable_scope_name(self):
        """The scope's name with a trailing ``/`` (None before it is made)."""
        return None if self._variable_scope is None else self._variable_scope.name + "/"

    def _scope(self):
        if self._variable_scope is not None:
            return variable_scope.variable_scope(self._variable_scope,
                                                 reuse=True if self._variables_created else None)
        return variable_scope.variable_scope(self._unique_name, default_name=self._name,
                                             custom_getter=self._custom_getter)

    def __call__(self, *args, **kwargs):
        with self._scope() as scope:
            self._variable_scope = scope
            return self._call_func(args, kwargs)

    def _call_func(self, args, kwargs):
        graph = graph_mode.default_v1_graph()
        count = len(graph.get_collection(GraphKeys.GLOBAL_VARIABLES))
        trainable = len(graph.get_collection(GraphKeys.TRAINABLE_VARIABLES))
        result = self._func(*args, **kwargs)
        if not self._variables_created:
            self._variables_created = True
            return result
        made = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES)[trainable:]
        if made:
            raise ValueError(f"Trainable variable created when calling a template after the "
                             f"first time, perhaps you used tf.Variable when you meant "
                             f"tf.get_variable: {made}")
        if len(graph.get_collection(GraphKeys.GLOBAL_VARIABLES)) != count:
            logging_v1.info("New variables created when calling a template after the first "
                            "time, perhaps you used tf.Variable when you meant "
                            "tf.get_variable: %s",
                            graph.get_collection(GraphKeys.GLOBAL_VARIABLES)[count:])
        return result

    def _collection(self, key):
        if self._variable_scope is None:
            return []
        return graph_mode.get_collection(key, self.variable_scope_name)

    @property
    def global_variables(self):
        """The global variables made in the template's scope."""
        return self._collection(GraphKeys.GLOBAL_VARIABLES)

    @property
    def local_variables(self):
        """The local variables made in the template's scope."""
        return self._collection(GraphKeys.LOCAL_VARIABLES)

    @property
    def trainable_variables(self):
        """The trainable variables made in the template's scope."""
        return self._collection(GraphKeys.TRAINABLE_VARIABLES)

    @property
    def variables(self):
        """The global and local variables made in the template's scope."""
        return self.global_variables + self.local_variables

    @property
    def non_trainable_variables(self):
        """The template's global variables that are not trainable."""
        trainable = {id(v) for v in self.trainable_variables}
        return [v for v in self.global_variables if id(v) not in trainable]

    weights = property(lambda self: self.variables)
    trainable_weights = property(lambda self: self.trainable_variables)
    non_trainable_weights = property(lambda self: self.non_trainable_variables)


class EagerTemplate(Template):
    """What `make_template` returns executing eagerly: it keeps the variables its calls
    make (there are no graph collections to find them in)."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None,
                 custom_getter=None):
        self._store = {}
        super().__init__(name, func, create_scope_now, unique_name, custom_getter)

    def __call__(self, *args, **kwargs):
        with variable_scope.eager_variable_store(self._store):
            return super().__call__(*args, **kwargs)

    def _call_func(self, args, kwargs):
        count = len(self._store)
        result = self._func(*args, **kwargs)
        if self._variables_created and len(self._store) != count:
            raise ValueError("Trainable variable created when calling a template after the "
                             "first time, perhaps you used tf.Variable when you meant "
                             f"tf.get_variable: {list(self._store.values())[count:]}")
        self._variables_created = True
        return result

    @property
    def variables(self):
        return list(self._store.values())

    @property
    def trainable_variables(self):
        return [v for v in self._store.values() if v.trainable]

    @property
    def non_trainable_variables(self):
        return [v for v in self._store.values() if not v.trainable]

    global_variables = variables
    local_variables = property(lambda self: [])

    def _trackable_children(self):
        """Its variables, for checkpoints: named as in its variable scope (``w`` for
        ``scale/w:0``), as TF's templates track them."""
        prefix = self.variable_scope_name or ""
        return [(name[len(prefix):] if name.startswith(prefix) else name, v)
                for name, v in self._store.items()]
