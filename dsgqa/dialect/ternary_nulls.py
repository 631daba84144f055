"""Three-argument built-ins over a column holding NULLs (Kuzu and Ladybug bug).

Both engines' built-in functions of three arguments (`substring`, `list_slice`, `range` with a
step) answer NULL for every row after the first row where an argument is NULL, when that
argument comes from the rows (an OPTIONAL MATCH's variable, a computed bound): after

    MATCH (a) OPTIONAL MATCH (a)<--(b) WHERE a.class <> 'floor'
    RETURN b.nodeSymbol AS s, substring(b.nodeSymbol, 1, 1) AS first

`first` is NULL on rows where `s` is 'R1' (measured on Kuzu 0.11.3 and Ladybug; Neo4j 'R'), and
`list_slice([1, 2, 3], 1, size(b.nodeSymbol))` likewise. Two-argument functions (`left`,
`range(a, b)`) and the translator's UDFs (`neo4j_replace`) are right, as are the same calls on
arguments that hold no NULL. So every argument that reads the row is made NULL-free and the
NULL answer is given by a CASE, which is Neo4j's value in every row (these functions are NULL
exactly when an argument is):

    substring(x, s, n)  ->  CASE WHEN x IS NULL OR s IS NULL OR n IS NULL THEN NULL
                            ELSE substring(coalesce(x, ''), coalesce(s, 1), coalesce(n, 0)) END

(a list argument of `list_slice` stays as it is: a NULL list there is read right).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import call, clone, int_lit, tree

REWRITE = "3-argument built-in->NULL-free arguments"

# The functions the pass rewrites (lower case), for `Rewriter` to skip a tree without one.
TERNARY_CALLS = frozenset({"substring", "list_slice", "range"})
# function -> per argument, the stand-in for NULL (None: the argument is left as it is)
_STAND_INS: dict[str, tuple[Tree | None, ...]] = {}


def _stand_ins() -> dict[str, tuple[Tree | None, ...]]:
    if not _STAND_INS:
        empty = tree("str_lit", Token("STRING", "''"))
        _STAND_INS.update({
            "substring": (empty, int_lit(1), int_lit(0)),
            "list_slice": (None, int_lit(1), int_lit(1)),
            "range": (int_lit(0), int_lit(0), int_lit(1)),
        })
    return _STAND_INS


def _reads_row(node: object) -> bool:
    """Whether an argument may vary between rows (reads a variable); literals never hold a NULL
    the engines mishandle."""
    return isinstance(node, Tree) and any(t.data == "var" for t in node.iter_subtrees_topdown())


def _null_free(node: Tree) -> Tree | None:
    """The NULL-safe form of a three-argument built-in call, or None when it needs none."""
    callee = node.children[0]
    if not (isinstance(callee, Tree) and callee.data == "var"):
        return None
    stand_ins = _stand_ins().get(plain_name(callee.children[0]).lower())
    args = node.children[1:]
    if stand_ins is None or len(args) != 3:
        return None
    varying = [i for i, arg in enumerate(args) if _reads_row(arg)]
    if not varying:
        return None
    tests = [tree("is_null", clone(args[i])) for i in varying]
    condition = tests[0]
    for test in tests[1:]:
        condition = tree("or_", condition, test)
    for i in varying:
        stand_in = stand_ins[i]
        if stand_in is not None:
            node.children[1 + i] = call("coalesce", args[i], clone(stand_in))
    out = tree("case_expr", tree("case_when", condition, tree("null_lit")), node)
    out.__dict__.update({k: v for k, v in vars(node).items() if k not in ("data", "children")})
    return out


def _walk(node: object) -> tuple[object, bool]:
    if not isinstance(node, Tree):
        return node, False
    changed = False
    for i, child in enumerate(node.children):
        node.children[i], fired = _walk(child)
        changed |= fired
    if node.data == "call":
        safe = _null_free(node)
        if safe is not None:
            return safe, True
    return node, changed


def null_free_ternaries(root: Tree) -> bool:
    """Rewrite every such call under `root` in place; True when one changed."""
    _, changed = _walk(root)
    return changed
