"""List statements that a loop over tensors can carry: ``l.append(x)`` and ``l.pop()``.

They become assignments (``l = ag__.list_append(l, x)``), so the list is a
variable the loop modifies; at run time a Python list is still changed in
place.  Only lists local to the function are rewritten: an assignment would
make a global or closure list local.

>>> fn = ast.parse("def f(l, x):\\n    l.append(x)\\n    y = l.pop()").body[0]
>>> print(ast.unparse(transform(fn)))
def f(l, x):
    l = ag__.list_append(l, x)
    l, y = ag__.list_pop(l, None)
"""
import ast

from eagerflow._src.autograph.pyct import analysis, templates


def _method_call(node, method, names):
    """(list name, call) when `node` is ``name.method(...)`` for a name of `names`."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == method and isinstance(node.func.value, ast.Name)
            and not node.keywords and node.func.value.id in names):
        return node.func.value.id, node
    return None


class _Lists(analysis.OwnScopeTransformer):
    def __init__(self, names):
        self.names = names

    def visit_Expr(self, node):
        append = _method_call(node.value, "append", self.names)
        if append and len(append[1].args) == 1:
            name, call = append
            return self._located("target = ag__.list_append(target, element)", node,
                                 target=name, element=call.args[0])
        pop = _method_call(node.value, "pop", self.names)
        if pop and len(pop[1].args) <= 1:
            return self._pop(node, pop, None)
        return self.generic_visit(node)

    def visit_Assign(self, node):
        pop = _method_call(node.value, "pop", self.names)
        if pop and len(pop[1].args) <= 1 and len(node.targets) == 1:
            return self._pop(node, pop, node.targets[0])
        return self.generic_visit(node)

    def _pop(self, node, pop, result):
        name, call = pop
        index = call.args[0] if call.args else ast.Constant(None)
        if result is None:
            return self._located("target, _ = ag__.list_pop(target, index)", node,
                                 target=name, index=index)
        return self._located("target, result = ag__.list_pop(target, index)", node,
                             target=name, index=index, result=result)

    @staticmethod
    def _located(template, node, **replacements):
        return templates.locate(templates.replace(template, **replacements), node)



def transform(function):
    """Rewrites the list statements of `function`'s own local lists."""
    local = (analysis.parameters(function) | analysis.stores(function.body)) - \
        analysis.declared_names(function)
    lists = _Lists(local)
    function.body = templates.visit_block(lists, function.body)
    return function
