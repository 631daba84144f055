"""A comprehension over a written list whose mapping holds a subquery, as the list of its values.

Models count several classes in one go:

    RETURN [k IN ['floor', 'surface'] | COUNT { (r)-[:CONTAINS]->(m:MeshPlace) WHERE m.class = k }]

Neither engine runs a subquery inside a lambda, least of all one that reads the lambda's
variable. Over a written list of literals the comprehension is the list of its mapping at each
element, in order, so it is written out as that list:

    RETURN [COUNT { .. WHERE m.class = 'floor' }, COUNT { .. WHERE m.class = 'surface' }]

which the subquery passes translate as any other. Only a comprehension without a WHERE, over a
list of at most `_MOST` literals, whose mapping does not bind the variable's name again (in a
pattern, a comprehension, a quantifier or reduce()).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import (
    NON_NULL_LITERALS,
    binds,
    clone,
    declared_names,
    mentions,
    substitute,
)

REWRITE = "comprehension over a written list->list of its values"
_MOST = 32
_LITERALS = NON_NULL_LITERALS | {"null_lit"}


def _unrollable(node: Tree) -> tuple[str, list[Tree], Tree] | None:
    """(variable, elements, mapping) of a comprehension this module writes out, or None."""
    if node.data != "list_comp_map":
        return None
    binding, mapping = node.children
    if not (isinstance(binding, Tree) and binding.data == "in_"
            and binding.children[0].data == "var"
            and isinstance(binding.children[1], Tree)
            and binding.children[1].data == "list_literal"):
        return None
    elements = binding.children[1].children
    variable = plain_name(binding.children[0].children[0])
    if not 0 < len(elements) <= _MOST or not all(
            isinstance(e, Tree) and e.data in _LITERALS for e in elements):
        return None
    if not isinstance(mapping, Tree) or variable in declared_names(mapping) \
            or any(variable in binds(sub) for sub in mapping.iter_subtrees()) or not any(
            sub.data == "subquery" and mentions(sub, {variable})
            for sub in mapping.iter_subtrees()):
        return None
    return variable, list(elements), mapping


def unroll_written_lists(root: Tree) -> bool:
    """Write out the comprehensions that qualify, in place; True when one was."""
    changed = False
    for node in list(root.iter_subtrees_topdown()):
        found = _unrollable(node)
        if found is None:
            continue
        variable, elements, mapping = found
        node.data = "list_literal"
        node.children = [substitute(clone(mapping), {variable: element})
                         for element in elements]
        changed = True
    return changed
