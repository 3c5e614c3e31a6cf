"""examples/digits_cnn.py, the README's first command, as it runs."""
import re

from tests.examples import load


def test_digits_cnn_trains_to_a_high_held_out_accuracy(capsys):
    program = load("examples/digits_cnn.py")
    program.main()
    out = capsys.readouterr().out
    assert 'Model: "digits_cnn"' in out and "Total params: 19466 (76.04 KB)" in out
    found = re.search(r"test loss ([0-9.]+), test accuracy ([0-9.]+) \(450 held-out digits", out)
    assert found, out[-500:]
    loss, accuracy = float(found.group(1)), float(found.group(2))
    assert accuracy > 0.85 and loss < 0.5  # chance is 0.1; it reaches about 0.96
