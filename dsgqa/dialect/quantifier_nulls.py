"""Neo4j's three-valued list quantifiers: `any`, `all`, `none` and `single` with a NULL test.

The Cypher Manual: a quantifier whose predicate is NULL for an element it cannot decide
without is NULL (`any(x IN [null, 1] WHERE x > 5)` is NULL, not false). Kuzu 0.11.3 and
Ladybug 0.22.0 count such an element as false: they answer false, false, true, true for
`any(x IN [null, 1] ..)`, `all(x IN [null, 6] ..)`, `none(x IN [null, 1] ..)` and
`single(x IN [6, null] ..)` with `x > 5`, where Neo4j answers NULL four times. That is silent
where it decides a row: `MATCH p = (:Room)-->(:MeshPlace)-->(:Object) WHERE none(n IN nodes(p)
WHERE n.bbox_dim.z > 1.0)` keeps every path (rooms and mesh places have no box), where Neo4j
keeps none.

The engines only ever see tests that are never NULL: `h(p)` below is `coalesce(p, false)` (true
where p is) and `f(p)` is `coalesce((p) = false, false)` (true where p is false). Kuzu needs that
beyond the three values: inside a quantifier it counted `NOT` of a NULL comparison true
(`any(x IN [null, 6] WHERE NOT (x > 5))` was true).

Where only truth counts (a WHERE, a WHEN condition, a comprehension's filter, through AND and
OR), NULL and false filter alike, so `any` and `all` keep their form over `h(p)`;
`none(x IN l WHERE p)` holds exactly when every test is false, `all(x IN l WHERE f(p))`, and
`single` holds when exactly one test is true and none is NULL, `single(x IN l WHERE h(p)) AND
all(x IN l WHERE (p) IS NOT NULL)`. Elsewhere (a returned value, under NOT or XOR, compared, in
another quantifier's test) the value itself is spelled out:

    any  -> CASE WHEN l IS NULL THEN NULL WHEN any(x IN l WHERE h(p)) THEN true
                 WHEN any(x IN l WHERE (p) IS NULL) THEN NULL ELSE false END
    all  -> ... WHEN any(x IN l WHERE f(p)) THEN false WHEN <a NULL test> THEN NULL ELSE true
    none -> ... WHEN any(x IN l WHERE h(p)) THEN false WHEN <a NULL test> THEN NULL ELSE true
    single -> ... WHEN size([x IN l WHERE h(p)]) > 1 THEN false WHEN <a NULL test> THEN NULL
                  ELSE single(x IN l WHERE h(p))

A test that cannot be NULL (`IS NULL`, a pattern, a boolean literal, a comparison of an element
of a literal list of one kind with a literal of that kind, and connectives of them) is left
alone. Runs on the Neo4j tree before the types are annotated, so the passes after it
see ordinary quantifiers, comprehensions and CASEs.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.lambda_sources import QUANTIFIERS
from dsgqa.dialect.trees import call, clone, function_name, int_lit, tree

REWRITE = "quantifier with a NULL test->three-valued"
# Connectives through which only the truth of an operand counts (NULL and false alike).
_TRUTH_CONNECTIVES = frozenset({"and_", "or_", "paren"})
# Tests that are true or false, never NULL, whatever they read.
_NEVER_NULL = frozenset({"is_null", "is_not_null", "true_lit", "false_lit",
                         "pattern_predicate"})
_NEVER_NULL_CONNECTIVES = frozenset({"and_", "or_", "xor_", "not_", "paren"})


def _quantifier(node: Tree) -> tuple[str, Tree, Tree, Tree] | None:
    """(name, the `x IN list` binding, the list, the test) of `any(x IN list WHERE test)`."""
    if node.data != "call" or len(node.children) != 2:
        return None
    callee, arg = node.children
    if not (isinstance(callee, Tree) and callee.data == "var") or not isinstance(arg, Tree) \
            or arg.data != "where_arg":
        return None
    kind = function_name(callee).lower()
    binding, test = arg.children
    if kind not in QUANTIFIERS or not (isinstance(binding, Tree) and binding.data == "in_"):
        return None
    return kind, binding, binding.children[1], test


_LITERAL_KINDS = {"int_lit": "number", "float_lit": "number", "str_lit": "string",
                  "true_lit": "boolean", "false_lit": "boolean"}


def _kind(value: object, elements: dict[str, str]) -> str | None:
    """The kind of a value that is never NULL (a literal, or the quantifier's element over a
    literal list of one kind), else None."""
    if not isinstance(value, Tree):
        return None
    if value.data == "paren":
        return _kind(value.children[0], elements)
    if value.data == "var":
        return elements.get(function_name(value))
    return _LITERAL_KINDS.get(value.data)


def element_kinds(binding: Tree, source: Tree) -> dict[str, str]:
    """{element: kind} when the list is a literal of non-NULL values of one kind."""
    if source.data != "list_literal" or not source.children:
        return {}
    kinds = {_kind(item, {}) for item in source.children}
    if len(kinds) != 1 or None in kinds:
        return {}
    return {function_name(binding.children[0]): kinds.pop()}  # type: ignore[dict-item]


def _never_null(test: object, elements: dict[str, str]) -> bool:
    """Whether a test is true or false whatever it reads: a NULL test, a pattern, EXISTS, a
    comparison of two non-NULL values of one kind (`x > 1` over `[1, 2]`; values of two kinds
    compare to NULL), and connectives of those."""
    if not isinstance(test, Tree):
        return False
    if test.data in _NEVER_NULL:
        return True
    if test.data in ("call", "subquery") and function_name(test.children[0]).lower() == "exists":
        return True
    if test.data == "compare" and len(test.children) == 3:
        left, right = _kind(test.children[0], elements), _kind(test.children[2], elements)
        return left is not None and left == right
    return test.data in _NEVER_NULL_CONNECTIVES and \
        all(_never_null(c, elements) for c in test.children)


def _holds(test: object) -> Tree:
    """`coalesce(test, false)`: true where the test is, never NULL."""
    return call("coalesce", clone(test), tree("false_lit"))


def _quantified(kind: str, binding: Tree, test: object) -> Tree:
    return call(kind, tree("where_arg", clone(binding), test))


def _three_valued(kind: str, binding: Tree, source: Tree, test: Tree) -> Tree:
    """The quantifier's Neo4j value, NULL where a NULL test leaves it open."""
    null_test = _quantified("any", binding, tree("is_null", tree("paren", clone(test))))
    if kind == "single":
        many = tree("compare", call("size", tree("list_comp", clone(binding), _holds(test))),
                    Token("COMP_OP", ">"), int_lit(1))
        decided = [tree("case_when", many, tree("false_lit"))]
        last = _quantified("single", binding, _holds(test))
    else:
        decisive = _false(test) if kind == "all" else _holds(test)
        outcome = tree("true_lit") if kind == "any" else tree("false_lit")
        decided = [tree("case_when", _quantified("any", binding, decisive), outcome)]
        last = tree("false_lit") if kind == "any" else tree("true_lit")
    whens = [] if source.data == "list_literal" else \
        [tree("case_when", tree("is_null", clone(source)), tree("null_lit"))]
    return tree("case_expr", *whens, *decided,
                tree("case_when", null_test, tree("null_lit")), last)


def _false(test: object) -> Tree:
    """`coalesce((test) = false, false)`: true where the test is false, never NULL."""
    return _holds(tree("compare", tree("paren", clone(test)), Token("EQ", "="),
                       tree("false_lit")))


def _in_truth(kind: str, binding: Tree, test: Tree) -> Tree:
    """A form whose truth is the quantifier's (its NULL and false may differ)."""
    if kind == "none":
        return _quantified("all", binding, _false(test))
    if kind == "single":
        return tree("and_", _quantified("single", binding, _holds(test)),
                    _quantified("all", binding, tree("is_not_null", tree("paren", clone(test)))))
    return _quantified(kind, binding, _holds(test))


class _Rewriter:
    def __init__(self) -> None:
        self.changed = False

    def visit(self, node: object, truth: bool) -> object:
        """`node` rewritten; `truth`: only whether it is true counts where it stands."""
        if not isinstance(node, Tree):
            return node
        found = _quantifier(node)
        if found is not None:
            kind, binding, source, test = found
            binding.children[1] = self.visit(source, False)
            keeps_truth = truth and kind in ("any", "all")
            test = self.visit(test, keeps_truth)
            if _never_null(test, element_kinds(binding, binding.children[1])):
                node.children[1].children[1] = test
                return node
            self.changed = True
            return _in_truth(kind, binding, test) if truth else \
                _three_valued(kind, binding, binding.children[1], test)
        for i, child in enumerate(node.children):
            node.children[i] = self.visit(child, self._truth_of(node, i, truth))
        return node

    @staticmethod
    def _truth_of(parent: Tree, index: int, truth: bool) -> bool:
        if parent.data == "where":
            return True
        if parent.data in _TRUTH_CONNECTIVES:
            return truth
        if parent.data == "case_when":   # a searched CASE's condition (simple ones are gone)
            return index == 0
        if parent.data == "list_comp":   # `[x IN l WHERE test ...]`
            return index == 1
        return False


def keep_quantifier_nulls(root: Tree) -> bool:
    """Rewrite every quantifier under `root` whose test may be NULL; True when one changed."""
    rewriter = _Rewriter()
    for i, child in enumerate(root.children):
        root.children[i] = rewriter.visit(child, False)
    return rewriter.changed
