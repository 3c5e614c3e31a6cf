"""`function`: calling overhead and a traced MLP training step, beside NumPy, TF and PyTorch.

    python bench/function_step.py [--reps 5]

* ``function_call``: ``function(lambda x: x + 1.0)`` called on a scalar tensor
  (NumPy's floor: the add alone);
* ``nested_call``: a function calling another three times (call ops in its graph,
  inlined when compiled), on a scalar tensor;
* ``mlp_step_function`` / ``mlp_step_eager``: a 784-256-128-10 MLP on bare
  variables, batch 128, SGD on sparse softmax cross-entropy, the whole step
  traced (or run eagerly); NumPy's floor is the same step derived by hand,
  PyTorch's its eager autograd step.

Then eagerflow's traced step is timed with each graph pass switched off in
turn (``tf.config.optimizer``), and with all off, as ratios to all on.

TensorFlow runs in the interpreter named by EF_BENCH_TF_PYTHON (see harness.py).
"""
import sys

import numpy as np

import harness

CALLS = 2000
STEPS = 20
SHAPES = [(784, 256), (256, 128), (128, 10)]


def function_call(lib, make):
    x = make(np.array(1.0, np.float32))
    if lib is np:
        f = lambda v: v + 1.0  # noqa: E731
    elif hasattr(lib, "function"):
        f = lib.function(lambda v: v + 1.0)
    else:
        return None

    def run():
        for _ in range(CALLS):
            f(x)
    return run, CALLS


def nested_call(lib, make):
    x = make(np.array(1.0, np.float32))
    if lib is np:
        inner = lambda v: v * 2.0 + 1.0  # noqa: E731
        outer = lambda v: inner(inner(v)) + inner(v)  # noqa: E731
    elif hasattr(lib, "function"):
        inner = lib.function(lambda v: v * 2.0 + 1.0)
        outer = lib.function(lambda v: inner(inner(v)) + inner(v))
    else:
        return None

    def run():
        for _ in range(CALLS):
            outer(x)
    return run, CALLS


def _data_and_weights():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(128, 784)).astype(np.float32)
    y = rng.integers(0, 10, 128).astype(np.int32)
    ws = [rng.normal(0, 0.05, s).astype(np.float32) for s in SHAPES]
    bs = [np.zeros(s[1], np.float32) for s in SHAPES]
    return x, y, ws, bs


def _numpy_step():
    """The MLP step derived by hand: the floor no framework can beat on NumPy."""
    x, y, ws, bs = _data_and_weights()
    onehot = np.eye(10, dtype=np.float32)[y]

    def step():
        hs = [x]
        for i, (w, b) in enumerate(zip(ws, bs)):
            h = hs[-1] @ w + b
            hs.append(np.maximum(h, 0) if i < 2 else h)
        logits = hs[-1]
        e = np.exp(logits - logits.max(1, keepdims=True))
        d = (e / e.sum(1, keepdims=True) - onehot) / len(x)
        for i in (2, 1, 0):
            dw, db = hs[i].T @ d, d.sum(0)
            if i:
                d = (d @ ws[i].T) * (hs[i] > 0)
            ws[i] -= 0.1 * dw
            bs[i] -= 0.1 * db
    return step


def _torch_step(torch):
    x, y, ws, bs = _data_and_weights()
    xt, yt = torch.from_numpy(x), torch.from_numpy(y).long()
    params = [torch.tensor(a, requires_grad=True) for a in ws + bs]

    def step():
        h = xt
        for i in range(3):
            h = h @ params[i] + params[3 + i]
            if i < 2:
                h = torch.relu(h)
        loss = torch.nn.functional.cross_entropy(h, yt)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p -= 0.1 * g
    return step


def _framework_step(tf, traced):
    x, y, ws, bs = _data_and_weights()
    xt, yt = tf.constant(x), tf.constant(y)
    params = [tf.Variable(a) for a in ws + bs]

    def step(xb, yb):
        with tf.GradientTape() as tape:
            h = xb
            for i in range(3):
                h = tf.matmul(h, params[i]) + params[3 + i]
                if i < 2:
                    h = tf.nn.relu(h)
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=yb, logits=h))
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(0.1 * g)
        return loss
    step = tf.function(step) if traced else step
    return lambda: step(xt, yt)


def _mlp(traced):
    def build(lib, make):
        name = getattr(lib, "__name__", "")
        if lib is np:
            step = _numpy_step()
        elif name == "torch":
            step = _torch_step(lib)
        else:
            step = _framework_step(lib, traced)

        def run():
            for _ in range(STEPS):
                step()
        return run, STEPS
    return build


CASES = {"function_call": function_call, "nested_call": nested_call,
         "mlp_step_function": _mlp(True),
         "mlp_step_eager": _mlp(False)}

# Each graph pass's switch; "all passes" switches every one off at once.
PASS_SWITCHES = {"constant_folding": {"constant_folding": False},
                 "arithmetic (CSE, simplify)": {"arithmetic_optimization": False},
                 "dead code": {"dependency_optimization": False},
                 "remapping (fusion)": {"remapping": False},
                 "memory (buffer reuse)": {"memory_optimization": False},
                 "all passes": {"disable_meta_optimizer": True}}


def pass_ablation(rounds=7):
    """Prints the traced MLP step's time with each pass off, relative to all passes on.

    The steps are compiled first, then timed in interleaved rounds (the
    fastest round counts), so that load on the machine hits all alike.
    """
    import eagerflow as tf

    steps = {}
    for label, options in {"all on": {}, **PASS_SWITCHES}.items():
        tf.config.optimizer.set_experimental_options(options)
        try:
            steps[label], n = _mlp(True)(tf, tf.constant)
            steps[label]()  # traced and compiled under `options`
        finally:
            tf.config.optimizer.set_experimental_options(
                {name: None for opts in PASS_SWITCHES.values() for name in opts})
    best = dict.fromkeys(steps, float("inf"))
    for _ in range(rounds):
        for label, run in steps.items():
            best[label] = min(best[label], harness.timeit(run, 1) / n)
    base = best.pop("all on")
    print(f"mlp_step_function, eagerflow, one pass off (all on: {base * 1e6:.2f} us/step):")
    for label, t in best.items():
        print(f"  without {label:27s} {t * 1e6:10.2f} us/step  {t / base:6.2f}x all on")


if __name__ == "__main__":
    status = harness.main(CASES, __file__)
    if "--tf-only" not in sys.argv:
        pass_ablation()
    sys.exit(status)
