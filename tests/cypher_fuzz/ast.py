"""The fuzzer's query AST: the generator builds it, `render` prints it as Neo4j Cypher and the
reference evaluator interprets the very same tree, so the expected rows never depend on parsing
the text (nor on the translator's parser).

Only what the generator produces is here. Every node is a frozen dataclass, so two equal
subtrees compare equal: an ORDER BY item that repeats a projected aggregate is found that way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tests.cypher_fuzz.labelexpr import render as render_labels


class Expr:
    """Base of every expression node."""

    def render(self) -> str:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError


@dataclass(frozen=True)
class Lit(Expr):
    value: object

    def render(self) -> str:
        v = self.value
        if v is None:
            return "null"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
        return repr(v)


@dataclass(frozen=True)
class Var(Expr):
    name: str

    def render(self) -> str:
        return self.name


@dataclass(frozen=True)
class Prop(Expr):
    base: Expr
    key: str

    def render(self) -> str:
        return f"{_atom(self.base)}.{self.key}"


@dataclass(frozen=True)
class Index(Expr):
    base: Expr
    index: Expr

    def render(self) -> str:
        return f"{_atom(self.base)}[{self.index.render()}]"


@dataclass(frozen=True)
class Slice(Expr):
    base: Expr
    lo: Expr | None
    hi: Expr | None

    def render(self) -> str:
        lo = self.lo.render() if self.lo is not None else ""
        hi = self.hi.render() if self.hi is not None else ""
        return f"{_atom(self.base)}[{lo}..{hi}]"


@dataclass(frozen=True)
class Func(Expr):
    name: str
    args: tuple[Expr, ...]

    def render(self) -> str:
        return f"{self.name}({', '.join(a.render() for a in self.args)})"


@dataclass(frozen=True)
class MapLit(Expr):
    items: tuple[tuple[str, Expr], ...]

    def render(self) -> str:
        return "{" + ", ".join(f"{k}: {v.render()}" for k, v in self.items) + "}"


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]

    def render(self) -> str:
        return "[" + ", ".join(i.render() for i in self.items) + "]"


@dataclass(frozen=True)
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr

    def render(self) -> str:
        return f"({self.left.render()} {self.op} {self.right.render()})"


@dataclass(frozen=True)
class Not(Expr):
    arg: Expr

    def render(self) -> str:
        return f"(NOT {self.arg.render()})"


@dataclass(frozen=True)
class Neg(Expr):
    arg: Expr

    def render(self) -> str:
        return f"(-{_atom(self.arg)})"


@dataclass(frozen=True)
class IsNull(Expr):
    arg: Expr
    negated: bool = False

    def render(self) -> str:
        return f"({self.arg.render()} IS {'NOT ' if self.negated else ''}NULL)"


@dataclass(frozen=True)
class Case(Expr):
    whens: tuple[tuple[Expr, Expr], ...]
    default: Expr | None

    def render(self) -> str:
        parts = " ".join(f"WHEN {c.render()} THEN {v.render()}" for c, v in self.whens)
        tail = f" ELSE {self.default.render()}" if self.default is not None else ""
        return f"CASE {parts}{tail} END"


@dataclass(frozen=True)
class SimpleCase(Expr):
    """`CASE subject WHEN v1, v2 THEN r ... END`: Neo4j tests each value with `=`."""

    subject: Expr
    whens: tuple[tuple[tuple[Expr, ...], Expr], ...]
    default: Expr | None

    def render(self) -> str:
        parts = " ".join(f"WHEN {', '.join(v.render() for v in values)} THEN {r.render()}"
                         for values, r in self.whens)
        tail = f" ELSE {self.default.render()}" if self.default is not None else ""
        return f"CASE {self.subject.render()} {parts}{tail} END"


@dataclass(frozen=True)
class MapProj(Expr):
    """`n {.key, name: expr}`: a property selector is an item whose value is None, and the
    all-properties selector `.*` the item ("*", None). NULL for a NULL subject (Cypher Manual,
    "Maps": map projection)."""

    base: Expr
    items: tuple[tuple[str, Expr | None], ...]

    def render(self) -> str:
        parts = ", ".join(f".{k}" if v is None else k if v == Var(k) else f"{k}: {v.render()}"
                          for k, v in self.items)   # `k` alone: the variable selector `k: k`
        return f"{_atom(self.base)} {{{parts}}}"


@dataclass(frozen=True)
class ListComp(Expr):
    var: str
    source: Expr
    where: Expr | None
    proj: Expr | None

    def render(self) -> str:
        where = f" WHERE {self.where.render()}" if self.where is not None else ""
        proj = f" | {self.proj.render()}" if self.proj is not None else ""
        return f"[{self.var} IN {self.source.render()}{where}{proj}]"


@dataclass(frozen=True)
class Quant(Expr):
    kind: str  # any / all / none / single
    var: str
    source: Expr
    where: Expr

    def render(self) -> str:
        return f"{self.kind}({self.var} IN {self.source.render()} WHERE {self.where.render()})"


@dataclass(frozen=True)
class LabelTest(Expr):
    """`n:<label expression>` in an expression: NULL for a NULL node."""

    arg: Expr
    expr: tuple

    def render(self) -> str:
        return f"({self.arg.render()}:{_label_text(self.expr, predicate=True)})"


def _label_text(expr: tuple, predicate: bool = False) -> str:
    text = render_labels(expr)
    # in an expression only `&`, `!` and parentheses bind to the variable (`n:A|B` is not read)
    return f"({text})" if predicate and expr[0] == "or" else text


@dataclass(frozen=True)
class NodePat:
    var: str | None
    label: str | None = None
    props: tuple[tuple[str, Expr], ...] = ()
    label_expr: tuple | None = None   # when set, what the pattern writes and matches

    def render(self) -> str:
        label = f":{self.label}" if self.label else ""
        if self.label_expr is not None:
            label = ":" + _label_text(self.label_expr)
        props = (" {" + ", ".join(f"{k}: {v.render()}" for k, v in self.props) + "}"
                 if self.props else "")
        return f"({self.var or ''}{label}{props})"


@dataclass(frozen=True)
class RelPat:
    var: str | None
    types: tuple[str, ...]
    direction: str  # out / in / both
    hops: tuple[int, int | None] | None = None  # None: one relationship
    type_expr: tuple | None = None   # printed instead of `types`; allows exactly those types

    def render(self) -> str:
        types = ":" + "|".join(self.types) if self.types else ""
        if self.type_expr is not None:
            types = ":" + _label_text(self.type_expr)
        hops = ""
        if self.hops is not None:
            lo, hi = self.hops
            hops = f"*{lo}..{hi}" if hi is not None else f"*{lo}.." if lo != 1 else "*"
        body = f"[{self.var or ''}{types}{hops}]"
        if body == "[]":
            body = ""
        left = "<-" if self.direction == "in" else "-"
        right = "->" if self.direction == "out" else "-"
        return f"{left}{body}{right}"


@dataclass(frozen=True)
class PathPat:
    """Alternating nodes and relationships, starting and ending with a node."""

    elements: tuple[NodePat | RelPat, ...]
    path_var: str | None = None
    shortest: bool = False

    def render(self) -> str:
        body = "".join(e.render() for e in self.elements)
        if self.shortest:
            body = f"shortestPath({body})"
        return f"{self.path_var} = {body}" if self.path_var else body


@dataclass(frozen=True)
class PatternComp(Expr):
    pattern: PathPat
    where: Expr | None
    proj: Expr

    def render(self) -> str:
        where = f" WHERE {self.where.render()}" if self.where is not None else ""
        return f"[{self.pattern.render()}{where} | {self.proj.render()}]"


@dataclass(frozen=True)
class Subquery(Expr):
    kind: str  # EXISTS / COUNT
    patterns: tuple[PathPat, ...]
    where: Expr | None
    bare: bool = False  # `COUNT { (n)-->(m) WHERE .. }`: the pattern without MATCH

    def render(self) -> str:
        where = f" WHERE {self.where.render()}" if self.where is not None else ""
        pats = ", ".join(p.render() for p in self.patterns)
        head = "" if self.bare else "MATCH "
        return f"{self.kind} {{ {head}{pats}{where} }}"


@dataclass(frozen=True)
class Agg(Expr):
    name: str  # count, sum, avg, min, max, collect, stDev, stDevP, percentileCont, ...
    arg: Expr | None  # None: count(*)
    distinct: bool = False
    extra: Expr | None = None  # the percentile

    def render(self) -> str:
        if self.arg is None:
            return "count(*)"
        inner = ("DISTINCT " if self.distinct else "") + self.arg.render()
        if self.extra is not None:
            inner += ", " + self.extra.render()
        return f"{self.name}({inner})"


def _atom(e: Expr) -> str:
    text = e.render()
    if isinstance(e, (Var, Prop, Index, Slice, Func, Lit, ListLit, MapLit, BinOp, Not, Neg,
                      IsNull, ListComp, Quant, PatternComp, Agg)):
        return text
    return f"({text})"


@dataclass(frozen=True)
class Match:
    optional: bool
    patterns: tuple[PathPat, ...]
    where: Expr | None = None

    def render(self) -> str:
        head = "OPTIONAL MATCH" if self.optional else "MATCH"
        where = f" WHERE {self.where.render()}" if self.where is not None else ""
        return f"{head} {', '.join(p.render() for p in self.patterns)}{where}"


@dataclass(frozen=True)
class Unwind:
    expr: Expr
    var: str

    def render(self) -> str:
        return f"UNWIND {self.expr.render()} AS {self.var}"


@dataclass(frozen=True)
class SortItem:
    expr: Expr
    desc: bool = False

    def render(self) -> str:
        return self.expr.render() + (" DESC" if self.desc else "")


@dataclass(frozen=True)
class Projection:
    """WITH or RETURN. Items are (expression, alias); the alias is written unless it is the
    expression's own text (`RETURN m.nodeSymbol`: an unaliased item, named by its text)."""

    kind: str  # WITH / RETURN
    items: tuple[tuple[Expr, str], ...]
    distinct: bool = False
    order: tuple[SortItem, ...] = ()
    skip: int | None = None
    limit: int | None = None
    where: Expr | None = None  # WITH only

    def render(self) -> str:
        out = self.kind + (" DISTINCT" if self.distinct else "") + " " + ", ".join(
            e.render() if e.render() == alias else f"{e.render()} AS {alias}"
            for e, alias in self.items)
        if self.order:
            out += " ORDER BY " + ", ".join(s.render() for s in self.order)
        if self.skip is not None:
            out += f" SKIP {self.skip}"
        if self.limit is not None:
            out += f" LIMIT {self.limit}"
        if self.where is not None:
            out += f" WHERE {self.where.render()}"
        return out


@dataclass(frozen=True)
class Call:
    """`CALL { [WITH imports] body }`, or Neo4j 5.23's `CALL (imports) { body }` when
    `scoped`; the body's last clause is a RETURN."""

    imports: tuple[str, ...]
    body: tuple[Match | Unwind | Projection, ...]
    scoped: bool = False
    others: tuple[tuple[Match | Unwind | Projection, ...], ...] = ()  # UNION parts after body
    union_all: bool = False

    def render(self) -> str:
        head = f"WITH {', '.join(self.imports)} " if self.imports and not self.scoped else ""
        joiner = " UNION ALL " if self.union_all else " UNION "
        body = joiner.join(head + " ".join(c.render() for c in part)
                           for part in (self.body, *self.others))
        if self.scoped:
            return f"CALL ({', '.join(self.imports)}) {{ {body} }}"
        return f"CALL {{ {body} }}"


Clause = Match | Unwind | Projection | Call


@dataclass(frozen=True)
class Query:
    """One or more parts joined by UNION (ALL); each part ends with a RETURN."""

    parts: tuple[tuple[Clause, ...], ...]
    union_all: bool = False

    def render(self) -> str:
        joiner = " UNION ALL " if self.union_all else " UNION "
        return joiner.join(" ".join(c.render() for c in part) for part in self.parts)


def walk(node: object) -> Iterator[object]:
    """Every AST node under `node` (itself included), through tuples and dataclass fields."""
    yield node
    if isinstance(node, tuple):
        for item in node:
            yield from walk(item)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:  # type: ignore[attr-defined]
            yield from walk(getattr(node, name))
