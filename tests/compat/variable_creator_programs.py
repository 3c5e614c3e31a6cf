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


PROGRAMS = {"nested_creators": nested_creators, "keras_weights": keras_weights}
