"""The runtime of converted code: every name it reaches through ``ag__``."""
from eagerflow._src.autograph.operators.control_flow import for_stmt, if_stmt, while_stmt
from eagerflow._src.autograph.operators.data_structures import list_append, list_pop
from eagerflow._src.autograph.operators.exceptions import assert_stmt
from eagerflow._src.autograph.operators.logical import (and_, compare_chain, if_exp, not_,
                                                         or_)
from eagerflow._src.autograph.operators.variables import (
    Undefined, UndefinedReturnValue, ld, ldu, retval, set_composite)

__all__ = ["Undefined", "UndefinedReturnValue", "and_", "assert_stmt", "compare_chain",
           "for_stmt", "if_exp", "if_stmt", "ld", "ldu", "list_append", "list_pop", "not_",
           "or_", "retval", "set_composite", "while_stmt"]
