"""The allocator tuning that keeps freed host memory for the next step."""
import sys

import pytest

from tests.internals import host_memory


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_thresholds_are_set_on_glibc():
    assert host_memory.keep_freed_memory() is True


def test_opt_out(monkeypatch):
    monkeypatch.setenv("EAGERFLOW_RETURN_FREED_MEMORY", "1")
    assert host_memory.keep_freed_memory() is False
