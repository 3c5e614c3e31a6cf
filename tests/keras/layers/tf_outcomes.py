"""What the recording scripts of tests/keras/layers/data/ keep of a case run by TF."""


def outcomes(tf, cases, jsonable):
    """{name: outcome} of `cases` ({name: function}), each run after a `clear_session`: its
    result as `jsonable` makes it, or its error's class and message."""
    results = {}
    for name, fn in cases.items():
        tf.keras.backend.clear_session()
        try:
            results[name] = jsonable(fn())
        except Exception as e:  # noqa: BLE001 - an error is an outcome too
            results[name] = {"error": type(e).__name__, "message": str(e)}
    return results
