"""Names bound and read, and liveness, as the control-flow converter relies on them."""
import ast

from tests.internals import analysis, parser, templates


def _body(source):
    return ast.parse(source).body


def test_stores_stay_in_their_scope_except_nonlocal():
    body = _body("a = 1\nb += 2\nfor c in x: pass\ndef f():\n    nonlocal d\n    e = 1\n"
                 "import os.path as p\n[g for g in y]\n(h := 3)")
    assert analysis.stores(body) == {"a", "b", "c", "f", "d", "p", "h"}


def test_loads_include_nested_scopes_and_augmented_targets():
    body = _body("b += 1\nf = lambda: z\nprint(w)")
    assert analysis.loads(body) == {"b", "z", "print", "w"}


def test_a_temporary_of_one_branch_is_not_live_after():
    body = _body("if c:\n    t = 1\n    y = t\nelse:\n    y = 2\nuse(y)")
    analysis.annotate_liveness(body)
    assert "t" not in body[0].ag_live_out and "y" in body[0].ag_live_out


def test_loop_liveness_follows_the_back_edge():
    body = _body("while i < n:\n    tmp = i * 2\n    total = total + tmp\n    i = i + 1")
    analysis.annotate_liveness(body)
    loop = body[0]
    assert {"i", "n", "total"} <= loop.ag_live_in and "tmp" not in loop.ag_live_in


def test_a_value_reassigned_before_use_is_dead():
    body = _body("if c:\n    y = 1\ny = 2\nuse(y)")
    analysis.annotate_liveness(body)
    assert "y" not in body[0].ag_live_out


def test_templates_fill_names_expressions_and_statement_lists():
    statements = templates.replace("def fn():\n    nonlocal names\n    body\nx = value",
                                   fn="branch", names=["a", "b"], body=_body("a = b"),
                                   value=ast.Constant(3), x="result")
    origin = _body("pass")[0]
    templates.locate(statements, origin)
    assert all(n.lineno == 1 for s in statements for n in ast.walk(s) if hasattr(n, "lineno"))
    assert ast.unparse(ast.Module(statements, [])) == (
        "def branch():\n    nonlocal a, b\n    a = b\nresult = 3")
    empty = templates.locate(templates.replace("def fn():\n    nonlocal names\n    pass",
                                               names=[]), origin)
    assert ast.unparse(empty[0]) == "def fn():\n    pass"


def test_parsed_functions_keep_their_file_positions():
    def sample(x):
        return x + 1  # a line of this file

    node = parser.parse_entity(sample)
    assert node.name == "sample" and node.lineno == sample.__code__.co_firstlineno
    assert node.body[0].lineno == sample.__code__.co_firstlineno + 1


def test_lambdas_are_found_on_their_line():
    pick = [lambda a: a + 1, lambda a, b: a * b]  # two lambdas, told apart by parameters
    node = parser.parse_entity(pick[1])
    assert ast.unparse(node) == "lambda a, b: a * b"
