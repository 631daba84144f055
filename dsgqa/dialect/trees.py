"""Building parse-tree nodes for rewrites: the node shapes `cypher.lark` produces, so a rewritten
tree prints (`emit`) like one the parser made. One leaf module, so every rewrite pass builds
nodes the same way, and walks a MATCH pattern's relationships the same way (`hops`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import Protocol

from lark import Token, Tree

from dsgqa.dialect.emit import Emitter, plain_name, unquote_string
from dsgqa.dialect.errors import DialectError

# Literals that are never NULL.
NON_NULL_LITERALS = frozenset({"int_lit", "float_lit", "str_lit", "true_lit", "false_lit"})


def tree(data: str, *children: object) -> Tree:
    return Tree(data, list(children))


def name(text: str) -> Tree:
    return tree("name", Token("NAME", text))


def var(text: str | Tree) -> Tree:
    """A variable reference, from its text or an existing `name` node."""
    return tree("var", text if isinstance(text, Tree) else name(text))


def null_when_null(subject: Tree, value: Tree, always: bool = False) -> Tree:
    """`value`, or NULL where `subject` is NULL (`CASE WHEN subject IS NULL THEN NULL ELSE value
    END`); `value` alone for a variable no OPTIONAL MATCH bound, which is never NULL, unless
    `always` (an element of a list, which may be NULL whatever bound the list)."""
    if subject.data == "var" and not always and not getattr(subject, "nullable", True):
        return value
    return tree("case_expr", tree("case_when", tree("is_null", clone(subject)), tree("null_lit")),
                value)


def any_of(tests: list[Tree]) -> Tree:
    """The OR of `tests`, parenthesised when there are several (it may sit inside an AND)."""
    return tests[0] if len(tests) == 1 else tree("paren", tree("or_", *tests))


def all_of(tests: list) -> Tree:
    """The AND of `tests`, nested to the left as the parser reads `a AND b AND c`."""
    test = tests[0]
    for more in tests[1:]:
        test = tree("and_", test, more)
    return test


def conjuncts(condition: object) -> list:
    """The operands of a condition's ANDs (through parentheses around one), in order; the
    condition alone where it is no AND."""
    inner = condition.children[0] if isinstance(condition, Tree) \
        and condition.data == "paren" and len(condition.children) == 1 else condition
    if isinstance(inner, Tree) and inner.data == "and_":
        return [c for part in inner.children for c in conjuncts(part)]
    return [condition]


def scope_after(clauses: list[Tree]) -> list[str]:
    """The variables in scope after `clauses` (MATCH, UNWIND and WITH), in the order they
    came."""
    scope: list[str] = []
    for clause in clauses:
        if clause.data == "with_clause":
            items = child_of(clause.children[0], "proj_items")
            scope = [n for n in scope if n in projected_names(items, scope)] + sorted(
                projected_names(items, scope) - set(scope))
        elif clause.data in ("match", "unwind"):
            scope += sorted(declared_outside_subqueries(clause) - set(scope))
    return scope


def query_parts(root: Tree) -> list[Tree]:
    """The single queries of the query's top level (a UNION's parts, each)."""
    query = root.children[0] if root.data == "start" else root
    return [part for part in query.children
            if isinstance(part, Tree) and part.data == "single_query"]


_LABEL_OPERATORS = frozenset({"label_or", "label_and", "label_not", "label_any"})


def pattern_labels(node_pattern: Tree) -> frozenset[str] | None:
    """The labels a node pattern allows, as written (`(n:Room:Place)` after the label
    expressions became alternations); None when it names none (any label)."""
    found = next((c for c in node_pattern.children
                  if isinstance(c, Tree) and c.data == "node_labels"), None)
    if found is None or any(isinstance(t, Tree) and t.data in _LABEL_OPERATORS
                            for t in found.children):
        return None   # a label expression not yet resolved: any label, as far as known
    return frozenset(plain_name(t.children[0]) for t in found.children
                     if isinstance(t, Tree) and t.data == "label_term")


def read_key(node: Tree) -> str | None:
    """The key `x.key` or `x['key']` reads; None for any other tree (a computed index)."""
    if node.data == "prop":
        return plain_name(node.children[1])
    if node.data == "index" and isinstance(node.children[1], Tree) \
            and node.children[1].data == "str_lit":
        return unquote_string(str(node.children[1].children[0]))
    return None


def function_name(callee: Tree) -> str:
    """A call's callee as written: `point.distance` for prop(var point, distance); '' when the
    callee is no name. The one reader of callee names, so every pass sees the same one."""
    if callee.data == "var":
        return plain_name(callee.children[0])
    if callee.data == "prop":
        base = function_name(callee.children[0])
        return f"{base}.{plain_name(callee.children[1])}" if base else ""
    return ""


def shape(node: object) -> object:
    """A hashable key equal for two expressions Neo4j takes for one (`ORDER BY count(*)` is the
    column `count(*)`): the tree without parentheses, names unquoted. Unlike printed text it
    exists for any tree, the original forms the printer never sees (`[x IN xs | x]`, `xs[1..]`)
    included."""
    if isinstance(node, Token):
        return plain_name(node) if node.type in ("NAME", "QUOTED_NAME") else str(node)
    if not isinstance(node, Tree):
        return node
    if node.data == "paren" and len(node.children) == 1:
        return shape(node.children[0])
    return (str(node.data), *(shape(child) for child in node.children))


def text_of(node: object) -> str:
    """An expression's text for a message: printed where the printer can, else its tokens."""
    try:
        return Emitter().emit(node)
    except DialectError:
        tokens = node.scan_values(lambda v: isinstance(v, Token)) \
            if isinstance(node, Tree) else [node]
        return " ".join(str(t) for t in tokens)


def call(function: str, *args: object) -> Tree:
    return tree("call", var(function), *args)


def cast(value: object, kuzu_type: str) -> Tree:
    """`CAST(value AS kuzu_type)`, in the engines' type names."""
    return call("CAST", tree("cast_arg", value, name(kuzu_type)))


def union_parts(root: Tree) -> list[Tree]:
    """The single queries of the query `root` (or its `start`) itself: a UNION's parts, each
    binding its names apart; a subquery's are not among them."""
    query = root.children[0] if root.data == "start" else root
    return [p for p in query.children if isinstance(p, Tree) and p.data == "single_query"]


def window(value: Tree, ranked: Collection[Tree]) -> Tree:
    """`value[s .. s + k]` for the SKIP s and LIMIT k among `ranked` (a projection's order,
    skip and limit), or `value` itself where there are neither: the rows a list collected in
    order keeps."""
    skip = next((c.children[0] for c in ranked if c.data == "skip"), None)
    limit = next((c.children[0] for c in ranked if c.data == "limit"), None)
    if skip is None and limit is None:
        return value
    end = limit if skip is None or limit is None else \
        tree("arith", clone(skip), Token("ADD_OP", "+"), limit)
    return tree("slice", value, *([skip] if skip is not None else []), Token("DOTDOT", ".."),
                *([end] if end is not None else []))


def int_lit(value: int) -> Tree:
    return tree("int_lit", Token("INT", str(value)))


def column_name(text: str) -> Tree:
    """The `name` node of a column Neo4j names after its text (an unaliased RETURN item):
    the text with its whitespace runs made one space, backquoted."""
    return tree("name", Token("QUOTED_NAME",
                              "`" + " ".join(text.split()).replace("`", "``") + "`"))


def read_back(item: Tree) -> Tree:
    """A projection item reading a named item of the projection before by its name node as
    written (a backquoted alias read as plain text would be an expression)."""
    return tree("proj_item", var(clone(item_name_node(item))))  # type: ignore[arg-type]


def return_through_with(part: Tree, clause: Tree, shown: list[Tree]) -> None:
    """Turn the RETURN `clause` of the single query `part` into the WITH it stands for and a
    RETURN of the items `shown` after it (`SKIP 0` after a lone ORDER BY, which the engines'
    WITH requires; a plain RETURN keeps the WITH's row order, `result_order.py`)."""
    clause.data = "with_clause"
    skip_after_lone_order(clause.children[0])
    part.children.insert(part.children.index(clause) + 1,
                         tree("return_clause", tree("projection", tree("proj_items", *shown))))


def skip_after_lone_order(projection: Tree) -> bool:
    """Put `SKIP 0` after a WITH's ORDER BY that has neither SKIP nor LIMIT, which the engines'
    WITH requires ("ORDER BY must be followed by SKIP or LIMIT"); whether it did."""
    kinds = {c.data for c in projection.children if isinstance(c, Tree)}
    if "order" not in kinds or kinds & {"skip", "limit"}:
        return False
    position = next(i for i, c in enumerate(projection.children)
                    if isinstance(c, Tree) and c.data == "order") + 1
    projection.children.insert(position, tree("skip", int_lit(0)))
    return True


def rel_detail(rel: Tree) -> Tree | None:
    """A relationship pattern's `[name:TYPE*1..3 {...}]` part, or None for a bare `--`."""
    return next((c for c in rel.children if isinstance(c, Tree) and c.data == "rel_detail"), None)


def hops(pattern_list: Tree) -> Iterator[tuple[Tree, Tree, Tree, dict[str, Tree]]]:
    """Every relationship of a MATCH's pattern list, in order, as (left node, relationship, right
    node, the detail's parts by kind: `name`, `rel_types`, `var_length`, ...; empty without a
    detail). Patterns that are not a chain (a `shortestPath(...)` call) have none."""
    for pattern in pattern_list.children:
        chain = pattern.children[-1]
        if not (isinstance(chain, Tree) and chain.data == "chain"):
            continue
        items = chain.children
        for i in range(1, len(items) - 1, 2):
            detail = rel_detail(items[i])
            parts = {c.data: c for c in detail.children} if detail is not None else {}
            yield items[i - 1], items[i], items[i + 1], parts


def clone(node: object) -> object:
    """A deep copy of a (sub)tree that keeps what passes left on its nodes (`ctype`, `labels`,
    ...): lark's own deepcopy keeps only data and children. Rewrites put a copy wherever an
    expression is needed twice, since later passes edit trees in place."""
    if not isinstance(node, Tree):
        return node
    return rebuilt(node, [clone(child) for child in node.children])


def rebuilt(node: Tree, children: list) -> Tree:
    """A new node like `node` (its data and what passes left on it) with other children."""
    copied = Tree(node.data, children)
    copied.__dict__.update({key: value for key, value in vars(node).items()
                            if key not in ("data", "children")})
    return copied


def child_of(node: Tree, kind: str) -> Tree | None:
    """The first child of `node` that is a `kind` tree (a clause's `where`, a projection's
    `proj_items` or `order`), or None."""
    return next((c for c in node.children if isinstance(c, Tree) and c.data == kind), None)


def item_name_node(item: Tree) -> Tree | None:
    """The `name` node a projection item is known by (its alias, else the variable it passes
    on as it is), as written (backquotes kept); None for an unaliased expression."""
    if len(item.children) > 1:
        return item.children[1]
    value = item.children[0]
    return value.children[0] if value.data == "var" else None


def item_name(item: Tree) -> str | None:
    """The name a projection item is known by after its WITH or RETURN: its alias, else the
    variable it passes on as it is (`WITH n`), else None (an unaliased expression)."""
    node = item_name_node(item)
    return plain_name(node) if node is not None else None


def is_distinct(projection: Tree) -> bool:
    """Whether a WITH's or RETURN's projection drops repeated rows (`WITH DISTINCT`)."""
    return any(isinstance(c, Token) and c.type == "DISTINCT" for c in projection.children)


def passed_on(clause: Tree, tracked: set[str], holds: Callable[[Tree], bool]) -> set[str]:
    """The names a WITH passes on that hold one of the values a pass tracks: all of `tracked`
    through a `*`, and each named item (`item_name`) that `holds(item)` says holds one."""
    out: set[str] = set()
    for item in child_of(clause.children[0], "proj_items").children:
        if isinstance(item, Token):  # *
            out |= tracked
        elif item_name(item) is not None and holds(item):
            out.add(item_name(item))   # type: ignore[arg-type]
    return out


def projected_names(items: Tree, before: Collection[str]) -> set[str]:
    """The names a projection's `proj_items` leave in scope: `before` for a `*`, and every
    item's name (`item_name`)."""
    names: set[str] = set()
    for item in items.children:
        if isinstance(item, Token):  # *
            names |= set(before)
        elif (named := item_name(item)) is not None:
            names.add(named)
    return names


def mentions(node: object, names: Collection[str]) -> bool:
    """Whether `node` reads a variable named in `names` anywhere below it."""
    if not isinstance(node, Tree):
        return False
    if node.data == "var" and plain_name(node.children[0]) in names:
        return True
    return any(mentions(child, names) for child in node.children)


# Trees whose first `x IN list` binds a name for the rest of them.
BINDERS = frozenset({"list_comp", "list_comp_map", "where_arg", "pipe_arg"})


def binds(node: Tree) -> set[str]:
    """The names `node` binds for its own children (a comprehension's `x`, a lambda's
    parameter, reduce's accumulator)."""
    if node.data in BINDERS and node.children and isinstance(node.children[0], Tree) \
            and node.children[0].data == "in_" and node.children[0].children[0].data == "var":
        return {plain_name(node.children[0].children[0].children[0])}
    if node.data == "lambda_":
        return {plain_name(node.children[0])}
    if node.data == "lambda2":   # list_reduce's `(acc, x) -> ...`
        return {plain_name(node.children[0]), plain_name(node.children[1])}
    if node.data == "call" and function_name(node.children[0]).lower() == "reduce" \
            and len(node.children) > 1 and node.children[1].data == "compare" \
            and node.children[1].children[0].data == "var":
        return {plain_name(node.children[1].children[0].children[0])}
    return set()


def comprehension_pattern(node: Tree) -> Tree | None:
    """The pattern (`pattern_predicate`) of a pattern comprehension, `[(a)-->(b) WHERE .. |
    ..]` or `[p = (a)-->(b) | ..]`; None for any other tree."""
    if node.data not in ("list_comp", "list_comp_map") or not isinstance(node.children[0], Tree):
        return None
    head = node.children[0]
    if head.data == "compare" and len(head.children) == 3 and isinstance(head.children[2], Tree):
        head = head.children[2]
    return head if head.data == "pattern_predicate" else None


# Trees whose first child names a function, not a variable read.
CALLS = frozenset({"call", "call_star", "call_distinct"})


def reads(node: object, bound: frozenset[str] | set[str] = frozenset(),
          into_subqueries: bool = False) -> set[str]:
    """The variables `node` reads that neither `bound` nor it binds (a callee's name is no
    read); a subquery's too where `into_subqueries`, else nothing of it."""
    if not isinstance(node, Tree) or (node.data == "subquery" and not into_subqueries):
        return set()
    if node.data == "var":
        read = plain_name(node.children[0])
        return set() if read in bound else {read}
    inner = bound | binds(node)
    named = node.data in CALLS or node.data == "subquery"   # `EXISTS`, `count`: no reads
    return set().union(*(reads(child, inner, into_subqueries)
                         for child in (node.children[1:] if named else node.children)))


def nothing_but_nulls(node: object) -> bool:
    """`[]` or `[null, ...]`: a list literal the engines type INT64[] whatever it stands
    beside."""
    return isinstance(node, Tree) and node.data == "list_literal" and all(
        isinstance(c, Tree) and c.data == "null_lit" for c in node.children)


def without(node: object, variable: str) -> object:
    """A copy of `node` with each read of `variable` replaced by NULL (to see what else it
    reads)."""
    if not isinstance(node, Tree):
        return node
    if node.data == "var" and plain_name(node.children[0]) == variable:
        return tree("null_lit")
    return tree(str(node.data), *[without(c, variable) for c in node.children])


def bare(node: object) -> object:
    """`node` without the parentheses around it."""
    while isinstance(node, Tree) and node.data == "paren" and len(node.children) == 1:
        node = node.children[0]
    return node


BINDING_PARENTS = frozenset({"node_pattern", "rel_detail", "pattern", "unwind", "proj_item"})


def names_outside(root: Tree, inside: Tree, reads: bool = False) -> set[str]:
    """The names `root` declares outside the subtree `inside` (a subquery, a CALL), and the
    variables it reads there too with `reads`."""
    found: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node is inside:
            continue
        if reads and node.data == "var":
            found.add(plain_name(node.children[0]))
        elif node.data in BINDING_PARENTS:
            found |= {plain_name(c) for c in node.children
                      if isinstance(c, Tree) and c.data == "name"}
        stack.extend(c for c in node.children if isinstance(c, Tree))
    return found


def declared_names(node: Tree) -> set[str]:
    """Every name a clause or a subquery's body declares (over-approximated)."""
    return {plain_name(child) for sub in node.iter_subtrees_topdown()
            if sub.data in BINDING_PARENTS
            for child in sub.children if isinstance(child, Tree) and child.data == "name"}


def declared_outside_subqueries(node: Tree) -> set[str]:
    """The names `node` declares, not counting those inside its subqueries."""
    found: set[str] = set()
    stack = [node]
    while stack:
        sub = stack.pop()
        if sub.data == "subquery":
            continue
        for child in sub.children:
            if not isinstance(child, Tree):
                continue
            if child.data == "name" and sub.data in BINDING_PARENTS:
                found.add(plain_name(child))
            else:
                stack.append(child)
    return found


def outermost_subqueries(node: object) -> list[Tree]:
    """The EXISTS / COUNT subqueries under `node`, not those inside another one."""
    if not isinstance(node, Tree):
        return []
    if node.data == "subquery":
        return [node]
    return [found for child in node.children for found in outermost_subqueries(child)]


def name_elements(match: Tree, names: FreshNamer, prefix: str) -> dict[str, str]:
    """Name every anonymous node and relationship of a MATCH (fresh names from `prefix`), so
    that grouping by the variables in scope keeps each of its rows; the names given -> "node"
    or "rel"."""
    given: dict[str, str] = {}
    for node in match.iter_subtrees_topdown():
        if node.data == "node_pattern" and not (
                node.children and isinstance(node.children[0], Tree)
                and node.children[0].data == "name"):
            given[fresh := names.fresh(prefix)] = "node"
            node.children.insert(0, name(fresh))
    pattern_list = child_of(match, "pattern_list")
    for _left, rel, _right, parts in hops(pattern_list):
        if "name" in parts:
            continue
        given[fresh := names.fresh(prefix)] = "rel"
        detail = rel_detail(rel)
        if detail is None:   # `-->`: the emitter prints the brackets from the rel kind
            rel.children.append(tree("rel_detail", name(fresh)))
        else:
            detail.children.insert(0, name(fresh))
    return given


def all_named(match: Tree) -> bool:
    """Whether every node and relationship of a MATCH has a name (no two of its rows are
    equal)."""
    patterns = next(c for c in match.children if isinstance(c, Tree) and c.data == "pattern_list")
    for pattern in patterns.children:
        chain = pattern.children[-1]
        if not (isinstance(chain, Tree) and chain.data == "chain"):
            return False
        for part in chain.children:
            if part.data == "node_pattern":
                if not any(isinstance(c, Tree) and c.data == "name" for c in part.children):
                    return False
            else:
                detail = next((c for c in part.children if isinstance(c, Tree)), None)
                if detail is None or not any(c.data == "name" for c in detail.children):
                    return False
    return True


def is_optional(match: Tree) -> bool:
    return any(isinstance(c, Token) and c.type == "OPTIONAL" for c in match.children)


def star_with(items: list[Tree] | tuple[Tree, ...] = (), where: Tree | None = None) -> Tree:
    """`WITH *[, items] [WHERE ...]`: a projection that passes every row on as it is."""
    clause = tree("with_clause", tree("projection",
                                      tree("proj_items", Token("STAR", "*"), *items)))
    if where is not None:
        clause.children.append(where)
    return clause


# (where to insert, the clauses to insert, whether the clause looked at stays)
Splice = tuple[int, list[Tree], bool]


def splice_clauses(root: Tree, splice: Callable[[list[Tree], int], Splice | None]) -> bool:
    """Walk every clause of every part of the query, in order; `splice(clauses, k)` may give
    new clauses to insert at an index up to k, keeping or dropping clause k. Inserted clauses
    are not walked. True when one splice happened."""
    changed = False
    for single in [s for s in root.iter_subtrees_topdown() if s.data == "single_query"]:
        clauses = single.children
        k = 0
        while k < len(clauses):
            found = splice(clauses, k) if isinstance(clauses[k], Tree) else None
            if found is None:
                k += 1
                continue
            at, new, keep = found
            if not keep:
                del clauses[k]
            clauses[at:at] = new
            k += len(new) + keep
            changed = True
    return changed


def with_before_projections(root: Tree,
                            items_for: Callable[[Tree, set[str]], list[Tree]]) -> bool:
    """For each WITH and RETURN of the query (after the types are annotated), insert
    `WITH *, items` before it when `items_for(projection, names in scope before it)` gives
    items (it may rewrite the projection to read them); True when one was inserted."""
    def before(clauses: list[Tree], k: int) -> Splice | None:
        if clauses[k].data not in ("with_clause", "return_clause"):
            return None
        projection = clauses[k].children[0]
        scope = getattr(projection, "scope_before", None)
        items = items_for(projection, set(scope)) if scope else []
        return (k, [star_with(items)], True) if items else None
    return splice_clauses(root, before)


class FreshNamer(Protocol):
    """What makes names no query uses (`uniqueness.FreshNames`)."""

    def fresh(self, prefix: str) -> str: ...


def substitute(node: object, values: dict[str, Tree]) -> object:
    """`node` with each read of a variable named in `values` replaced by a copy of its value,
    in place (give it a copy to keep the original)."""
    if not isinstance(node, Tree):
        return node
    if node.data == "var" and plain_name(node.children[0]) in values:
        return clone(values[plain_name(node.children[0])])
    node.children = [substitute(child, values) for child in node.children]
    return node


def own_node(pattern: Tree, new: set[str], names: FreshNamer, prefix: str) -> str | None:
    """A node variable `pattern` binds and no earlier clause does: one of `new` it names, else
    an anonymous node named from `prefix`; None where it has neither."""
    def named(node: Tree) -> bool:
        return bool(node.children) and isinstance(node.children[0], Tree) \
            and node.children[0].data == "name"
    nodes = [n for n in pattern.iter_subtrees_topdown() if n.data == "node_pattern"]
    for node in nodes:
        if named(node) and plain_name(node.children[0]) in new:
            return plain_name(node.children[0])
    for node in nodes:
        if not named(node):
            made = names.fresh(prefix)
            node.children.insert(0, name(made))
            return made
    return None


def replace_bottom_up(root: Tree, replacement: Callable[[Tree], Tree | None]) -> bool:
    """Replace, in place and children first, each subtree of `root` for which
    `replacement(subtree)` gives a tree; whether one was."""
    changed = False

    def visit(node: object) -> object:
        nonlocal changed
        if not isinstance(node, Tree):
            return node
        node.children = [visit(child) for child in node.children]
        found = replacement(node)
        if found is None:
            return node
        changed = True
        return found
    root.children = [visit(child) for child in root.children]
    return changed


def node_names(root: Tree) -> set[str]:
    """Names that stand for a node wherever a subquery reads them: named in a node pattern, and
    never an alias a WITH or UNWIND gives to something else (a RETURN's alias is read by its
    ORDER BY only)."""
    nodes = {plain_name(c) for n in root.iter_subtrees_topdown() if n.data == "node_pattern"
             for c in n.children if isinstance(c, Tree) and c.data == "name"}
    for n in root.iter_subtrees():
        if n.data == "unwind":
            nodes.discard(plain_name(n.children[1]))
        if n.data != "with_clause":
            continue
        for item in child_of(n.children[0], "proj_items").children:
            if isinstance(item, Tree) and len(item.children) > 1 and not (
                    item.children[0].data == "var"
                    and plain_name(item.children[0].children[0]) == plain_name(item.children[1])):
                nodes.discard(plain_name(item.children[1]))
    return nodes


def element_name(node: Tree) -> Tree | None:
    """The `name` a node pattern or a relationship's detail binds (`(n:Room)`, `[r:CONTAINS]`),
    None when it is anonymous or `node` is neither."""
    if node.data in ("node_pattern", "rel_detail") and node.children \
            and isinstance(node.children[0], Tree) and node.children[0].data == "name":
        return node.children[0]
    return None


def named_node_patterns(node: Tree) -> list[Tree]:
    """The node patterns under `node` that name a variable (`(n)`, `(n:Room {..})`)."""
    return [sub for sub in node.iter_subtrees_topdown()
            if sub.data == "node_pattern" and element_name(sub) is not None]


def compared_with_true(test: Tree) -> Tree:
    """`(test) = true`: the same value as `test` (true, false or NULL) in a filter, which Kuzu
    and Ladybug do not plan as a join key on an equality inside a subquery (`count_keys.py`,
    `outer_anchors.py`)."""
    return tree("compare", tree("paren", test), Token("EQ", "="), tree("true_lit"))


def add_conditions(holder: Tree, tests: list[Tree]) -> None:
    """AND `tests` to the WHERE of `holder` (a MATCH or a subquery's pattern), after the
    conditions it has (one WHERE made if it has none)."""
    tests = list(tests)
    where = child_of(holder, "where")
    if where is not None:
        tests.insert(0, tree("paren", where.children[0]))
    test = tests[0] if len(tests) == 1 else tree("and_", *tests)
    if where is not None:
        where.children[0] = test
    else:
        holder.children.append(tree("where", test))
