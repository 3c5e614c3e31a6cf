"""examples/rnn_ptb.py in its CI-sized form."""
import numpy as np

from tests.examples import load

SMALL = ["--embedding-dim", "32", "--hidden-dim", "32", "--num-layers", "1", "--seq-len", "20",
         "--log-interval", "10"]


def test_language_model_on_python_docs_learns(capsys):
    program = load("examples/rnn_ptb.py")
    history = program.main(["--vocab-size", "500", "--steps", "40", *SMALL])
    out = capsys.readouterr().out
    assert out.startswith("Python's documentation (pydoc_data): ")
    assert "vocabulary of 500" in out and "batch 10: training loss" in out
    losses = history[0]["train_losses"]
    assert len(losses) == 40
    assert np.mean(losses[-10:]) < np.mean(losses[:10]) - 0.5
    # a uniform guess over the vocabulary has perplexity 500
    assert history[0]["valid_perplexity"] < 250
    assert "validation perplexity" in out


def test_penn_treebank_files_are_read_from_a_path(tmp_path, capsys):
    program = load("examples/rnn_ptb.py")
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(20)]

    def write(name, lines):
        # each line counts up from a random word: a pattern the model can learn
        (tmp_path / name).write_text("".join(
            " " + " ".join(words[(start + k) % 20] for k in range(8)) + " \n"
            for start in rng.integers(0, 20, lines)))

    write("ptb.train.txt", 400)
    write("ptb.valid.txt", 40)
    train_ids, valid_ids, vocabulary, name = program.load_corpus(str(tmp_path), 10000)
    assert name == "Penn Treebank" and len(vocabulary) == 22  # 20 words, <eos>, <unk>
    assert len(train_ids) == 400 * 9 and vocabulary[train_ids[8]] == "<eos>"
    history = program.main(["--data-path", str(tmp_path), "--batch-size", "4",
                            *SMALL])
    assert capsys.readouterr().out.startswith("Penn Treebank: 3600 training and 360 validation")
    assert history[0]["valid_perplexity"] < 10  # of 22 words
