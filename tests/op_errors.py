"""An eager op's error text without what TensorFlow adds around it, for tests of the text.

TF writes ``{{function_node __wrapped__<kernel>_device_<device>}} `` before the kernel's
message and `` name: <name>`` after its ``[Op:<op>]`` tag (see the fidelity program
``eager_error_messages``, which checks the whole text); `op_text` leaves the message and
the tag, and `NAME_END` is a pattern for the end of the text after the tag.
"""
import re

_FORM = re.compile(r"(?:\{\{function_node [^}]*\}\} )?(.*?\[Op:[^\]]*\])(?: name: [^\n]*)?",
                   re.S)
NAME_END = r"(?: name: [^\n]*)?$"


def op_text(error):
    """`error`'s text (an exception or a string) without TF's prefix and name ending."""
    text = str(error)
    found = _FORM.fullmatch(text)
    return text if found is None else found.group(1)


def prefix(kernel):
    """TF's prefix of the text of an error of eager op kernel `kernel` (``GatherV2``,
    ``__MklMatMul`` for oneDNN's ``_MklMatMul``, ``ConcatV2_N_2`` with its inputs' count)."""
    device = "/job:localhost/replica:0/task:0/device:CPU:0"
    return f"{{{{function_node __wrapped__{kernel}_device_{device}}}}} "
