"""What a rewritten tree holds, read in one walk.

Most passes that run on the translation (`Rewriter.run`, after the main rewrite) fix one engine
bug around one construct: a COUNT subquery, a CASE, a lambda over a list, a UNION. Each walks
the whole tree to find its construct, and most queries hold none of them, so on a typical
query those walks were a tenth of the translation time. One walk records which rules and
which functions the tree holds, and a pass whose construct is absent is not run; the facts
are read again after any pass that changed the tree (it may have written a construct a later
pass looks for).

Every gate only asks whether something is present at all, anywhere in the tree: it never
decides how a pass rewrites, so a gate can only skip a pass that would have found nothing
(`tests/test_dialect_gates.py` checks that every translation is the same with every gate open).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.trees import function_name, is_optional

# The engines' functions of a list and a lambda, and the quantifiers over `x IN list WHERE`.
LAMBDA_CALLS = frozenset({"list_transform", "list_filter", "list_reduce",
                          "any", "all", "none", "single"})


class TreeFacts:
    """The rules (`kinds`) and lower-case function names (`calls`) a tree holds; how many
    calls are lambda functions or quantifiers (a shared subtree counts each time it is
    reached, which can only overcount); whether there is an OPTIONAL MATCH, and whether one
    has a WHERE."""

    def __init__(self, root: Tree) -> None:
        kinds: set[str] = set()
        calls: set[str] = set()
        lambdas = 0
        optional_where = optional_match = False
        for node in root.iter_subtrees_topdown():
            data = node.data
            kinds.add(data)
            if data == "call" and isinstance(node.children[0], Tree):
                name = function_name(node.children[0]).lower()
                calls.add(name)
                lambdas += name in LAMBDA_CALLS
            elif data == "match" and not optional_where and is_optional(node):
                optional_match = True
                optional_where = any(isinstance(c, Tree) and c.data == "where"
                                     for c in node.children)
        self.kinds = frozenset(kinds)
        self.calls = frozenset(calls)
        self.lambda_calls = lambdas
        self.optional_where = optional_where
        self.optional_match = optional_match

    def has(self, *kinds: str) -> bool:
        """Whether the tree holds a subtree of every one of `kinds`."""
        return all(kind in self.kinds for kind in kinds)

    def calls_any(self, names: frozenset[str]) -> bool:
        """Whether the tree calls one of the (lower-case) functions `names`."""
        return not self.calls.isdisjoint(names)
