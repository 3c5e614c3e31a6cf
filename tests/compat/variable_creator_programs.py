"""``tf.variable_creator_scope`` programs run by both TF (to record their results,
`data/make_variable_creator_data.py`) and eagerflow (`test_variable_creator.py`): each
takes the TF module and returns a JSON-able value."""


def nested_creators(tf):
    """The innermost creator runs first and sees every argument by name; a creator may
    change them, or return anything."""
    seen = []

    def inner(next_creator, **kwargs):
        seen.append(["inner", sorted(kwargs), str(kwargs["name"])])
        if kwargs["name"] == "a":
            kwargs["initial_value"] = 5.0
            kwargs["trainable"] = False
        return next_creator(**kwargs)

    def outer(next_creator, **kwargs):
        seen.append("outer")
        return next_creator(**kwargs)

    with tf.variable_creator_scope(outer):
        with tf.variable_creator_scope(inner):
            a = tf.Variable(1.0, name="a")
            b = tf.Variable([2.0, 3.0])
    with tf.variable_creator_scope(lambda next_creator, **kwargs: "not a variable"):
        other = tf.Variable(1.0)
    after = tf.Variable(1.0, name="after")
    return {"seen": seen, "a": [float(a), a.trainable, a.name], "b": b.numpy().tolist(),
            "other": other, "after": float(after)}


def keras_weights(tf):
    """Keras layers make their weights through the creators."""
    names = []

    def record(next_creator, **kwargs):
        names.append(str(kwargs["name"]))
        return next_creator(**kwargs)

    with tf.variable_creator_scope(record):
        layer = tf.keras.layers.Dense(1)
        layer.build((None, 2))
    return names


def v1_variables(tf):
    """TF 1's `Variable` and `get_variable` go through the creators too, in graphs and
    eagerly, with TF 1's arguments (`collections`, `use_resource`, `expected_shape`)."""
    v1 = tf.compat.v1
    seen = []

    def frozen(next_creator, **kwargs):
        seen.append(sorted(kwargs))
        seen.append({k: (v if v is None or isinstance(v, (bool, str)) else type(v).__name__)
                     for k, v in kwargs.items() if k in (
                         "name", "trainable", "use_resource", "collections", "expected_shape",
                         "validate_shape")})
        kwargs["trainable"] = False
        return next_creator(**kwargs)

    out = {}
    with v1.Graph().as_default():
        with v1.variable_creator_scope(frozen):
            v1.Variable(1.0, name="a")
            v1.get_variable("b", [2])
            tf.Variable(2.0, name="c")
        out["graph"] = [[v.name for v in v1.trainable_variables()],
                        [v.name for v in v1.global_variables()]]
    with v1.variable_creator_scope(frozen):
        eager = v1.Variable(3.0, name="eager")
    out["eager"] = [eager.name, eager.trainable, float(eager.numpy())]
    out["seen"] = seen
    return out


PROGRAMS = {"nested_creators": nested_creators, "keras_weights": keras_weights,
            "v1_variables": v1_variables}
