"""Fixtures shared by the test packages."""
import pytest

from tests.internals import onednn


@pytest.fixture(params=[True, False], ids=["onednn", "numpy"])
def path(request):
    """Runs a test on each kernel path: oneDNN's native kernels, then the NumPy ones."""
    if request.param and not onednn.enabled():
        pytest.skip("oneDNN is not available here")
    onednn.set_enabled(request.param)
    yield request.param
    onednn.set_enabled(None)
