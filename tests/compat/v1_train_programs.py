"""TF 1 optimizer programs run by both TF (to record their results,
`data/make_v1_train_data.py`) and eagerflow (`test_v1_optimizers.py`): each takes the
``compat.v1`` module and an optimizer's name and returns a JSON-able dict."""
import numpy as np

X = [[1.0, 2.0], [2.0, 1.0], [3.0, -1.0], [0.5, 0.5]]
Y = [[1.0], [2.0], [3.0], [0.0]]
STEPS = 5

OPTIMIZERS = {
    "momentum": lambda tf: tf.train.MomentumOptimizer(0.05, 0.9),
    "nesterov": lambda tf: tf.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
    "adam": lambda tf: tf.train.AdamOptimizer(0.1),
    "adam_tensor_lr": lambda tf: tf.train.AdamOptimizer(tf.constant(0.05), beta1=0.8,
                                                        epsilon=1e-3),
    "rmsprop": lambda tf: tf.train.RMSPropOptimizer(0.01),
    "rmsprop_centered": lambda tf: tf.train.RMSPropOptimizer(0.01, momentum=0.5,
                                                             centered=True),
    "adagrad": lambda tf: tf.train.AdagradOptimizer(0.1),
    "adadelta": lambda tf: tf.train.AdadeltaOptimizer(1.0),
    "ftrl": lambda tf: tf.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01,
                                              l2_regularization_strength=0.01),
    "gd_callable_lr": lambda tf: tf.train.GradientDescentOptimizer(lambda: 0.1),
    "proximal_gd": lambda tf: tf.train.ProximalGradientDescentOptimizer(0.05),
    "proximal_gd_l1_l2": lambda tf: tf.train.ProximalGradientDescentOptimizer(
        0.05, l1_regularization_strength=0.1, l2_regularization_strength=0.2),
    "proximal_adagrad": lambda tf: tf.train.ProximalAdagradOptimizer(0.1),
    "proximal_adagrad_l1_l2": lambda tf: tf.train.ProximalAdagradOptimizer(
        0.1, 0.2, l1_regularization_strength=0.05, l2_regularization_strength=0.1),
    "adagrad_da": lambda tf: tf.train.AdagradDAOptimizer(
        0.1, tf.train.get_or_create_global_step()),
    "adagrad_da_l1_l2": lambda tf: tf.train.AdagradDAOptimizer(
        0.1, tf.train.get_or_create_global_step(), 0.2, l1_regularization_strength=0.05,
        l2_regularization_strength=0.1),
}


def _model(tf):
    x, y = tf.constant(X), tf.constant(Y)
    w = tf.Variable([[0.1], [-0.2]], name="w")
    b = tf.Variable([0.0], name="b")
    return w, b, lambda: tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))


def graph_run(tf, name):
    """`minimize` in a graph, run STEPS times by a Session."""
    g = tf.Graph()
    with g.as_default():
        w, b, loss_fn = _model(tf)
        loss = loss_fn()
        step = tf.train.get_or_create_global_step()
        opt = OPTIMIZERS[name](tf)
        train = opt.minimize(loss, global_step=step)
        init = tf.global_variables_initializer()
        names = sorted(opt.get_slot_names())
        slots = {n: opt.get_slot(w, n) for n in names}
        variables = [v.name for v in opt.variables()]
        globals_ = [v.name for v in tf.global_variables()]
    with tf.Session(graph=g) as sess:
        sess.run(init)
        losses = []
        for _ in range(STEPS):
            sess.run(train)
            losses.append(float(sess.run(loss)))
        out = sess.run({"w": w, "b": b, "step": step, "slots": slots})
    return {"losses": losses, "w": np.asarray(out["w"]).tolist(),
            "b": np.asarray(out["b"]).tolist(), "step": int(out["step"]),
            "slots": {k: np.asarray(v).tolist() for k, v in out["slots"].items()},
            "slot_names": names, "variables": variables, "global_variables": globals_,
            "train_op": train.name}


def eager_run(tf, name):
    """`minimize` of a callable loss, executed eagerly STEPS times."""
    w, b, loss_fn = _model(tf)
    step = tf.Variable(0, dtype=tf.int64, trainable=False)
    opt = OPTIMIZERS[name](tf)
    losses = []
    for _ in range(STEPS):
        opt.minimize(loss_fn, global_step=step)
        losses.append(float(loss_fn()))
    names = sorted(opt.get_slot_names())
    return {"losses": losses, "w": w.numpy().tolist(), "b": b.numpy().tolist(),
            "step": int(step.numpy()),
            "slots": {n: opt.get_slot(w, n).numpy().tolist() for n in names},
            "slot_names": names}


def saver_program(tf):
    """A graph trained by Adam with a `Saver` of all its variables: (graph, init op,
    train op, saver, the variables by name)."""
    g = tf.Graph()
    with g.as_default():
        w, b, loss_fn = _model(tf)
        step = tf.train.get_or_create_global_step()
        train = tf.train.AdamOptimizer(0.1).minimize(loss_fn(), global_step=step)
        init = tf.global_variables_initializer()
        saver = tf.train.Saver()
        fetch = {v.name: v for v in tf.global_variables()}
    return g, init, train, saver, fetch


SPARSE_IDS = [[0, 2, 2, 4], [1, 2], [3, 3, 5], [0, 4]]


def sparse_run(tf, name):
    """An embedding trained through `embedding_lookup` (gradients as IndexedSlices, ids
    repeated, other rows each step): the optimizers' sparse updates touch the looked-up
    rows only (a row's momentum does not move it in the steps that skip it)."""
    g = tf.Graph()
    with g.as_default():
        table = tf.Variable(np.arange(12, dtype=np.float32).reshape(6, 2) / 10.0 - 0.5,
                            name="table")
        ids = tf.placeholder(tf.int32, [None])
        rows = tf.nn.embedding_lookup(table, ids)
        loss = tf.reduce_sum(tf.square(rows - tf.constant([[1.0, -1.0]])))
        train = OPTIMIZERS[name](tf).minimize(loss)
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        for step_ids in SPARSE_IDS:
            sess.run(train, {ids: step_ids})
        return sess.run(table).tolist()


META_X = [[1.0, 2.0], [3.0, -1.0]]


def meta_graph_program(tf):
    """A graph with placeholders, variables, a training step and a Saver (that also writes
    the meta graph): (graph, init, train, saver, y) and the tensors by name."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        with tf.variable_scope("layer"):
            w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer([[0.5], [-1]]))
            b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        y = tf.identity(tf.matmul(x, w) + b, name="y")
        loss = tf.reduce_mean(tf.square(y - 1.0), name="loss")
        step = tf.train.get_or_create_global_step()
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step,
                                                                 name="train")
        tf.add_to_collection("outputs", y)
        init = tf.global_variables_initializer()
        saver = tf.train.Saver()
    return g, init, train, saver, x, y
