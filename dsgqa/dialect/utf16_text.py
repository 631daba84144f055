"""Text beyond U+FFFF, where Neo4j orders and splits UTF-16 code units.

Neo4j's strings are Java strings. Its string functions count code points, as the engines and
our UDFs do: `TextValue.length()` is `codePointCount`, `substring()`, `left()` and `right()`
move by `offsetByCodePoints`, `reverse()` is `StringBuilder.reverse`, which keeps a surrogate
pair together (`StringWrappingStringValue`). Three operations do not:

- ordering: `StringValue.compareTo` is `String.compareTo`, which compares UTF-16 code units
  (its source says so: "this doesn't respect code point order for code points that doesn't
  fit 16bits"). The engines compare UTF-8 bytes, that is code points, so `'😀' < '\\uFFFF'`
  is true in Neo4j (U+D83D < U+FFFF) and false on the engines; `<`, `<=`, `>`, `>=`, ORDER BY,
  min() and max() all read that order;
- `split(s, '')`: `StringValue.splitOnEmptySeparator` splits `toCharArray()`, one string per
  UTF-16 code unit, a lone surrogate each (`size(split('😀', ''))` is 2);
- `replace(s, '', r)`: Java's `String.replace` puts `r` between every two UTF-16 code units.

The graph's text holds no character beyond U+FFFF, so only a string literal brings one in.
Where a literal holds one, an ordering of values that may be text is refused; `split()` and
`replace()` check their own arguments when they run (`text_functions.py`). Equality, CONTAINS,
STARTS WITH and ENDS WITH read the same code units either way and stay answered.

A lone surrogate (`'\\uD83D'`) is text the engines cannot hold (they take UTF-8): refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lark import Tree

from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import function_name
from dsgqa.dialect.types import ctype

_ORDERING = frozenset({"<", "<=", ">", ">="})
_SURROGATES = range(0xD800, 0xE000)


def beyond_bmp(literals: Iterable[str]) -> bool:
    """Whether a literal's value holds a character beyond U+FFFF (written as it is, or as a
    `\\uD83D\\uDE00` pair of escapes); a lone surrogate is refused here."""
    found = False
    for text in literals:
        if text.isascii():
            continue
        units = text.encode("utf-16-le", "surrogatepass")
        try:
            decoded = units.decode("utf-16-le")
        except UnicodeDecodeError:
            raise DialectError("a lone UTF-16 surrogate in a string literal (the engines hold "
                               "UTF-8 text, which has none)") from None
        found |= any(ord(c) > 0xFFFF for c in decoded)
    return found


def _may_be_text(node: object) -> bool:
    """Whether the expression's value may be, or hold, text (its annotated type)."""
    kind = ctype(node)
    return kind == "?" or "str" in kind or "mixed" in kind or "map" in kind or "?" in kind


def refuse_utf16_order(root: Tree) -> None:
    """Refuse an ordering of values that may be text (called where a literal holds a
    character beyond U+FFFF, after the types are annotated)."""
    refuse_orderings(root, _may_be_text, "text in a query whose string literals hold a "
                     "character beyond U+FFFF: Neo4j orders strings by UTF-16 code units, the "
                     "engines by code points")


def refuse_orderings(root: Tree, affected: Callable[[object], bool], why: str) -> None:
    """Refuse `<`, `<=`, `>`, `>=`, ORDER BY, min() and max() of an expression `affected`
    holds for (read on the annotated types)."""
    for node in root.iter_subtrees():
        if node.data == "compare":
            if any(not isinstance(c, Tree) and str(c) in _ORDERING for c in node.children) \
                    and any(affected(c) for c in node.children if isinstance(c, Tree)):
                _refuse("a comparison (<, <=, >, >=)", why)
        elif node.data == "sort_item":
            if affected(node.children[0]):
                _refuse("ORDER BY", why)
        elif node.data in ("call", "call_distinct") \
                and function_name(node.children[0]).lower() in ("min", "max") \
                and any(affected(c) for c in node.children[1:] if isinstance(c, Tree)):
            _refuse("min() or max()", why)


def _refuse(what: str, why: str) -> None:
    raise DialectError(f"{what} of {why}")
