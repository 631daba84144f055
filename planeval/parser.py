"""PDDL text -> `Domain` / `Problem` (pddl.lark + a lark Transformer).

The text is lower-cased before parsing because PDDL is case-insensitive (`SCRIPT-IO` in a
domain, `script-io` in its problems). Beyond syntax, the parser checks what the simulator
relies on and reports it with file, line and column (`planeval.syntax_errors`): declared
requirements are ones we simulate, predicates exist with the right arity, types and objects
are declared, the problem names its domain. Anything wrong raises `PlanevalError` with a
one-line message.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, VisitError

from benchcore.once import built_once
from planeval.errors import PlanevalError
from planeval.pddl import (
    OBJECT,
    TRUE,
    Action,
    And,
    Atom,
    Domain,
    EffectLiteral,
    Equals,
    Exists,
    Fact,
    ForAll,
    Formula,
    Imply,
    Not,
    Or,
    Predicate,
    Problem,
    TypedName,
)
from planeval.syntax_errors import describe_parse_error, located

SUPPORTED_REQUIREMENTS = frozenset(
    {
        ":strips",
        ":typing",
        ":negative-preconditions",
        ":disjunctive-preconditions",
        ":equality",
        ":existential-preconditions",
        ":universal-preconditions",
        ":quantified-preconditions",
        ":conditional-effects",
        ":adl",
        ":action-costs",  # costs do not affect validity; cost effects are parsed and ignored
    }
)


@built_once
def _lark() -> Lark:
    grammar = Path(__file__).with_name("pddl.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr")


def parse_domain(text_or_path: str | Path) -> Domain:
    """Parse a PDDL domain given as text or as a path to a file."""
    text, source = _read(text_or_path, "domain")
    tree = _parse_tree(text, source)
    if tree.children[0].data != "domain":
        raise PlanevalError(f"{source}: expected (define (domain ...)), found a problem")
    return _transform(_DomainBuilder(source), tree, source)


def parse_problem(text_or_path: str | Path, domain: Domain) -> Problem:
    """Parse a PDDL problem (text or path) against an already parsed domain."""
    text, source = _read(text_or_path, "problem")
    tree = _parse_tree(text, source)
    if tree.children[0].data != "problem":
        raise PlanevalError(f"{source}: expected (define (problem ...)), found a domain")
    return _transform(_ProblemBuilder(source, domain), tree, source)


def _read(text_or_path: str | Path, what: str) -> tuple[str, str]:
    """Tell a path from PDDL text (PDDL text always contains a parenthesis) and read it."""
    if isinstance(text_or_path, Path) or "(" not in text_or_path:
        path = Path(text_or_path)
        try:
            return path.read_text(encoding="utf-8", errors="replace"), str(path)
        except OSError as exc:
            raise PlanevalError(f"{path}: cannot read {what} file ({exc.strerror})") from None
    return text_or_path, f"<{what}>"


#: How parse errors name the grammar's regex terminals.
_FRIENDLY = {
    "NAME": "a name",
    "VARIABLE": "a variable",
    "REQUIREMENT": "a requirement",
    "NUMBER": "a number",
    "F_OP": "an operator",
    "$END": "end of file",
}


def _parse_tree(text: str, source: str) -> Any:
    parser = _lark()
    try:
        return parser.parse(text.lower())
    except UnexpectedInput as exc:
        raise PlanevalError(describe_parse_error(exc, parser, _FRIENDLY, source)) from None


def _transform(builder: Transformer, tree: Any, source: str) -> Any:
    try:
        return builder.transform(tree).children[0]
    except VisitError as exc:
        if isinstance(exc.orig_exc, PlanevalError):
            raise exc.orig_exc from None
        raise PlanevalError(f"{source}: {exc.orig_exc}") from None


_TypeMarker = tuple[str, tuple[str, ...], Token]
_TypedItems = list[tuple[Token, tuple[str, ...]]]


def _intern_fact(predicate: str, args: tuple[str, ...]) -> Fact:
    return (sys.intern(predicate), *(sys.intern(a) for a in args))


class _Builder(Transformer):
    """What domain and problem share: typed lists, formulas and the checks on atoms."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source
        self.predicate_table: dict[str, Predicate] | None = None
        self.known_types: set[str] = {OBJECT}

    def fail(self, token: Token | None, message: str) -> None:
        """Raise the one-line error, located at ``token`` when there is one."""
        line, column = (token.line, token.column) if isinstance(token, Token) else (None, None)
        raise PlanevalError(located(message, line, column, self.source))

    # ---- typed lists
    def single_type(self, items: list[Token]) -> _TypeMarker:
        return ("type", (str(items[0]),), items[0])

    def either_type(self, items: list[Token]) -> _TypeMarker:
        return ("type", tuple(str(t) for t in items), items[0])

    def typed_names(self, items: list[Any]) -> _TypedItems:
        typed: _TypedItems = []
        pending: list[Token] = []
        for item in items:
            if isinstance(item, tuple):
                typed.extend((name, item[1]) for name in pending)
                pending = []
            else:
                pending.append(item)
        typed.extend((name, (OBJECT,)) for name in pending)
        return typed

    def typed_vars(self, items: list[Any]) -> tuple[TypedName, ...]:
        typed = self.typed_names(items)
        for name, types in typed:
            self.check_types(name, types)
        return tuple(TypedName(str(name), types) for name, types in typed)

    def check_types(self, where: Token, types: tuple[str, ...]) -> None:
        for type_name in types:
            if type_name not in self.known_types:
                self.fail(where, f"unknown type '{type_name}' for '{where}'")

    # ---- formulas
    def atom(self, items: list[Token]) -> Atom:
        name, *terms = items
        predicate = (self.predicate_table or {}).get(str(name))
        if predicate is None:
            self.fail(name, f"undeclared predicate '{name}'")
        elif predicate.arity != len(terms):
            self.fail(
                name,
                f"predicate '{name}' takes {predicate.arity} argument(s), got {len(terms)}",
            )
        return Atom(sys.intern(str(name)), tuple(sys.intern(str(t)) for t in terms))

    def gd_empty(self, _items: list[Any]) -> Formula:
        return TRUE

    def gd_and(self, items: list[Formula]) -> Formula:
        return items[0] if len(items) == 1 else And(tuple(items))

    def gd_or(self, items: list[Formula]) -> Formula:
        return items[0] if len(items) == 1 else Or(tuple(items))

    def gd_not(self, items: list[Formula]) -> Formula:
        return Not(items[0])

    def gd_imply(self, items: list[Formula]) -> Formula:
        return Imply(items[0], items[1])

    def gd_exists(self, items: list[Any]) -> Formula:
        return Exists(items[0], items[1])

    def gd_forall(self, items: list[Any]) -> Formula:
        return ForAll(items[0], items[1])

    def gd_equals(self, items: list[Token]) -> Formula:
        return Equals(sys.intern(str(items[0])), sys.intern(str(items[1])))

    # ---- things parsed only to be ignored (action costs, numeric fluents in init/metric)
    def f_head(self, items: list[Any]) -> None:
        return None

    def f_exp(self, items: list[Any]) -> None:
        return None

    def requirements(self, items: list[Token]) -> frozenset[str]:
        unsupported = [str(t) for t in items if str(t) not in SUPPORTED_REQUIREMENTS]
        if unsupported:
            self.fail(
                items[0] if items else None,
                f"unsupported requirements {' '.join(unsupported)} "
                "(planeval simulates STRIPS/ADL without numbers or time)",
            )
        return frozenset(str(t) for t in items)


class _DomainBuilder(_Builder):
    """Collects a domain's sections in order; predicates must be declared before actions."""

    def __init__(self, source: str) -> None:
        super().__init__(source)
        self.type_parents: dict[str, tuple[str, ...]] = {}
        self.constant_types: dict[str, tuple[str, ...]] = {}

    def types(self, items: list[_TypedItems]) -> None:
        for name, parents in items[0]:
            if str(name) == OBJECT:
                continue
            self.type_parents[str(name)] = parents
            self.known_types.add(str(name))
            self.known_types.update(parents)
        for parent in self.known_types - set(self.type_parents) - {OBJECT}:
            self.type_parents[parent] = (OBJECT,)  # a parent used but never declared itself

    def constants(self, items: list[_TypedItems]) -> None:
        for name, types in items[0]:
            self.check_types(name, types)
            self.constant_types[sys.intern(str(name))] = types

    def predicate_decl(self, items: list[Any]) -> Predicate:
        return Predicate(sys.intern(str(items[0])), items[1])

    def predicates(self, items: list[Predicate]) -> None:
        self.predicate_table = {p.name: p for p in items}

    def functions(self, _items: list[Any]) -> None:
        return None

    def function_decl(self, _items: list[Any]) -> None:
        return None

    # ---- actions
    def parameters(self, items: list[Any]) -> tuple[str, tuple[TypedName, ...]]:
        return ("parameters", items[0])

    def precondition(self, items: list[Formula]) -> tuple[str, Formula]:
        return ("precondition", items[0])

    def effect(self, items: list[list[EffectLiteral]]) -> tuple[str, list[EffectLiteral]]:
        return ("effect", items[0])

    def eff_empty(self, _items: list[Any]) -> list[EffectLiteral]:
        return []

    def eff_and(self, items: list[Any]) -> list[EffectLiteral]:
        return [literal for part in items for literal in _as_effects(part)]

    def eff_not(self, items: list[Atom]) -> list[EffectLiteral]:
        return [EffectLiteral(items[0], positive=False)]

    def eff_forall(self, items: list[Any]) -> list[EffectLiteral]:
        variables, body = items
        return [
            EffectLiteral(lit.atom, lit.positive, lit.condition, variables + lit.variables)
            for lit in _as_effects(body)
        ]

    def eff_when(self, items: list[Any]) -> list[EffectLiteral]:
        condition, body = items
        return [
            EffectLiteral(lit.atom, lit.positive, _conjoin(condition, lit.condition), lit.variables)
            for lit in _as_effects(body)
        ]

    def eff_numeric(self, _items: list[Any]) -> list[EffectLiteral]:
        return []  # (increase (total-cost) 1): action costs never affect validity

    def action(self, items: list[Any]) -> Action:
        name = items[0]
        parts = dict(items[1:])
        action = Action(
            name=sys.intern(str(name)),
            parameters=parts.get("parameters", ()),
            precondition=parts.get("precondition", TRUE),
            effects=tuple(_as_effects(parts.get("effect", []))),
        )
        _check_variables(action, lambda message: self.fail(name, message), self.constant_types)
        return action

    def domain(self, items: list[Any]) -> Domain:
        name = items[0]
        requirements = next((i for i in items if isinstance(i, frozenset)), frozenset())
        actions = [i for i in items if isinstance(i, Action)]
        by_name: dict[str, Action] = {}
        for action in actions:
            if action.name in by_name:
                self.fail(name, f"action '{action.name}' is defined twice")
            by_name[action.name] = action
        return Domain(
            name=str(name),
            requirements=requirements,
            types=dict(self.type_parents),
            constants=dict(self.constant_types),
            predicates=dict(self.predicate_table or {}),
            actions=by_name,
            source=self.source,
        )


class _ProblemBuilder(_Builder):
    """Builds a problem against its domain: objects typed, facts and goal checked."""

    def __init__(self, source: str, domain: Domain) -> None:
        super().__init__(source)
        self.domain = domain
        self.predicate_table = domain.predicates
        self.known_types = {OBJECT, *domain.types}
        self.object_types: dict[str, tuple[str, ...]] = {}

    def problem_domain(self, items: list[Token]) -> None:
        if str(items[0]) != self.domain.name:
            self.fail(
                items[0],
                f"problem is for domain '{items[0]}' but the domain is '{self.domain.name}'",
            )

    def objects(self, items: list[_TypedItems]) -> None:
        for name, types in items[0]:
            self.check_types(name, types)
            self.object_types[sys.intern(str(name))] = types

    def init_not(self, _items: list[Any]) -> None:
        return None  # closed world: a negative initial literal is already false

    def init_fluent(self, _items: list[Any]) -> None:
        return None

    def init(self, items: list[Any]) -> tuple[str, frozenset[Fact]]:
        known = {**self.domain.constants, **self.object_types}
        facts = set()
        for atom in items:
            if atom is None:
                continue
            for term in atom.terms:
                if term not in known:
                    self.fail(None, f"initial fact {atom} names unknown object '{term}'")
            facts.add(_intern_fact(atom.predicate, atom.terms))
        return ("init", frozenset(facts))

    def goal(self, items: list[Formula]) -> tuple[str, Formula]:
        return ("goal", items[0])

    def metric(self, _items: list[Any]) -> None:
        return None

    def problem(self, items: list[Any]) -> Problem:
        name = items[0]
        parts = dict(i for i in items[1:] if isinstance(i, tuple))
        if "goal" not in parts:
            self.fail(name, "problem has no :goal")
        problem = Problem(
            name=str(name),
            domain=self.domain,
            objects=dict(self.object_types),
            init=parts.get("init", frozenset()),
            goal=parts["goal"],
            source=self.source,
        )
        known = problem.all_objects
        for term in _free_terms(problem.goal, frozenset()):
            if term not in known:
                self.fail(None, f"goal names unknown object '{term}'")
        return problem


def _as_effects(part: Any) -> list[EffectLiteral]:
    """Effects come back as lists of literals, except a bare atom, which means 'make true'."""
    if isinstance(part, Atom):
        return [EffectLiteral(part, positive=True)]
    return list(part)


def _conjoin(first: Formula, second: Formula | None) -> Formula:
    return first if second is None else And((first, second))


def _free_terms(formula: Formula, bound: frozenset[str]) -> list[str]:
    """Terms that are not variables bound by a quantifier (constants/objects, or free ?vars)."""
    match formula:
        case Atom(terms=terms):
            return [t for t in terms if t not in bound]
        case Equals(left=left, right=right):
            return [t for t in (left, right) if t not in bound]
        case Not(formula=inner):
            return _free_terms(inner, bound)
        case And(parts=parts) | Or(parts=parts):
            return [t for p in parts for t in _free_terms(p, bound)]
        case Imply(condition=condition, consequence=consequence):
            return _free_terms(condition, bound) + _free_terms(consequence, bound)
        case Exists(variables=variables, body=body) | ForAll(variables=variables, body=body):
            return _free_terms(body, bound | {v.name for v in variables})
    return []


def _check_variables(action: Action, fail: Any, constants: dict[str, tuple[str, ...]]) -> None:
    """Every ?variable an action mentions is a parameter (or quantified); names are constants."""
    params = frozenset(p.name for p in action.parameters)
    terms = _free_terms(action.precondition, params)
    for literal in action.effects:
        scope = params | {v.name for v in literal.variables}
        terms += _free_terms(literal.atom, scope)
        if literal.condition is not None:
            terms += _free_terms(literal.condition, scope)
    for term in terms:
        if term.startswith("?"):
            fail(f"action '{action.name}' uses undeclared variable '{term}'")
        elif term not in constants:
            fail(f"action '{action.name}' names '{term}', which is not a declared constant")
