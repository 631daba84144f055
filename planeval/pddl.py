"""PDDL objects: what a domain and a problem say, before anything is grounded.

Names are lower-case strings (PDDL is case-insensitive). Variables keep their leading `?`.
Formulas are small immutable trees; effects are flattened into `EffectLiteral`s, each one
"under these forall-variables, when this condition holds, make this atom true/false", which is
the normal form every PDDL effect reduces to and what grounding needs.

A ground fact is a `Fact`: a tuple `(predicate, arg1, ..., argN)` of interned strings. States are
frozensets of facts (closed world: a fact not in the set is false).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

Fact = tuple[str, ...]
"""A ground atom, e.g. ("on", "a", "b"); a state is a frozenset of these."""

OBJECT = "object"
"""The root type; every object is an `object`, also in domains without :typing."""


def fact_to_pddl(fact: Fact) -> str:
    """Write a fact the way PDDL and LLM prompts do: `(on a b)`."""
    return "(" + " ".join(fact) + ")"


@dataclass(frozen=True, slots=True)
class TypedName:
    """A parameter, variable or object with its type(s); several types mean `(either ...)`."""

    name: str
    types: tuple[str, ...] = (OBJECT,)


@dataclass(frozen=True, slots=True)
class Atom:
    """A predicate applied to terms (variables `?x` or object/constant names)."""

    predicate: str
    terms: tuple[str, ...]

    def __str__(self) -> str:
        return fact_to_pddl((self.predicate, *self.terms))


@dataclass(frozen=True, slots=True)
class Equals:
    """`(= a b)`: true when both terms name the same object (:equality)."""

    left: str
    right: str

    def __str__(self) -> str:
        return f"(= {self.left} {self.right})"


@dataclass(frozen=True, slots=True)
class Not:
    formula: Formula

    def __str__(self) -> str:
        return f"(not {self.formula})"


@dataclass(frozen=True, slots=True)
class And:
    parts: tuple[Formula, ...]

    def __str__(self) -> str:
        return "(and " + " ".join(map(str, self.parts)) + ")" if self.parts else "(and)"


@dataclass(frozen=True, slots=True)
class Or:
    parts: tuple[Formula, ...]

    def __str__(self) -> str:
        return "(or " + " ".join(map(str, self.parts)) + ")" if self.parts else "(or)"


@dataclass(frozen=True, slots=True)
class Imply:
    condition: Formula
    consequence: Formula

    def __str__(self) -> str:
        return f"(imply {self.condition} {self.consequence})"


@dataclass(frozen=True, slots=True)
class Exists:
    variables: tuple[TypedName, ...]
    body: Formula

    def __str__(self) -> str:
        return f"(exists ({_typed(self.variables)}) {self.body})"


@dataclass(frozen=True, slots=True)
class ForAll:
    variables: tuple[TypedName, ...]
    body: Formula

    def __str__(self) -> str:
        return f"(forall ({_typed(self.variables)}) {self.body})"


Formula = Atom | Equals | Not | And | Or | Imply | Exists | ForAll

TRUE = And(())
"""The empty conjunction: an action without :precondition is always applicable."""

FALSE = Or(())
"""The empty disjunction: no state satisfies it (a goal comparison's ``(or)``)."""


def _typed(names: tuple[TypedName, ...]) -> str:
    return " ".join(f"{n.name} - {' '.join(n.types)}" for n in names)


@dataclass(frozen=True, slots=True)
class EffectLiteral:
    """One atom an action makes true (`positive`) or false, possibly conditional/universal."""

    atom: Atom
    positive: bool
    condition: Formula | None = None
    variables: tuple[TypedName, ...] = ()

    @property
    def is_simple(self) -> bool:
        """True for the plain STRIPS case: no `when`, no `forall`."""
        return self.condition is None and not self.variables


@dataclass(frozen=True, slots=True)
class Predicate:
    name: str
    parameters: tuple[TypedName, ...]

    @property
    def arity(self) -> int:
        return len(self.parameters)


@dataclass(frozen=True, slots=True)
class Action:
    """An action schema; `precondition` is `TRUE` when the domain gives none."""

    name: str
    parameters: tuple[TypedName, ...]
    precondition: Formula
    effects: tuple[EffectLiteral, ...]

    @property
    def arity(self) -> int:
        return len(self.parameters)

    def signature(self) -> str:
        """`(stack ?x - block ?y - block)`, for messages and prompts (`- object` left out)."""
        params = " ".join(
            p.name if p.types == (OBJECT,) else f"{p.name} - {'|'.join(p.types)}"
            for p in self.parameters
        )
        return f"({self.name}{' ' if params else ''}{params})"


@dataclass(eq=False)
class Domain:
    """A parsed domain. `types` maps each type to its parent types (root: `object`)."""

    name: str
    requirements: frozenset[str]
    types: dict[str, tuple[str, ...]]
    constants: dict[str, tuple[str, ...]]
    predicates: dict[str, Predicate]
    actions: dict[str, Action]
    source: str = "<domain>"

    @cached_property
    def static_predicates(self) -> frozenset[str]:
        """Predicates no action changes (types, maps, sums): fixed by the initial state."""
        changed = {lit.atom.predicate for a in self.actions.values() for lit in a.effects}
        return frozenset(self.predicates) - changed

    def ancestors(self, type_name: str) -> frozenset[str]:
        """The type itself, its parents, their parents, ... and always `object`."""
        return self._ancestor_table.get(type_name, frozenset((type_name, OBJECT)))

    @cached_property
    def _ancestor_table(self) -> dict[str, frozenset[str]]:
        table: dict[str, frozenset[str]] = {}
        for start in self.types:
            seen = {start, OBJECT}
            todo = [start]
            while todo:
                for parent in self.types.get(todo.pop(), ()):
                    if parent not in seen:
                        seen.add(parent)
                        todo.append(parent)
            table[start] = frozenset(seen)
        table[OBJECT] = frozenset((OBJECT,))
        return table


@dataclass(eq=False)
class Problem:
    """A parsed problem, bound to the domain it was parsed against.

    `objects` holds the problem's own objects; `all_objects` adds the domain's constants, which
    plans may name too.
    """

    name: str
    domain: Domain
    objects: dict[str, tuple[str, ...]]
    init: frozenset[Fact]
    goal: Formula
    source: str = "<problem>"

    @cached_property
    def all_objects(self) -> dict[str, tuple[str, ...]]:
        merged = dict(self.domain.constants)
        merged.update(self.objects)
        return merged
