"""What a converted ``assert`` calls.

A Python condition is checked at once, raising AssertionError; a graph
tensor becomes an ``Assert`` op that raises InvalidArgumentError when the
graph runs.

>>> assert_stmt(True, lambda: "never")
"""
from eagerflow._src.autograph.operators.control_flow import is_graph_tensor
from eagerflow._src.ops import debugging_ops


def assert_stmt(expression1, expression2):
    """``assert expression1, expression2()``."""
    if is_graph_tensor(expression1):
        message = expression2()
        debugging_ops.Assert(expression1, [] if message is None else [message])
        return
    if not expression1:
        message = expression2()
        raise AssertionError(*(() if message is None else (message,)))
