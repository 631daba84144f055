"""Random read queries over Heracles' schema, as ASTs, each tagged with the constructs it uses.

A typed generator: every expression is drawn for a wanted type (string, integer, float,
boolean, point, list) from the variables in scope, so the query is valid Neo4j Cypher for the
schema. The tags (`Generated.constructs`) say which idioms a query exercises, so refusals and
disagreements can be counted per construct. The idioms models write for this schema are drawn
on purpose: aggregates repeated in ORDER BY, string + number, split(), mixed-type lists,
stDev/percentiles, replace(), keys(), properties(n)['class'], elementId() symmetry breaking,
negative indexes and slices, pattern comprehensions, an alias that shadows a variable, a
property of an indexed expression, a field of a possibly-NULL point, shortestPath with a
predicate over nodes(p).

Values of two types meet on purpose too, though rarely (`MIX_CHANCE`): a number compared with a
string or a boolean, IN over a list of several types, STARTS WITH or =~ on a number, a string
function given a number or a negative length (Neo4j's type error), a CASE or coalesce() whose
branches differ in type, and min/max/collect/ORDER BY over such a value.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from tests.cypher_fuzz import ast as A
from tests.cypher_fuzz import labelexpr
from tests.cypher_fuzz.graphs import OBJECT_CLASSES, ROOM_CLASSES

LABELS = ("Object", "Place", "MeshPlace", "Room", "Building")
CONNECTED = {"Object": "OBJECT_CONNECTED", "Place": "PLACE_CONNECTED",
             "MeshPlace": "MESH_PLACE_CONNECTED", "Room": "ROOM_CONNECTED",
             "Building": "BUILDING_CONNECTED"}
CHILDREN = {"Building": ("Room",), "Room": ("Place", "MeshPlace"), "Place": ("Object",),
            "MeshPlace": ("Object",), "Object": ()}
PARENTS = {"Room": ("Building",), "Place": ("Room",), "MeshPlace": ("Room",),
           "Object": ("Place", "MeshPlace"), "Building": ()}
CLASSES = OBJECT_CLASSES + ROOM_CLASSES + ("unknown",)
STR_PROPS = ("nodeSymbol", "class", "name")
MIX_CHANCE = {"boolean": 0.08, "string": 0.05, "integer": 0.03}  # a construct mixing types
DIGIT_TEXTS = ("10", "1", "0.5", "-1.5", "2", "true", "")
REGEXES = ("R.*", ".*1", "[A-Z][0-9]+", "1.*", "-?[0-9]+[.]0", ".*")
SCAN_REGEXES = ("R.*", "[RB][0-9]+", "O[0-9]*1", "k.*|o.*", "p.*", ".*a.*", "(?i)r.*", "")
# Words Kuzu or Ladybug reserve that Neo4j 5 takes as names (Cypher Manual, "Keywords": a
# keyword where the grammar wants a name is read as a name). `end` only where nothing reads
# it back (a final alias, ORDER BY): read in an expression it may close a CASE.
RESERVED_NAMES = ("all", "any", "none", "single", "exists", "index", "union", "order", "end",
                  "desc")
# how often a MATCH after the first one gets more patterns from other nodes bound before it,
# and a COUNT / EXISTS subquery a second pattern from another outer node
OUTER_PATTERNS_CHANCE = 0.3
SUBQUERY_TWO_PATTERNS_CHANCE = 0.3


@dataclass
class NodeVar:
    name: str
    label: str | None  # None: the pattern left it unlabelled
    nullable: bool = False


@dataclass
class RelVar:
    """A relationship variable of a one-hop pattern (never of a variable-length one)."""

    name: str
    nullable: bool  # bound by an OPTIONAL MATCH: NULL on rows without a match
    direction: str  # out / in / both, as the pattern walks it


@dataclass
class Scope:
    nodes: list[NodeVar] = field(default_factory=list)
    scalars: dict[str, str] = field(default_factory=dict)  # name -> type
    paths: list[str] = field(default_factory=list)  # path variables (never shortest ones)
    nullable_scalars: set[str] = field(default_factory=set)  # scalars NULL on some rows
    rels: list[RelVar] = field(default_factory=list)  # relationship variables


Unit = tuple[tuple[object, ...], frozenset[str]]


@dataclass
class Generated:
    """A query and the constructs it uses. `units` says which AST nodes brought which tags in
    (a WHERE, a RETURN item, an ORDER BY, an OPTIONAL MATCH, a UNION part: what the shrinker
    may drop); `base` holds the tags of everything else."""

    query: A.Query
    constructs: frozenset[str]
    base: frozenset[str] = frozenset()
    units: tuple[Unit, ...] = ()

    @property
    def text(self) -> str:
        return self.query.render()

    def with_query(self, query: A.Query) -> Generated:
        """A smaller form of this query (the shrinker's), keeping the record of its tags."""
        return Generated(query, self.constructs, self.base, self.units)

    def present_constructs(self) -> frozenset[str]:
        """The constructs the query still uses: all of them as drawn, fewer once shrunk."""
        present = {id(node) for node in A.walk(self.query)}
        out = set(self.base)
        for nodes, tags in self.units:
            if any(id(node) in present for node in nodes):
                out |= tags
        return frozenset(out)


def both(a: A.Expr | None, b: A.Expr | None) -> A.Expr | None:
    """`a AND b`, or whichever of them there is."""
    if a is None or b is None:
        return a if b is None else b
    return A.BinOp("AND", a, b)


class Generator:
    """One query per `query()` call; `rng` alone decides it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.base: set[str] = set()  # tags drawn outside any unit
        self.open: list[set[str]] = []  # the tags of the units being drawn
        self.units: list[Unit] = []
        self.counter = 0
        self.reserved_used: set[str] = set()

    # ------------------------------------------------------------------ helpers

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):  # type: ignore[no-untyped-def]
        return self.rng.choice(list(seq))

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def tag(self, *names: str) -> None:
        for tags in self.open or [self.base]:
            tags.update(names)

    @contextmanager
    def unit(self) -> Iterator[set[str]]:
        """Collect the tags drawn inside; `claim` then gives them to the AST nodes drawn."""
        tags: set[str] = set()
        self.open.append(tags)
        try:
            yield tags
        finally:
            self.open.pop()

    def claim(self, tags: set[str], *nodes: object) -> None:
        self.units.append((nodes, frozenset(tags)))

    def tag_node(self, node: object, *names: str) -> None:
        """Tags that belong to one node only (not to the unit being drawn around it)."""
        self.units.append(((node,), frozenset(names)))

    def name(self, default: str, p: float = 0.15, read: bool = False) -> str:
        """`default`, or now and then a word the engines reserve and Neo4j takes as a name
        (`RETURN n.class AS all`, `UNWIND .. AS index`, `WITH collect(x) AS union`); `read`:
        the name is read back in expressions (never `end` then)."""
        options = [w for w in RESERVED_NAMES
                   if w not in self.reserved_used and not (read and w == "end")]
        if not options or not self.chance(p):
            return default
        word = self.pick(options)
        self.reserved_used.add(word)
        self.tag("reserved_word_name", "reserved_word_variable" if read else "reserved_word_alias")
        return word

    # ------------------------------------------------------------------ queries

    def query(self) -> Generated:
        self.base, self.open, self.units = set(), [], []
        self.counter = 0
        self.reserved_used = set()
        shape = self.rng.choices(
            ["plain", "aggregate", "with_chain", "ordered_collect", "shortest", "union",
             "symmetric", "optional_struct", "unwind", "nullable_outer", "call",
             "optional_groups", "pattern_lists", "order_subquery", "filtered_scan",
             "outer_null_reads", "ordered_distinct", "filtered_row_lists"],
            weights=[5, 5, 4, 3, 2, 2, 1, 2, 1, 3, 3, 3, 2, 2, 3, 2, 2, 2])[0]
        self.tag(shape)
        query = getattr(self, f"q_{shape}")()
        drawn = Generated(query, frozenset(), frozenset(self.base), tuple(self.units))
        return Generated(query, drawn.present_constructs(), drawn.base, drawn.units)

    def q_plain(self) -> A.Query:
        scope = Scope()
        clauses: list[A.Clause] = [self.match(scope, optional=False)]
        self.later_matches(scope, clauses)
        clauses.append(self.final_return(scope, aggregate=False))
        return A.Query((tuple(clauses),))

    def q_aggregate(self) -> A.Query:
        scope = Scope()
        clauses: list[A.Clause] = [self.match(scope, optional=False)]
        self.later_matches(scope, clauses)
        clauses.append(self.final_return(scope, aggregate=True))
        return A.Query((tuple(clauses),))

    def later_matches(self, scope: Scope, clauses: list[A.Clause]) -> None:
        """After the first MATCH: an OPTIONAL MATCH, rarely a second one, and now and then a
        MATCH from a bound node, before them or after (where the patterns of either may start
        from a node an OPTIONAL MATCH left NULL)."""
        plain = self.chance(0.12)
        if plain and self.chance(0.5):
            clauses.append(self.match(scope, optional=False, start=self.pick(scope.nodes)))
            plain = False
        if self.chance(0.4):
            clauses.append(self.match(scope, optional=True))
            if self.chance(0.3):
                clauses.append(self.match(scope, optional=True, outer_chance=0.6))
        if plain:
            clauses.append(self.match(scope, optional=False, start=self.pick(scope.nodes),
                                      outer_chance=0.6))

    def q_with_chain(self) -> A.Query:
        scope = Scope()
        clauses: list[A.Clause] = [self.match(scope, optional=False)]
        if self.chance(0.3):
            clauses.append(self.match(scope, optional=True))
        key = self.pick(scope.nodes)
        agg_name = self.name(self.fresh("a"), read=True)
        agg, agg_type = self.aggregate(scope)
        items: list[tuple[A.Expr, str]] = [(A.Var(key.name), key.name), (agg, agg_name)]
        where = None
        if agg_type in ("int", "float") and self.chance(0.5):
            where = A.BinOp(self.pick((">", ">=", "<", "<>")), A.Var(agg_name),
                            A.Lit(self.pick((0, 1, 2, 0.5))))
        order: tuple[A.SortItem, ...] = ()
        limit = None
        if where is None and self.chance(0.5) and agg_type in ("int", "float", "str"):
            order = (A.SortItem(A.Var(agg_name), self.chance(0.5)),
                     A.SortItem(A.Prop(A.Var(key.name), "nodeSymbol")))
            self.tag_node(order[0], "with_order_limit")
            limit = self.rng.randint(1, 3)
        clauses.append(A.Projection("WITH", tuple(items), order=order, limit=limit, where=where))
        new = Scope(nodes=[NodeVar(key.name, key.label, key.nullable)],
                    scalars={agg_name: agg_type})
        if self.chance(0.3):
            new.nodes[0].nullable = key.nullable
            clauses.append(self.match(new, optional=True, start=new.nodes[0]))
        clauses.append(self.final_return(new, aggregate=self.chance(0.4)))
        return A.Query((tuple(clauses),))

    def q_nullable_outer(self) -> A.Query:
        """A value NULL on some rows (a CASE without ELSE), computed before an OPTIONAL MATCH
        whose WHERE, or a subquery, may read it: the engines join such a part on the outer
        values it reads, and a NULL one joined nothing."""
        scope = Scope()
        clauses: list[A.Clause] = [self.match(scope, optional=False)]
        kind = self.pick(("float", "int", "str"))
        value = {"float": self.float, "int": self.integer, "str": self.string}[kind](scope, 1)
        name = self.fresh("v")
        items = tuple((A.Var(n.name), n.name) for n in scope.nodes)
        clauses.append(A.Projection("WITH", (*items, (A.Case(((self.boolean(scope, 1), value),),
                                                                  None), name))))
        scope = Scope(nodes=list(scope.nodes), scalars={name: kind}, nullable_scalars={name})
        if self.chance(0.7):
            clauses.append(self.match(scope, optional=True))
        clauses.append(self.final_return(scope, aggregate=self.chance(0.3)))
        return A.Query((tuple(clauses),))

    def q_ordered_collect(self) -> A.Query:
        """WITH ... ORDER BY unique key [LIMIT] then collect: a list in a defined order, read
        by negative index, slice, head/last and property of an indexed element."""
        scope = Scope()
        clauses: list[A.Clause] = [self.match(scope, optional=False)]
        node = self.pick(scope.nodes)
        sort_key, _ = self.sortable(scope)
        order = (A.SortItem(sort_key, self.chance(0.5)),
                 A.SortItem(A.Prop(A.Var(node.name), "nodeSymbol")))
        others = [n for n in scope.nodes if n is not node]
        order += tuple(A.SortItem(A.Prop(A.Var(n.name), "nodeSymbol")) for n in others)
        limit = self.rng.randint(1, 4) if self.chance(0.5) else None
        carried = [n.name for n in scope.nodes] + scope.paths + [d.name for d in scope.rels]
        clauses.append(A.Projection("WITH", tuple((A.Var(v), v) for v in carried),
                                    order=order, limit=limit))
        grouped = len(scope.nodes) > 1 and self.chance(0.4)
        items: list[tuple[A.Expr, str]] = []
        if grouped:
            key = self.pick(others)
            items.append((A.Prop(A.Var(key.name), "nodeSymbol"), "k"))
        collected = self.pick(("node", "str", "float", "mixed"))
        xs_name = self.name("xs", p=0.2, read=True)
        xs: A.Expr
        if collected == "node":
            xs = A.Agg("collect", A.Var(node.name))
        elif collected == "str":
            xs = A.Agg("collect", self.string(scope, 1))
        elif collected == "float":
            xs = A.Agg("collect", A.Prop(A.Prop(A.Var(node.name), "center"), "x"))
        else:
            self.tag("mixed_list")
            xs = A.Agg("collect", A.ListLit((A.Prop(A.Var(node.name), "nodeSymbol"), A.Func(
                "round", (A.Prop(A.Prop(A.Var(node.name), "center"), "z"), A.Lit(2))))))
        where_xs = None
        if collected == "float" and self.chance(0.3):
            # a quantifier over the list in the WITH's WHERE, beside lambdas in the RETURN
            self.tag("lambda_in_with_where")
            where_xs = A.Quant(self.pick(("any", "all", "none")), "x", A.Var(xs_name), A.BinOp(
                ">", A.Func("abs", (A.BinOp("-", A.Var("x"), A.Lit(1.0)),)),
                A.Lit(self.pick((0.5, 1.0, 2.0)))))
        clauses.append(A.Projection("WITH", (*tuple(items), (xs, xs_name)), where=where_xs))
        reads: list[tuple[A.Expr, str]] = [(A.Var("k"), "k")] if grouped else []
        for i in range(self.rng.randint(1, 3)):
            with self.unit() as tags:
                read = self.read_list(A.Var(xs_name), collected,
                                      A.Var("k") if grouped else None)
            self.claim(tags, read)
            reads.append((read, f"v{i}"))
        order_out = (A.SortItem(A.Var("k")),) if grouped else ()
        clauses.append(A.Projection("RETURN", tuple(reads), order=order_out))
        return A.Query((tuple(clauses),))

    def q_ordered_distinct(self) -> A.Query:
        """DISTINCT over rows a WITH sorted (no ORDER BY of its own): Neo4j passes each value
        on at its first arrival, so a SKIP/LIMIT there, `collect(DISTINCT ..)` or a later
        collect() see the sorted order; the engines' hash tables do not keep it."""
        scope = Scope()
        clauses: list[A.Clause] = [self.match(scope, optional=False)]
        sort_key, _ = self.sortable(scope)
        order = (A.SortItem(sort_key, self.chance(0.5)),
                 *(A.SortItem(A.Prop(A.Var(n.name), "nodeSymbol")) for n in scope.nodes))
        carried = [n.name for n in scope.nodes] + scope.paths + [d.name for d in scope.rels]
        clauses.append(A.Projection("WITH", tuple((A.Var(v), v) for v in carried), order=order,
                                    limit=self.rng.randint(2, 6) if self.chance(0.3) else None))
        value = self.pick((self.string, self.integer))(scope, 1)
        if self.chance(0.35):
            self.tag("collect_distinct_ordered")
            xs = A.Agg("collect", value, distinct=True)
            read = self.pick((A.Var("ks"), A.Index(A.Var("ks"), A.Lit(0)),
                              A.Index(A.Var("ks"), A.Lit(-1)),
                              A.Slice(A.Var("ks"), A.Lit(0), A.Lit(2))))
            clauses.append(A.Projection("WITH", ((xs, "ks"),)))
            clauses.append(A.Projection("RETURN", ((read, "v"),)))
            return A.Query((tuple(clauses),))
        self.tag("distinct_after_order")
        skip = self.rng.randint(1, 2) if self.chance(0.3) else None
        limit = self.rng.randint(1, 3) if skip is None or self.chance(0.5) else None
        if self.chance(0.5):
            clauses.append(A.Projection("RETURN", ((value, "k"),), distinct=True, skip=skip,
                                        limit=limit))
            return A.Query((tuple(clauses),))
        clauses.append(A.Projection("WITH", ((value, "k"),), distinct=True, skip=skip,
                                    limit=limit))
        clauses.append(A.Projection("RETURN", ((A.Agg("collect", A.Var("k")), "ks"),)))
        return A.Query((tuple(clauses),))

    def q_filtered_row_lists(self) -> A.Query:
        """A list built per row (or split from a text), rows a WITH's WHERE drops, then lambdas
        testing for NULL and `IN` over the list: both engines evaluated such tests against a
        dropped row's list."""
        scope = Scope()
        clauses: list[A.Clause] = [self.match(scope, optional=False)]
        n = self.pick(scope.nodes)
        if self.chance(0.3):
            kind, xs = "str", A.Func("split", (A.Prop(A.Var(n.name), "nodeSymbol"),
                                              A.Lit(self.pick(("R", "O", "P", "1")))))
            probe: A.Expr = A.Lit(self.pick(("", "1", "2")))
        else:
            items = [self.float(scope, 0) for _ in range(self.rng.randint(1, 3))]
            if self.chance(0.4):
                items.insert(self.rng.randint(0, len(items)), A.Lit(None))
            kind, xs, probe = "float", A.ListLit(tuple(items)), self.float(scope, 0)
        carried = tuple((A.Var(v.name), v.name) for v in scope.nodes)
        keep = A.BinOp("<>", A.Prop(A.Var(n.name), "nodeSymbol"),
                       A.Lit(self.pick(("R1", "O1", "P1", "p1", "B1"))))
        clauses.append(A.Projection("WITH", (*carried, (xs, "xs")), where=keep))
        self.tag("filtered_row_list")
        x = A.Var("x")
        fallback = A.Lit("-") if kind == "str" else A.Lit(0.0)
        udf = A.Func("toUpper", (x,)) if kind == "str" else A.Func("round", (x, A.Lit(1)))
        reads = [
            (A.ListComp("x", A.Var("xs"), None, A.Func("coalesce", (x, fallback))), "a"),
            (A.ListComp("x", A.Var("xs"), A.IsNull(x, True), None), "b"),
            (A.BinOp("IN", probe, A.Var("xs")), "c"),
            (A.IsNull(A.BinOp("IN", probe, A.Var("xs")), False), "d"),
            (A.ListComp("x", A.Var("xs"), None, udf), "e"),   # a UDF in the body
        ]
        picked = self.rng.sample(reads, self.rng.randint(1, 3))
        order = tuple(A.SortItem(A.Prop(A.Var(v.name), "nodeSymbol")) for v in scope.nodes)
        clauses.append(A.Projection("RETURN", (*((A.Prop(A.Var(v.name), "nodeSymbol"),
                                                  f"s{i}") for i, v in enumerate(scope.nodes)),
                                               *picked), order=order))
        return A.Query((tuple(clauses),))

    def read_list(self, xs: A.Expr, kind: str, row: A.Expr | None = None) -> A.Expr:
        if row is not None and kind in ("str", "float") and self.chance(0.3):
            # a CASE in a lambda over a list a WITH passed on, reading a value of the row
            self.tag("case_in_lambda_reads_row")
            bound = A.Var("x")
            test = A.BinOp("<", bound, row) if kind == "str" else \
                A.BinOp(">", bound, A.Func("toFloat", (A.Func("size", (row,)),)))
            return A.ListComp("x", xs, None, A.Case(((test, A.Lit(1)),), A.Lit(0)))
        if kind == "float" and self.chance(0.3):
            # lambdas over the list a WITH passed on, several per RETURN: both engines computed
            # all but one of them wrong when their bodies called abs(), coalesce(), sign() ...
            self.tag("lambdas_over_one_list")
            x = A.Var("x")
            body = self.pick((A.Func("abs", (A.BinOp("-", x, A.Lit(1.0)),)),
                              A.Func("coalesce", (x, A.Lit(0.0))),
                              A.Func("sign", (A.BinOp("-", x, A.Lit(0.5)),)),
                              A.Func("round", (x, A.Lit(1))), A.BinOp("+", x, A.Lit(3)),
                              A.MapLit((("v", x),)), A.ListLit((x, A.Lit(1.0)))))
            return A.ListComp("x", xs, None, body)
        if kind in ("node", "float", "str") and self.chance(0.2):
            return self.nested_quantifier(xs, kind)
        if kind in ("str", "float") and self.chance(0.12):
            # the first and the last elements: `xs[0..1] || xs[-1..]`
            self.tag("double_bar", "double_bar_list")
            return A.BinOp("||", A.Slice(xs, A.Lit(0), A.Lit(self.rng.randint(1, 2))),
                           A.Slice(xs, A.Lit(-self.rng.randint(1, 2)), None))
        choice = self.pick(("neg_index", "index", "slice", "head", "last", "size", "tail",
                            "reverse"))
        i = self.rng.randint(-3, 3)
        if choice == "neg_index":
            self.tag("negative_index")
            e: A.Expr = A.Index(xs, A.Lit(-self.rng.randint(1, 2)))
        elif choice == "index":
            e = A.Index(xs, A.Lit(abs(i)))
        elif choice == "slice":
            self.tag("slice")
            lo = A.Lit(i) if self.chance(0.7) else None
            hi = A.Lit(self.rng.randint(-2, 4)) if self.chance(0.5) or lo is None else None
            e = A.Slice(xs, lo, hi)
            if kind == "node":
                return A.ListComp("x", e, None, A.Prop(A.Var("x"), "nodeSymbol"))
            return e
        elif choice in ("head", "last"):
            e = A.Func(choice, (xs,))
        elif choice == "tail":
            e = A.Func("tail", (xs,))
            if kind == "node":
                return A.ListComp("x", e, None, A.Prop(A.Var("x"), "nodeSymbol"))
            return e
        elif choice == "reverse":
            e = A.Func("reverse", (xs,))
            if kind == "node":
                return A.ListComp("x", e, None, A.Prop(A.Var("x"), "nodeSymbol"))
            return e
        else:
            return A.Func("size", (xs,))
        if kind == "node":
            self.tag("indexed_property")
            return A.Prop(e, self.pick(("nodeSymbol", "class")))
        if kind == "mixed":
            return A.Index(e, A.Lit(self.pick((0, 1, -1))))
        return e

    def nested_quantifier(self, xs: A.Expr, kind: str) -> A.Expr:
        """A quantifier or filtered size() over the list inside a lambda over it, reading the
        outer element (pairwise questions); NULL comparisons included (a node without a
        box)."""
        self.tag("nested_quantifier")
        a, b = A.Var("a"), A.Var("b")
        if kind == "node":
            other = self.pick((
                A.BinOp("<", A.Prop(A.Prop(b, "center"), "x"), A.Prop(A.Prop(a, "center"), "x")),
                A.BinOp("=", A.Prop(b, "class"), A.Prop(a, "class")),
                A.BinOp(">", A.Prop(A.Prop(b, "bbox_dim"), "x"), A.Prop(A.Prop(a, "center"), "y"))))
            pred: A.Expr = A.BinOp("AND", A.BinOp("<>", b, a), other)
        elif kind == "float":
            pred = self.pick((A.BinOp(">", b, A.BinOp("+", a, A.Lit(0.5))),
                              A.BinOp("<", A.Func("abs", (A.BinOp("-", b, a),)), A.Lit(1.0))))
        else:
            pred = A.BinOp("<", b, a)
        quant = self.pick(("any", "all", "none", "size"))
        inner: A.Expr = A.Func("size", (A.ListComp("b", xs, pred, None),)) if quant == "size" \
            else A.Quant(quant, "b", xs, pred)
        shown = A.Prop(a, "nodeSymbol") if kind == "node" else a
        shape = self.pick(("map", "filter", "outer_quantifier"))
        if shape == "map":
            return A.ListComp("a", xs, None, inner)
        test = A.BinOp(">", inner, A.Lit(0)) if quant == "size" else inner
        if shape == "filter":
            return A.ListComp("a", xs, test, shown)
        return A.Quant(self.pick(("any", "all", "none")), "a", xs, test)

    def q_shortest(self) -> A.Query:
        label = self.pick(("Room", "MeshPlace", "Object", "Place"))
        a, b = A.NodePat("a", label), A.NodePat("b", label)
        pre = A.Match(False, (A.PathPat((a,)), A.PathPat((b,))),
                      A.BinOp("<", A.Prop(A.Var("a"), "nodeSymbol"),
                              A.Prop(A.Var("b"), "nodeSymbol")))
        rel = A.RelPat(None, (CONNECTED[label],), self.pick(("both", "out")), (1, None))
        where = None
        if self.chance(0.7):
            cond = self.pick((
                A.BinOp("=", A.Prop(A.Var("n"), "class"), A.Lit(self.pick(CLASSES))),
                A.BinOp("=", A.Prop(A.Var("n"), "nodeSymbol"), A.Lit(self.symbol(label))),
                A.BinOp(">", A.Prop(A.Prop(A.Var("n"), "center"), "x"),
                        A.Lit(self.rng.randint(-2, 2) + 0.25)),
            ))
            where = A.Quant(self.pick(("none", "all")) if self.chance(0.8) else "none", "n",
                            A.Func("nodes", (A.Var("p"),)), cond)
            if where.kind == "all":
                where = A.Quant("all", "n", where.source, A.Not(cond))
            self.tag_node(where, "shortest_where")
        sp = A.Match(self.chance(0.3), (A.PathPat(
            (A.NodePat("a"), rel, A.NodePat("b")), "p", True),), where)
        ret = A.Projection("RETURN", ((A.Prop(A.Var("a"), "nodeSymbol"), "a_s"),
                                      (A.Prop(A.Var("b"), "nodeSymbol"), "b_s"),
                                      (A.Func("length", (A.Var("p"),)), "hops")),
                           order=(A.SortItem(A.Var("a_s")), A.SortItem(A.Var("b_s"))))
        return A.Query(((pre, sp, ret),))

    def symbol(self, label: str) -> str:
        prefix = {"Object": "O", "Place": "p", "MeshPlace": "P", "Room": "R",
                  "Building": "B"}[label]
        return f"{prefix}{self.rng.randint(0, 3) * 10 + self.rng.randint(0, 3)}"

    def q_union(self) -> A.Query:
        self.tag("union")
        parts = []
        for _ in range(2):
            scope = Scope()
            with self.unit() as tags:
                match = self.match(scope, optional=False)
                node = self.pick(scope.nodes)
                items = ((A.Prop(A.Var(node.name), self.pick(STR_PROPS)), "s"),
                         (self.integer(scope, 1), "n"))
                part = (match, A.Projection("RETURN", items))
            self.claim(tags, *part)
            parts.append(part)
        return A.Query(tuple(parts), union_all=self.chance(0.5))

    def q_symmetric(self) -> A.Query:
        """elementId() only breaks symmetry: what is returned is the same either way."""
        self.tag("elementId")
        label = self.pick(("Room", "MeshPlace", "Object"))
        rel = A.RelPat(None, (CONNECTED[label],), self.pick(("both", "out")))
        where = A.BinOp(self.pick(("<", ">")), A.Func("elementId", (A.Var("a"),)),
                        A.Func("elementId", (A.Var("b"),)))
        match = A.Match(False, (A.PathPat((A.NodePat("a", label), rel,
                                           A.NodePat("b", label))),), where)
        lo = A.Case(((A.BinOp("<", A.Prop(A.Var("a"), "nodeSymbol"),
                               A.Prop(A.Var("b"), "nodeSymbol")),
                      A.Prop(A.Var("a"), "nodeSymbol")),), A.Prop(A.Var("b"), "nodeSymbol"))
        if self.chance(0.5):
            ret = A.Projection("RETURN", ((A.Agg("count", None), "pairs"),))
        else:
            ret = A.Projection("RETURN", ((lo, "lo"), (A.Agg("count", None), "n")),
                               order=(A.SortItem(A.Var("lo")),))
        return A.Query(((match, ret),))

    def q_optional_struct(self) -> A.Query:
        """A field of a point read from a node an OPTIONAL MATCH may not have found."""
        self.tag("null_struct_field", "optional_match")
        r = NodeVar("r", self.pick(("Room", "MeshPlace", "Place")))
        first = A.Match(False, (A.PathPat((A.NodePat("r", r.label),)),))
        child = "Object" if r.label != "Room" else self.pick(("MeshPlace", "Place"))
        cls = self.pick(OBJECT_CLASSES) if child == "Object" else "floor"
        t = A.NodePat("t", child, (("class", A.Lit(cls)),) if self.chance(0.7) else ())
        opt = A.Match(True, (A.PathPat((A.NodePat("r"), A.RelPat(None, ("CONTAINS",), "out"),
                                        t)),))
        prop = self.pick(("center", "bbox_center", "bbox_dim") if child == "Object"
                         else ("center",))
        coord = self.pick(("x", "y", "z"))
        dist = A.Func("point.distance", (A.Prop(A.Var("r"), "center"),
                                         A.Prop(A.Var("t"), "center")))
        if self.chance(0.5):
            self.tag("point_distance")
            items = ((A.Prop(A.Var("r"), "nodeSymbol"), "room"),
                     (A.Func("coalesce", (A.Agg("min", dist), A.Lit(-1.0))), "d"),
                     (A.Agg("max", A.Prop(A.Prop(A.Var("t"), prop), coord)), "m"))
        else:
            items = ((A.Prop(A.Var("r"), "nodeSymbol"), "room"),
                     (A.Prop(A.Var("t"), "nodeSymbol"), "t"),
                     (A.Prop(A.Prop(A.Var("t"), prop), coord), "c"),
                     (A.IsNull(A.Prop(A.Var("t"), prop)), "missing"))
        ret = A.Projection("RETURN", items, order=tuple(A.SortItem(A.Var(a)) for _, a in items
                                                        if a in ("room", "t")))
        return A.Query(((first, opt, ret),))

    def q_call(self) -> A.Query:
        """A CALL subquery per outer row (importing a node) or once (importing nothing),
        returning aggregates without a grouping key, grouped aggregates or rows."""
        scope = Scope()
        clauses: list[A.Clause] = [self.match(scope, optional=False)]
        if self.chance(0.3):
            clauses.append(self.match(scope, optional=True))
        correlated = self.chance(0.8)
        outer = self.pick(scope.nodes)
        imported = [outer]
        others = [m for m in scope.nodes if m is not outer]
        if correlated and others and self.chance(0.3):
            # `CALL (a, b) { MATCH (a)-->(x), (b)-->(y) RETURN count(*) AS c }`: a body whose
            # patterns start from two imported nodes
            self.tag("call_two_imports")
            imported.append(self.pick(others))
        inner = Scope(nodes=[replace(m) for m in imported] if correlated else [])
        body: list[A.Match | A.Unwind | A.Projection] = [
            self.match(inner, optional=correlated and self.chance(0.25),
                       start=inner.nodes[0] if correlated else None,
                       outer_chance=0.8 if len(imported) > 1 else OUTER_PATTERNS_CHANCE)]
        shape = self.pick(("keyless", "keyless", "grouped", "rows", "union", "ranked"))
        self.tag("call_subquery", f"call_{shape}")
        items: list[tuple[A.Expr, str]] = []
        returned: dict[str, str] = {}
        if shape == "grouped":
            key, kind = self.scalar(inner, 1)
            items.append((key, self.name(self.fresh("k"), read=True)))
            returned[items[-1][1]] = kind
        rows = shape in ("rows", "union", "ranked")
        for _ in range(1 if rows else self.rng.randint(1, 2)):
            value, kind = self.scalar(inner, 1) if rows else self.aggregate(inner)
            items.append((value, self.name(self.fresh("v"), read=True)))
            returned[items[-1][1]] = kind
        if shape == "ranked":   # the first rows per outer row
            body.append(A.Projection(
                "RETURN", tuple(items), order=(A.SortItem(A.Var(items[0][1]), self.chance(0.5)),),
                skip=self.rng.randint(0, 1) if self.chance(0.3) else None,
                limit=self.rng.randint(1, 2) if self.chance(0.8) else None))
        else:
            body.append(A.Projection("RETURN", tuple(items)))
        others: list[tuple[A.Match | A.Unwind | A.Projection, ...]] = []
        draw = {"str": "string", "int": "integer", "float": "float", "bool": "boolean"}
        if shape == "union" and kind in draw:   # a second part: the same column and kind
            second = Scope(nodes=[replace(outer)] if correlated else [])
            match = self.match(second, optional=False,
                               start=second.nodes[0] if correlated else None)
            value = getattr(self, draw[kind])(second, 1)
            others.append((match, A.Projection("RETURN", ((value, items[0][1]),))))
        clauses.append(A.Call(tuple(m.name for m in imported) if correlated else (), tuple(body),
                              scoped=correlated and self.chance(0.4), others=tuple(others),
                              union_all=self.chance(0.5)))
        after = Scope(nodes=scope.nodes, scalars={**scope.scalars, **returned}, rels=scope.rels)
        final = self.final_return(after, aggregate=self.chance(0.3))
        shown = tuple((A.Var(name), name) for name in returned)   # what the CALL returned
        clauses.append(replace(final, items=shown + final.items))
        return A.Query((tuple(clauses),))

    def q_unwind(self) -> A.Query:
        scope = Scope()
        match = self.match(scope, optional=False)
        node = self.pick(scope.nodes)
        source = self.pick((
            A.Func("split", (A.Prop(A.Var(node.name), self.pick(STR_PROPS)),
                             A.Lit(self.pick(("O", "a", ",", "e", "1"))))),
            A.Func("range", (A.Lit(0), A.Func("size", (A.Prop(A.Var(node.name), "class"),)),
                             A.Lit(2))),
            A.ListLit((A.Prop(A.Prop(A.Var(node.name), "center"), "x"),
                       A.Prop(A.Prop(A.Var(node.name), "center"), "y"))),
        ))
        self.tag("unwind")
        u = self.name("u", p=0.3, read=True)
        unwind = A.Unwind(source, u)
        items = ((A.Prop(A.Var(node.name), "nodeSymbol"), "s"),
                 (A.Agg("count", None), "n"), (A.Agg("collect", A.Var(u)), self.name("us")))
        ret = A.Projection("RETURN", items, order=(A.SortItem(A.Var("s")),))
        return A.Query(((match, unwind, ret),))

    def q_optional_groups(self) -> A.Query:
        """Groups some of which are empty: an OPTIONAL MATCH, rows put in order, then collect()
        per group. Lambdas over a list computed from the group's list (range over its
        positions, a slice, tail(), a filtered range) whose test reads the row, and the first
        or last node of a group with a property read: both engines once gave an empty
        computed list the previous row's result."""
        label = self.pick(("Room", "Room", "MeshPlace", "Place", "Building", "Object"))
        r = NodeVar("r", label)
        first = A.Match(False, (A.PathPat((A.NodePat("r", label, self.inline_props(label)),)),))
        kinds = (["down"] * 2 if CHILDREN[label] else []) + (["up"] if PARENTS[label] else []) \
            + ["same"]
        kind = self.pick(kinds)
        if kind == "down":
            rel, child = A.RelPat(None, ("CONTAINS",), "out"), self.pick(CHILDREN[label])
        elif kind == "up":
            rel, child = A.RelPat(None, ("CONTAINS",), "in"), self.pick(PARENTS[label])
        else:   # one direction only: an undirected pattern finds each neighbour twice
            rel, child = A.RelPat(None, (CONNECTED[label],), self.pick(("out", "in"))), label
        m = A.Var("m")
        where = None
        if self.chance(0.6):   # fewer matches: more empty groups
            where = self.pick((
                A.BinOp("=", A.Prop(m, "class"), A.Lit(self.pick(CLASSES))),
                A.BinOp(">", A.Prop(A.Prop(m, "center"), "x"), A.Lit(self.pick((0.25, 1.25)))),
                A.BinOp("<", A.Prop(A.Prop(m, "center"), "y"), A.Prop(A.Prop(A.Var("r"), "center"),
                                                                     "y"))))
        opt = A.Match(True, (A.PathPat((A.NodePat("r"), rel, A.NodePat("m", child))),), where)
        self.tag("optional_match", "empty_groups")
        order = A.Projection("WITH", ((A.Var("r"), "r"), (m, "m")),
                             order=(A.SortItem(A.Prop(A.Var("r"), "nodeSymbol")),
                                    A.SortItem(A.Prop(m, "nodeSymbol"))))
        group: list[tuple[A.Expr, str]] = [
            (A.Var("r"), "r"), (A.Agg("collect", A.Prop(A.Prop(m, "center"),
                                                        self.pick("xyz"))), "xs"),
            (A.Agg("collect", m), "ms"), (A.Agg("count", m), "n")]
        if self.chance(0.4):
            with self.unit() as tags:
                self.tag("head_collect_nodes")
                first_of = self.pick((
                    A.Func("head", (A.Agg("collect", m),)), A.Func("last", (A.Agg("collect", m),)),
                    A.Index(A.Agg("collect", m), A.Lit(self.pick((0, -1, 1))))))
                h = A.Prop(first_of, self.pick(("nodeSymbol", "class")))
            self.claim(tags, h)
            group.append((h, "h"))
        scope = Scope(nodes=[r], scalars={"n": "int"})
        reads: list[tuple[A.Expr, str]] = [(A.Prop(A.Var("r"), "nodeSymbol"), "rs")]
        if any(a == "h" for _, a in group):
            reads.append((A.Var("h"), "h"))
        for i in range(self.rng.randint(1, 3)):
            with self.unit() as tags:
                read = self.group_read(scope)
            self.claim(tags, read)
            reads.append((read, f"v{i}"))
        ret = A.Projection("RETURN", tuple(reads), order=(A.SortItem(A.Var("rs")),))
        return A.Query(((first, opt, order, A.Projection("WITH", tuple(group)), ret),))

    def q_pattern_lists(self) -> A.Query:
        """Pattern comprehensions beside the node they start from, each row's list of what its
        matches map to (empty where nothing matches, NULL values kept)."""
        label = self.pick(LABELS)
        n = NodeVar("n", label)
        scope = Scope(nodes=[n])
        where = self.maybe_where(scope, 0.3, 1)
        match = A.Match(False, (A.PathPat((A.NodePat("n", label, self.inline_props(label)),)),),
                        where)
        items: list[tuple[A.Expr, str]] = [(A.Prop(A.Var("n"), "nodeSymbol"), "s")]
        for i in range(self.rng.randint(1, 3)):
            with self.unit() as tags:
                comp = self.pattern_comprehension(scope)
                assert comp is not None
                if self.chance(0.15):
                    comp = A.Func("size", (comp,))
            self.claim(tags, comp)
            items.append((comp, f"c{i}"))
        ret = A.Projection("RETURN", tuple(items), order=(A.SortItem(A.Var("s")),))
        return A.Query(((match, ret),))

    # ------------------------------------------------------------------ focused shapes

    def q_order_subquery(self) -> A.Query:
        """`RETURN n.nodeSymbol ORDER BY COUNT { (n)-->(m) } DESC, n.nodeSymbol`: unaliased
        property reads (named by their text) sorted by a subquery over the row's node, which
        the RETURN does not project."""
        self.tag("order_by_subquery", "unaliased_return_items")
        label = self.pick(LABELS)
        n = NodeVar("n", label)
        scope = Scope(nodes=[n])
        first = A.NodePat("n", label, self.inline_props(label))
        where = self.maybe_where(scope, 0.3, 1)
        match = A.Match(False, (A.PathPat((first,)),), where)
        node = A.Var("n")
        items: list[tuple[A.Expr, str]] = [(A.Prop(node, "nodeSymbol"), "n.nodeSymbol")]
        if self.chance(0.4):
            items.append((A.Prop(node, "class"), "n.class"))
        if self.chance(0.2):
            items.append((A.Prop(A.Prop(node, "center"), "x"), "n.center.x"))
        self.rng.shuffle(items)
        kind = self.pick(("COUNT", "COUNT", "EXISTS"))
        self.tag(f"order_by_{kind.lower()}_subquery")
        bare = self.chance(0.5)
        if bare:
            self.tag("subquery_without_match")
        sub = A.Subquery(kind, (self.sub_pattern(n, named=True),), self.sub_where(scope), bare)
        order = [A.SortItem(sub, self.chance(0.7))]
        if self.chance(0.3) and len(items) > 1:
            order.append(A.SortItem(self.pick([e for e, _ in items])))
        order.append(A.SortItem(A.Prop(node, "nodeSymbol")))
        limit = self.rng.randint(1, 3) if self.chance(0.4) else None
        ret = A.Projection("RETURN", tuple(items), order=tuple(order), limit=limit)
        return A.Query(((match, ret),))

    def scan_node(self, var: str) -> A.NodePat:
        """A node pattern with no label, or a label alternation (`(n:Room|Building)`)."""
        if self.chance(0.45):
            self.tag("scan_unlabelled")
            return A.NodePat(var)
        self.tag("scan_label_alternation")
        names = self.rng.sample(LABELS, self.rng.randint(2, 3))
        expr: tuple = ("term", names[0])
        for name in names[1:]:
            expr = ("or", expr, ("term", name))
        return A.NodePat(var, label_expr=expr)

    def scan_filter(self, var: str) -> A.Expr:
        """IN over a literal list, =~, or all()/any() over a literal list, of one node's
        properties (several labels scanned at once)."""
        x = A.Var(var)
        choice = self.pick(("in_class", "in_symbol", "regex", "all", "any", "any_prefix"))
        self.tag(f"scan_{choice}")
        if choice == "in_class":
            e: A.Expr = A.BinOp("IN", A.Prop(x, "class"), A.ListLit(tuple(
                A.Lit(self.pick((*CLASSES, "apartment"))) for _ in range(self.rng.randint(1, 3)))))
        elif choice == "in_symbol":
            e = A.BinOp("IN", A.Prop(x, "nodeSymbol"), A.ListLit(tuple(
                A.Lit(self.symbol(self.pick(LABELS))) for _ in range(self.rng.randint(1, 3)))))
        elif choice == "regex":
            e = A.BinOp("=~", A.Prop(x, self.pick(STR_PROPS)), A.Lit(self.pick(SCAN_REGEXES)))
        elif choice == "all":
            e = A.Quant("all", "c", A.ListLit(tuple(A.Lit(self.pick(CLASSES))
                                                    for _ in range(self.rng.randint(1, 3)))),
                        A.BinOp("<>", A.Prop(x, "class"), A.Var("c")))
        elif choice == "any":
            e = A.Quant("any", "c", A.ListLit(tuple(A.Lit(self.pick((*CLASSES, "apartment")))
                                                    for _ in range(self.rng.randint(1, 3)))),
                        A.BinOp("=", A.Prop(x, "class"), A.Var("c")))
        else:
            e = A.Quant("any", "c", A.ListLit(tuple(A.Lit(self.pick(("R", "B", "O", "P", "p",
                                                                     "R1", "O2")))
                                                    for _ in range(self.rng.randint(1, 2)))),
                        A.BinOp("STARTS WITH", A.Prop(x, "nodeSymbol"), A.Var("c")))
        if self.chance(0.15):
            e = A.Not(e)
        return e

    def q_filtered_scan(self) -> A.Query:
        """A filter (IN a literal list, =~, all()/any()) on a node with no label or a label
        alternation: alone, after an expansion, in a CALL subquery or in EXISTS { }. Graphs
        often have a label holding one node (graphs.py), where Kuzu filtered such scans wrong."""
        self.tag("filtered_scan")
        mode = self.pick(("alone", "alone", "expansion", "expansion", "call", "exists"))
        self.tag(f"filtered_scan_{mode}")
        if mode == "alone":
            match = A.Match(False, (A.PathPat((self.scan_node("n"),)),), self.scan_filter("n"))
            n = A.Var("n")
            if self.chance(0.3):
                items: tuple[tuple[A.Expr, str], ...] = (
                    (A.Agg("count", None), self.name("k")),
                    (A.Func("size", (A.Agg("collect", A.Prop(n, "nodeSymbol")),)), "m"))
                return A.Query(((match, A.Projection("RETURN", items)),))
            s = self.name("s")
            items = ((A.Prop(n, "nodeSymbol"), s), (A.Prop(n, "class"), self.name("c")))
            return A.Query(((match, A.Projection("RETURN", items,
                                                 order=(A.SortItem(A.Var(s)),))),))
        label = self.pick(("Building", "Room", "Room", "MeshPlace", "Place", "Object"))
        start = A.NodePat("a", label, self.inline_props(label))
        rel, _ = self.hop(label)
        if rel.hops is not None and rel.hops[1] is None:
            rel = replace(rel, hops=(1, 2))
        end = self.scan_node("b")
        if mode == "expansion":
            where = self.scan_filter("b")
            match = A.Match(False, (A.PathPat((start, rel, end)),), where)
            a_s, b_s = self.name("a_s"), self.name("b_s")
            items = ((A.Prop(A.Var("a"), "nodeSymbol"), a_s),
                     (A.Prop(A.Var("b"), "nodeSymbol"), b_s))
            ret = A.Projection("RETURN", items, distinct=self.chance(0.3),
                               order=(A.SortItem(A.Var(a_s)), A.SortItem(A.Var(b_s))))
            return A.Query(((match, ret),))
        outer = A.Match(False, (A.PathPat((start,)),))
        inner = A.Match(False, (A.PathPat((A.NodePat("a"), rel, end)),), self.scan_filter("b"))
        if mode == "exists":
            self.tag("exists_subquery")
            test: A.Expr = A.Subquery("EXISTS", inner.patterns, inner.where, self.chance(0.4))
            if self.chance(0.3):
                test = A.Not(test)
            outer = replace(outer, where=test)
            s = self.name("s")
            ret = A.Projection("RETURN", ((A.Prop(A.Var("a"), "nodeSymbol"), s),),
                               order=(A.SortItem(A.Var(s)),))
            return A.Query(((outer, ret),))
        self.tag("call_subquery")
        k = self.name("k", read=True)
        if self.chance(0.5):
            self.tag("call_keyless")
            body_ret = A.Projection("RETURN", ((A.Agg("count", A.Var("b")), k),))
        else:
            self.tag("call_rows")
            body_ret = A.Projection("RETURN", ((A.Prop(A.Var("b"), "nodeSymbol"), k),))
        call = A.Call(("a",), (inner, body_ret), scoped=self.chance(0.6))
        s = self.name("s")
        ret = A.Projection("RETURN", ((A.Prop(A.Var("a"), "nodeSymbol"), s), (A.Var(k), k)),
                           order=(A.SortItem(A.Var(s)), A.SortItem(A.Var(k))))
        return A.Query(((outer, call, ret),))

    def outer_null_test(self, scope: Scope, inner: str | None) -> A.Expr:
        """A test of outer values that are NULL on some rows: a missing box, a node of an
        OPTIONAL MATCH, a CASE without ELSE; with `inner`, sometimes against that node."""
        options: list[A.Expr] = []
        for m in scope.nodes:
            v = A.Var(m.name)
            if m.label == "Object":
                box = self.pick(("bbox_center", "bbox_dim"))
                options += [A.IsNull(A.Prop(v, box), self.chance(0.4)),
                            A.BinOp(self.pick((">", "<")), A.Prop(A.Prop(v, box), "x"),
                                    A.Lit(self.pick((0.0, 0.5, 1.0)))),
                            A.BinOp("<", A.Func("coalesce", (A.Prop(A.Prop(v, "bbox_dim"), "x"),
                                                             A.Lit(0.0))), A.Lit(1.0))]
                if inner is not None:
                    options.append(A.BinOp(self.pick(("<", ">")), A.Prop(A.Prop(
                        A.Var(inner), "center"), "x"), A.Prop(A.Prop(v, "bbox_center"), "x")))
            if m.nullable:
                options += [A.IsNull(v, self.chance(0.5)),
                            A.BinOp("=", A.Prop(v, "class"), A.Lit(self.pick(CLASSES)))]
                if inner is not None:
                    options.append(A.BinOp("<>", A.Prop(A.Var(inner), "class"),
                                           A.Prop(v, "class")))
        for name in sorted(scope.nullable_scalars):
            options += [A.IsNull(A.Var(name), self.chance(0.5)),
                        A.BinOp(">", A.Var(name), A.Lit(0.0))]
        if not options:
            return A.IsNull(A.Prop(A.Var(scope.nodes[0].name), "name"), True)
        return self.pick(options)

    def q_outer_null_reads(self) -> A.Query:
        """Pattern comprehensions and OPTIONAL MATCHes whose WHERE reads outer values NULL on
        some rows: `[(n)<--(m) WHERE m.class <> 'box' AND n.bbox_dim IS NULL | m.nodeSymbol]`,
        `OPTIONAL MATCH (n)-->(q) WHERE q.class = 'x' OR p IS NULL`. The engines once joined
        such parts on the NULL value and found nothing."""
        self.tag("outer_null_reads")
        label = self.pick(("Object", "Object", "Object", "MeshPlace", "Place", "Room"))
        n = NodeVar("n", label)
        scope = Scope(nodes=[n])
        clauses: list[A.Clause] = [A.Match(False, (A.PathPat((A.NodePat(
            "n", label, self.inline_props(label)),)),), self.maybe_where(scope, 0.3, 1))]
        if PARENTS[label] and self.chance(0.5):
            self.tag("optional_match")
            parent = self.pick(PARENTS[label])
            clauses.append(A.Match(True, (A.PathPat((A.NodePat("n"), A.RelPat(
                None, ("CONTAINS",), "in"), A.NodePat("p", parent))),), A.BinOp(
                "=", A.Prop(A.Var("p"), "class"), A.Lit(self.pick(CLASSES)))
                if self.chance(0.4) else None))
            scope.nodes.append(NodeVar("p", parent, nullable=True))
        if self.chance(0.3):
            v = self.name("v", p=0.2, read=True)
            carried = tuple((A.Var(m.name), m.name) for m in scope.nodes)
            value = A.Case(((A.BinOp(">", A.Prop(A.Prop(A.Var("n"), "center"), "x"),
                                     A.Lit(0.0)), A.Prop(A.Prop(A.Var("n"), "center"), "y")),),
                           None)
            clauses.append(A.Projection("WITH", (*carried, (value, v))))
            scope.scalars[v] = "float"
            scope.nullable_scalars.add(v)
        items: list[tuple[A.Expr, str]] = [(A.Prop(A.Var("n"), "nodeSymbol"), "s")]
        order = [A.SortItem(A.Var("s"))]
        if self.chance(0.4):
            self.tag("optional_where_reads_outer_null")
            rel, end_label = self.hop(label)
            if rel.hops is not None:
                rel = A.RelPat(None, (CONNECTED[label],), "out")
                end_label = label
            q = A.NodePat("q", end_label if self.chance(0.7) else None)
            test = self.outer_null_test(scope, "q")
            if self.chance(0.5):
                test = A.BinOp(self.pick(("AND", "OR")), A.BinOp(
                    "<>", A.Prop(A.Var("q"), "class"), A.Lit(self.pick(CLASSES))), test)
            clauses.append(A.Match(True, (A.PathPat((A.NodePat("n"), rel, q)),), test))
            if self.chance(0.5):
                items.append((A.Prop(A.Var("q"), "nodeSymbol"), "t"))
                order.append(A.SortItem(A.Var("t")))
            else:
                proj = A.Projection("RETURN", (*items, (A.Agg("count", A.Var("q")), "k"),
                                               (A.Agg("collect", A.Prop(A.Var("q"), "nodeSymbol")),
                                                "ts")), order=tuple(order))
                return A.Query((tuple([*clauses, proj]),))
        for i in range(self.rng.randint(1, 2)):
            with self.unit() as tags:
                self.tag("pattern_comprehension", "comprehension_where_reads_outer_null")
                pat = self.sub_pattern(n, named=True)
                inner = self.inner_test()
                outer = self.outer_null_test(scope, "m")
                where = outer if inner is None else A.BinOp(self.pick(("AND", "AND", "OR")),
                                                            inner, outer)
                value = self.pick((A.Prop(A.Var("m"), "nodeSymbol"), A.Prop(A.Var("m"), "class"),
                                   A.Lit(1)))
                comp: A.Expr = A.PatternComp(pat, where, value)
                if self.chance(0.25):
                    comp = A.Func("size", (comp,))
            self.claim(tags, comp)
            items.append((comp, f"c{i}"))
        return A.Query((tuple([*clauses, A.Projection("RETURN", tuple(items),
                                                      order=tuple(order))]),))

    def group_read(self, scope: Scope) -> A.Expr:
        """A read of a group's lists xs (numbers) and ms (nodes), which may be empty."""
        xs, ms, n, r = A.Var("xs"), A.Var("ms"), A.Var("n"), A.Var("r")
        choice = self.pick(("computed", "computed", "computed", "head", "map_lambda", "scalar"))
        if choice == "head":
            self.tag("head_collect_nodes")
            first = self.pick((A.Func("head", (ms,)), A.Func("last", (ms,)),
                               A.Index(ms, A.Lit(self.pick((0, -1))))))
            return A.Prop(first, self.pick(("nodeSymbol", "class", "name")))
        if choice == "map_lambda":
            self.tag("map_projection", "map_projection_in_lambda")
            return A.ListComp("x", ms, None, A.MapProj(A.Var("x"), self.selectors("Object")))
        if choice == "scalar":
            return self.scalar(scope, 1)[0]
        self.tag("computed_list_lambda")
        # rarely a filtered range: its translation grows exponentially (an engine then times
        # out or runs out of memory, 20 s each), which would dominate a short run
        source_kind = self.rng.choices(("range", "range_n", "slice", "tail", "filtered"),
                                       weights=(4, 4, 4, 4, 1))[0]
        self.tag(f"computed_list_{source_kind}")
        positions = A.Func("range", (A.Lit(0), A.BinOp("-", A.Func("size", (xs,)), A.Lit(1))))
        k, x = A.Var("k"), A.Var("x")
        cx = A.Prop(A.Prop(r, "center"), self.pick("xyz"))
        if source_kind in ("range", "range_n", "filtered"):
            var = "k"
            source: A.Expr = positions
            if source_kind == "range_n":
                source = A.Func("range", (A.Lit(0), A.BinOp("-", n, A.Lit(1))))
            elif source_kind == "filtered":
                source = A.ListComp("j", positions, A.BinOp(
                    self.pick((">", "<")), A.Index(xs, A.Var("j")), A.Lit(self.pick((0, 0.5)))),
                    None)
            where = self.pick((
                A.BinOp(self.pick((">", "<", ">=")), A.Index(xs, k), cx),
                A.BinOp("<", k, A.BinOp("-", n, A.Lit(1))),
                A.BinOp(">", A.Prop(A.Prop(A.Index(ms, k), "center"), self.pick("xy")), cx),
                A.BinOp("<>", A.Prop(A.Index(ms, k), "class"), A.Prop(r, "class"))))
            proj = self.pick((None, A.Index(xs, k), A.Prop(A.Index(ms, k), "nodeSymbol"),
                              A.BinOp("-", A.Index(xs, k), cx), A.BinOp("*", k, A.Lit(2))))
        else:
            var = "x"
            source = (A.Slice(xs, A.Lit(1), None) if self.chance(0.5)
                      else A.Slice(xs, None, A.Lit(-1))) if source_kind == "slice" \
                else A.Func("tail", (xs,))
            where = self.pick((A.BinOp(self.pick((">", "<")), x, cx),
                               A.BinOp(">", A.BinOp("+", x, A.Lit(1)), cx)))
            proj = self.pick((None, A.BinOp("-", x, cx), A.BinOp("*", x, A.Lit(2))))
        shape = self.pick(("list", "list", "size", "quantifier"))
        if shape == "quantifier":
            self.tag("quantifier")
            return A.Quant(self.pick(("any", "all", "none", "single")), var, source, where)
        if proj is not None:
            self.tag("computed_list_mapping")
        comp = A.ListComp(var, source, where, proj)
        return A.Func("size", (comp,)) if shape == "size" else comp

    def relationship_function(self, scope: Scope) -> A.Expr:
        """type(), startNode() or endNode() of a relationship variable: NULL where an
        OPTIONAL MATCH bound it to nothing."""
        if scope.paths and (not scope.rels or self.chance(0.4)):
            # a relationship at a position of a path: its stored ends, NULL past the path's end
            self.tag("path_relationship_endpoint")
            rels = A.Func("relationships", (A.Var(self.pick(scope.paths)),))
            at = self.pick((A.Index(rels, A.Lit(self.rng.randint(-2, 2))),
                            A.Func(self.pick(("head", "last")), (rels,))))
            return A.Prop(A.Func(self.pick(("startNode", "endNode")), (at,)),
                          self.pick(("nodeSymbol", "class")))
        d = self.pick(scope.rels)
        self.tag("relationship_function")
        if d.nullable:
            self.tag("relationship_function_optional")
        if d.direction == "both":
            self.tag("relationship_function_undirected")
        choice = self.pick(("type", "startNode", "endNode"))
        if choice == "type":
            return A.Func("type", (A.Var(d.name),))
        return A.Prop(A.Func(choice, (A.Var(d.name),)), self.pick(("nodeSymbol", "class")))

    def selectors(self, label: str | None) -> tuple[tuple[str, A.Expr | None], ...]:
        keys = self.rng.sample(["nodeSymbol", "class", "name"], self.rng.randint(1, 2))
        if label == "Object" and self.chance(0.15):
            self.tag("map_projection_absent_property")  # the key is there, its value NULL
            keys.append("bbox_dim")
        return tuple((k, None) for k in keys)

    def map_projection(self, scope: Scope) -> A.Expr:
        """`n {.key, k: value}`, of a node an OPTIONAL MATCH may not have found when there is
        one: NULL then, not a map of NULLs."""
        self.tag("map_projection")
        nullable = [n for n in scope.nodes if n.nullable]
        n = self.pick(nullable) if nullable and self.chance(0.7) else self.node(scope)
        if n.nullable:
            self.tag("map_projection_of_null")
        items = self.selectors(n.label)
        if self.chance(0.4):
            self.tag("map_projection_entry")
            value = self.pick((lambda: A.Lit(self.rng.randint(0, 3)),
                               lambda: self.string(scope, 0), lambda: self.float(scope, 0)))()
            items += (("k", value),)
        if scope.scalars and self.chance(0.3):
            self.tag("map_projection_variable")   # `n {.class, deg}`, the entry `deg: deg`
            held = self.pick(sorted(scope.scalars))
            items += ((held, A.Var(held)),)
        return A.MapProj(A.Var(n.name), items)

    def map_projection_in_lambda(self, scope: Scope) -> A.Expr:
        """`[x IN [a, b] | x {.key}]`: NULL for an element that is NULL."""
        self.tag("map_projection", "map_projection_in_lambda")
        nodes = [self.node(scope) for _ in range(2)]
        nullable = [n for n in scope.nodes if n.nullable]
        if nullable:
            nodes[self.rng.randint(0, 1)] = self.pick(nullable)
            self.tag("map_projection_of_null")
        return A.ListComp("x", A.ListLit(tuple(A.Var(n.name) for n in nodes)), None,
                          A.MapProj(A.Var("x"), self.selectors(None)))

    def map_value(self, scope: Scope, depth: int) -> A.Expr:
        if self.chance(0.5):
            return self.all_properties(scope)
        return self.map_projection(scope)

    def all_properties(self, scope: Scope) -> A.Expr:
        """`n {.*}`, `n {.*, k: value}` or `properties(n)`: every property the node has (no
        bbox keys for an object without a box), NULL for a NULL node."""
        nullable = [n for n in scope.nodes if n.nullable]
        n = self.pick(nullable) if nullable and self.chance(0.2) else self.node(scope)
        if n.nullable:
            self.tag("all_properties_of_null")
        if n.label in ("Object", None):
            self.tag("all_properties_maybe_boxless")
        if self.chance(0.35):
            self.tag("properties_whole")
            return A.Func("properties", (A.Var(n.name),))
        self.tag("map_projection_all")
        items: tuple[tuple[str, A.Expr | None], ...] = (("*", None),)
        if self.chance(0.4):
            self.tag("map_projection_all_entry")
            value = self.pick((lambda: A.Lit(self.rng.randint(0, 3)),
                               lambda: self.string(scope, 0), lambda: self.float(scope, 0),
                               lambda: A.Func("size", (self.string(scope, 0),))))()
            items += ((self.pick(("k", "extra", "rank")), value),)
        if n.label == "Object" and self.chance(0.15):
            # named after `.*`: the key is there (NULL) even for an object without a box
            self.tag("map_projection_all_absent_selector")
            items += (("bbox_dim", None),)
        return A.MapProj(A.Var(n.name), items)

    def pattern_comprehension(self, scope: Scope) -> A.Expr | None:
        """`[(n)-[..]->(m) WHERE .. | value]` whose value is a literal, a list or map literal,
        a map projection, an outer node's property or the pattern node's property: a row with
        no match gives []. Only from a node every row binds."""
        bound = [n for n in scope.nodes if not n.nullable and n.label is not None]
        if not bound:
            return None
        n = self.pick(bound)
        self.tag("pattern_comprehension", "pattern_comprehension_value")
        named = self.chance(0.75)
        pat = self.sub_pattern(n, named=named)
        end = pat.elements[-1]
        assert isinstance(end, A.NodePat)
        m = A.Var("m")
        outer = A.Prop(A.Var(self.node(scope).name), self.pick(("nodeSymbol", "class")))
        options: list[A.Expr] = [A.Lit(self.pick((1, "x", 0.5, True))),
                                 A.ListLit((A.Lit(1), outer)),
                                 A.MapLit((("s", outer), ("k", A.Lit(2)))), outer]
        nulls: list[A.Expr] = []
        if named:
            if self.chance(0.15):
                self.tag("map_projection_all", "pattern_comprehension_all_properties")
                options.append(A.MapProj(m, (("*", None),)) if self.chance(0.6)
                               else A.Func("properties", (m,)))
            options += [A.Prop(m, self.pick(STR_PROPS)), A.MapProj(m, self.selectors(end.label)),
                        A.MapLit((("s", A.Prop(m, "nodeSymbol")),)),
                        A.ListLit((A.Prop(m, "nodeSymbol"), A.Prop(A.Prop(m, "center"), "x")))]
            # values NULL for some matches: kept in the list, unlike collect()
            nulls = [A.Case(((A.BinOp(">", A.Prop(A.Prop(m, "center"), "x"), A.Lit(0.0)),
                              A.Prop(m, "nodeSymbol")),), None)]
            if end.label in ("Object", None):
                nulls += [A.Prop(m, self.pick(("bbox_center", "bbox_dim"))),
                          A.Prop(A.Prop(m, "bbox_dim"), self.pick("xyz"))]
        if nulls and self.chance(0.3):
            self.tag("pattern_comprehension_null_value")
            value = self.pick(nulls)
        else:
            value = self.pick(options)
        if isinstance(value, A.MapProj):
            self.tag("map_projection")
        where = self.sub_where(scope) if named else None
        return A.PatternComp(pat, where, value)

    # ------------------------------------------------------------------ MATCH

    def match(self, scope: Scope, optional: bool, start: NodeVar | None = None,
              outer_chance: float = OUTER_PATTERNS_CHANCE) -> A.Match:
        if not optional:
            return self._match(scope, optional, start, outer_chance)
        with self.unit() as tags:  # the shrinker may drop an OPTIONAL MATCH whole
            clause = self._match(scope, optional, start, outer_chance)
        self.claim(tags, *clause.patterns)
        return clause

    def _match(self, scope: Scope, optional: bool, start: NodeVar | None,
               outer_chance: float = OUTER_PATTERNS_CHANCE) -> A.Match:
        if optional:
            self.tag("optional_match")
            start = start or self.pick(scope.nodes)
        anchors = [n for n in scope.nodes if start is not None and n.name != start.name]
        patterns = [self.path(scope, start, optional)]
        cross = None
        if anchors and self.chance(outer_chance):
            more = self.outer_patterns(scope, anchors, optional)
            patterns += more
            cross = self.cross_test([p.elements[-1] for p in (patterns[0], *more)],  # type: ignore[misc]
                                    [start, *anchors])  # type: ignore[list-item]
        elif not optional and self.chance(0.15):
            self.tag("comma_patterns")
            patterns.append(self.path(scope, None, optional))
        where = self.maybe_where(scope, 0.6, 2)
        return A.Match(optional, tuple(patterns), both(where, cross))

    def outer_patterns(self, scope: Scope, anchors: list[NodeVar],
                       optional: bool) -> list[A.PathPat]:
        """Patterns after a MATCH's first one, each from another node bound before the clause
        (`OPTIONAL MATCH (a)-->(x), (b)-->(y)`): Neo4j matches the whole list once per incoming
        row, with every outer node bound to that row's value, relationships unique across the
        list; a NULL outer node matches nothing (an OPTIONAL MATCH then gives its one row of
        NULLs). Both engines once matched the later patterns from every node."""
        self.tag("comma_outer_patterns",
                 "comma_outer_patterns_optional" if optional else "comma_outer_patterns_match")
        count = 2 if len(anchors) > 1 and self.chance(0.2) else 1
        if count == 2:
            self.tag("comma_outer_patterns_three")
        chosen = self.rng.sample(anchors, count)
        nullable = [n for n in anchors if n.nullable and n not in chosen]
        if nullable and self.chance(0.5):   # a node an earlier OPTIONAL MATCH may leave NULL
            chosen[0] = self.pick(nullable)
        out = []
        for node in chosen:
            if node.nullable:
                self.tag("comma_outer_pattern_from_null")
            out.append(self.path(scope, node, optional))
        return out

    def cross_test(self, ends: list[A.NodePat], outer: list[NodeVar]) -> A.Expr | None:
        """Now and then a test across the patterns of one MATCH: their ends against each other
        or against an outer node (the WHERE that once multiplied counts)."""
        if not self.chance(0.5):
            return None
        self.tag("comma_outer_cross_where")
        x, y = (A.Var(e.var) for e in self.rng.sample(ends, 2))  # type: ignore[arg-type]
        o = A.Var(self.pick(outer).name)
        axis = self.pick("xyz")
        return self.pick((
            A.BinOp("=", A.Prop(x, "class"), A.Prop(y, "class")),
            A.BinOp("<>", x, y),
            A.BinOp(self.pick(("<", ">")), A.Prop(A.Prop(y, "center"), axis),
                    A.Prop(A.Prop(o, "center"), axis)),
            A.BinOp("<", A.Func("point.distance", (A.Prop(x, "center"), A.Prop(y, "center"))),
                    A.Lit(self.pick((1.0, 2.5, 4.0)))),
        ))

    def path(self, scope: Scope, start: NodeVar | None, optional: bool) -> A.PathPat:
        bound = start is not None
        if start is None:
            label = self.pick(LABELS)
            start = NodeVar(self.fresh("n"), label, optional)
            first = A.NodePat(start.name, label, self.inline_props(label))
            if self.chance(0.1):
                self.tag("label_expression")
                first = replace(first, label_expr=labelexpr.equivalent(self.rng, (label,),
                                                                       labelexpr.LABELS))
            scope.nodes.append(start)
        else:
            first = A.NodePat(start.name)
        elements: list[A.NodePat | A.RelPat] = [first]
        at = start
        path_var = self.fresh("p") if self.chance(0.15) else None
        hops = self.rng.choices([0, 1, 2], weights=[2, 5, 2])[0]
        for _ in range(max(hops, 1 if bound else 0)):
            rel, label = self.hop(at.label)
            if rel.hops is None and self.chance(0.3 if optional else 0.1):
                self.tag("relationship_variable")
                rel = replace(rel, var=self.fresh("d"))
                scope.rels.append(RelVar(rel.var, optional, rel.direction))  # type: ignore[arg-type]
            new = NodeVar(self.fresh("n"), label, optional)
            keep_label = label is not None and self.chance(0.85)
            if self.chance(0.12):
                self.tag("type_expression")
                rel = replace(rel, type_expr=labelexpr.equivalent(self.rng, rel.types,
                                                                  labelexpr.REL_TYPES))
            end = A.NodePat(new.name, label if keep_label else None,
                            self.inline_props(label) if keep_label else ())
            if not keep_label and self.chance(0.3):
                self.tag("label_expression")
                end = replace(end, label_expr=labelexpr.draw(self.rng, labelexpr.LABELS))
            elements += [rel, end]
            if not keep_label and label is not None:
                self.tag("unlabelled_end")
            scope.nodes.append(new)
            at = new
        if len(elements) == 1:
            path_var = None
        if path_var:
            self.tag("path_variable")
            scope.paths.append(path_var)
        return A.PathPat(tuple(elements), path_var)

    def maybe_where(self, scope: Scope, p: float, depth: int) -> A.Expr | None:
        """A MATCH's WHERE, drawn with chance `p`, its constructs tagged as one unit."""
        if not self.chance(p):
            return None
        with self.unit() as tags:
            where = self.boolean(scope, depth)
            self.tag("where")
        self.claim(tags, where)
        return where

    def hop(self, label: str | None) -> tuple[A.RelPat, str | None]:
        options = []
        if label is None:
            options.append("any")
        else:
            if CHILDREN[label]:
                options += ["down", "down", "down_var"]
            if PARENTS[label]:
                options += ["up", "up"]
            options += ["same", "same_var", "any"]
        kind = self.pick(options)
        if kind == "down":
            return A.RelPat(None, ("CONTAINS",), "out"), self.pick(CHILDREN[label])
        if kind == "up":
            return A.RelPat(None, ("CONTAINS",), "in"), self.pick(PARENTS[label])
        if kind == "down_var":
            self.tag("var_length")
            hops = self.pick(((1, None), (1, 2), (2, 2), (0, 1), (1, 3)))
            target = label
            for _ in range(hops[1] or 3):
                if not CHILDREN[target]:
                    break
                target = self.pick(CHILDREN[target])
            return A.RelPat(None, ("CONTAINS",), "out", hops), (
                target if hops[0] == (hops[1] or 99) and hops[1] is not None else None)
        if kind == "same":
            direction = self.pick(("out", "in", "both"))
            if direction == "both":
                self.tag("undirected")
            return A.RelPat(None, (CONNECTED[label],), direction), label
        if kind == "same_var":
            self.tag("var_length")
            direction = self.pick(("out", "both"))
            return A.RelPat(None, (CONNECTED[label],), direction,
                            self.pick(((1, 2), (2, 3), (0, 2)))), label
        self.tag("untyped_relationship")
        return A.RelPat(None, (), self.pick(("out", "in", "both"))), None

    def inline_props(self, label: str | None) -> tuple[tuple[str, A.Expr], ...]:
        if label is None or not self.chance(0.15):
            return ()
        self.tag("inline_properties")
        values = {"Object": OBJECT_CLASSES, "Room": ROOM_CLASSES, "MeshPlace": ("floor",),
                  "Place": ("unknown",), "Building": ("apartment",)}[label]
        return (("class", A.Lit(self.pick(values))),)

    # ------------------------------------------------------------------ RETURN

    def final_return(self, scope: Scope, aggregate: bool) -> A.Projection:
        items: list[tuple[A.Expr, str]] = []
        shadow = aggregate and self.chance(0.3)
        sortable: set[str] = set()
        mixed: set[str] = set()  # aliases of values of several types
        for i in range(self.rng.randint(1, 3)):
            with self.unit() as tags:
                expr, kind = self.scalar(scope, 2)
            alias = self.name(f"c{i}")
            if shadow and i == 0 and scope.nodes:
                node = self.pick(scope.nodes)
                expr, alias, kind = A.Prop(A.Var(node.name), "nodeSymbol"), node.name, "str"
                tags = {"alias_shadows_variable"}  # the drawn value's tags go with it
            self.claim(tags, expr)
            items.append((expr, alias))
            if kind in ("str", "int", "float", "bool", "mixed"):
                sortable.add(alias)
            if kind == "mixed":
                mixed.add(alias)
        aggs: list[tuple[A.Expr, str]] = []
        if aggregate:
            for i in range(self.rng.randint(1, 2)):
                with self.unit() as tags:
                    agg, kind = self.aggregate(scope)
                self.claim(tags, agg)
                alias = self.name(f"g{i}")
                aggs.append((agg, alias))
                if kind in ("str", "int", "float", "mixed"):
                    sortable.add(alias)
                if kind == "mixed":
                    mixed.add(alias)
        all_items = items + aggs
        order: list[A.SortItem] = []
        limit = skip = None
        distinct = not aggregate and self.chance(0.15)
        if distinct:
            self.tag("distinct")
        if self.chance(0.6):
            order_tags = {"order_by"}
            if aggs and aggs[0][1] in sortable and self.chance(0.5):
                order.append(A.SortItem(aggs[0][0], self.chance(0.6)))
                self.tag_node(order[-1], "aggregate_in_order_by")
            for _, alias in all_items:
                if alias in sortable:
                    order.append(A.SortItem(A.Var(alias), self.chance(0.3)))
                    if alias in mixed:
                        self.tag_node(order[-1], "order_by_mixed_types")
            if not aggregate and not distinct:
                order += [A.SortItem(A.Prop(A.Var(n.name), "nodeSymbol")) for n in scope.nodes
                          if n.name not in {a for _, a in all_items}]
            if order and self.chance(0.4):
                order_tags.add("skip_limit")
                limit = self.rng.randint(1, 4)
                skip = self.rng.randint(0, 2) if self.chance(0.4) else None
            if order:
                self.claim(order_tags, *order)
        return A.Projection("RETURN", tuple(all_items), distinct, tuple(order), skip, limit)

    def aggregate(self, scope: Scope) -> tuple[A.Expr, str]:
        name = self.pick(("count", "count", "countd", "sum", "avg", "min", "max", "collect",
                          "stDev", "stDevP", "percentileCont", "percentileDisc", "size_collect",
                          "mixed", "map_projection"))
        if name == "map_projection":   # NULL for a NULL node: neither collected nor counted
            projection = (self.all_properties(scope) if self.chance(0.4)
                          else self.map_projection(scope))
            if self.chance(0.5):
                return A.Agg("count", projection), "int"
            return A.Agg("collect", projection), "bag"
        if name == "mixed":
            self.tag("aggregate_mixed_types")
            which = self.pick(("min", "max", "collect"))
            return A.Agg(which, self.mixed(scope, 1)), "bag" if which == "collect" else "mixed"
        if name == "count":
            return (A.Agg("count", None) if self.chance(0.5)
                    else A.Agg("count", self.scalar(scope, 1)[0])), "int"
        if name == "countd":
            self.tag("count_distinct")
            return A.Agg("count", self.string(scope, 1), distinct=True), "int"
        if name in ("sum", "avg", "min", "max"):
            if name in ("min", "max") and self.chance(0.3):
                return A.Agg(name, self.string(scope, 1)), "str"
            arg = self.float(scope, 1) if self.chance(0.7) else self.integer(scope, 1)
            return A.Agg(name, arg), "float"
        if name == "collect":
            self.tag("collect")
            return A.Agg("collect", self.string(scope, 1), distinct=self.chance(0.3)), "bag"
        if name in ("stDev", "stDevP"):
            self.tag("stdev")
            return A.Agg(name, self.float(scope, 1)), "float"
        if name in ("percentileCont", "percentileDisc"):
            self.tag("percentile")
            arg = self.float(scope, 1) if self.chance(0.7) else self.integer(scope, 1)
            return A.Agg(name, arg, extra=A.Lit(self.pick((0.0, 0.25, 0.5, 0.9, 1.0)))), "float"
        self.tag("collect")
        return A.Func("size", (A.Agg("collect", self.string(scope, 1), distinct=True),)), "int"

    def sortable(self, scope: Scope) -> tuple[A.Expr, str]:
        kind = self.pick(("str", "float", "int"))
        return getattr(self, {"str": "string", "float": "float", "int": "integer"}[kind])(
            scope, 1), kind

    def scalar(self, scope: Scope, depth: int) -> tuple[A.Expr, str]:
        kind = self.rng.choices(["str", "int", "float", "bool", "point", "list", "mixed", "map"],
                                weights=[5, 4, 4, 2, 1, 2, 1, 1])[0]
        make = {"str": self.string, "int": self.integer, "float": self.float,
                "bool": self.boolean, "point": self.point, "list": self.list,
                "mixed": self.mixed, "map": self.map_value}[kind]
        return make(scope, depth), kind

    # ------------------------------------------------------------------ expressions

    def node(self, scope: Scope) -> NodeVar:
        return self.pick(scope.nodes)

    def string(self, scope: Scope, depth: int) -> A.Expr:
        n = A.Var(self.node(scope).name)
        leaf = A.Prop(n, self.pick(STR_PROPS))
        str_scalars = [k for k, t in scope.scalars.items() if t == "str"]
        if (scope.rels or scope.paths) and self.chance(0.25):
            return self.relationship_function(scope)
        if depth <= 0 or self.chance(0.35):
            if str_scalars and self.chance(0.3):
                return A.Var(self.pick(str_scalars))
            return leaf
        if self.chance(MIX_CHANCE["string"]):
            return self.string_of_wrong_argument(scope)
        d = depth - 1
        choice = self.pick(("upper", "lower", "substring", "left", "right", "replace", "concat",
                            "concat_int", "concat_float", "to_string", "split_index",
                            "coalesce", "case", "properties", "trim", "reverse", "path_node",
                            "double_bar"))
        if choice == "double_bar":
            return self.double_bar_string(scope, d)
        if choice == "path_node" and scope.paths:
            self.tag("indexed_property", "path_nodes")
            nodes = A.Func("nodes", (A.Var(self.pick(scope.paths)),))
            if self.chance(0.3):
                rels = A.Func("relationships", (A.Var(self.pick(scope.paths)),))
                return A.Func("type", (A.Index(rels, A.Lit(self.pick((0, -1)))),))
            return A.Prop(A.Index(nodes, A.Lit(self.pick((0, 1, -1, -2)))),
                          self.pick(STR_PROPS))
        if choice == "upper":
            return A.Func(self.pick(("toUpper", "toLower")), (self.string(scope, d),))
        if choice == "lower":
            return A.Func("toLower", (self.string(scope, d),))
        if choice == "substring":
            args: tuple[A.Expr, ...] = (self.string(scope, d), A.Lit(self.rng.randint(0, 2)))
            if self.chance(0.6):
                args += (A.Lit(self.rng.randint(0, 3)),)
            return A.Func("substring", args)
        if choice in ("left", "right"):
            return A.Func(choice, (self.string(scope, d), A.Lit(self.rng.randint(0, 3))))
        if choice == "replace":
            self.tag("replace")
            return A.Func("replace", (self.string(scope, d), A.Lit(self.pick(("O", "a", "e", "_"))),
                                      A.Lit(self.pick(("", "-", "XY")))))
        if choice == "concat":
            self.tag("string_concat")
            return A.BinOp("+", self.string(scope, d), A.BinOp("+", A.Lit(":"),
                                                             self.string(scope, d)))
        if choice == "concat_int":
            self.tag("string_plus_number")
            return A.BinOp("+", A.BinOp("+", self.string(scope, d), A.Lit(":")),
                           self.integer(scope, d))
        if choice == "concat_float":
            self.tag("string_plus_float")
            return A.BinOp("+", self.string(scope, d), self.float(scope, d))
        if choice == "to_string":
            if self.chance(0.5):
                self.tag("toString_float")
                return A.Func("toString", (self.float(scope, d),))
            return A.Func("toString", (self.integer(scope, d),))
        if choice == "split_index":
            self.tag("split")
            parts = A.Func("split", (self.string(scope, d), A.Lit(self.pick(("O", "a", "e",
                                                                                 ",", "R")))))
            return A.Index(parts, A.Lit(self.pick((0, 1, -1))))
        if choice == "coalesce":
            return A.Func("coalesce", (self.string(scope, d), A.Lit("none")))
        if choice == "case":
            if self.chance(0.4):
                self.tag("simple_case")
                whens = tuple((tuple(self.when_value() for _ in range(self.rng.randint(1, 2))),
                               self.string(scope, d)) for _ in range(self.rng.randint(1, 2)))
                return A.SimpleCase(self.string(scope, d), whens,
                                    self.string(scope, d) if self.chance(0.7) else None)
            return A.Case(((self.boolean(scope, d), self.string(scope, d)),),
                          self.string(scope, d) if self.chance(0.7) else None)
        if choice == "properties":
            self.tag("properties_index")
            return A.Index(A.Func("properties", (n,)), A.Lit(self.pick(("class", "nodeSymbol"))))
        if choice == "trim":
            name = self.pick(("trim", "trim", "ltrim", "rtrim"))
            if name != "trim":
                self.tag("ltrim_rtrim")
            text = self.string(scope, d)
            if self.chance(0.5):   # a long text, a short result: both engines returned garbage
                self.tag("trim_padded")
                pad = A.Lit(self.pick(("      ", " \t\n   ", "\u2003  ", "\u00a0 ")))
                text = A.BinOp("+", A.BinOp("+", pad, text), pad)
            return A.Func(name, (text,))
        return A.Func("reverse", (self.string(scope, d),))

    def double_bar_string(self, scope: Scope, depth: int) -> A.Expr:
        """`a || ':' || b` (Neo4j 5.19): two strings, NULL when either is (a property of a node
        an OPTIONAL MATCH did not find, a CASE without ELSE)."""
        self.tag("double_bar", "double_bar_string")
        left, right = self.string(scope, depth), self.string(scope, depth)
        if self.chance(0.25):
            self.tag("double_bar_null")
            nullable = [A.Prop(A.Var(m.name), self.pick(STR_PROPS)) for m in scope.nodes
                        if m.nullable] + [A.Var(v) for v in sorted(scope.nullable_scalars)
                                          if scope.scalars.get(v) == "str"]
            right = self.pick(nullable) if nullable and self.chance(0.6) else A.Case(((
                self.boolean(scope, 0), right),), None)
        if self.chance(0.5):
            return A.BinOp("||", left, A.BinOp("||", A.Lit(self.pick((":", "", " "))), right))
        return A.BinOp("||", left, right)

    def double_bar_list(self, scope: Scope) -> A.Expr:
        """`xs || ys` of two lists (Neo4j 5.19), NULL when either is."""
        self.tag("double_bar", "double_bar_list")
        n = A.Var(self.node(scope).name)
        parts = [
            lambda: A.Func("split", (A.Prop(n, self.pick(STR_PROPS)),
                                     A.Lit(self.pick(("O", "a", "1"))))),
            lambda: A.ListLit(tuple(A.Lit(self.pick(CLASSES))
                                    for _ in range(self.rng.randint(0, 2)))),
            lambda: A.ListLit((A.Prop(n, self.pick(STR_PROPS)),
                               A.Prop(A.Prop(n, "center"), "x"))),
            lambda: A.Func("range", (A.Lit(0), A.Lit(self.rng.randint(-1, 2)))),
            lambda: A.Slice(A.Func("split", (A.Prop(n, "name"), A.Lit(" "))), A.Lit(-1), None),
        ]
        left, right = self.pick(parts)(), self.pick(parts)()
        if self.chance(0.2):
            self.tag("double_bar_null")
            right = A.Case(((self.boolean(scope, 0), right),), None)
        return A.BinOp("||", left, right)

    def string_of_wrong_argument(self, scope: Scope) -> A.Expr:
        """A string function given a number, or a negative length or start: Neo4j's error
        (when the call runs, or when the query compiles for a number the text types)."""
        text = A.Prop(A.Var(self.node(scope).name), self.pick(STR_PROPS))
        choice = self.pick(("case", "case", "replace", "substring", "left_right", "split",
                            "negative", "negative"))
        if choice == "negative":
            self.tag("negative_length", "type_error")
            name = self.pick(("left", "right", "substring", "substring"))
            if name != "substring":
                return A.Func(name, (text, A.Lit(-self.rng.randint(1, 2))))
            return A.Func(name, self.pick(((text, A.Lit(-1)), (text, A.Lit(0), A.Lit(-1)),
                                           (text, A.Lit(-2), A.Lit(1)))))
        self.tag("string_function_on_number", "type_error")
        if choice == "split":
            self.tag("split")
            if self.chance(0.5):
                self.tag("typed_number")
                parts = A.Func("split", (text, A.Lit(self.pick((1, 0)))))
            else:
                parts = A.Func("split", (self.number(scope), A.Lit(".")))
            return A.Index(parts, A.Lit(0))
        number = self.number(scope)
        if choice == "case":
            name = self.pick(("toUpper", "toLower", "trim", "ltrim", "rtrim", "reverse"))
            return A.Func(name, (number,))
        if choice == "replace":
            return A.Func("replace", (number, A.Lit("0"), A.Lit("a")))
        if choice == "substring":
            return A.Func("substring", (number, A.Lit(0), A.Lit(2)))
        return A.Func(self.pick(("left", "right")), (number, A.Lit(2)))

    def number(self, scope: Scope) -> A.Expr:
        """A number where a string or a boolean is expected: mostly a stored coordinate (typed
        only when the query runs; NULL for a missing box), else a number whose type the text
        shows (size(), a literal)."""
        n = self.node(scope)
        kind = self.pick(("coordinate", "coordinate", "coordinate", "size", "literal"))
        if kind == "coordinate":
            if n.label == "Object" and self.chance(0.3):
                self.tag("nullable_point")
                return A.Prop(A.Prop(A.Var(n.name), self.pick(("bbox_center", "bbox_dim"))),
                              self.pick("xyz"))
            return A.Prop(A.Prop(A.Var(n.name), "center"), self.pick("xyz"))
        self.tag("typed_number")
        if kind == "size":
            return A.Func("size", (A.Prop(A.Var(n.name), self.pick(STR_PROPS)),))
        return A.Lit(self.pick((1, 10, 0.5, -1.5)))

    def value_of(self, scope: Scope, kind: str) -> A.Expr:
        """A value of `kind` (number, string, boolean): an expression or a literal."""
        n = self.node(scope)
        if kind == "number":
            return self.number(scope)
        if kind == "string":
            if self.chance(0.5):
                return A.Lit(self.pick(DIGIT_TEXTS))
            return A.Prop(A.Var(n.name), self.pick(STR_PROPS))
        if self.chance(0.4):
            return A.Lit(self.chance(0.5))
        return A.BinOp(self.pick((">", "<")), A.Prop(A.Prop(A.Var(n.name), "center"),
                                                     self.pick("xyz")), A.Lit(0.5))

    def literal_of(self, kind: str) -> A.Lit:
        if kind == "number":
            return A.Lit(self.pick((1, 10, 0.5, 10.0, -1.5, 2)))
        if kind == "string":
            return A.Lit(self.pick(DIGIT_TEXTS))
        return A.Lit(self.chance(0.5))

    def nullable_value(self, scope: Scope) -> tuple[A.Expr, str]:
        """A value NULL on some rows, and its kind: a field of a missing box, a CASE without
        ELSE from an earlier WITH, a property of a node an OPTIONAL MATCH did not find."""
        options: list[tuple[A.Expr, str]] = []
        for m in scope.nodes:
            if m.label == "Object":
                options.append((A.Prop(A.Prop(A.Var(m.name), "bbox_center"),
                                       self.pick("xyz")), "number"))
            if m.nullable:
                options.append((A.Prop(A.Var(m.name), self.pick(STR_PROPS)), "string"))
        for v in sorted(scope.nullable_scalars):
            options.append((A.Var(v), "string" if scope.scalars[v] == "str" else "number"))
        if not options:
            n = self.node(scope)
            return A.Case(((A.BinOp(">", A.Prop(A.Prop(A.Var(n.name), "center"), "x"),
                                     A.Lit(0.0)), A.Prop(A.Prop(A.Var(n.name), "center"),
                                                         "y")),), None), "number"
        return self.pick(options)

    def mixed_boolean(self, scope: Scope) -> A.Expr:
        """A comparison, IN or string test between values of different types."""
        choice = self.pick(("compare", "compare", "compare", "in", "string_op"))
        if choice == "string_op":
            self.tag("string_op_on_number")
            op = self.pick(("STARTS WITH", "ENDS WITH", "CONTAINS", "=~"))
            if op == "=~":
                self.tag("regex")
            if self.chance(0.7):
                pattern = self.pick(REGEXES) if op == "=~" else self.pick(("1", "0", ".", "-"))
                return A.BinOp(op, self.number(scope), A.Lit(pattern))
            text = A.Prop(A.Var(self.node(scope).name), self.pick(STR_PROPS))
            return A.BinOp(op, text, A.Lit(self.pick((1, 0, 10))))
        if choice == "in":
            self.tag("in_mixed_types")
            kind = self.pick(("number", "string", "boolean"))
            items = [self.literal_of(k) for k in ("number", "string", "boolean")
                     if k != kind or self.chance(0.3)]
            self.rng.shuffle(items)
            if self.chance(0.3):
                self.tag("in_list_null")
                items.append(A.Lit(None))
            return A.BinOp("IN", self.value_of(scope, kind), A.ListLit(tuple(items)))
        self.tag("mixed_type_compare")
        pair = self.pick((("number", "string"), ("boolean", "string"), ("number", "boolean"),
                          ("nullable", "")))
        if pair[0] == "nullable":
            self.tag("compare_nullable")
            left, kind = self.nullable_value(scope)
            right: A.Expr = self.literal_of(self.pick([k for k in ("number", "string",
                                                                   "boolean") if k != kind]))
        else:
            self.tag(f"compare_{pair[0]}_{pair[1]}")
            left = self.value_of(scope, pair[0])
            right = (self.literal_of(pair[1]) if self.chance(0.6)
                     else self.value_of(scope, pair[1]))
        if self.chance(0.3):
            left, right = right, left
        return A.BinOp(self.pick(("=", "<>", "<", ">=")), left, right)

    def when_value(self) -> A.Expr:
        """A simple CASE's WHEN value: a class or symbol some rows hold, or NULL (which matches
        nothing in Neo4j)."""
        if self.chance(0.2):
            self.tag("simple_case_null")
            return A.Lit(None)
        return A.Lit(self.pick((*ROOM_CLASSES, *OBJECT_CLASSES[:3], "R1", "O1", "")))

    def mixed(self, scope: Scope, depth: int) -> A.Expr:
        """A value of one type on some rows and of another on others: a CASE whose branches
        differ in type, or coalesce() of a NULL-able value and one of another type."""
        if self.chance(0.7):
            self.tag("case_mixed_types")
            first, second = self.rng.sample(["number", "string", "boolean"], 2)
            return A.Case(((self.boolean(scope, max(depth - 1, 0)),
                            self.value_of(scope, first)),), self.value_of(scope, second))
        self.tag("coalesce_mixed_types")
        value, kind = self.nullable_value(scope)
        other = self.pick([k for k in ("number", "string", "boolean") if k != kind])
        return A.Func("coalesce", (value, self.value_of(scope, other)))

    def row_integer(self, scope: Scope, depth: int, n: NodeVar) -> A.Expr:
        """An integer that reads the row: a divisor of constants alone is a constant the
        engines fold (and raise for 0) when they plan the query, even with no row, where Neo4j
        raises on a row it evaluates (a known gap, not drawn)."""
        k = self.integer(scope, depth)
        if any(isinstance(x, A.Var) for x in A.walk(k)):
            return k
        return A.Func("size", (A.Prop(A.Var(n.name), "name"),))

    def integer(self, scope: Scope, depth: int) -> A.Expr:
        int_scalars = [k for k, t in scope.scalars.items() if t == "int"]
        if depth <= 0 or self.chance(0.3):
            if int_scalars and self.chance(0.4):
                return A.Var(self.pick(int_scalars))
            if self.chance(0.5):
                return A.Lit(self.rng.randint(-3, 5))
            return A.Func("size", (self.string(scope, 0),))
        if self.chance(MIX_CHANCE["integer"]):
            self.tag("size_of_number", "type_error")
            return A.Func("size", (self.number(scope),))
        d = depth - 1
        n = self.node(scope)
        choice = self.pick(("size_str", "arith", "to_integer", "count_sub", "pattern_size",
                            "keys", "split_size", "length", "sign", "mod", "div",
                            "guarded_div"))
        if choice == "size_str":
            return A.Func("size", (self.string(scope, d),))
        if choice == "arith":
            return A.BinOp(self.pick(("+", "-", "*")), self.integer(scope, d),
                           self.integer(scope, d))
        if choice == "to_integer":
            return A.Func("toInteger", (self.float(scope, d),))
        if choice == "count_sub":
            self.tag("count_subquery")
            patterns, cross = self.subquery_patterns(scope, n)
            return A.Subquery("COUNT", patterns, both(self.sub_where(scope), cross))
        if choice == "pattern_size":
            self.tag("pattern_comprehension")
            pat = self.sub_pattern(n, named=True)
            return A.Func("size", (A.PatternComp(pat, self.sub_where(),
                                                 A.Prop(A.Var("m"), "nodeSymbol")),))
        if choice == "keys":
            self.tag("keys")
            return A.Func("size", (A.Func("keys", (A.Var(n.name),)),))
        if choice == "split_size":
            self.tag("split")
            return A.Func("size", (A.Func("split", (self.string(scope, d),
                                                    A.Lit(self.pick(("O", "a", ","))))),))
        if choice == "length" and scope.paths:
            self.tag("path_length")
            return A.Func("length", (A.Var(self.pick(scope.paths)),))
        if choice == "sign":
            return A.Func("sign", (self.float(scope, d),))
        if choice == "mod":
            return A.BinOp("%", self.integer(scope, d), A.Lit(self.pick((2, 3, -2))))
        if choice == "div":
            self.tag("integer_division")
            return A.BinOp("/", self.integer(scope, d), A.Lit(self.pick((2, 3, -2))))
        if choice == "guarded_div":
            # a divisor that is 0 on some rows, kept away by a CASE (Neo4j evaluates the
            # branch it takes only) or not (Neo4j raises)
            self.tag("guarded_division")
            k = self.row_integer(scope, d, n)
            quotient = A.BinOp(self.pick(("/", "%")), self.integer(scope, d), k)
            if self.chance(0.2):
                return quotient
            return A.Case(((A.BinOp("=", k, A.Lit(0)), A.Lit(self.rng.randint(-1, 1))),),
                          quotient)
        return A.Func("size", (self.string(scope, d),))

    def sub_pattern(self, n: NodeVar, named: bool = False, var: str = "m") -> A.PathPat:
        rel, label = self.hop(n.label)
        end = A.NodePat(var if named else None, label if label and self.chance(0.8) else None)
        return A.PathPat((A.NodePat(n.name), rel, end))

    def subquery_patterns(self, scope: Scope, n: NodeVar
                          ) -> tuple[tuple[A.PathPat, ...], A.Expr | None]:
        """The MATCH of a COUNT / EXISTS subquery: a pattern from `n`, now and then a second
        one from another outer node (its own inner node `m2`, or rarely `m` again), and a test
        across them that reads outer values. Neo4j matches the list once per outer row, with
        both outer nodes bound to that row's values (a NULL one matches nothing); both engines
        once counted such a match once per outer row sharing a node."""
        first = self.sub_pattern(n, named=True)
        others = [m for m in scope.nodes if m.name != n.name]
        if not others or not self.chance(SUBQUERY_TWO_PATTERNS_CHANCE):
            return (first,), None
        self.tag("subquery_two_patterns")
        nullable = [m for m in others if m.nullable]
        other = self.pick(nullable if nullable and self.chance(0.5) else others)
        if other.nullable:
            self.tag("subquery_pattern_from_null")
        if self.chance(0.15):   # both patterns end at one inner node
            self.tag("subquery_shared_inner")
            rel, _ = self.hop(other.label)
            second = A.PathPat((A.NodePat(other.name), rel, A.NodePat("m")))
            inner = "m"
        else:
            second = self.sub_pattern(other, named=True, var="m2")
            inner = "m2"
        if not self.chance(0.6):
            return (first, second), None
        self.tag("subquery_cross_where")
        m, m2, axis = A.Var("m"), A.Var(inner), self.pick("xyz")
        outer = A.Var(self.pick((n, other)).name)
        cross = self.pick((
            A.BinOp(self.pick(("<", ">")), A.Prop(A.Prop(m2, "center"), axis),
                    A.Prop(A.Prop(A.Var(n.name), "center"), axis)),
            A.BinOp(self.pick(("<", ">")), A.Prop(A.Prop(m, "center"), axis),
                    A.Prop(A.Prop(outer, "center"), axis)),
            A.BinOp("=", A.Prop(m, "class"), A.Prop(m2, "class")),
            A.BinOp("<>", A.Prop(m2, "class"), A.Prop(outer, "class")),
        ))
        return (first, second), cross

    def sub_where(self, scope: Scope | None = None) -> A.Expr | None:
        """A filter on the inner node `m` of a subquery or pattern comprehension; with the
        outer `scope`, sometimes also a test of outer values (which may be NULL)."""
        inner = self.inner_test()
        if scope is None or not self.chance(0.4):
            return inner
        self.tag("subquery_reads_outer")
        outer = self.outer_test(scope)
        return outer if inner is None else A.BinOp(self.pick(("AND", "OR")), inner, outer)

    def outer_test(self, scope: Scope) -> A.Expr:
        """A test of the outer rows with no subquery of its own: often of a value that may be
        NULL (a box, a node of an OPTIONAL MATCH, a CASE without ELSE)."""
        n = self.node(scope)
        nullable = [A.Var(v) for v in sorted(scope.nullable_scalars)] + \
            [A.Var(m.name) for m in scope.nodes if m.nullable]
        if n.label == "Object":
            nullable.append(A.Prop(A.Var(n.name), self.pick(("bbox_center", "bbox_dim"))))
        if nullable and self.chance(0.6):
            return A.IsNull(self.pick(nullable), self.chance(0.5))
        return A.BinOp(self.pick(("<", ">", "=")), self.float(scope, 0),
                       A.Lit(self.rng.randint(-4, 4) / 2))

    def inner_test(self) -> A.Expr | None:
        if not self.chance(0.5):
            return None
        self.tag("subquery_where")
        return self.pick((
            A.BinOp("=", A.Prop(A.Var("m"), "class"), A.Lit(self.pick(CLASSES))),
            A.BinOp("<>", A.Prop(A.Var("m"), "class"), A.Lit(self.pick(CLASSES))),
            A.BinOp(">", A.Prop(A.Prop(A.Var("m"), "center"), "x"), A.Lit(0.25)),
        ))

    def float(self, scope: Scope, depth: int) -> A.Expr:
        float_scalars = [k for k, t in scope.scalars.items() if t == "float"]
        n = self.node(scope)
        if depth <= 0 or self.chance(0.35):
            if float_scalars and self.chance(0.4):
                return A.Var(self.pick(float_scalars))
            if n.label == "Object" and self.chance(0.3):
                self.tag("nullable_point")
                return A.Prop(A.Prop(A.Var(n.name), self.pick(("bbox_center", "bbox_dim"))),
                              self.pick("xyz"))
            return A.Prop(A.Prop(A.Var(n.name), "center"), self.pick("xyz"))
        d = depth - 1
        choice = self.pick(("distance", "round", "abs", "arith", "sqrt", "to_float", "ceil",
                            "literal", "distance2d", "math", "nan", "ratio"))
        if choice == "ratio":
            # a float over an integer that may be 0: Neo4j raises "/ by zero" unless a CASE or
            # coalesce() keeps the row away from it
            self.tag("guarded_division")
            k = self.row_integer(scope, d, self.node(scope))
            ratio = A.BinOp("/", self.float(scope, d), k)
            if self.chance(0.3):
                return ratio
            if self.chance(0.5):
                return A.Func("coalesce", (A.Case(((A.BinOp("=", k, A.Lit(0)), A.Lit(-1.0)),),
                                                  None), ratio))
            return A.Case(((A.BinOp("<>", k, A.Lit(0)), ratio),), A.Lit(0.0))
        if choice == "nan":
            # NaN on some rows (a square root below 0, 0.0 / 0.0): every <, <=, >, >= with it
            # is false in Neo4j, true for < and <= in the engines
            self.tag("maybe_nan")
            x = self.float(scope, d)
            if self.chance(0.5):
                return A.Func("sqrt", (A.BinOp("-", x, A.Lit(self.pick((0.5, 1.0, 2.0)))),))
            return A.BinOp("/", A.BinOp("-", x, x), A.Lit(self.pick((0.0, 2.0))))
        if choice == "math":
            self.tag("math_function")
            x = self.float(scope, d)
            name = self.pick(("log", "log10", "exp", "haversin", "atan2", "sin", "cos", "e", "pi"))
            if name in ("log", "log10"):   # positive, or 0 and below now and then (-inf, NaN)
                x = A.BinOp("+", A.Func("abs", (x,)), A.Lit(self.pick((0.5, 1.0, 0.0))))
            if name in ("e", "pi"):
                return A.BinOp("*", A.Func(name, ()), x)
            if name == "atan2":
                return A.Func(name, (x, self.float(scope, d)))
            return A.Func(name, (x,))
        if choice == "distance":
            self.tag("point_distance")
            return A.Func("point.distance", (self.point(scope, d), self.point(scope, d)))
        if choice == "distance2d":
            self.tag("point_distance_2d")
            p2 = A.Func("point", (A.MapLit((("x", A.Lit(self.rng.randint(-2, 2) * 1.0)),
                                            ("y", A.Lit(self.rng.randint(-2, 2) * 1.0)))),))
            other = p2 if self.chance(0.5) else A.Prop(A.Var(n.name), "center")
            return A.Func("point.distance", (p2, other))
        if choice == "round":
            self.tag("round")
            args: tuple[A.Expr, ...] = (self.float(scope, d),)
            if self.chance(0.6):
                args += (A.Lit(self.rng.randint(0, 2)),)
            return A.Func("round", args)
        if choice == "abs":
            return A.Func("abs", (self.float(scope, d),))
        if choice == "arith":
            return A.BinOp(self.pick(("+", "-", "*")), self.float(scope, d),
                           self.float(scope, d) if self.chance(0.7) else self.integer(scope, d))
        if choice == "sqrt":
            return A.Func("sqrt", (A.Func("abs", (self.float(scope, d),)),))
        if choice == "to_float":
            return A.Func("toFloat", (self.integer(scope, d),))
        if choice == "ceil":
            self.tag("ceil_floor")
            return A.Func(self.pick(("ceil", "floor")), (
                self.float(scope, d) if self.chance(0.7) else self.integer(scope, d),))
        return A.Lit(self.rng.randint(-4, 4) / 2 + 0.25)

    def point(self, scope: Scope, depth: int) -> A.Expr:
        n = self.node(scope)
        if self.chance(0.15):
            # point() of coordinates that may be NULL (a box, an unmatched node): NULL
            self.tag("point_of_nullable")
            source = A.Prop(A.Var(n.name), "bbox_center" if n.label == "Object" else "center")
            return A.Func("point", (A.MapLit((("x", A.Prop(source, "x")),
                                              ("y", A.Prop(source, "y")))),))
        if self.chance(0.3):
            self.tag("point_literal")
            return A.Func("point", (A.MapLit(tuple((k, A.Lit(self.rng.randint(-2, 2) * 0.5))
                                                   for k in "xyz")),))
        if n.label == "Object" and self.chance(0.3):
            self.tag("nullable_point")
            return A.Prop(A.Var(n.name), self.pick(("bbox_center", "bbox_dim")))
        return A.Prop(A.Var(n.name), "center")

    def list(self, scope: Scope, depth: int) -> A.Expr:
        n = self.node(scope)
        choice = self.pick(("split", "literal", "mixed", "comp", "range", "slice",
                            "pattern_comp", "pattern_comp", "map_lambda", "double_bar"))
        if choice == "double_bar":
            return self.double_bar_list(scope)
        if choice == "pattern_comp":
            comp = self.pattern_comprehension(scope)
            if comp is not None:
                return comp
            choice = "split"
        if choice == "map_lambda":
            return self.map_projection_in_lambda(scope)
        if choice == "split":
            self.tag("split")
            return A.Func("split", (self.string(scope, depth - 1), A.Lit(self.pick(("O", "a")))))
        if choice == "mixed":
            self.tag("mixed_list")
            return A.ListLit((A.Prop(A.Var(n.name), "nodeSymbol"),
                              A.Func("round", (A.Prop(A.Prop(A.Var(n.name), "center"), "z"),
                                               A.Lit(2)))))
        if choice == "comp":
            self.tag("list_comprehension")
            test: A.Expr = A.BinOp("<>", A.Var("x"), A.Lit(""))
            if self.chance(0.4):   # a filter reading the row, under the mapping's lambda
                self.tag("comprehension_filter_reads_row")
                test = A.BinOp("<", A.Var("x"), A.Prop(A.Var(self.node(scope).name), "class"))
            return A.ListComp("x", A.Func("split", (A.Prop(A.Var(n.name), "nodeSymbol"),
                                                    A.Lit("1"))),
                              test, A.Func("toUpper", (A.Var("x"),)))
        if choice == "range":
            return A.Func("range", (A.Lit(0), self.integer(scope, 0)))
        if choice == "slice":
            self.tag("slice")
            return A.Slice(A.Func("split", (A.Prop(A.Var(n.name), "name"), A.Lit(" "))),
                           A.Lit(-2), None)
        return A.ListLit((self.string(scope, 0), self.string(scope, 0)))

    def quantifier_null_test(self, scope: Scope) -> A.Expr:
        """A quantifier whose test is NULL for some elements (a property a node lacks, a NULL
        in the list, under NOT, AND or OR): Neo4j's any/all/none/single are then NULL where the
        engines counted the element false (or, on Kuzu under NOT, true)."""
        self.tag("quantifier", "quantifier_null_test")
        kind = self.pick(("any", "all", "none", "single"))
        x = A.Var("x")
        cut = A.Lit(self.rng.randint(-2, 4) / 2)
        if scope.paths and self.chance(0.5):
            source: A.Expr = A.Func("nodes", (A.Var(self.pick(scope.paths)),))
            value: A.Expr = A.Prop(A.Prop(x, self.pick(("bbox_dim", "bbox_center", "center"))),
                                   self.pick("xyz"))
            other: A.Expr = A.BinOp("=", A.Prop(x, "class"), A.Lit(self.pick(CLASSES)))
        else:
            items = [self.float(scope, 0) for _ in range(self.rng.randint(1, 3))]
            if self.chance(0.4):
                items.insert(self.rng.randint(0, len(items)), A.Lit(None))
            source, value = A.ListLit(tuple(items)), x
            other = A.BinOp("<", x, A.Lit(self.rng.randint(0, 6) / 2))
        test = A.BinOp(self.pick((">", "<=", "=")), value, cut)
        shape = self.pick(("plain", "not", "and", "or"))
        if shape == "not":
            test = A.Not(test)
        elif shape in ("and", "or"):
            test = A.BinOp(shape.upper(), test, other)
        return A.Quant(kind, "x", source, test)

    def boolean(self, scope: Scope, depth: int) -> A.Expr:
        if self.chance(MIX_CHANCE["boolean"]):
            return self.mixed_boolean(scope)
        d = depth - 1
        choice = self.pick(("cmp_num", "cmp_num", "cmp_str", "str_op", "is_null", "in",
                            "exists", "quant", "and", "or", "not", "point_eq", "in_split",
                            "label_test"))
        if depth <= 0 and choice in ("and", "or", "not"):
            choice = "cmp_str"
        n = self.node(scope)
        if choice == "label_test":
            self.tag("label_predicate")
            return A.LabelTest(A.Var(n.name), labelexpr.draw(self.rng, labelexpr.LABELS))
        if choice == "cmp_num":
            left = self.float(scope, d) if self.chance(0.6) else self.integer(scope, d)
            return A.BinOp(self.pick(("<", "<=", ">", ">=", "=", "<>")), left,
                           A.Lit(self.rng.randint(-4, 4) / 2) if self.chance(0.6)
                           else self.float(scope, d))
        if choice == "cmp_str":
            return A.BinOp(self.pick(("=", "<>", "<")), self.string(scope, d),
                           A.Lit(self.pick((*CLASSES, "", "O1", "R10"))))
        if choice == "str_op":
            op = self.pick(("STARTS WITH", "ENDS WITH", "CONTAINS", "=~"))
            if op == "=~":
                self.tag("regex")
                return A.BinOp(op, self.string(scope, d), A.Lit(self.pick(REGEXES)))
            needle = self.pick(("O", "R", "a", "e", "1", ""))
            if needle == "" and op == "CONTAINS":
                self.tag("contains_empty_string")
            return A.BinOp(op, self.string(scope, d), A.Lit(needle))
        if choice == "is_null" and self.chance(0.25):
            self.tag("is_null")
            return A.IsNull(self.map_projection(scope), self.chance(0.5))
        if choice == "is_null":
            self.tag("is_null")
            if n.label == "Object" and self.chance(0.6):
                self.tag("nullable_point")
                return A.IsNull(A.Prop(A.Var(n.name), self.pick(("bbox_center", "bbox_dim"))),
                                self.chance(0.5))
            if scope.nullable_scalars and self.chance(0.5):
                return A.IsNull(A.Var(self.pick(sorted(scope.nullable_scalars))),
                                self.chance(0.5))
            return A.IsNull(A.Var(n.name) if n.nullable else self.float(scope, d),
                            self.chance(0.5))
        if choice == "in":
            self.tag("in_list")
            items = tuple(A.Lit(self.pick(CLASSES)) for _ in range(self.rng.randint(0, 3)))
            if self.chance(0.3):
                self.tag("in_list_null")
                items += (A.Lit(None),)
            return A.BinOp("IN", self.string(scope, d), A.ListLit(items))
        if choice == "in_split":
            self.tag("split")
            self.tag("empty_in_split")
            return A.BinOp("IN", A.Lit(""), A.Func("split", (A.Prop(A.Var(n.name), "nodeSymbol"),
                                                            A.Lit(self.pick(("O", "1", "R"))))))
        if choice == "exists":
            self.tag("exists_subquery")
            patterns, cross = self.subquery_patterns(scope, n)
            where = (A.BinOp("=", A.Prop(A.Var("m"), "class"), A.Lit(self.pick(CLASSES)))
                     if self.chance(0.5) else None)
            if self.chance(0.4):
                self.tag("subquery_reads_outer")
                outer = self.outer_test(scope)
                where = outer if where is None else A.BinOp(self.pick(("AND", "OR")), where,
                                                            outer)
            return A.Subquery("EXISTS", patterns, both(where, cross))
        if choice == "quant" and self.chance(0.5):
            return self.quantifier_null_test(scope)
        if choice == "quant":
            self.tag("quantifier")
            source: A.Expr = A.Func("split", (A.Prop(A.Var(n.name), "nodeSymbol"), A.Lit("1")))
            if self.chance(0.3):   # over a list a comprehension filtered on the row
                self.tag("quantifier_over_row_filtered_list")
                source = A.ListComp("y", source, A.BinOp(
                    "<", A.Var("y"), A.Prop(A.Var(self.node(scope).name), "nodeSymbol")), None)
            return A.Quant(self.pick(("any", "all", "none", "single")), "x", source,
                           A.BinOp("=", A.Var("x"), A.Lit(self.pick(("", "O", "R", "0")))))
        if choice == "and":
            return A.BinOp(self.pick(("AND", "OR", "XOR")), self.boolean(scope, d),
                           self.boolean(scope, d))
        if choice == "or":
            return A.BinOp("OR", self.boolean(scope, d), self.boolean(scope, d))
        if choice == "not":
            return A.Not(self.boolean(scope, d))
        if self.chance(0.25):   # points are not ordered: NULL
            self.tag("point_ordering")
            return A.BinOp(self.pick(("<", ">=")), A.Prop(A.Var(n.name), "center"),
                           self.point(scope, 0))
        self.tag("point_equality")
        return A.BinOp("=", A.Prop(A.Var(n.name), "center"), self.point(scope, 0))
