"""RNN Colorbot: an LSTM that reads a color's name and says its RGB values.

The eager guide's character-level regression program. Each name is a
sequence of characters (one-hot over 256 byte values); two stacked LSTM
layers read it (a mask skips the padding after the name's end), with dropout
between them while training, and a dense layer maps the last output to red,
green and blue in [0, 1]. The loss is the mean squared error; a custom loop
over `tf.data` batches trains it with Adam, printing the training loss every
few steps and the test set's loss after each epoch, then the colors it gives
some names.

The colors are matplotlib's ~950 XKCD color names when matplotlib is
installed, else the 148 CSS color names Pillow knows, else a short list
written here.

    python examples/rnn_colorbot.py                 # 20 epochs
    python examples/rnn_colorbot.py --epochs 2 --batch-size 32
"""
import argparse
import time

import numpy as np

import eagerflow as tf

# used when neither matplotlib nor Pillow is installed
_FALLBACK_COLORS = {
    "black": (0, 0, 0), "white": (255, 255, 255), "red": (255, 0, 0), "green": (0, 128, 0),
    "blue": (0, 0, 255), "yellow": (255, 255, 0), "cyan": (0, 255, 255),
    "magenta": (255, 0, 255), "gray": (128, 128, 128), "silver": (192, 192, 192),
    "maroon": (128, 0, 0), "olive": (128, 128, 0), "lime": (0, 255, 0),
    "navy": (0, 0, 128), "purple": (128, 0, 128), "teal": (0, 128, 128),
    "orange": (255, 165, 0), "pink": (255, 192, 203), "brown": (165, 42, 42),
    "gold": (255, 215, 0), "light blue": (173, 216, 230), "dark blue": (0, 0, 139),
    "light green": (144, 238, 144), "dark green": (0, 100, 0), "dark red": (139, 0, 0),
    "light gray": (211, 211, 211), "dark gray": (169, 169, 169), "violet": (238, 130, 238),
    "indigo": (75, 0, 130), "beige": (245, 245, 220), "salmon": (250, 128, 114),
    "khaki": (240, 230, 140), "coral": (255, 127, 80), "turquoise": (64, 224, 208),
    "lavender": (230, 230, 250), "tan": (210, 180, 140), "crimson": (220, 20, 60),
    "chocolate": (210, 105, 30), "orchid": (218, 112, 214), "plum": (221, 160, 221),
}


def _hex_to_rgb(value):
    value = value.lstrip("#")
    return tuple(int(value[i:i + 2], 16) for i in (0, 2, 4))


def load_colors():
    """``({name: (r, g, b) in 0-255}, source)`` from the best source installed."""
    try:
        from matplotlib import colors
        return ({name[len("xkcd:"):]: _hex_to_rgb(value)
                 for name, value in colors.XKCD_COLORS.items()}, "matplotlib's XKCD colors")
    except ImportError:
        pass
    try:
        from PIL import ImageColor
        return ({name: _hex_to_rgb(value) for name, value in ImageColor.colormap.items()
                 if value.startswith("#")}, "Pillow's CSS colors")
    except ImportError:
        return dict(_FALLBACK_COLORS), "a built-in list of colors"


def encode(names, max_length):
    """Byte codes + 1 of each name, padded with 0 to `max_length` (0 is the mask's padding)."""
    codes = np.zeros((len(names), max_length), "int32")
    for i, name in enumerate(names):
        data = name.encode("utf-8")[:max_length]
        codes[i, :len(data)] = np.frombuffer(data, np.uint8).astype("int32") + 1
    return codes


class RNNColorbot(tf.keras.Model):
    """Stacked LSTMs over one-hot characters, then RGB values from the last output."""

    def __init__(self, rnn_cell_sizes=(256, 128), label_dimension=3, keep_prob=0.5):
        super().__init__(name="rnn_colorbot")
        self.lstms = [tf.keras.layers.LSTM(size, return_sequences=i < len(rnn_cell_sizes) - 1)
                      for i, size in enumerate(rnn_cell_sizes)]
        self.dropout = tf.keras.layers.Dropout(1.0 - keep_prob)
        self.head = tf.keras.layers.Dense(label_dimension, activation="sigmoid")

    def call(self, codes, training=False):
        mask = tf.not_equal(codes, 0)
        x = tf.one_hot(codes - 1, 256)  # the padding (-1) is all zeros
        for lstm in self.lstms:
            x = lstm(x, mask=mask, training=training)
            x = self.dropout(x, training=training)
        return self.head(x)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--steps", type=int, default=None,
                        help="at most this many training steps per epoch")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--learning-rate", type=float, default=0.01)
    parser.add_argument("--rnn-cell-sizes", type=int, nargs="+", default=[256, 128])
    parser.add_argument("--log-interval", type=int, default=10)
    args = parser.parse_args(argv)

    tf.keras.utils.set_random_seed(0)
    colors, source = load_colors()
    names = sorted(colors)
    order = np.random.default_rng(0).permutation(len(names))
    split = int(len(names) * 0.8)
    max_length = max(len(name.encode("utf-8")) for name in names)
    codes = encode(names, max_length)
    rgb = np.array([colors[name] for name in names], "float32") / 255.0
    train, test = order[:split], order[split:]
    print(f"{source}: {len(train)} training and {len(test)} test colors, names of up to "
          f"{max_length} characters")
    train_ds = (tf.data.Dataset.from_tensor_slices((codes[train], rgb[train]))
                .shuffle(len(train), seed=0).batch(args.batch_size))
    if args.steps:
        train_ds = train_ds.take(args.steps)
    test_ds = tf.data.Dataset.from_tensor_slices((codes[test], rgb[test])).batch(256)

    model = RNNColorbot(args.rnn_cell_sizes)
    optimizer = tf.keras.optimizers.Adam(args.learning_rate)
    step_counter = tf.Variable(0, dtype=tf.int64, trainable=False)

    @tf.function
    def train_step(batch_codes, labels):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(batch_codes, training=True) - labels))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        step_counter.assign_add(1)
        return loss

    @tf.function
    def test_loss(batch_codes, labels):
        return tf.reduce_sum(tf.square(model(batch_codes, training=False) - labels))

    def evaluate():
        total = sum(float(test_loss(c, l)) for c, l in test_ds)
        return total / (len(test) * 3)

    # a model that always answers the training set's mean color: the loss to beat
    baseline = float(np.mean((rgb[test] - rgb[train].mean(axis=0)) ** 2))
    print(f"eval/loss of the mean color: {baseline:.6f}")
    history = []
    for epoch in range(1, args.epochs + 1):
        start, losses = time.perf_counter(), []
        for batch_codes, labels in train_ds:
            losses.append(float(train_step(batch_codes, labels)))
            if int(step_counter) % args.log_interval == 0:
                print(f"Step #{int(step_counter)}\tLoss: {losses[-1]:.6f}")
        history.append({"train_loss": float(np.mean(losses)), "eval_loss": evaluate()})
        print(f"Epoch {epoch} ({time.perf_counter() - start:.2f}s)\t"
              f"train/loss: {history[-1]['train_loss']:.6f}\t"
              f"eval/loss: {history[-1]['eval_loss']:.6f}")

    samples = [names[i] for i in test[:5]]
    for name, (r, g, b) in zip(samples, model(encode(samples, max_length)).numpy()):
        true = colors[name]
        print(f"{name:>20s}: rgb({int(r * 255)}, {int(g * 255)}, {int(b * 255)})  "
              f"(true rgb{true})")
    return {"history": history, "baseline": baseline}


if __name__ == "__main__":
    main()
