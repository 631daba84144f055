"""Neo4j 5's scope errors: a name declared twice, declared as two kinds of value, or used by a
CALL { } where it is not in scope.

Neo4j's semantic analysis keeps the names of each query part in a scope
(`SemanticState.declareVariable` fails on a name the current scope has; a pattern's node or
relationship named like one in scope is that value and must be of its type,
`implicitlyDeclareVariable`). The engines answer some of these queries (the CALL { } inliner
binds a name the scope clause imports from nowhere, `call_subqueries.py`; a path named twice
is matched twice) and refuse others with binder messages that valid queries share (`dialect`,
the model uncharged). Each check here is Neo4j's:

- `CALL (x) { }`, or an importing `WITH x`, of a name not in scope; inside a CALL { } body, a
  read of a name the body's scope lacks (an imported name a later WITH dropped): "Variable `x`
  not defined";
- the first WITH of a `CALL { }` without a scope clause that reads outer names but aliases or
  has DISTINCT, WHERE, ORDER BY, SKIP or LIMIT (`SingleQuery.checkIllegalImportWith`);
- a CALL { } that returns a name the outer query has: "Variable `r` already declared in outer
  scope";
- a named path or an UNWIND alias whose name is in scope: "Variable `p` already declared";
- a pattern's node named like a relationship or a path in scope, a relationship named like a
  node, a path or a relationship list: "Type mismatch: r defined with conflicting type Node
  (expected Relationship)"; and a node or relationship named like a value Neo4j types as
  something else (`WITH {a: 1} AS row MATCH (row)-->(o)`: "... type Map (expected Node)";
  the types are `static_types.py`'s);
- inside EXISTS / COUNT / COLLECT (all outer names) or `CALL (x) { }` (its imports), a new
  variable of an outer name (a WITH or RETURN alias, an UNWIND alias, a named path): "The
  variable `kind` is shadowing a variable with the same name from the outer scope and needs
  to be renamed" (`SubqueryExpression.checkForShadowedVariables`).

Names are only known as far as the query shows them: a value a WITH computes or an UNWIND
alias has a type only where `static_types.py` knows Neo4j's, a procedure's column none (never a
mismatch), and a procedure called without YIELD
(columns not written) leaves the scope unknown, so that nothing is called undefined after it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError
from dsgqa.dialect.static_types import (
    PROPERTY_HOLDERS,
    element_of,
    holds_no_property,
    static_type,
)
from dsgqa.dialect.trees import (
    CALLS,
    binds,
    child_of,
    comprehension_pattern,
    function_name,
    item_name,
    reads,
    rel_detail,
)
from dsgqa.dialect.with_where_aliases import alias_key

# Neo4j's names of the types a pattern gives its elements; None: any other value, or a value
# whose type this module does not know.
NODE, RELATIONSHIP, RELATIONSHIPS, PATH = "Node", "Relationship", "List<Relationship>", "Path"
Types = dict[str, str | None]

# A query that may hold one of these errors: a CALL, an UNWIND, a named path, a named
# relationship or a subquery (the walk costs time on every query).
_MAY_ERR = re.compile(r"CALL|UNWIND|-\s*\[\s*`?\w|(?:EXISTS|COUNT|COLLECT)\s*\{"
                      r"|=\s*(?:\(|shortestPath|allShortestPaths)"
                      # a pattern expression (which may introduce a variable)
                      r"|(?:\b(?:WHERE|AND|OR|XOR|NOT|WHEN|THEN|ELSE)\b|[,(\[])\s*\([^()]*\)\s*<?-",
                      re.IGNORECASE)
# A WITH's alias (`AS row`) that a pattern after it may name again (`(row)`, `(row:Room)`, not
# a call's `size(row)`), or whose property is read (`row.key`): its value may be of a type no
# node has, or with no properties (`static_types.py`); and a property read of what a call,
# an index or a literal gives (`toString(x).key`, `{a: 1}.a.b`).
_ALIAS = re.compile(r"\bAS\s+`?(\w+)", re.IGNORECASE)
_PATTERN_NAME = re.compile(r"(?:(?<![\w.])|(?i:MATCH))\(\s*`?(\w+)`?\s*[):{]"
                           r"|(?<![\w.$`])`?(\w+)`?\s*\.\s*[A-Za-z_`]")
_READ_OF_VALUE = re.compile(r"[)\]'\"}]\s*\.\s*[A-Za-z_`]")
# An importing WITH's parts Neo4j rejects, in the order it reports them.
_IMPORT_ERRORS = (("order", "ORDER BY"), ("skip", "SKIP"), ("limit", "LIMIT"))


@dataclass
class _Scope:
    """The names a query part sees while it is walked: `names` its own, `fixed` those of the
    enclosing query that no WITH of the part drops (the outer names of EXISTS / COUNT /
    COLLECT, the imports of `CALL (x)`), `guarded` the names no new variable may take there,
    `outer` the names of the query around a CALL { } body (None elsewhere), `exact` whether
    every name in scope is known, `reads_checked` whether a read of a name not in scope is an
    error found here (in a CALL { } body; elsewhere the engines' binders report it)."""

    names: Types
    fixed: Types = field(default_factory=dict)
    guarded: frozenset[str] = frozenset()
    outer: Types | None = None
    exact: bool = True
    reads_checked: bool = False

    def visible(self) -> Types:
        return {**self.fixed, **self.names}


def _already_declared(name: str) -> CypherSyntaxError:
    return CypherSyntaxError(f"Variable `{name}` already declared")


def _shadowing(name: str) -> CypherSyntaxError:
    return CypherSyntaxError(f"The variable `{name}` is shadowing a variable with the same name "
                             "from the outer scope and needs to be renamed")


def _declare(name: str, kind: str | None, scope: _Scope, local: Types | None = None) -> None:
    """A new variable (a named path, an UNWIND alias) in `scope` (in `local`, the MATCH's own
    names, where given)."""
    if name in scope.guarded:
        raise _shadowing(name)
    if name in scope.visible() or (local is not None and name in local):
        raise _already_declared(name)
    (local if local is not None else scope.names)[name] = kind


def _bound_as(name: str, expected: str, seen: Types, local: Types | None = None) -> None:
    """A pattern's node or relationship named `name`: the value of that name where one is in
    scope (its type must be `expected`), else a new variable of that type in `local`."""
    if name in seen or (local is not None and name in local):
        known = local.get(name) if local is not None and name in local else seen[name]
        if known is not None and known != expected:
            raise CypherSyntaxError(f"Type mismatch: {name} defined with conflicting type "
                                    f"{known} (expected {expected})")
    elif local is not None:
        local[name] = expected


def _elements(pattern: Tree) -> list[tuple[str, str]]:
    """The named nodes and relationships of a MATCH pattern, in order, with their types."""
    path = pattern.children[-1]
    chain = path.children[-1] if path.data == "path_function" else path
    found = []
    for element in chain.children:
        if not isinstance(element, Tree):
            continue
        detail = element if element.data == "node_pattern" else rel_detail(element)
        named = child_of(detail, "name") if detail is not None else None
        if named is None:
            continue
        if element.data == "node_pattern":
            found.append((plain_name(named), NODE))
        else:
            many = child_of(detail, "var_length") is not None   # type: ignore[arg-type]
            found.append((plain_name(named), RELATIONSHIPS if many else RELATIONSHIP))
    return found


def _match(clause: Tree, scope: _Scope) -> None:
    """A MATCH (or an EXISTS { pattern }): its paths are new variables, its nodes and
    relationships the values of their names where those are in scope."""
    seen = scope.visible()
    local: Types = {}
    for pattern in child_of(clause, "pattern_list").children:   # type: ignore[union-attr]
        for element_name, kind in _elements(pattern):
            _bound_as(element_name, kind, seen, local)
        if isinstance(pattern.children[0], Tree) and pattern.children[0].data == "name":
            _declare(plain_name(pattern.children[0]), PATH, scope, local)
        for sub in pattern.iter_subtrees_topdown():
            if sub.data in ("map_literal", "pattern_where"):
                _expression(sub, scope, {**seen, **local})
    scope.names.update(local)
    where = child_of(clause, "where")
    if where is not None:
        _expression(where, scope, scope.visible())
        _reads_in_scope(where, scope, scope.visible())


def _atom_name(atom: object) -> str | None:
    """The variable a pattern expression's node names: `(n)`, `(n:Room)`, `(n {..})`."""
    node = atom.children[0] if isinstance(atom, Tree) and atom.data == "paren" else None
    while isinstance(node, Tree) and node.data in ("has_label", "map_projection"):
        node = node.children[0]
    return plain_name(node.children[0]) if isinstance(node, Tree) and node.data == "var" \
        else None


def _pattern_expression(node: Tree, seen: Types, local: Types | None) -> list[str]:
    """A pattern predicate's (or comprehension's) nodes and relationships: the values of
    their names where those are in scope; new ones go to `local` (a comprehension's), or,
    without one, are returned."""
    steps = [node.children[0], *node.children[1:-1], *node.children[-1].children]
    new: list[str] = []
    for step in steps:
        if not isinstance(step, Tree):
            continue
        if step.data.startswith("rel_"):
            detail = rel_detail(step)
            named = child_of(detail, "name") if detail is not None else None
            if named is not None:
                many = child_of(detail, "var_length") is not None   # type: ignore[arg-type]
                _bound_as(plain_name(named), RELATIONSHIPS if many else RELATIONSHIP, seen,
                          local)
                new += [plain_name(named)] if plain_name(named) not in seen else []
        elif (atom := _atom_name(step)) is not None:
            _bound_as(atom, NODE, seen, local)
            new += [atom] if atom not in seen else []
    return new


def _expression(node: object, scope: _Scope, seen: Types, lenient: bool = False) -> None:
    """The subqueries and pattern expressions of an expression, with `seen` the names in
    scope there (a lambda's variable is a value of no known type). A pattern expression may
    not introduce a variable, except inside a CASE (`lenient`), and a shortestPath()'s
    unbound ends are "not defined" instead (Neo4j 5's semantic analysis, checked with its own
    linter)."""
    if not isinstance(node, Tree):
        return
    lenient = lenient or node.data in ("case_expr", "path_function") or (
        node.data == "call" and isinstance(node.children[0], Tree)
        and function_name(node.children[0]).lower() in ("shortestpath", "allshortestpaths"))
    if node.data == "subquery":
        _subquery_expression(node.children[-1], scope, seen)
        return
    pattern = comprehension_pattern(node)
    if pattern is not None:   # its new names are its own, its path too
        inner = dict(seen)
        _pattern_expression(pattern, seen, inner)
        head = node.children[0]
        if head.data == "compare" and head.children[0].data == "var":
            inner[plain_name(head.children[0].children[0])] = PATH
        for child in node.children[1:]:
            _expression(child, scope, inner, lenient)
        return
    if node.data == "pattern_predicate":
        new = _pattern_expression(node, seen, None)
        if new and scope.exact and not lenient:   # Neo4j's `SemanticExpressionCheck`
            raise CypherSyntaxError("PatternExpressions are not allowed to introduce new "
                                    f"variables: '{new[0]}'.")
    if node.data == "prop":
        _property_read(node, seen)
    bound = binds(node)
    inner = {**seen, **dict.fromkeys(bound)} if bound else seen
    # (a call's name is no expression: `point.distance(..)`)
    for child in node.children[1:] if node.data in CALLS else node.children:
        _expression(child, scope, inner, lenient)


def _property_read(node: Tree, seen: Types) -> None:
    """`x.key` of a value Neo4j types as one with no properties (a string, a number, a list):
    its compile-time type mismatch. A value of type Any, or a storable one (a node's
    property, which may be a point), is read per row (`scalar_reads.py`)."""
    held = static_type(node.children[0], seen)
    if holds_no_property(held):
        raise CypherSyntaxError(f"Type mismatch: expected {PROPERTY_HOLDERS} but was {held}")


def _subquery_expression(body: Tree, scope: _Scope, seen: Types) -> None:
    """EXISTS / COUNT / COLLECT: the outer names stay in scope through its clauses, and none
    may be declared anew (Neo4j's shadowing error)."""
    inner = _Scope({}, fixed=dict(seen), guarded=frozenset(seen), exact=scope.exact)
    if body.data == "subquery_pattern":
        _match(body, inner)
    else:
        _query(body, inner)


def _first_read(node: Tree, missing: set[str]) -> str:
    return next(plain_name(sub.children[0]) for sub in node.iter_subtrees_topdown()
                if sub.data == "var" and plain_name(sub.children[0]) in missing)


def _reads_in_scope(node: Tree, scope: _Scope, seen: Types) -> None:
    """In a CALL { } body, an expression's reads are of names in scope (a pattern
    comprehension's new names are not told apart from reads here: left out)."""
    if not scope.reads_checked or not scope.exact \
            or any(sub.data == "pattern_predicate" for sub in node.iter_subtrees()):
        return
    missing = reads(node) - set(seen)
    if missing:
        raise CypherSyntaxError(f"Variable `{_first_read(node, missing)}` not defined")


def _items(clause: Tree) -> list[object]:
    return child_of(clause.children[0], "proj_items").children   # type: ignore[union-attr]


def _passes_through(item: Tree) -> bool:
    """`r` or `r AS r`: the item is the variable it names."""
    value = item.children[0]
    return value.data == "var" and item_name(item) == plain_name(value.children[0])


def _projection(clause: Tree, scope: _Scope) -> None:
    """A WITH or RETURN: the names its items give (a variable's type passed on) replace the
    part's own (`*` keeps them)."""
    before = scope.visible()
    returning = clause.data == "return_clause" and scope.outer is not None
    names: Types = {}
    for item in _items(clause):
        if isinstance(item, Token):   # *
            names.update(scope.names)
            continue
        _expression(item.children[0], scope, before)
        _reads_in_scope(item.children[0], scope, before)
        named = item_name(item)
        if named is None:
            continue
        if returning and named in scope.outer:   # type: ignore[operator]
            raise CypherSyntaxError(f"Variable `{named}` already declared in outer scope")
        if named in scope.guarded and not _passes_through(item):
            raise _shadowing(named)
        names[named] = static_type(item.children[0], before)
    scope.names = names
    # A WHERE or ORDER BY also reads names the projection dropped (where it does not group):
    # reads are checked against both, subqueries see the projected names only (and nothing is
    # called undefined in them: they may see more).
    after = {**before, **scope.visible()}
    narrower = _Scope(scope.names, scope.fixed, scope.guarded, None, False)
    projected = {alias_key(item.children[0]) for item in _items(clause)
                 if isinstance(item, Tree) and len(item.children) > 1}
    for rest in [*clause.children[1:], *clause.children[0].children]:
        if not isinstance(rest, Tree) or rest.data == "proj_items":
            continue
        if rest.data == "order":   # a key equal to an aliased item reads that alias (Neo4j's
            # `NormalizeWithAndReturnClauses`, before its semantic analysis)
            rest = Tree("order", [k for k in rest.children if not (
                isinstance(k, Tree) and alias_key(k.children[0]) in projected)])
        _expression(rest, narrower, scope.visible())
        _reads_in_scope(rest, scope, after)


def _imports_outer(first: Tree) -> bool | None:
    """Whether a CALL { } body's first WITH reads outer names (a `*`, or a variable an item
    reads); None where a pattern expression makes that unknown here."""
    items = _items(first)
    if any(isinstance(item, Token) for item in items):
        return True
    if any(sub.data == "pattern_predicate" for item in items for sub in item.iter_subtrees()):
        return None
    return any(reads(item.children[0]) for item in items)   # type: ignore[union-attr]


def _importing_with(first: Tree, outer: Types, scope: _Scope) -> None:
    """The first WITH of a CALL { } body without a scope clause, where it reads outer names:
    Neo4j's importing WITH, plain variables only (`checkIllegalImportWith`); its names are
    the part's first."""
    projection = first.children[0]
    items = _items(first)
    what = ""
    if not all(isinstance(i, Token) or _passes_through(i) for i in items):   # type: ignore[arg-type]
        what = "Aliasing or expressions are not supported"
    elif any(isinstance(c, Token) and c.type == "DISTINCT" for c in projection.children):
        what = "DISTINCT is not allowed"
    elif len(first.children) > 1:
        what = "WHERE is not allowed"
    else:
        what = next((f"{said} is not allowed" for kind, said in _IMPORT_ERRORS
                     if child_of(projection, kind) is not None), "")
    if what:
        raise CypherSyntaxError("Importing WITH should consist only of simple references to "
                                f"outside variables. {what}.")
    for item in items:
        if isinstance(item, Token):
            scope.names.update(outer)
            continue
        imported = item_name(item)   # type: ignore[arg-type]
        if imported not in outer and scope.exact:
            raise CypherSyntaxError(f"Variable `{imported}` not defined")
        scope.names[imported] = outer.get(imported)   # type: ignore[index]


def _call(clause: Tree, scope: _Scope) -> None:
    """A CALL { } subquery: the names it imports, its body, and the names it returns."""
    seen = scope.visible()
    scope_clause = child_of(clause, "call_scope")
    body = _Scope({}, outer=seen, exact=scope.exact, reads_checked=True)
    if scope_clause is not None:
        if any(isinstance(c, Token) for c in scope_clause.children):   # CALL (*)
            imported = dict(seen)
        else:
            imported = {}
            for named in scope_clause.children:
                name = plain_name(named)
                if name not in seen and scope.exact:
                    raise CypherSyntaxError(f"Variable `{name}` not defined")
                imported[name] = seen.get(name)
        body.fixed, body.guarded = imported, frozenset(imported)
    returned = _query(clause.children[-1], body, importing=scope_clause is None)
    if returned is None:
        scope.exact = False
    else:
        scope.names.update(returned)


def _clause(clause: Tree, scope: _Scope) -> None:
    if clause.data == "match":
        _match(clause, scope)
    elif clause.data == "unwind":
        _expression(clause.children[0], scope, scope.visible())
        _reads_in_scope(clause.children[0], scope, scope.visible())
        _declare(plain_name(clause.children[1]),
                 element_of(static_type(clause.children[0], scope.visible())), scope)
    elif clause.data in ("with_clause", "return_clause"):
        _projection(clause, scope)
    elif clause.data == "call_subquery":
        _call(clause, scope)
    else:   # a procedure: the columns it yields, or ones not written
        yielded = child_of(clause, "yield_items")
        if yielded is None:
            scope.exact = False
        else:
            names = [c for c in yielded.children if isinstance(c, Tree)]
            scope.names.update(dict.fromkeys(plain_name(n) for n in names))


def _query(query: Tree, template: _Scope, importing: bool = False) -> Types | None:
    """Each part of `query` in a scope like `template` (its own names empty); the names and
    types its first part returns, or None where they are not known (`RETURN *`)."""
    returned: Types | None = {}
    for index, part in enumerate(c for c in query.children
                                 if isinstance(c, Tree) and c.data == "single_query"):
        scope = _Scope({}, dict(template.fixed), template.guarded, template.outer,
                       template.exact, template.reads_checked)
        clauses = [c for c in part.children if isinstance(c, Tree)]
        if importing and clauses[0].data == "with_clause":
            imports = _imports_outer(clauses[0])
            if imports is None:
                scope.exact = False
            elif imports:
                _importing_with(clauses[0], template.outer or {}, scope)
                clauses = clauses[1:]
        for clause in clauses:
            _clause(clause, scope)
        if index == 0:
            last = clauses[-1] if clauses else None
            if last is None or last.data != "return_clause":
                returned = {}
            elif any(isinstance(i, Token) for i in _items(last)):
                returned = None
            else:
                returned = dict(scope.names)
    return returned


def _may_mistype(text: str) -> bool:
    """Whether a pattern may name, or a property read read, an alias bound before it, or a
    property read reads a computed value (the gate of the walk)."""
    if _READ_OF_VALUE.search(text):
        return True
    aliases: dict[str, int] = {}
    for alias in _ALIAS.finditer(text):
        aliases.setdefault(alias.group(1), alias.start())
    return bool(aliases) and any(
        aliases.get(named.group(1) or named.group(2), len(text)) < named.start()
        for named in _PATTERN_NAME.finditer(text))


def refuse_scope_errors(root: Tree, text: str) -> None:
    """Raise Neo4j's `CypherSyntaxError` for the first scope error of the parsed query;
    `text`, the query's, says whether it may hold one."""
    if _MAY_ERR.search(text) or _may_mistype(text):
        _query(root.children[0] if root.data == "start" else root, _Scope({}))
