"""A `-0.0` literal beside an ordering of floats: Neo4j orders -0.0 below 0.0.

Neo4j compares two floats with `Double.compare` (`FloatingPointValue.compareTo`, which `<`,
`<=`, `>`, `>=` reach through `AnyValues.TERNARY_COMPARATOR`, and ORDER BY, min() and max()
through `AnyValues.COMPARATOR`), and a float with an integer with `Double.compare` too
(`NumberValues.compareDoubleAgainstLong`). `Double.compare(-0.0, 0.0)` is -1, so `-0.0 < 0.0`
and `-0.0 < 0` are true and `0.0 <= -0.0` is false, while `-0.0 = 0.0` is true (`==`). The
engines compare IEEE values: `-0.0 < 0.0` is false and `0.0 <= -0.0` true, and min() and
max() keep whichever zero came first.

The graph holds no -0.0, and a `-0.0` literal (`numberLiteral` reads the minus as part of the
number, so it is -0.0 in Neo4j) is the one source a query spells: where one appears, an
ordering of values that may be floats is refused. Products, quotients and `ceil()` of a
negative number also make -0.0, identically in Java and in the engines, but they are
ordinary arithmetic; their orderings stay answered (a known difference, when such a value is
a zero compared with a zero of the other sign).
"""

from __future__ import annotations

import re

from lark import Tree

from dsgqa.dialect.trees import bare
from dsgqa.dialect.types import ctype
from dsgqa.dialect.utf16_text import refuse_orderings

# A minus before a float literal that is zero (`-0.0`, `- .0`, `-0e3`): the gate on the text.
NEGATIVE_ZERO_TEXT = re.compile(r"-\s*(?:0*\.0+|0+\.0*|0+[eE][-+]?\d+)(?:[eE][-+]?\d+)?(?![\w.])")


def _is_negative_zero(node: Tree) -> bool:
    if node.data != "unary" or str(node.children[0]) != "-":
        return False
    operand = bare(node.children[1])
    return isinstance(operand, Tree) and operand.data == "float_lit" \
        and float(str(operand.children[0]).replace("_", "")) == 0.0


def _may_be_float(node: object) -> bool:
    kind = ctype(node)
    return kind in ("float", "number", "?") or "float" in kind or "number" in kind \
        or "mixed" in kind or "?" in kind


def refuse_negative_zero_order(root: Tree) -> None:
    """Refuse an ordering of values that may be floats in a query holding a `-0.0` literal
    (after the types are annotated)."""
    if any(_is_negative_zero(node) for node in root.iter_subtrees()):
        refuse_orderings(root, _may_be_float, "floats in a query holding a -0.0 literal: "
                         "Neo4j orders -0.0 below 0.0 (Double.compare), the engines take them "
                         "as equal")
