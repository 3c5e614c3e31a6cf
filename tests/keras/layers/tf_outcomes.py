"""What the recording scripts of tests/keras/layers/data/ keep of a case run by TF, and the
same outcome of a case run here, for the tests to compare."""
import json


def outcome(tf, fn, jsonable):
    """The outcome of `fn` run after a `clear_session` (layer names count from 0): its result
    as `jsonable` makes it, or its error's class and message."""
    tf.keras.backend.clear_session()
    try:
        return jsonable(fn())
    except Exception as e:  # noqa: BLE001 - an error is an outcome too
        return {"error": type(e).__name__, "message": str(e)}


def outcomes(tf, cases, jsonable):
    """{name: outcome} of `cases` ({name: function})."""
    return {name: outcome(tf, fn, jsonable) for name, fn in cases.items()}


def as_recorded(tf, fn, jsonable):
    """The outcome of `fn` as it reads back from the recorded JSON."""
    return json.loads(json.dumps(outcome(tf, fn, jsonable), ensure_ascii=False, default=str))


def write(results, path, indent=1):
    """`results` as the JSON file the tests read."""
    with open(path, "w") as f:
        json.dump(results, f, indent=indent, sort_keys=True, ensure_ascii=False, default=str)
