"""examples/linear_regression.py as it runs (200 full-batch steps on 354 patients)."""
import re

from tests.examples import load


def test_linear_regression_fits_the_diabetes_data(capsys):
    load("examples/linear_regression.py").main()
    out = capsys.readouterr().out
    losses = [float(m) for m in re.findall(r"train mse (\d+\.\d+)", out)]
    assert len(losses) == 9 and losses[-1] < losses[0] - 0.3  # standardized: starts near 1
    assert "train_step traced 1 time(s)" in out
    r2 = float(re.search(r"test R\^2 (-?\d+\.\d+)", out).group(1))
    assert r2 > 0.2  # a constant prediction scores 0
