"""List comprehensions over nodes that read a variable from outside (Kuzu and Ladybug bug).

In both engines a lambda over a list of nodes or structs (`collect(o)`, collected maps or points)
that reads a variable of the row, such as

    WITH r, collect(o) AS objects RETURN [o IN objects | o.center.z - r.center.z]

reads the *first row's* list in every row (measured on Kuzu 0.11.3 and Ladybug 0.22.0: R2's list
came out as R1's objects minus R2's height; `any(...)` likewise). Lambdas over lists of numbers,
strings or lists are right. So before translation the elements are first turned into the scalars
the body reads, by a comprehension that reads nothing from outside:

    [o IN [_e IN objects | _e.center.z] | o - r.center.z]

(several properties of one type become a list per element, `[_e.a, _e.b]`, read as `o[0]`,
`o[1]`). A body that uses the element whole, or reads properties of different types, is a
`dialect` error: no faithful form is known.
"""

from __future__ import annotations

import copy

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import int_lit, name, tree, var
from dsgqa.dialect.types import ctype
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "comprehension over nodes->over their values"
_SCALARS = ("str", "int", "float", "bool")
_SAFE_LISTS = frozenset(f"list<{t}>" for t in _SCALARS) | {"list<null>"}


def _free_names(node: object, bound: str) -> set[str]:
    """Variable names `node` reads besides `bound` (names bound by nested comprehensions
    included: an over-approximation only makes the rewrite fire where it is harmless)."""
    if not isinstance(node, Tree):
        return set()
    if node.data == "var":
        text = plain_name(node.children[0])
        return set() if text == bound else {text}
    if node.data == "call" and node.children[0].data == "var" and len(node.children) == 1:
        return set()
    found: set[str] = set()
    for child in node.children[1:] if node.data == "call" else node.children:
        found |= _free_names(child, bound)
    return found


def _chain_path(node: Tree, bound: str) -> tuple[str, ...] | None:
    """('center', 'z') for `x.center.z` when the chain starts at the variable `bound`."""
    keys: list[str] = []
    while node.data == "prop":
        keys.insert(0, plain_name(node.children[1]))
        node = node.children[0]
    if node.data == "var" and plain_name(node.children[0]) == bound:
        return tuple(keys)
    return None


class _Reads:
    """Collects the property paths a body reads from its element and replaces each read."""

    def __init__(self, bound: str) -> None:
        self.bound = bound
        self.paths: dict[tuple[str, ...], str] = {}
        self.sites: list[tuple[Tree, int, tuple[str, ...]]] = []

    def scan(self, parent: Tree, index: int) -> None:
        node = parent.children[index]
        if not isinstance(node, Tree):
            return
        if node.data == "prop":
            path = _chain_path(node, self.bound)
            if path is not None:
                self.paths.setdefault(path, ctype(node))
                self.sites.append((parent, index, path))
                return
        if node.data == "var" and plain_name(node.children[0]) == self.bound:
            raise DialectError("a comprehension over nodes that uses the node whole and reads "
                               "a variable of the row (an engine bug gives other rows' nodes)")
        for i in range(len(node.children)):
            self.scan(node, i)


def project_elements(bound: str, source: Tree, holders: list[tuple[Tree, int]],
                     names: FreshNames) -> Tree | None:
    """The new source when the comprehension `bound IN source` with bodies at `holders`
    (parent, child index) needs the rewrite (bodies are changed in place); None when not."""
    if ctype(source) in _SAFE_LISTS:
        return None
    if not any(_free_names(parent.children[i], bound) for parent, i in holders):
        return None
    reads = _Reads(bound)
    for parent, i in holders:
        reads.scan(parent, i)
    types = set(reads.paths.values())
    if not reads.paths or len(types) != 1 or not types <= set(_SCALARS):
        raise DialectError("a comprehension over nodes that reads a variable of the row and "
                           "properties of different or unknown types (an engine bug gives other "
                           "rows' nodes)")
    element = names.fresh("_e")
    paths = list(reads.paths)

    def read(path: tuple[str, ...]) -> Tree:
        node: Tree = var(element)
        for key in path:
            node = tree("prop", node, name(key))
        return node
    single = len(paths) == 1
    value = read(paths[0]) if single else tree("list_literal", *[read(p) for p in paths])
    for parent, i, path in reads.sites:
        parent.children[i] = var(bound) if single else \
            tree("index", var(bound), int_lit(paths.index(path)))
    projected = tree("list_comp_map", tree("in_", var(element), copy.deepcopy(source)), value)
    projected.ctype = f"list<{next(iter(types))}>" if single else \
        f"list<list<{next(iter(types))}>>"  # type: ignore[attr-defined]
    return projected

