"""Lazy grounding: one action schema plus concrete objects -> one `GroundAction`.

Nothing is grounded up front (a domain like data-network has millions of ground actions);
`Task.ground` instantiates exactly the actions a plan names and caches them, so validating many
plans for the same problem grounds each distinct step once. The same call decides the grammar
failure kinds (unknown action, arity, unknown object, type) because those are facts about the
step, not about the state.

Semantics, as in pyperplan's `Operator`: an action is applicable in a state when its positive
preconditions are a subset of the state, none of its negative ones is in it, its (in)equalities
hold and any remaining ADL condition is true; applying it gives `(state - delete) | add`, with
conditional effects decided in the state before the action.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from planeval.failures import FailureKind
from planeval.pddl import (
    Action,
    And,
    Atom,
    EffectLiteral,
    Equals,
    Exists,
    Fact,
    ForAll,
    Formula,
    Imply,
    Not,
    Or,
    Problem,
    fact_to_pddl,
)

Binding = dict[str, str]


@dataclass(frozen=True, slots=True)
class Rejection:
    """A step that cannot even be grounded: which grammar kind and why, in words."""

    kind: FailureKind
    detail: str


@dataclass(frozen=True, slots=True, eq=False)
class GroundAction:
    """A fully instantiated action: sets of facts, ready for set arithmetic on states."""

    name: str
    args: tuple[str, ...]
    pre_pos: frozenset[Fact]
    pre_neg: frozenset[Fact]
    static_unmet: tuple[str, ...]
    condition: Formula | None
    add: frozenset[Fact]
    delete: frozenset[Fact]
    conditional: tuple[tuple[Formula, Fact, bool], ...]
    task: Task

    @property
    def pddl(self) -> str:
        return fact_to_pddl((self.name, *self.args))

    def applicable(self, state: frozenset[Fact]) -> bool:
        return (
            self.pre_pos <= state
            and self.pre_neg.isdisjoint(state)
            and not self.static_unmet
            and (self.condition is None or self.task.holds(self.condition, state))
        )

    def unmet(self, state: frozenset[Fact]) -> tuple[str, ...]:
        """Each precondition part that is false in `state`, in PDDL, in a stable order."""
        parts = [fact_to_pddl(f) for f in sorted(self.pre_pos - state)]
        parts += [f"(not {fact_to_pddl(f)})" for f in sorted(self.pre_neg & state)]
        parts += self.static_unmet
        if self.condition is not None and not self.task.holds(self.condition, state):
            parts.append(str(self.condition))
        return tuple(parts)

    def missing(self, state: frozenset[Fact]) -> frozenset[Fact]:
        """Positive precondition facts that are false: what some earlier step should have added."""
        return self.pre_pos - state

    def apply(self, state: frozenset[Fact]) -> frozenset[Fact]:
        """The successor state; assumes `applicable(state)`."""
        if not self.conditional:
            return (state - self.delete) | self.add
        add, delete = set(self.add), set(self.delete)
        for condition, fact, positive in self.conditional:
            if self.task.holds(condition, state):
                (add if positive else delete).add(fact)
        return (state - delete) | add

    def possible_adds(self) -> frozenset[Fact]:
        """Facts this action adds in some state (conditional adds included)."""
        return self.add | {fact for _c, fact, positive in self.conditional if positive}

    def possible_deletes(self) -> frozenset[Fact]:
        """Facts this action deletes in some state (conditional deletes included)."""
        return self.delete | {fact for _c, fact, positive in self.conditional if not positive}


class Task:
    """A problem ready for simulation: objects with their types, initial state, goal, cache.

    Get one with `Task.of(problem)`, which returns the same Task for the same Problem object, so
    a domain and problem parsed once serve any number of plans.
    """

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.domain = problem.domain
        self.init: frozenset[Fact] = problem.init
        self.goal: Formula = problem.goal
        self.object_types: dict[str, frozenset[str]] = {
            name: frozenset().union(*(self.domain.ancestors(t) for t in types))
            for name, types in problem.all_objects.items()
        }
        self._cache: dict[tuple[str, tuple[str, ...]], GroundAction | Rejection] = {}
        self._facts: dict[Fact, Fact] = {f: f for f in self.init}
        self._by_type: dict[tuple[str, ...], list[str]] = {}
        self.goal_pos, self.goal_neg, self.goal_is_conjunctive = _literal_goal(self.goal)

    @classmethod
    def of(cls, problem: Problem) -> Task:
        """The Task of this problem, built once and kept on the problem object itself."""
        task = vars(problem).get("_planeval_task")
        if task is None:
            task = vars(problem)["_planeval_task"] = cls(problem)
        return task

    # ---- objects
    def objects_of_type(self, types: tuple[str, ...]) -> list[str]:
        """Objects (and constants) of any of `types`, sorted; cached per type tuple."""
        found = self._by_type.get(types)
        if found is None:
            wanted = set(types)
            found = self._by_type[types] = sorted(
                o for o, ts in self.object_types.items() if ts & wanted
            )
        return found

    def intern(self, fact: Fact) -> Fact:
        """One tuple object per distinct fact, so set lookups mostly compare by identity."""
        return self._facts.setdefault(fact, fact)

    # ---- grounding
    def ground(self, name: str, args: tuple[str, ...]) -> GroundAction | Rejection:
        """The ground action `(name args...)`, or why the step is malformed. Cached."""
        key = (name, args)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._ground(name, args)
        return found

    def _ground(self, name: str, args: tuple[str, ...]) -> GroundAction | Rejection:
        schema = self.domain.actions.get(name)
        if schema is None:
            known = ", ".join(sorted(self.domain.actions))
            return Rejection(
                FailureKind.UNKNOWN_ACTION,
                f"'{name}' is not an action of this domain (actions: {known})",
            )
        if len(args) != schema.arity:
            return Rejection(
                FailureKind.ARITY,
                f"'{name}' takes {schema.arity} argument(s) {schema.signature()}, got {len(args)}",
            )
        for position, (arg, param) in enumerate(zip(args, schema.parameters, strict=True), 1):
            types = self.object_types.get(arg)
            if types is None:
                return Rejection(
                    FailureKind.UNKNOWN_OBJECT,
                    f"argument {position} of '{name}', '{arg}', is not an object of this problem",
                )
            if not types & set(param.types):
                return Rejection(
                    FailureKind.TYPE,
                    f"argument {position} of '{name}', '{arg}', is a "
                    f"{'/'.join(self.problem.all_objects[arg])}, not a {'/'.join(param.types)}",
                )
        binding = {p.name: sys.intern(a) for p, a in zip(schema.parameters, args, strict=True)}
        return self._instantiate(schema, binding)

    def _instantiate(self, schema: Action, binding: Binding) -> GroundAction:
        pos: set[Fact] = set()
        neg: set[Fact] = set()
        static_unmet: list[str] = []
        general: list[Formula] = []
        for part in _conjuncts(schema.precondition):
            match part:
                case Atom():
                    pos.add(self.intern(_ground_atom(part, binding)))
                case Not(formula=Atom() as atom):
                    neg.add(self.intern(_ground_atom(atom, binding)))
                case Equals(left=left, right=right):
                    a, b = binding.get(left, left), binding.get(right, right)
                    if a != b:
                        static_unmet.append(f"(= {a} {b})")
                case Not(formula=Equals(left=left, right=right)):
                    a, b = binding.get(left, left), binding.get(right, right)
                    if a == b:
                        static_unmet.append(f"(not (= {a} {b}))")
                case _:
                    general.append(substitute(part, binding))
        add: set[Fact] = set()
        delete: set[Fact] = set()
        conditional: list[tuple[Formula, Fact, bool]] = []
        for literal in schema.effects:
            for condition, fact in self._effect_instances(literal, binding):
                if condition is None:
                    (add if literal.positive else delete).add(fact)
                else:
                    conditional.append((condition, fact, literal.positive))
        condition = (
            None if not general else general[0] if len(general) == 1 else And(tuple(general))
        )
        return GroundAction(
            name=schema.name,
            args=tuple(binding[p.name] for p in schema.parameters),
            pre_pos=frozenset(pos),
            pre_neg=frozenset(neg),
            static_unmet=tuple(static_unmet),
            condition=condition,
            add=frozenset(add),
            delete=frozenset(delete),
            conditional=tuple(conditional),
            task=self,
        )

    def _effect_instances(
        self, literal: EffectLiteral, binding: Binding
    ) -> Iterator[tuple[Formula | None, Fact]]:
        """Ground one effect literal; `forall` variables range over objects of their types."""
        if literal.is_simple:
            yield None, self.intern(_ground_atom(literal.atom, binding))
            return
        domains = [self.objects_of_type(v.types) for v in literal.variables]
        for values in product(*domains):
            inner = {
                **binding,
                **{v.name: o for v, o in zip(literal.variables, values, strict=True)},
            }
            condition = None if literal.condition is None else substitute(literal.condition, inner)
            yield condition, self.intern(_ground_atom(literal.atom, inner))

    # ---- evaluation of general (ADL) formulas over ground terms
    def holds(self, formula: Formula, state: frozenset[Fact]) -> bool:
        """Truth of a ground formula in a state; quantifiers range over typed objects."""
        match formula:
            case Atom(predicate=predicate, terms=terms):
                return (predicate, *terms) in state
            case Equals(left=left, right=right):
                return left == right
            case Not(formula=inner):
                return not self.holds(inner, state)
            case And(parts=parts):
                return all(self.holds(p, state) for p in parts)
            case Or(parts=parts):
                return any(self.holds(p, state) for p in parts)
            case Imply(condition=condition, consequence=consequence):
                return not self.holds(condition, state) or self.holds(consequence, state)
            case Exists() | ForAll():
                instances = (self.holds(f, state) for f in self.expand(formula))
                return any(instances) if isinstance(formula, Exists) else all(instances)
        raise TypeError(f"not a formula: {formula!r}")

    def expand(self, formula: Exists | ForAll) -> Iterator[Formula]:
        """The body of a quantified formula once for each assignment of objects."""
        domains = [self.objects_of_type(v.types) for v in formula.variables]
        for values in product(*domains):
            binding = {v.name: o for v, o in zip(formula.variables, values, strict=True)}
            yield substitute(formula.body, binding)

    def goal_holds(self, state: frozenset[Fact]) -> bool:
        if self.goal_is_conjunctive:
            return self.goal_pos <= state and self.goal_neg.isdisjoint(state)
        return self.holds(self.goal, state)


def _conjuncts(formula: Formula) -> Iterator[Formula]:
    if isinstance(formula, And):
        for part in formula.parts:
            yield from _conjuncts(part)
    else:
        yield formula


def _ground_atom(atom: Atom, binding: Binding) -> Fact:
    return (atom.predicate, *(binding.get(t, t) for t in atom.terms))


def substitute(formula: Formula, binding: Binding) -> Formula:
    """Replace variables by objects; quantified variables shadow the binding inside their body."""
    match formula:
        case Atom(predicate=predicate, terms=terms):
            return Atom(predicate, tuple(binding.get(t, t) for t in terms))
        case Equals(left=left, right=right):
            return Equals(binding.get(left, left), binding.get(right, right))
        case Not(formula=inner):
            return Not(substitute(inner, binding))
        case And(parts=parts):
            return And(tuple(substitute(p, binding) for p in parts))
        case Or(parts=parts):
            return Or(tuple(substitute(p, binding) for p in parts))
        case Imply(condition=condition, consequence=consequence):
            return Imply(substitute(condition, binding), substitute(consequence, binding))
        case Exists(variables=variables, body=body) | ForAll(variables=variables, body=body):
            inner = {k: v for k, v in binding.items() if k not in {x.name for x in variables}}
            return type(formula)(variables, substitute(body, inner))
    raise TypeError(f"not a formula: {formula!r}")


def _literal_goal(goal: Formula) -> tuple[frozenset[Fact], frozenset[Fact], bool]:
    """Split a conjunction of ground literals into positive/negative fact sets (fast path)."""
    pos: set[Fact] = set()
    neg: set[Fact] = set()
    for part in _conjuncts(goal):
        match part:
            case Atom():
                pos.add(_ground_atom(part, {}))
            case Not(formula=Atom() as atom):
                neg.add(_ground_atom(atom, {}))
            case _:
                return frozenset(), frozenset(), False
    return frozenset(pos), frozenset(neg), True
