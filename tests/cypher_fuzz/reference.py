"""A small reference evaluator for the fuzzer's AST, written from the Neo4j Cypher Manual.

It knows exactly the constructs `generate` produces, and answers as Neo4j 5 would on
Heracles' layout. Semantics it follows (manual chapters in brackets):
- [Patterns] relationship isomorphism: within one MATCH (all its comma-separated patterns and
  variable-length segments) no relationship is bound twice; nodes may repeat. An undirected
  pattern matches a relationship either way, so a pair stored both ways matches twice.
- [OPTIONAL MATCH] its WHERE belongs to the pattern; a row without a match keeps one row with
  the new variables NULL.
- [shortestPath] the WHERE's predicate over `nodes(p)` is applied during the search: the result
  is the shortest path whose nodes satisfy it.
- [Aggregation] non-aggregated items are the grouping keys (equivalence: null = null); with no
  keys and no rows there is one row; count(x), sum, avg, min, max, collect, stDev, stDevP and
  the percentiles skip nulls; sum of nothing is 0, stDev of fewer than two values 0.0.
- [ORDER BY] ascending puts null last, descending first; ORDER BY may name a projected alias
  (which shadows a variable of the same name) or repeat a projected expression.
- [Lists] a negative index counts from the end, an index out of range is null, slices clamp.
- [Working with null] three-valued logic; IN with a null element and no match is null.
- [Values and types] values of different types are never equal (`=` false, `<>` true) and not
  comparable (`<` null); STARTS WITH, ENDS WITH, CONTAINS and =~ with an operand that is not a
  string are null; min() and max() of mixed types follow ORDER BY's global order.
- [String functions] an argument of another type is an error: at compile time where its type
  is known from the text (`argtypes.check`), else on each row the call is evaluated for; so is
  a negative length or start of left(), right() and substring().
Where Neo4j leaves the rows open (ties cut by LIMIT, an index into collect() over unordered
rows), it raises `Nondeterministic` and the query is dropped.

Errors are Neo4j's answer only where every plan meets them. Neo4j's planner orders a WHERE's
conjuncts freely (and evaluates one as soon as its own nodes are bound), short-circuits AND and
OR, and may compute a projected value late or never (past a LIMIT, when nothing reads it). So
an error raises `CypherError` where it is certain (a returned or sorted value, a WHERE whose
other conjuncts all hold, a grouping key), and `Nondeterministic` where a plan might avoid it.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from tests.cypher_fuzz import argtypes, labelexpr
from tests.cypher_fuzz import ast as A
from tests.cypher_fuzz.refgraph import RefGraph, Rel
from tests.cypher_fuzz.values import (
    Bag,
    CypherError,
    NodeRef,
    Nondeterministic,
    PathVal,
    Point,
    Raised,
    RelRef,
    compare,
    equals,
    equivalence_key,
    is_number,
    order_compare,
    sort_key,
)

Row = dict[str, object]
UNBOUNDED_HOPS = 12  # the generator writes `*` only on CONTAINS, whose chains are <= 3 long
EARLY_BINDINGS = 5_000  # node bindings tried for a conjunct that may raise before the match
# pattern steps one query may take: a pattern list from several bound nodes multiplies its
# patterns' matches (three undirected variable-length walks over a dense layer: millions of
# rows per incoming row), where the engines run out of time anyway
MATCH_STEPS = 250_000


def java_whitespace(char: str) -> bool:
    """Java's Character.isWhitespace: a space, line or paragraph separator that is not a
    no-break space, or one of nine controls."""
    if char in "\t\n\u000b\f\r\u001c\u001d\u001e\u001f":
        return True
    return unicodedata.category(char) in ("Zs", "Zl", "Zp") and char not in "\u00a0\u2007\u202f"


@dataclass
class Result:
    """Columns, rows, and how the rows are ordered: `runs` are the lengths of consecutive row
    groups whose order among themselves is undefined (one run of all rows: unordered)."""

    columns: list[str]
    rows: list[list[object]]
    runs: list[int]


@dataclass
class Stream:
    rows: list[Row]
    ordered: bool  # sorted without ties, so collect() sees a defined order


def run(query: A.Query, graph: RefGraph) -> Result:
    """The rows Neo4j returns for `query` on `graph`; `CypherError` where Neo4j raises."""
    argtypes.check(query)
    ev = Evaluator(graph)
    results = [ev.part(part) for part in query.parts]
    if ev.dropped_error:
        raise Nondeterministic(f"an error in a value Neo4j need not compute: {ev.dropped_error}")
    if len(results) == 1:
        return results[0]
    rows = [r for res in results for r in res.rows]
    if not query.union_all:
        seen: set = set()
        unique = []
        for row in rows:
            key = equivalence_key(row)
            if key not in seen:
                seen.add(key)
                unique.append(row)
        rows = unique
    return Result(results[0].columns, rows, [len(rows)])


def _java_log(x: float, log: Callable[[float], float]) -> float:
    """Java's Math.log/log10: -Infinity at 0, NaN below."""
    return log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _java_exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


# log() is the natural logarithm in Neo4j (the engines' log() is base 10).
_MATH: dict[str, Callable[..., float]] = {
    "log": lambda x: _java_log(x, math.log),
    "log10": lambda x: _java_log(x, math.log10),
    "exp": _java_exp,
    "haversin": lambda x: (1.0 - math.cos(x)) / 2.0,
    "atan2": math.atan2,
    "sin": math.sin,
    "cos": math.cos,
}


class Evaluator:
    def __init__(self, graph: RefGraph) -> None:
        self.g = graph
        self.steps_left = MATCH_STEPS
        self.dropped_error = ""  # set when a projected value raised (see `Raised`)

    # ------------------------------------------------------------------ clauses

    def part(self, clauses: tuple[A.Clause, ...]) -> Result:
        stream = Stream([{}], True)
        for clause in clauses[:-1]:
            stream = self.clause(clause, stream)
        last = clauses[-1]
        assert isinstance(last, A.Projection) and last.kind == "RETURN"
        rows, runs = self.projection(last, stream, final=True)
        columns = [alias for _, alias in last.items]
        out = [[r[c] for c in columns] for r in rows.rows]
        for cell in (c for row in out for c in row):
            if isinstance(cell, Raised):
                raise CypherError(cell.message)  # a returned value is always computed
        return Result(columns, out, runs)

    def clause(self, clause: A.Clause, stream: Stream) -> Stream:
        if isinstance(clause, A.Match):
            return Stream([out for row in stream.rows for out in self.match_clause(clause, row)],
                          False)
        if isinstance(clause, A.Unwind):
            out = []
            for row in stream.rows:
                value = self.eval(clause.expr, row)
                if value is None:
                    continue
                if isinstance(value, Bag):
                    stream.ordered = False
                items = value if isinstance(value, list) else [value]
                out += [{**row, clause.var: item} for item in items]
            return Stream(out, stream.ordered)
        if isinstance(clause, A.Call):
            out = []
            for row in stream.rows:
                returned_rows = []
                for part in (clause.body, *clause.others):
                    inner = Stream([{name: row[name] for name in clause.imports}], True)
                    for body_clause in part:
                        inner = self.clause(body_clause, inner)
                    returned_rows += inner.rows
                if clause.others and not clause.union_all:   # UNION: distinct rows
                    seen: set = set()
                    kept = []
                    for returned in returned_rows:
                        key = equivalence_key(list(returned.values()))
                        if key not in seen:
                            seen.add(key)
                            kept.append(returned)
                    returned_rows = kept
                out += [{**row, **returned} for returned in returned_rows]
            return Stream(out, False)
        rows, _ = self.projection(clause, stream, final=False)
        return rows

    def match_clause(self, clause: A.Match, row: Row) -> list[Row]:
        if any(p.shortest for p in clause.patterns):
            found = list(self.shortest(clause.patterns[0], clause.where, row))
        else:
            found = [r for r, _ in self.match_patterns(clause.patterns, row, frozenset())]
            if clause.where is not None:
                found = self.where(clause.where, found)
                self.check_early_errors(clause, row)
        if found or not clause.optional:
            return found
        new = {v for p in clause.patterns for v in pattern_vars(p)} - set(row)
        return [{**row, **dict.fromkeys(new)}]

    def where(self, cond: A.Expr, rows: list[Row]) -> list[Row]:
        """The rows on which `cond` holds. Neo4j tests a WHERE's top-level conjuncts in an
        order of the planner's choosing and drops a row at the first one not true: an error is
        certain on a row whose other conjuncts all hold, and only possible on another."""
        parts = conjuncts(cond)
        kept: list[Row] = []
        possible = None
        for r in rows:
            values, errors = [], []
            for c in parts:
                try:
                    values.append(self.eval(c, r))
                except CypherError as exc:
                    errors.append(exc)
            if errors and all(v is True for v in values):
                raise errors[0]
            if errors:
                possible = errors[0]
            elif all(v is True for v in values):
                kept.append(r)
        if possible is not None:
            raise Nondeterministic(f"an error another conjunct may spare: {possible}")
        return kept

    def check_early_errors(self, clause: A.Match, row: Row) -> None:
        """A conjunct may be tested as soon as the nodes it reads are bound, before the rest
        of the pattern is matched (the planner picks where): if it raises for some binding of
        them that no complete match reaches, Neo4j may or may not raise."""
        labels: dict[str, str | None] = {}
        late: set[str] = set()  # relationship and path variables: bound with the whole path
        for p in clause.patterns:
            late.update([p.path_var] if p.path_var else [])
            for el in p.elements:
                if isinstance(el, A.NodePat) and el.var and el.var not in row:
                    labels[el.var] = labels.get(el.var) or el.label
                elif isinstance(el, A.RelPat) and el.var and el.var not in row:
                    late.add(el.var)
        poisoned = any(isinstance(v, Raised) for v in row.values())
        for c in conjuncts(clause.where):  # type: ignore[arg-type]
            if not (poisoned or argtypes.may_raise(c)):
                continue
            names = {n.name for n in A.walk(c) if isinstance(n, A.Var)} | {
                n.var for n in A.walk(c) if isinstance(n, A.NodePat) and n.var}
            if names & late:
                continue
            own = [v for v in labels if v in names]
            pools = [[s for s, node in self.g.nodes.items()
                      if labels[v] is None or node.label == labels[v]] for v in own]
            if math.prod(len(p) for p in pools) > EARLY_BINDINGS:
                raise Nondeterministic("too many node bindings to check a conjunct on")
            for combo in itertools.product(*pools):
                try:
                    self.eval(c, {**row, **{v: NodeRef(s) for v, s in zip(own, combo,
                                                                            strict=True)}})
                except CypherError as exc:
                    raise Nondeterministic(f"an error Neo4j may meet before the pattern "
                                           f"is matched: {exc}") from exc

    def projected(self, compute) -> object:  # type: ignore[no-untyped-def]
        """A projected value, or `Raised` when computing it raised."""
        try:
            return compute()
        except CypherError as exc:
            self.dropped_error = self.dropped_error or str(exc)
            return Raised(str(exc))

    def projection(self, proj: A.Projection, stream: Stream,
                   final: bool) -> tuple[Stream, list[int]]:
        aggregating = any(contains_agg(e) for e, _ in proj.items)
        scoped: list[tuple[Row, Row]] = []  # (projected row, scope for ORDER BY)
        if aggregating:
            keys = [(e, a) for e, a in proj.items if not contains_agg(e)]
            groups: dict[object, list[Row]] = {}
            for row in stream.rows:
                values = tuple(self.eval(e, row) for e, _ in keys)
                groups.setdefault(equivalence_key(list(values)), []).append(row)
            if not groups and not keys:
                groups[()] = []
            for members in groups.values():
                out = {a: self.projected(lambda e=e, m=members: self.eval_agg(
                    e, m, stream.ordered)) for e, a in proj.items}
                scoped.append((out, out))
        else:
            for row in stream.rows:
                out = {a: self.projected(lambda e=e, row=row: self.eval(e, row))
                       for e, a in proj.items}
                scoped.append((out, {**row, **out}))
        if proj.distinct:
            for out, _scope in scoped:
                for value in out.values():
                    if isinstance(value, Raised):  # DISTINCT computes every value
                        raise CypherError(value.message)
            seen: set = set()
            unique = []
            for out, _scope in scoped:
                key = equivalence_key([out[a] for _, a in proj.items])
                if key not in seen:
                    seen.add(key)
                    unique.append((out, out))
            scoped = unique
        ordered = False
        runs = [len(scoped)]
        if proj.order:
            keyed = [(self.order_keys(proj, out, scope, aggregating), out)
                     for out, scope in scoped]
            for i in reversed(range(len(proj.order))):
                keyed.sort(key=lambda kv, i=i: kv[0][i], reverse=proj.order[i].desc)
            scoped = [(out, out) for _, out in keyed]
            keys_only = [k for k, _ in keyed]
            runs = _runs(keys_only)
            start = proj.skip or 0
            end = start + proj.limit if proj.limit is not None else len(keys_only)
            for cut in (start, end):
                if 0 < cut < len(keys_only) and keys_only[cut - 1] == keys_only[cut]:
                    raise Nondeterministic("a tie straddles SKIP/LIMIT")
            ordered = all(r == 1 for r in runs)
            runs = _cut_runs(runs, start, end)
        elif (proj.skip is not None or proj.limit is not None) \
                and (aggregating or not stream.ordered):
            # Over rows a WITH sorted without ties, Neo4j keeps their order through a
            # projection that does not aggregate (DISTINCT keeps each value's first arrival).
            raise Nondeterministic("SKIP/LIMIT without ORDER BY")
        start = proj.skip or 0
        end = start + proj.limit if proj.limit is not None else None
        rows = [out for out, _ in scoped][start:end]
        if not proj.order:
            runs = [len(rows)]
        if proj.where is not None:
            rows = self.where(proj.where, rows)
            runs = [len(rows)] if not ordered else [1] * len(rows)
        still_ordered = ordered if proj.order else stream.ordered and not aggregating
        return Stream(rows, still_ordered), runs

    def order_keys(self, proj: A.Projection, out: Row, scope: Row,
                   aggregating: bool) -> tuple:
        keys = []
        for item in proj.order:
            value: object
            match = next((a for e, a in proj.items if e == item.expr), None)
            value = out[match] if match is not None else self.eval(item.expr, scope)
            if isinstance(value, Raised):  # every sort key is computed
                raise CypherError(value.message)
            keys.append(sort_key(value))
        return tuple(keys)

    # ------------------------------------------------------------------ patterns

    def match_patterns(self, patterns: tuple[A.PathPat, ...], row: Row,
                       used: frozenset[int]) -> Iterator[tuple[Row, frozenset[int]]]:
        if not patterns:
            yield row, used
            return
        for r, u in self.match_path(patterns[0], row, used):
            yield from self.match_patterns(patterns[1:], r, u)

    def match_path(self, pat: A.PathPat, row: Row,
                   used: frozenset[int]) -> Iterator[tuple[Row, frozenset[int]]]:
        first = pat.elements[0]
        assert isinstance(first, A.NodePat)
        for node, r in self.node_candidates(first, row):
            yield from self._extend(pat, 1, node, r, used, [node], [])

    def _extend(self, pat: A.PathPat, i: int, node: str, row: Row, used: frozenset[int],
                nodes: list[str], rels: list[int]) -> Iterator[tuple[Row, frozenset[int]]]:
        self.steps_left -= 1
        if self.steps_left < 0:
            raise Nondeterministic(f"more than {MATCH_STEPS} pattern steps to evaluate")
        if i >= len(pat.elements):
            if pat.path_var:
                row = {**row, pat.path_var: PathVal(tuple(NodeRef(n) for n in nodes),
                                                    tuple(RelRef(x) for x in rels))}
            yield row, used
            return
        rel = pat.elements[i]
        nxt = pat.elements[i + 1]
        assert isinstance(rel, A.RelPat) and isinstance(nxt, A.NodePat)
        for end, trail, r in self.expand(rel, node, row, used):
            r2 = self.bind_node(nxt, end, r)
            if r2 is None:
                continue
            step_nodes = self.trail_nodes(node, trail)
            yield from self._extend(pat, i + 2, end, r2, used | frozenset(trail),
                                    nodes + step_nodes, rels + trail)

    def trail_nodes(self, start: str, trail: list[int]) -> list[str]:
        out, at = [], start
        for rid in trail:
            rel = self.g.rels[rid]
            at = rel.dst if rel.src == at else rel.src
            out.append(at)
        return out

    def expand(self, rel: A.RelPat, node: str, row: Row,
               used: frozenset[int]) -> Iterator[tuple[str, list[int], Row]]:
        if rel.hops is None:
            for r, other in self.steps(rel, node):
                if r.id in used:
                    continue
                if rel.var:
                    bound = row.get(rel.var)
                    if rel.var in row and bound != RelRef(r.id):
                        continue
                    yield other, [r.id], {**row, rel.var: RelRef(r.id)}
                else:
                    yield other, [r.id], row
            return
        lo, hi = rel.hops
        hi = UNBOUNDED_HOPS if hi is None else hi

        def walk(at: str, trail: list[int]) -> Iterator[tuple[str, list[int], Row]]:
            if lo <= len(trail) <= hi:
                yield at, list(trail), row
            if len(trail) == hi:
                return
            for r, other in self.steps(rel, at):
                if r.id in used or r.id in trail:
                    continue
                trail.append(r.id)
                yield from walk(other, trail)
                trail.pop()

        found = list(walk(node, []))
        if any(len(t) == UNBOUNDED_HOPS for _, t, _ in found) and rel.hops[1] is None:
            raise Nondeterministic("unbounded pattern deeper than the evaluator looks")
        yield from found

    def steps(self, rel: A.RelPat, node: str) -> Iterator[tuple[Rel, str]]:
        if rel.direction in ("out", "both"):
            for r in self.g.out[node]:
                if not rel.types or r.type in rel.types:
                    yield r, r.dst
        if rel.direction in ("in", "both"):
            for r in self.g.inc[node]:
                if not rel.types or r.type in rel.types:
                    yield r, r.src

    def node_candidates(self, pat: A.NodePat, row: Row) -> Iterator[tuple[str, Row]]:
        if pat.var and pat.var in row:
            bound = row[pat.var]
            if isinstance(bound, NodeRef):
                r = self.bind_node(pat, bound.id, row)
                if r is not None:
                    yield bound.id, r
            return
        for symbol in self.g.nodes:
            r = self.bind_node(pat, symbol, row)
            if r is not None:
                yield symbol, r

    def bind_node(self, pat: A.NodePat, symbol: str, row: Row) -> Row | None:
        node = self.g.nodes[symbol]
        if pat.label_expr is not None:
            if node.label not in labelexpr.allowed(pat.label_expr, labelexpr.LABELS):
                return None
        elif pat.label and node.label != pat.label:
            return None
        props = self.g.properties(symbol)
        for key, expr in pat.props:
            if equals(props.get(key), self.eval(expr, row)) is not True:
                return None
        if pat.var:
            if pat.var in row:
                return row if row[pat.var] == NodeRef(symbol) else None
            return {**row, pat.var: NodeRef(symbol)}
        return row

    def shortest(self, pat: A.PathPat, where: A.Expr | None, row: Row) -> Iterator[Row]:
        """Breadth-first over nodes the WHERE's node predicate admits. The generator writes
        the predicate as none()/all() over nodes(p); a path passes when every node does, so the
        shortest passing path is a shortest path in the admitted subgraph."""
        a, rel, b = pat.elements
        assert isinstance(a, A.NodePat) and isinstance(rel, A.RelPat) and isinstance(b, A.NodePat)
        start, goal = row.get(a.var or ""), row.get(b.var or "")
        if not isinstance(start, NodeRef) or not isinstance(goal, NodeRef):
            return
        if start == goal and (rel.hops is None or rel.hops[0] >= 1):
            # Neo4j's default dbms.cypher.forbid_shortestpath_common_nodes: an error where it
            # meets the row (ShortestPathCommonEndNodesForbiddenException)
            raise CypherError("shortestPath whose start and end are one node")
        if start == goal:
            raise Nondeterministic("shortestPath from a node to itself, from 0 hops")

        def admitted(symbol: str) -> bool:
            if where is None:
                return True
            assert isinstance(where, A.Quant) and where.source == A.Func("nodes", (
                A.Var(pat.path_var or ""),))
            value = self.eval(where.where, {**row, where.var: NodeRef(symbol)})
            return value is (where.kind == "all")

        if not (admitted(start.id) and admitted(goal.id)):
            return
        dist = {start.id: 0}
        frontier = [start.id]
        while frontier and goal.id not in dist:
            following = []
            for at in frontier:
                for _, other in self.steps(rel, at):
                    if other not in dist and admitted(other):
                        dist[other] = dist[at] + 1
                        following.append(other)
            frontier = following
        lo, hi = rel.hops or (1, 1)
        if goal.id in dist and lo <= dist[goal.id] and (hi is None or dist[goal.id] <= hi):
            yield {**row, pat.path_var or "_p": _ShortestPath(dist[goal.id])}

    # ------------------------------------------------------------------ expressions

    def eval_agg(self, e: A.Expr, rows: list[Row], ordered: bool) -> object:
        if isinstance(e, A.Agg):
            return self.aggregate(e, rows, ordered)
        if not contains_agg(e):
            return self.eval(e, rows[0]) if rows else None
        if isinstance(e, A.Func):
            return self.call(e.name, [self.eval_agg(a, rows, ordered) for a in e.args], e)
        if isinstance(e, A.BinOp):
            return self.binop(e.op, self.eval_agg(e.left, rows, ordered),
                              self.eval_agg(e.right, rows, ordered))
        if isinstance(e, A.Index):
            return self.index(self.eval_agg(e.base, rows, ordered),
                              self.eval_agg(e.index, rows, ordered))
        if isinstance(e, A.Slice):
            return self.slice(self.eval_agg(e.base, rows, ordered),
                              None if e.lo is None else self.eval_agg(e.lo, rows, ordered),
                              None if e.hi is None else self.eval_agg(e.hi, rows, ordered),
                              e.lo is None, e.hi is None)
        if isinstance(e, A.Prop):
            return self.prop(self.eval_agg(e.base, rows, ordered), e.key)
        if isinstance(e, A.IsNull):
            return (self.eval_agg(e.arg, rows, ordered) is None) != e.negated
        if isinstance(e, A.ListComp):
            return self.listcomp(e, self.eval_agg(e.source, rows, ordered), {})
        if isinstance(e, A.Quant):
            return self.quant(e, self.eval_agg(e.source, rows, ordered), {})
        raise AssertionError(f"aggregate inside {type(e).__name__}")

    def aggregate(self, agg: A.Agg, rows: list[Row], ordered: bool) -> object:
        if agg.arg is None:
            return len(rows)
        values = [self.eval(agg.arg, r) for r in rows]
        values = [v for v in values if v is not None]
        if agg.distinct:
            seen: set = set()
            unique = []
            for v in values:
                k = equivalence_key(v)
                if k not in seen:
                    seen.add(k)
                    unique.append(v)
            values = unique
        name = agg.name
        if name == "count":
            return len(values)
        if name == "collect":
            return list(values) if ordered else Bag(values)
        if name in ("min", "max"):
            if not values:
                return None
            best = values[0]
            for v in values[1:]:
                c = order_compare(v, best)
                if (c < 0) if name == "min" else (c > 0):
                    best = v
            return best
        if not all(is_number(v) for v in values):
            raise CypherError(f"{name} of a non-number")
        if name == "sum":
            if all(isinstance(v, int) for v in values):
                return sum(values)
            return math.fsum(values)
        if name == "avg":
            # Neo4j's running mean starts from the integer 0, and 0 + (-0.0) is 0.0 in Java: an
            # average is never -0.0 (avg(ceil(-0.5)) prints '0.0'); `+ 0.0` does the same here.
            return math.fsum(values) / len(values) + 0.0 if values else None
        if name in ("stDev", "stDevP"):
            n = len(values)
            if (n < 2 and name == "stDev") or n == 0:
                return 0.0
            mean = math.fsum(values) / n
            ss = math.fsum((v - mean) ** 2 for v in values)
            return math.sqrt(ss / (n - 1 if name == "stDev" else n))
        if name in ("percentileCont", "percentileDisc"):
            p = self.eval(agg.extra, rows[0] if rows else {}) if agg.extra else None
            if not values:
                return None
            s = sorted(values, key=sort_key)   # Double.compare: NaN last
            n = len(s)
            if name == "percentileDisc":
                idx = p * n
                i = int(idx)
                i = i if (idx != i or i == 0) else i - 1
                return s[i]
            idx = p * (n - 1)
            lo, hi = math.floor(idx), math.ceil(idx)
            if lo == hi or lo == n - 1:   # the stored value: an INTEGER of integers
                return s[lo]
            return s[lo] * (hi - idx) + s[hi] * (idx - lo)
        raise AssertionError(name)

    def eval(self, e: A.Expr, row: Row) -> object:
        if isinstance(e, A.Lit):
            return e.value
        if isinstance(e, A.Var):
            if e.name not in row:
                raise AssertionError(f"unbound {e.name}")
            value = row[e.name]
            if isinstance(value, Raised):  # read, so Neo4j computed it
                raise CypherError(value.message)
            return value
        if isinstance(e, A.Prop):
            return self.prop(self.eval(e.base, row), e.key)
        if isinstance(e, A.Index):
            return self.index(self.eval(e.base, row), self.eval(e.index, row))
        if isinstance(e, A.Slice):
            return self.slice(self.eval(e.base, row),
                              None if e.lo is None else self.eval(e.lo, row),
                              None if e.hi is None else self.eval(e.hi, row),
                              e.lo is None, e.hi is None)
        if isinstance(e, A.Func):
            if e.name == "coalesce":
                for a in e.args:
                    v = self.eval(a, row)
                    if v is not None:
                        return v
                return None
            return self.call(e.name, [self.eval(a, row) for a in e.args], e)
        if isinstance(e, A.MapLit):
            return {k: self.eval(v, row) for k, v in e.items}
        if isinstance(e, A.ListLit):
            return [self.eval(i, row) for i in e.items]
        if isinstance(e, A.BinOp):
            if e.op in ("AND", "OR", "XOR"):
                return self.logic(e, row)
            return self.binop(e.op, self.eval(e.left, row), self.eval(e.right, row))
        if isinstance(e, A.Not):
            v = self.eval(e.arg, row)
            return None if v is None else not _bool(v)
        if isinstance(e, A.Neg):
            v = self.eval(e.arg, row)
            return None if v is None else -v  # type: ignore[operator]
        if isinstance(e, A.IsNull):
            return (self.eval(e.arg, row) is None) != e.negated
        if isinstance(e, A.Case):
            for cond, value in e.whens:
                if self.eval(cond, row) is True:
                    return self.eval(value, row)
            return None if e.default is None else self.eval(e.default, row)
        if isinstance(e, A.LabelTest):
            value = self.eval(e.arg, row)
            if value is None:
                return None
            assert isinstance(value, NodeRef)
            return self.g.nodes[value.id].label in labelexpr.allowed(e.expr, labelexpr.LABELS)
        if isinstance(e, A.SimpleCase):
            subject = self.eval(e.subject, row)
            for values, value in e.whens:
                if any(equals(subject, self.eval(v, row)) is True for v in values):
                    return self.eval(value, row)
            return None if e.default is None else self.eval(e.default, row)
        if isinstance(e, A.ListComp):
            return self.listcomp(e, self.eval(e.source, row), row)
        if isinstance(e, A.Quant):
            return self.quant(e, self.eval(e.source, row), row)
        if isinstance(e, A.MapProj):
            return self.map_projection(e, self.eval(e.base, row), row)
        if isinstance(e, A.PatternComp):
            out = []
            for r, _ in self.match_path(e.pattern, row, frozenset()):
                if e.where is None or self.eval(e.where, r) is True:
                    out.append(self.eval(e.proj, r))
            return Bag(out)
        if isinstance(e, A.Subquery):
            found = [r for r, _ in self.match_patterns(e.patterns, row, frozenset())
                     if e.where is None or self.eval(e.where, r) is True]
            return bool(found) if e.kind == "EXISTS" else len(found)
        raise AssertionError(f"cannot evaluate {type(e).__name__}")

    def logic(self, e: A.BinOp, row: Row) -> object:
        """AND, OR, XOR. Neo4j may test either operand first and skip the other when the first
        decides (false for AND, true for OR): an error in one operand is possible, not certain,
        when the other decides."""
        sides: list[tuple[object, CypherError | None]] = []
        for operand in (e.left, e.right):
            try:
                sides.append((self.eval(operand, row), None))
            except CypherError as exc:
                sides.append((None, exc))
        errors = [exc for _, exc in sides if exc is not None]
        if not errors:
            return logic(e.op, sides[0][0], sides[1][0])
        decisive = {"AND": False, "OR": True}.get(e.op)
        if len(errors) == 1 and decisive is not None and any(
                exc is None and v is decisive for v, exc in sides):
            raise Nondeterministic(f"{e.op} may skip the operand that raises: {errors[0]}")
        raise errors[0]

    def listcomp(self, e: A.ListComp, source: object, row: Row) -> object:
        if source is None:
            return None
        if not isinstance(source, list):
            raise CypherError("list comprehension over a non-list")
        out = []
        for item in source:
            r = {**row, e.var: item}
            if e.where is not None and self.eval(e.where, r) is not True:
                continue
            out.append(self.eval(e.proj, r) if e.proj is not None else item)
        return Bag(out) if isinstance(source, Bag) else out

    def quant(self, e: A.Quant, source: object, row: Row) -> object:
        if source is None:
            return None
        if not isinstance(source, list):
            raise CypherError("quantifier over a non-list")
        values = [self.eval(e.where, {**row, e.var: item}) for item in source]
        trues = sum(v is True for v in values)
        nulls = any(v is None for v in values)
        if e.kind == "any":
            return True if trues else (None if nulls else False)
        if e.kind == "all":
            return False if any(v is False for v in values) else (None if nulls else True)
        if e.kind == "none":
            return False if trues else (None if nulls else True)
        if trues > 1:
            return False
        return None if nulls else trues == 1

    def map_projection(self, e: A.MapProj, base: object, row: Row) -> object:
        """[Maps] a map projection of NULL is NULL; a property selector of a property the node
        does not have gives the key with a NULL value; the all-properties selector `.*` gives
        every property the node has (Neo4j stores no NULL property: an object without a box
        has no bbox_center/bbox_dim key); a literal entry is evaluated in the row."""
        if base is None:
            return None
        if not isinstance(base, (NodeRef, dict)):
            raise CypherError(f"map projection of a {type(base).__name__}")
        out: dict[str, object] = {}
        for key, value in e.items:
            if key == "*" and value is None:
                out.update(self.g.properties(base.id) if isinstance(base, NodeRef) else base)
                continue
            out[key] = self.prop(base, key) if value is None else self.eval(value, row)
        return out

    def prop(self, base: object, key: str) -> object:
        if base is None:
            return None
        if isinstance(base, NodeRef):
            return self.g.properties(base.id).get(key)
        if isinstance(base, Point):
            if key == "z" and base.z is None:
                raise CypherError("z of a 2D point")
            return {"x": base.x, "y": base.y, "z": base.z}[key]
        if isinstance(base, dict):
            return base.get(key)
        raise CypherError(f"property of {type(base).__name__}")

    def index(self, base: object, idx: object) -> object:
        if base is None or idx is None:
            return None
        if isinstance(base, dict):
            return base.get(idx)  # type: ignore[call-overload]
        if isinstance(base, Bag):
            raise Nondeterministic("index into a list of undefined order")
        if not isinstance(base, list) or not isinstance(idx, int):
            raise CypherError("bad index")
        n = len(base)
        i = idx + n if idx < 0 else idx
        return base[i] if 0 <= i < n else None

    def slice(self, base: object, lo: object, hi: object, open_lo: bool,
              open_hi: bool) -> object:
        if base is None or (lo is None and not open_lo) or (hi is None and not open_hi):
            return None
        if isinstance(base, Bag):
            raise Nondeterministic("slice of a list of undefined order")
        assert isinstance(base, list)
        return base[lo:hi]  # type: ignore[misc]

    def binop(self, op: str, a: object, b: object) -> object:
        if op == "=":
            return equals(a, b)
        if op == "<>":
            v = equals(a, b)
            return None if v is None else not v
        if op in ("<", "<=", ">", ">="):
            if a is not None and b is not None and is_number(a) and is_number(b) \
                    and (math.isnan(a) or math.isnan(b)):
                return False   # [Ordering and comparison] every test with NaN is false
            c = compare(a, b)
            if c is None:
                return None
            return {"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]
        if op in ("STARTS WITH", "ENDS WITH", "CONTAINS", "=~"):
            if not (isinstance(a, str) and isinstance(b, str)):
                return None  # an operand that is not a string (or null) gives null
            if op == "=~":
                return re.fullmatch(b, a) is not None  # Java's matches(): the whole text
            return {"STARTS WITH": a.startswith, "ENDS WITH": a.endswith,
                    "CONTAINS": a.__contains__}[op](b)
        if op == "IN":
            if b is None:
                return None
            assert isinstance(b, list)
            result: bool | None = False
            for item in b:
                v = equals(a, item)
                if v is True:
                    return True
                if v is None:
                    result = None
            return result
        if op == "/" and isinstance(b, int) and not isinstance(b, bool) and b == 0:
            # [Mathematical operators]; CypherMath.divide tests the divisor first: the integer
            # 0 raises "/ by zero" whatever the dividend, a float or NULL too
            raise CypherError("division by the integer zero")
        if a is None or b is None:
            return None
        if op == "||":
            # [String operators], [List expressions] (Neo4j 5.19): two strings or two lists
            # are concatenated (a NULL operand gives NULL, above); any other pair is a type
            # error
            if isinstance(a, str) and isinstance(b, str):
                return a + b
            if isinstance(a, list) and isinstance(b, list):
                if isinstance(a, Bag) or isinstance(b, Bag):
                    return Bag(a + b)  # a multiset still: only its order is undefined
                return a + b
            raise CypherError(f"|| of {type(a).__name__} and {type(b).__name__}")
        if op == "+":
            if isinstance(a, list) or isinstance(b, list):
                if isinstance(a, Bag) or isinstance(b, Bag):
                    raise Nondeterministic("concatenating a list of undefined order")
                return (a if isinstance(a, list) else [a]) + (b if isinstance(b, list) else [b])
            if isinstance(a, str) or isinstance(b, str):
                if isinstance(a, bool) or isinstance(b, bool):
                    raise CypherError("string + boolean")
                return to_string(a) + to_string(b)  # type: ignore[operator]
        if not (is_number(a) and is_number(b)):
            raise CypherError(f"{op} on non-numbers")
        if op == "^":
            return float(a) ** float(b)  # type: ignore[arg-type]
        if isinstance(a, int) and isinstance(b, int):
            if op in ("/", "%"):
                if b == 0:
                    raise CypherError("division by zero")
                q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
                return q if op == "/" else a - b * q
            return {"+": a + b, "-": a - b, "*": a * b}[op]
        x, y = float(a), float(b)  # type: ignore[arg-type]
        if op == "/":
            if y == 0:   # Java's double division: NaN for 0/0, else an infinity
                if x == 0 or math.isnan(x):
                    return math.nan
                return math.copysign(math.inf, x) * math.copysign(1.0, y)
            return x / y
        if op == "%":
            return math.fmod(x, y)
        return {"+": x + y, "-": x - y, "*": x * y}[op]

    def call(self, name: str, args: list[object], e: A.Func) -> object:
        if name == "point":
            m = args[0]
            assert isinstance(m, dict)
            if any(v is None for v in m.values()):
                return None
            return Point(float(m["x"]), float(m["y"]),  # type: ignore[arg-type]
                         None if "z" not in m else float(m["z"]))  # type: ignore[arg-type]
        if name == "coalesce":
            return next((a for a in args if a is not None), None)
        if name in ("e", "pi"):
            return math.e if name == "e" else math.pi
        if name == "elementId":
            return None if args[0] is None else f"4:fuzz:{args[0].id}"  # type: ignore[union-attr]
        if name in ("left", "right", "substring"):
            lengths = args[1:]
            if args[0] is None:
                if any(n is None or n < 0 for n in lengths):  # type: ignore[operator]
                    raise Nondeterministic(f"{name}() of null with a bad length")
                return None
            if any(n is None for n in lengths):
                raise CypherError(f"{name}() with a null length or start")
        if any(a is None for a in args):
            return None
        a0 = args[0]
        if name == "point.distance":
            p, q = args
            assert isinstance(p, Point) and isinstance(q, Point)
            if (p.z is None) != (q.z is None):
                return None
            return math.sqrt((p.x - q.x) ** 2 + (p.y - q.y) ** 2 + (
                0.0 if p.z is None else (p.z - q.z) ** 2))  # type: ignore[operator]
        if name == "size":
            if isinstance(a0, (str, list)):
                return len(a0)
            raise CypherError("size of a non-list")
        if name == "length":
            if isinstance(a0, _ShortestPath):
                return a0.length
            assert isinstance(a0, PathVal)
            return len(a0.rels)
        if name == "nodes":
            if isinstance(a0, _ShortestPath):
                raise Nondeterministic("nodes of one of several shortest paths")
            assert isinstance(a0, PathVal)
            return list(a0.nodes)
        if name == "relationships":
            assert isinstance(a0, PathVal)
            return list(a0.rels)
        if name == "type":
            assert isinstance(a0, RelRef)
            return self.g.rels[a0.id].type
        if name in ("startNode", "endNode"):
            # [Scalar functions] the node the relationship is stored from / to, whatever the
            # direction the pattern walked it in
            assert isinstance(a0, RelRef)
            rel = self.g.rels[a0.id]
            return NodeRef(rel.src if name == "startNode" else rel.dst)
        if name == "labels":
            assert isinstance(a0, NodeRef)
            return [self.g.nodes[a0.id].label]
        if name == "keys":
            assert isinstance(a0, NodeRef)
            return Bag(self.g.properties(a0.id))
        if name == "properties":
            assert isinstance(a0, NodeRef)
            return dict(self.g.properties(a0.id))
        if name in argtypes.SIGNATURES and name not in ("size", "reverse") and not isinstance(
                a0, str):
            raise CypherError(f"{name}() of a {type(a0).__name__}: expected a string")
        if name in ("trim", "ltrim", "rtrim"):
            # [String functions] whitespace as Java's Character.isWhitespace takes it (the
            # Unicode separators but the no-break spaces, and nine controls)
            assert isinstance(a0, str)
            left, right = 0, len(a0)
            while name != "rtrim" and left < right and java_whitespace(a0[left]):
                left += 1
            while name != "ltrim" and right > left and java_whitespace(a0[right - 1]):
                right -= 1
            return a0[left:right]
        if name in ("toUpper", "toLower"):
            assert isinstance(a0, str)
            return a0.upper() if name == "toUpper" else a0.lower()
        if name == "reverse":
            if isinstance(a0, Bag):
                raise Nondeterministic("reverse of a list of undefined order")
            if not isinstance(a0, (str, list)):
                raise CypherError(f"reverse() of a {type(a0).__name__}")
            return a0[::-1]
        if name == "substring":
            assert isinstance(a0, str) and isinstance(args[1], int)
            start = args[1]
            if start < 0:
                raise CypherError("negative substring start")
            if len(args) == 3:
                length = args[2]
                assert isinstance(length, int)
                if length < 0:
                    raise CypherError("negative substring length")
                return a0[start:start + length]
            return a0[start:]
        if name in ("left", "right"):
            assert isinstance(a0, str) and isinstance(args[1], int)
            n = args[1]
            if n < 0:
                raise CypherError("negative length")
            # Neo4j: a length past the string's end gives the whole string (right('p0', 3) is
            # 'p0'; a negative start would slice from the wrong end in Python).
            return a0[:n] if name == "left" else (a0[max(len(a0) - n, 0):] if n else "")
        if name == "replace":
            if not all(isinstance(a, str) for a in args):
                raise CypherError("replace() of a value that is not a string")
            if args[1] == "":
                raise Nondeterministic("replace of the empty string")
            return a0.replace(args[1], args[2])  # type: ignore[union-attr,arg-type]
        if name == "split":
            if not isinstance(args[1], str):
                raise CypherError(f"split() by a {type(args[1]).__name__}")
            assert isinstance(a0, str) and args[1]
            return a0.split(args[1])
        if name == "toString":
            return to_string(a0)
        if name == "toInteger":
            return to_integer(a0)
        if name == "toFloat":
            return to_float(a0)
        if name == "abs":
            return abs(a0)  # type: ignore[arg-type]
        if name in ("ceil", "floor", "sqrt"):
            x = float(a0)  # type: ignore[arg-type]
            if name == "sqrt":
                return math.sqrt(x) if x >= 0 else math.nan
            if not math.isfinite(x):   # Java's Math.ceil/floor of NaN or an infinity
                return x
            out = float(math.ceil(x) if name == "ceil" else math.floor(x))
            return math.copysign(out, x) if out == 0 else out  # Java: ceil(-0.5) is -0.0
        if name == "sign":
            return (a0 > 0) - (a0 < 0)  # type: ignore[operator]
        if name in _MATH:   # the Cypher Manual's mathematical functions: Java's Math
            return _MATH[name](*(float(a) for a in args))  # type: ignore[arg-type]
        if name == "round":
            return cypher_round(a0, args[1] if len(args) > 1 else None)  # type: ignore[arg-type]
        if name in ("head", "last"):
            assert isinstance(a0, list)
            if isinstance(a0, Bag):
                raise Nondeterministic(f"{name} of a list of undefined order")
            if not a0:
                return None
            return a0[0] if name == "head" else a0[-1]
        if name == "tail":
            if isinstance(a0, Bag):
                raise Nondeterministic("tail of a list of undefined order")
            return a0[1:]  # type: ignore[index]
        if name == "range":
            lo, hi = args[0], args[1]
            step = args[2] if len(args) > 2 else 1
            assert isinstance(lo, int) and isinstance(hi, int) and isinstance(step, int)
            return list(range(lo, hi + (1 if step > 0 else -1), step))
        raise AssertionError(f"function {name}")


@dataclass(frozen=True)
class _ShortestPath:
    """A shortest path the query may only measure: several may tie, Neo4j returns any one."""

    length: int


def _runs(keys: list[tuple]) -> list[int]:
    runs: list[int] = []
    for i, k in enumerate(keys):
        if i and keys[i - 1] == k:
            runs[-1] += 1
        else:
            runs.append(1)
    return runs


def _cut_runs(runs: list[int], start: int, end: int) -> list[int]:
    """The runs left after keeping rows [start, end) (cuts never split a run)."""
    out, pos = [], 0
    for r in runs:
        if pos >= start and pos + r <= end:
            out.append(r)
        pos += r
    return out


def logic(op: str, a: object, b: object) -> bool | None:
    x, y = _bool(a), _bool(b)
    if op == "AND":
        if x is False or y is False:
            return False
        return None if x is None or y is None else True
    if op == "OR":
        if x is True or y is True:
            return True
        return None if x is None or y is None else False
    return None if x is None or y is None else x != y


def _bool(v: object) -> bool | None:
    if v is None or isinstance(v, bool):
        return v
    raise CypherError("a non-boolean where a boolean is needed")


def conjuncts(e: A.Expr) -> list[A.Expr]:
    """The operands of a top-level AND chain (the predicates Neo4j's planner may reorder)."""
    if isinstance(e, A.BinOp) and e.op == "AND":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def contains_agg(e: object) -> bool:
    if isinstance(e, A.Agg):
        return True
    if isinstance(e, (A.PatternComp, A.Subquery)):
        return False
    if isinstance(e, A.Expr):
        return any(contains_agg(v) for v in vars(e).values())
    if isinstance(e, tuple):
        return any(contains_agg(v) for v in e)
    return False


def pattern_vars(p: A.PathPat) -> list[str]:
    out = [p.path_var] if p.path_var else []
    return out + [e.var for e in p.elements if e.var]


def to_string(v: object) -> str:
    """toString(): Java's Double.toString for floats ('2.5', '1.0E-4', '1.0E7')."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return java_double(v)
    if isinstance(v, str):
        return v
    raise CypherError(f"toString of {type(v).__name__}")


def java_double(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1, x) < 0 else "0.0"
    if 1e-3 <= abs(x) < 1e7:
        text = repr(x)
        return text if "." in text or "e" in text else text + ".0"
    sign, digits, exp = Decimal(repr(x)).as_tuple()
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    exponent = len(digits) - 1 + int(exp)
    mantissa = ds[0] + "." + (ds[1:] or "0")
    return ("-" if sign else "") + f"{mantissa}E{exponent}"


def to_integer(v: object) -> int | None:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        # Java's (long) cast: NaN is 0, anything beyond the range the nearest end of it.
        if math.isnan(v):
            return 0
        return min(max(int(v), -(2 ** 63)), 2 ** 63 - 1) if math.isfinite(v) else \
            (2 ** 63 - 1 if v > 0 else -(2 ** 63))
    if isinstance(v, str):
        # Long.parseLong, else new BigDecimal(text): no spaces, no `inf`, no underscores; the
        # number must lie in the long range before it is truncated.
        if re.fullmatch(r"[+-]?\d+", v, re.ASCII):
            exact: int | Decimal = int(v)
        elif re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", v, re.ASCII):
            exact = Decimal(v)
        else:
            return None
        if not -(2 ** 63) <= exact <= 2 ** 63 - 1:
            raise CypherError("integer is too large")
        return int(exact)
    raise CypherError("toInteger of a non-scalar")


def to_float(v: object) -> float | None:
    if is_number(v):
        return float(v)  # type: ignore[arg-type]
    if isinstance(v, str):
        # Double.parseDouble: trims characters up to the space; NaN, Infinity, an f/d suffix
        text = v.strip("".join(map(chr, range(33))))
        m = re.fullmatch(r"([+-]?)(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?",
                         text, re.ASCII)
        if m is None or (m.group(2) in ("NaN", "Infinity") and text[-1] in "fFdD"):
            return None
        return float(m.group(1) + {"NaN": "nan", "Infinity": "inf"}.get(m.group(2), m.group(2)))
    raise CypherError("toFloat of a non-number")


def cypher_round(x: float | int, precision: int | None) -> float:
    """round(x): ties toward +infinity (Java Math.round); round(x, p): HALF_UP on the
    decimal text of x, except that precision 0 follows round(x) (manual, round()). Never
    -0.0: Neo4j makes the result from Math.round's long, or from a BigDecimal (neither has a
    negative zero), so round(-0.4) is 0.0 and prints '0.0'. Infinity and NaN come back as
    they are (Neo4j's CypherFunctions.round; the manual says nothing)."""
    if not math.isfinite(float(x)):
        return float(x)
    if precision is None or precision == 0:  # Math.round: floor of the exact x + 1/2, a long
        whole = math.floor(Decimal(float(x)) + Decimal("0.5"))
        return float(min(max(whole, -(2 ** 63)), 2 ** 63 - 1)) + 0.0
    q = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-precision), rounding=ROUND_HALF_UP)
    return float(q) + 0.0
