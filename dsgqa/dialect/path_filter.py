"""A shortest-path MATCH whose WHERE constrains the path itself.

Neo4j applies such a predicate during the search: `MATCH p = shortestPath((a)-[:T*]-(b)) WHERE
none(n IN nodes(p) WHERE n.nodeSymbol = 'X')` is the shortest path *that avoids X*. Kuzu's
`SHORTEST` finds the shortest path first and the WHERE then drops it: no row, no error. Kuzu and
Ladybug can filter during the search with a recursive pattern's own predicate,
`-[:T* SHORTEST 1..30 (r, n | WHERE <on r and the intermediate nodes n>)]-`, so:

- `none(x IN nodes(p) WHERE q(x))` / `all(x IN nodes(p) WHERE q(x))` become the node filter
  `NOT q(n)` / `q(n)` (intermediate nodes) plus the same test of both end nodes in the WHERE;
- `none/all(x IN relationships(p) WHERE q(x))` become the relationship filter;
- conjuncts that do not mention the path stay in the WHERE;
- any other use of the path in that WHERE (`length(p) > 2`, `any(...)`) is a `dialect` error.

NULL behaves the same: a node whose test is NULL fails the filter, and a path with one fails
Neo4j's none()/all() in a WHERE. Kuzu 0.11.3's `SHORTEST` and `ALL SHORTEST` both ignore the
node filter (`ALL SHORTEST` from R1 to R3 avoiding R2, the only way, still gave the four paths
through R2), so a shortest path with a node filter is refused on Kuzu; its relationship filter
holds, and Ladybug 0.22.0 is right for both.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import clone, conjuncts, function_name, mentions, name, reads, tree
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "shortestPath WHERE->recursive filter"
# A conjunct marked `after_selection` (a path selector's MATCH WHERE, `path_patterns.py`)
# filters the selected paths, as the engines' WHERE does: it stays.
# The prefix of the variable of `all(v IN nodes(p) WHERE ..)` that tests only the interior
# nodes (the path pattern translation writes it, `path_patterns.py`, for a selective pattern's
# inner node tests: the end nodes get their own, which may differ): no end-node tests added.
INTERIOR = "_interior"
_QUANTIFIERS = {"none", "all"}


def _renamed(node: object, old: str, new: str) -> object:
    node = clone(node)
    if isinstance(node, Tree):
        for sub in node.iter_subtrees():
            if sub.data == "var" and plain_name(sub.children[0]) == old:
                sub.children[0] = name(new)
    return node


def _quantified(conjunct: Tree, path: str) -> tuple[str, str, str, Tree] | None:
    """(quantifier, 'nodes' | 'rels', bound variable, test) of `none/all(x IN nodes(p) WHERE
    test)`, or None for another shape."""
    if conjunct.data != "call" or len(conjunct.children) != 2:
        return None
    callee, arg = conjunct.children
    quantifier = plain_name(callee.children[0]).lower() if callee.data == "var" else ""
    if quantifier not in _QUANTIFIERS or arg.data != "where_arg":
        return None
    binding, test = arg.children
    if binding.data != "in_" or binding.children[0].data != "var":
        return None
    source = binding.children[1]
    if source.data != "call" or len(source.children) != 2:
        return None
    function = function_name(source.children[0]).lower()
    kinds = {"nodes": "nodes", "relationships": "rels", "rels": "rels"}
    target = source.children[1]
    if function not in kinds or not (target.data == "var"
                                     and plain_name(target.children[0]) == path):
        return None
    return quantifier, kinds[function], plain_name(binding.children[0].children[0]), test


def _end_names(chain: Tree) -> tuple[str, str] | None:
    ends = [chain.children[0], chain.children[-1]]
    names = []
    for end in ends:
        named = [c for c in end.children if isinstance(c, Tree) and c.data == "name"]
        if not named:
            return None
        names.append(plain_name(named[0]))
    return names[0], names[1]


def _and(parts: list[Tree]) -> Tree:
    result = parts[0]
    for part in parts[1:]:
        result = tree("and_", result, part)
    return result


def push_path_filters(match: Tree, target: str, names: FreshNames) -> bool:
    """Rewrite `match` in place; True when it changed. Raises `DialectError` as described."""
    where = next((c for c in match.children if isinstance(c, Tree) and c.data == "where"), None)
    if where is None:
        return False
    patterns = next(c for c in match.children if isinstance(c, Tree) and c.data == "pattern_list")
    changed = False
    for pattern in patterns.children:
        chain = pattern.children[-1]
        mode = getattr(chain, "shortest", None)
        if mode is None or len(pattern.children) != 3:
            continue
        path = plain_name(pattern.children[0])
        if not mentions(where.children[0], {path}):
            continue
        kept, node_tests, rel_tests, end_tests = [], [], [], []
        node_var, rel_var = names.fresh("_n"), names.fresh("_r")
        ends = _end_names(chain)
        for conjunct in conjuncts(where.children[0]):
            if not mentions(conjunct, {path}) or getattr(conjunct, "after_selection", False):
                kept.append(conjunct)   # a selector's filter after the selection stays
                continue
            shape = _quantified(conjunct, path)
            if shape is None or (shape[1] == "nodes" and ends is None):
                raise DialectError("a shortest path constrained in its WHERE other than by "
                                   "none()/all() over its nodes or relationships")
            quantifier, kind, bound, test = shape
            if mentions(test, {path}):
                raise DialectError("a shortest-path filter that reads the path itself")
            if reads(test) - {bound}:
                # the engines' recursive filter sees its own variables only ("Variable avoid is
                # not in scope")
                raise DialectError("a shortest-path filter that reads a variable of the row "
                                   f"({', '.join(sorted(reads(test) - {bound}))})")

            def holds(variable: str, test: Tree = test, bound: str = bound,
                      quantifier: str = quantifier) -> Tree:
                body = tree("paren", _renamed(test, bound, variable))
                return tree("not_", body) if quantifier == "none" else body
            if kind == "nodes":
                node_tests.append(holds(node_var))
                if not (bound.startswith(INTERIOR) and bound in names.generated):
                    end_tests += [holds(ends[0]), holds(ends[1])]  # type: ignore[index]
            else:
                rel_tests.append(holds(rel_var))
        if node_tests and target == "kuzu":
            raise DialectError("a shortest path with a condition on its nodes on Kuzu (its "
                               "SHORTEST and ALL SHORTEST ignore node filters; Ladybug runs it)")
        filters = rel_tests + node_tests
        if not filters:   # every conjunct reading the path filters after the selection
            continue
        length = next(c for c in _rel_detail(chain).children if c.data == "var_length")
        if not any(isinstance(c, Tree) and c.data.startswith("range") for c in length.children):
            # Kuzu wants explicit bounds before a filter; 1..30 is what `*` means there.
            length.children.append(tree("range_span", Token("INT", "1"), Token("DOTDOT", ".."),
                                        Token("INT", "30")))
        length.children.append(tree("recursive_filter", name(rel_var), name(node_var),
                                    _and(filters)))
        rest = kept + end_tests
        if rest:
            where.children[0] = _and(rest)
        else:
            match.children.remove(where)
            where = None
        changed = True
        if where is None:
            break
    return changed


def _rel_detail(chain: Tree) -> Tree:
    rel = chain.children[1]
    return next(c for c in rel.children if isinstance(c, Tree) and c.data == "rel_detail")

