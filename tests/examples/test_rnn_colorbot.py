"""examples/rnn_colorbot.py in its CI-sized form."""
import sys

import numpy as np

from tests.examples import load


def test_colorbot_training_lowers_the_loss(capsys):
    program = load("examples/rnn_colorbot.py")
    result = program.main(["--epochs", "4", "--rnn-cell-sizes", "64", "32",
                           "--log-interval", "5"])
    out = capsys.readouterr().out
    history = result["history"]
    assert len(history) == 4
    assert history[-1]["train_loss"] < history[0]["train_loss"]
    assert "Step #5\tLoss:" in out and "eval/loss:" in out
    assert out.count("(true rgb(") == 5


def test_colors_come_from_a_built_in_list_without_matplotlib_or_pillow(monkeypatch):
    program = load("examples/rnn_colorbot.py")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    monkeypatch.setitem(sys.modules, "PIL", None)
    colors, source = program.load_colors()
    assert source == "a built-in list of colors"
    assert colors["navy"] == (0, 0, 128) and len(colors) >= 40


def test_names_are_encoded_as_byte_codes_with_zero_padding():
    program = load("examples/rnn_colorbot.py")
    codes = program.encode(["ab", "c"], 3)
    np.testing.assert_array_equal(codes, [[98, 99, 0], [100, 0, 0]])
    model = program.RNNColorbot((8, 4))
    rgb = model(codes).numpy()
    assert rgb.shape == (2, 3) and ((rgb >= 0) & (rgb <= 1)).all()
    # the mask skips the padding: more of it changes nothing
    np.testing.assert_allclose(model(program.encode(["ab", "c"], 7)).numpy(), rgb, rtol=1e-5)
