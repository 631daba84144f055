"""Neo4j's relationship isomorphism on Kuzu: one MATCH never binds one relationship twice.

Neo4j matches a MATCH clause's patterns (all of them, comma-separated ones included) under
relationship isomorphism: no two relationship positions bind the same stored relationship, in
fixed-length patterns too, so `(a)-[:X]-(b)-[:X]-(c)` cannot walk one edge out and back. Going
back over the *reverse* relationship is still allowed: a same-layer edge is stored once each way
(docs/graph_layout.md), and those are two relationships. Kuzu only keeps a variable-length segment
free of repeats (TRAIL, added by the `var-length->TRAIL` pass) and lets positions share a
relationship otherwise.

`add_uniqueness` therefore appends, for every pair of relationship positions in one MATCH (or one
EXISTS/COUNT pattern) that could bind the same relationship (overlapping type sets, compatible
endpoint labels), a predicate to the clause's WHERE:

- single hop r, single hop s:           `r <> s` (Kuzu compares relationships by internal id);
- single hop r, variable-length v:      `NOT r IN rels(v)`;
- variable-length v, variable-length w: `size(list_distinct(list_concat(rels(v), rels(w))))
                                         = size(rels(v)) + size(rels(w))` (each is a TRAIL
                                         already, so a repeat can only be shared between them).

Kuzu's lambdas cannot read outer variables (`none(x IN rels(v) WHERE x IN rels(w))` fails), and
`list_transform(rels(v), x -> id(x))` gives wrong counts in 0.11.3, hence these forms.
Shortest-path segments (SHORTEST / ALL SHORTEST) are left out: Kuzu finds the shortest paths
before any WHERE, so a filter would drop paths rather than find the next-shortest ones.
Anonymous relationships that need a predicate get generated names (`_rel1`, ...), which are kept
out of `RETURN *` / `WITH *` by spelling the star out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError
from dsgqa.dialect.trees import (
    call,
    child_of,
    element_name,
    hops,
    item_name_node,
    name,
    pattern_labels,
    rel_detail,
    tree,
    var,
)

REWRITE = "relationship uniqueness"
_SHORTEST = ("SHORTEST", "ALL SHORTEST")

Labels = frozenset[str] | None  # None: any label


@dataclass
class _Position:
    """One relationship position of a MATCH clause."""

    rel: Tree
    name: str | None
    types: frozenset[str] | None
    variable_length: bool
    ends: list[tuple[Labels, Labels]]  # possible (stored start, stored end) label sets
    # The MATCH clause the pattern was written in, where `subquery_parts.py` merged several
    # into one (None: the clause's own pattern).
    group: int | None = None


def _labels(node: Tree) -> Labels:
    allowed = pattern_labels(node)
    return None if allowed is None else frozenset(label.lower() for label in allowed)


def _positions(pattern_list: Tree) -> Iterator[_Position]:
    for pattern in pattern_list.children:
        group = getattr(pattern, "clause_group", None)
        for position in _pattern_positions(tree("pattern_list", pattern)):
            position.group = group
            yield position


def _pattern_positions(pattern_list: Tree) -> Iterator[_Position]:
    for left_node, rel, right_node, parts in hops(pattern_list):
        left, right = _labels(left_node), _labels(right_node)
        length = parts.get("var_length")
        if length is not None and any(
                isinstance(c, Tree) and c.data == "recursion_mode"
                and " ".join(str(c.children[0]).upper().split()) in _SHORTEST
                for c in length.children):
            continue
        types = parts.get("rel_types")
        if length is not None:
            ends: list[tuple[Labels, Labels]] = [(None, None)]
        elif rel.data == "rel_right":
            ends = [(left, right)]
        elif rel.data == "rel_left":
            ends = [(right, left)]
        else:
            ends = [(left, right), (right, left)]
        yield _Position(
            rel=rel,
            name=plain_name(parts["name"]) if "name" in parts else None,
            types=None if types is None else frozenset(
                plain_name(c).lower() for c in types.children if c.data == "name"),
            variable_length=length is not None,
            ends=ends,
        )


def _overlap(a: Labels, b: Labels) -> bool:
    return a is None or b is None or bool(a & b)


def _may_share(p: _Position, q: _Position) -> bool:
    """Whether two positions could bind one stored relationship."""
    if p.name is not None and p.name == q.name:
        return False  # one variable twice: the same relationship by definition
    if p.group != q.group:
        return False  # written in two MATCH clauses: Neo4j lets them share a relationship
    if not _overlap(p.types, q.types):
        return False
    return any(_overlap(ps, qs) and _overlap(pe, qe) for ps, pe in p.ends for qs, qe in q.ends)


def _rels(name: str) -> Tree:
    return call("rels", var(name))


def _distinct(p: _Position, q: _Position) -> Tree:
    assert p.name is not None and q.name is not None
    if not p.variable_length and not q.variable_length:
        return tree("compare", var(p.name), Token("COMP_OP", "<>"), var(q.name))
    if p.variable_length and q.variable_length:
        both = call("size", call("list_distinct", call("list_concat", _rels(p.name),
                                                          _rels(q.name))))
        total = tree("arith", call("size", _rels(p.name)), Token("ADD_OP", "+"),
                   call("size", _rels(q.name)))
        return tree("compare", both, Token("EQ", "="), total)
    single, many = (q, p) if p.variable_length else (p, q)
    assert single.name is not None and many.name is not None
    return tree("not_", tree("in_", var(single.name), _rels(many.name)))


class FreshNames:
    """Variable names the translator makes up (`_rel1`, `_node1`), never one the query uses."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = {n.lower() for n in taken}
        self.generated: set[str] = set()

    def fresh(self, prefix: str) -> str:
        n = 1
        while f"{prefix}{n}" in self.taken:
            n += 1
        made = f"{prefix}{n}"
        self.taken.add(made)
        self.generated.add(made)
        return made


class Uniqueness:
    """Adds the predicates for one query, naming anonymous relationships from `names`."""

    def __init__(self, names: FreshNames) -> None:
        self.names = names
        self.generated = names.generated

    def _name(self, position: _Position) -> None:
        if position.name is not None:
            return
        made = self.names.fresh("_rel")
        detail = rel_detail(position.rel)
        name_node = name(made)
        if detail is None:  # `-->` or `-[]->`: the emitter prints the brackets from the rel kind
            position.rel.children.append(tree("rel_detail", name_node))
        else:
            detail.children.insert(0, name_node)
        position.name = made

    def apply(self, clause: Tree, pattern_list: Tree) -> bool:
        """Extend the WHERE of `clause` (a match or subquery_pattern); True when it changed."""
        positions = list(_positions(pattern_list))
        if len(positions) < 2:
            return False
        pairs = [(p, q) for i, p in enumerate(positions) for q in positions[i + 1:]
                 if _may_share(p, q)]
        if not pairs:
            return False
        conditions = []
        for p, q in pairs:
            self._name(p)
            self._name(q)
            conditions.append(_distinct(p, q))
        where = next((c for c in clause.children if isinstance(c, Tree) and c.data == "where"),
                     None)
        condition = conditions[0]
        for more in conditions[1:]:
            condition = tree("and_", condition, more)
        if where is None:
            clause.children.append(tree("where", condition))
        else:
            where.children[0] = tree("and_", tree("paren", where.children[0]), condition)
        return True

    def expand_stars(self, single_query: Tree) -> None:
        """Spell out `RETURN *` / `WITH *` where a generated name is in scope, so the columns
        stay the model's variables. A WITH keeps the generated names that it or a later clause
        still reads: a pass that moves a MATCH's WHERE to a `WITH * ... WHERE` after it
        (`outer_values`, `count_joins`) moves this pass's `_rel1 <> _rel2` along."""
        if not self.generated:
            return
        scope: list[Tree] = []  # name nodes, in order of appearance
        clauses = [c for c in single_query.children if isinstance(c, Tree)]
        for at, clause in enumerate(clauses):
            if clause.data == "match":
                for name_node in _pattern_names(clause):
                    if all(plain_name(n) != plain_name(name_node) for n in scope):
                        scope.append(name_node)
            elif clause.data == "unwind":
                scope.insert(self._unwound_at(clause, scope), clause.children[1])
            elif clause.data in ("with_clause", "return_clause"):
                items = child_of(clause.children[0], "proj_items")
                starred = bool(items.children) and isinstance(items.children[0], Token)
                if starred:
                    read = _generated_reads(clauses[at:], self.generated) \
                        if clause.data == "with_clause" else set()
                    self._expand(items, scope, read)
                if clause.data == "with_clause":
                    still = bool(items.children) and isinstance(items.children[0], Token)
                    scope = (scope if still else []) + _projected(items)

    def _unwound_at(self, unwind: Tree, scope: list[Tree]) -> int:
        """Where an UNWIND's name goes in the scope: at the end, but where it takes a generated
        name's value back under the model's name (`UNWIND [_aggregate1] AS a`,
        `free_aggregates`), at that name's place, so a star keeps the model's column order."""
        items = unwind.children[0].children if unwind.children[0].data == "list_literal" else []
        if len(items) == 1 and isinstance(items[0], Tree) and items[0].data == "var":
            read = plain_name(items[0].children[0]).lower()
            if read in self.generated:
                for at, name_node in enumerate(scope):
                    if plain_name(name_node).lower() == read:
                        return at
        return len(scope)

    def _expand(self, items: Tree, scope: list[Tree], kept: set[str]) -> None:
        visible = [n for n in scope
                   if plain_name(n).lower() not in self.generated - kept]
        if len(visible) == len(scope):
            return
        if not visible and len(items.children) == 1:
            raise CypherSyntaxError("RETURN * or WITH * with no variables in scope")
        spelled = [tree("proj_item", var(n)) for n in visible]
        items.children = spelled + items.children[1:]


def _generated_reads(clauses: list[Tree], generated: set[str]) -> set[str]:
    """The generated names that `clauses` read as variables, or name again in a pattern (a
    node a later MATCH starts from, `MATCH (_node1) WHERE id(_node1) = id(nn) ... MATCH
    (rb)-->(_node1)`: dropped by the WITH between, the later pattern would match any node)."""
    return {plain_name(named).lower() for clause in clauses
            for node in clause.iter_subtrees_topdown()
            if (named := node.children[0] if node.data == "var" else element_name(node))
            is not None and plain_name(named).lower() in generated}


def _pattern_names(match: Tree) -> Iterator[Tree]:
    pattern_list = next(c for c in match.children
                        if isinstance(c, Tree) and c.data == "pattern_list")
    for pattern in pattern_list.children:
        if len(pattern.children) == 3:
            yield pattern.children[0]
        chain = pattern.children[-1]
        for item in chain.children if isinstance(chain, Tree) else ():
            holder = rel_detail(item) if item.data.startswith("rel_") else item
            if holder is None:
                continue
            found = next((c for c in holder.children
                          if isinstance(c, Tree) and c.data == "name"), None)
            if found is not None:
                yield found


def _projected(items: Tree) -> list[Tree]:
    return [n for n in (item_name_node(i) for i in items.children if isinstance(i, Tree))
            if n is not None]

