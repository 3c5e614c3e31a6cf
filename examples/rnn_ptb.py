"""A word-level LSTM language model, scored by perplexity.

The eager guide's RNN language model (its ``rnn_ptb`` program): word
embeddings, stacked LSTM layers with dropout, and a dense layer giving the
next word's logits. Training runs over the text cut into `--batch-size`
parallel streams, `--seq-len` words at a time, with plain SGD on gradients
clipped by their global norm; it prints the loss and step time every few
batches, and the validation set's perplexity (e to the mean cross-entropy per
word) after each epoch.

The text is the Penn Treebank (``ptb.train.txt`` and ``ptb.valid.txt`` in
the directory `--data-path` names) when given, else the English prose of
Python's own documentation (``pydoc_data.topics``, the text ``help()``
shows, shipped with every Python), lower-cased, with digits as ``N``, words
outside the `--vocab-size` most common as ``<unk>`` and ``<eos>`` ending each
line, as in the Treebank's files.

    python examples/rnn_ptb.py                            # 1 epoch
    python examples/rnn_ptb.py --data-path ~/simple-examples/data --epochs 4
"""
import argparse
import collections
import os
import re
import time

import numpy as np

import eagerflow as tf

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+(?:\.\d+)?|[^\w\s]")


def _python_docs_lines():
    from pydoc_data.topics import topics
    for key in sorted(topics):
        for line in topics[key].lower().splitlines():
            words = ["N" if w[0].isdigit() else w for w in _WORD.findall(line)]
            if words:
                yield words


def _ptb_lines(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if words:
                yield words


def load_corpus(data_path=None, vocab_size=2000, valid_fraction=0.1):
    """``(train_ids, valid_ids, vocabulary, name)``: the two texts as arrays of word ids."""
    if data_path:
        train_lines = list(_ptb_lines(os.path.join(data_path, "ptb.train.txt")))
        valid_lines = list(_ptb_lines(os.path.join(data_path, "ptb.valid.txt")))
        name = "Penn Treebank"
    else:
        lines = list(_python_docs_lines())
        split = int(len(lines) * (1 - valid_fraction))
        train_lines, valid_lines = lines[:split], lines[split:]
        name = "Python's documentation (pydoc_data)"
    counts = collections.Counter(w for line in train_lines for w in line)
    counts.pop("<unk>", None)
    vocabulary = ["<eos>", "<unk>"] + [w for w, _ in counts.most_common(vocab_size - 2)]
    ids = {w: i for i, w in enumerate(vocabulary)}

    def to_ids(lines):
        return np.array([ids.get(w, 1) for line in lines for w in (*line, "<eos>")], "int32")

    return to_ids(train_lines), to_ids(valid_lines), vocabulary, name


def batchify(ids, batch_size):
    """`ids` cut into `batch_size` streams: an array ``(batch_size, length)``."""
    length = len(ids) // batch_size
    return ids[:batch_size * length].reshape(batch_size, length)


class PTBModel(tf.keras.Model):
    """Embedding, `num_layers` LSTMs (dropout after each), and the next word's logits."""

    def __init__(self, vocab_size, embedding_dim, hidden_dim, num_layers, dropout_ratio):
        super().__init__(name="ptb_model")
        self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
        self.lstms = [tf.keras.layers.LSTM(hidden_dim, return_sequences=True)
                      for _ in range(num_layers)]
        self.dropout = tf.keras.layers.Dropout(dropout_ratio)
        self.linear = tf.keras.layers.Dense(vocab_size)

    def call(self, word_ids, training=False):
        x = self.dropout(self.embedding(word_ids), training=training)
        for lstm in self.lstms:
            x = self.dropout(lstm(x, training=training), training=training)
        return self.linear(x)


def loss_fn(model, inputs, targets, training):
    logits = model(inputs, training=training)
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets,
                                                                         logits=logits))


def windows(data, seq_len):
    """``(inputs, targets)`` pairs of `seq_len` words of every stream, targets one word on."""
    for i in range(0, data.shape[1] - 1, seq_len):
        n = min(seq_len, data.shape[1] - 1 - i)
        yield data[:, i:i + n], data[:, i + 1:i + 1 + n]


def evaluate(model, data, seq_len):
    """The perplexity of `data`: e to the mean cross-entropy per word."""
    step = tf.function(lambda x, y: loss_fn(model, x, y, training=False))
    total, words = 0.0, 0
    for inputs, targets in windows(data, seq_len):
        total += float(step(inputs, targets)) * targets.size
        words += targets.size
    return float(np.exp(total / words))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-path", default=None,
                        help="a directory with ptb.train.txt and ptb.valid.txt")
    parser.add_argument("--vocab-size", type=int, default=2000,
                        help="words kept from Python's documentation (the Treebank has 10000)")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--steps", type=int, default=None,
                        help="at most this many training batches per epoch")
    parser.add_argument("--batch-size", type=int, default=20)
    parser.add_argument("--seq-len", type=int, default=35)
    parser.add_argument("--embedding-dim", type=int, default=200)
    parser.add_argument("--hidden-dim", type=int, default=200)
    parser.add_argument("--num-layers", type=int, default=2)
    parser.add_argument("--dropout", type=float, default=0.2)
    parser.add_argument("--learning-rate", type=float, default=20.0)
    parser.add_argument("--clip-ratio", type=float, default=0.25)
    parser.add_argument("--log-interval", type=int, default=20)
    args = parser.parse_args(argv)

    tf.keras.utils.set_random_seed(0)
    train_ids, valid_ids, vocabulary, name = load_corpus(args.data_path, args.vocab_size)
    print(f"{name}: {len(train_ids)} training and {len(valid_ids)} validation words, "
          f"vocabulary of {len(vocabulary)}")
    train_data = batchify(train_ids, args.batch_size)
    valid_data = batchify(valid_ids, 10)

    model = PTBModel(len(vocabulary), args.embedding_dim, args.hidden_dim, args.num_layers,
                     args.dropout)
    learning_rate = tf.Variable(args.learning_rate, trainable=False)
    optimizer = tf.keras.optimizers.SGD(learning_rate)

    @tf.function
    def train_step(inputs, targets):
        with tf.GradientTape() as tape:
            loss = loss_fn(model, inputs, targets, training=True)
        grads = tape.gradient(loss, model.trainable_variables)
        grads, _ = tf.clip_by_global_norm(grads, args.clip_ratio)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    history, best = [], None
    for epoch in range(1, args.epochs + 1):
        start, losses = time.perf_counter(), []
        for batch, (inputs, targets) in enumerate(windows(train_data, args.seq_len)):
            if args.steps is not None and batch >= args.steps:
                break
            losses.append(float(train_step(inputs, targets)))
            if (batch + 1) % args.log_interval == 0:
                recent = losses[-args.log_interval:]
                print(f"batch {batch + 1}: training loss {np.mean(recent):.2f}, "
                      f"perplexity {np.exp(np.mean(recent)):.2f}, avg step time "
                      f"{(time.perf_counter() - start) / len(losses) * 1000:.0f} ms")
        perplexity = evaluate(model, valid_data, args.seq_len)
        print(f"epoch {epoch}: {time.perf_counter() - start:.1f}s, training perplexity "
              f"{np.exp(np.mean(losses)):.2f}, validation perplexity {perplexity:.2f}")
        history.append({"train_losses": losses, "valid_perplexity": perplexity})
        if best is not None and perplexity > best:
            learning_rate.assign(learning_rate / 4.0)  # anneal once validation stops improving
        best = perplexity if best is None else min(best, perplexity)
    return history


if __name__ == "__main__":
    main()
