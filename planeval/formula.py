"""Propositional views of planeval's PDDL formulas: negation normal form, literals, clauses.

Two readers need a goal as clauses (conjunctions of literals): partial goal satisfaction
(`planeval.goals`) scores each clause of the goal on a final state, and the goal comparison of
the QA track (`dsgqa.pddl_goal`, through `planeval.boolean`) compares the clauses of two goals.
Both start from the negation normal form built here, so `not`, `imply` and negated quantifiers
are handled in one place. Their DNFs differ on purpose: goal satisfaction keeps every clause as
written (a clause's share of true literals is its score, and dropping `(and a b)` because `(a)`
is there would change it), while the comparison wants the smallest clause set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from planeval.pddl import And, Atom, Equals, Exists, ForAll, Formula, Imply, Not, Or

#: Clauses allowed in any DNF built from a goal (conversion to DNF can grow exponentially).
MAX_CLAUSES = 256

#: What a literal is about: a predicate atom, or an equality that stays open (see below).
Proposition: TypeAlias = Atom | Equals


def children(formula: Formula) -> tuple[Formula, ...]:
    """The direct subformulas (for depth checks and walks)."""
    match formula:
        case And(parts=parts) | Or(parts=parts):
            return parts
        case Not(formula=inner):
            return (inner,)
        case Imply(condition=condition, consequence=consequence):
            return (condition, consequence)
        case Exists(body=body) | ForAll(body=body):
            return (body,)
    return ()


def negation_normal_form(formula: Formula, negated: bool = False) -> Formula:
    """The same formula (or its negation) with `imply` rewritten as `(or (not a) b)` and every
    `not` pushed down onto an atom or equality; the order of parts is kept."""
    match formula:
        case Atom() | Equals():
            return Not(formula) if negated else formula
        case Not(formula=inner):
            return negation_normal_form(inner, not negated)
        case Imply(condition=condition, consequence=consequence):
            return negation_normal_form(Or((Not(condition), consequence)), negated)
        case And(parts=parts) | Or(parts=parts):
            nnf = tuple(negation_normal_form(p, negated) for p in parts)
            return And(nnf) if isinstance(formula, And) != negated else Or(nnf)
        case Exists(variables=variables, body=body) | ForAll(variables=variables, body=body):
            kind = ForAll if isinstance(formula, ForAll) != negated else Exists
            return kind(variables, negation_normal_form(body, negated))
    raise TypeError(f"not a formula: {formula!r}")


def ground_equality(equality: Equals) -> bool | None:
    """PDDL's unique names: two object names are equal exactly when they are the same name.
    None while a `?variable` is involved (the equality is then an open proposition)."""
    if equality.left.startswith("?") or equality.right.startswith("?"):
        return None
    return equality.left == equality.right


def proposition_key(proposition: Proposition) -> tuple[str, tuple[str, ...]]:
    """A sort key that orders atoms by predicate then terms (equalities as predicate ``=``),
    so results built from propositions never depend on hashing."""
    if isinstance(proposition, Equals):
        return "=", (proposition.left, proposition.right)
    return proposition.predicate, proposition.terms


@dataclass(frozen=True, slots=True)
class Literal:
    """A proposition or its negation: the building block of clauses."""

    atom: Proposition
    positive: bool = True

    def __str__(self) -> str:
        return str(self.atom) if self.positive else f"(not {self.atom})"

    def sort_key(self) -> tuple[Any, ...]:
        return (*proposition_key(self.atom), self.positive)


Clause: TypeAlias = frozenset[Literal]
DNF: TypeAlias = frozenset[Clause]


def format_clause(clause: Clause) -> str:
    """A conjunction of literals as PDDL, literals by atom; the empty clause is ``(and)``."""
    literals = sorted(clause, key=Literal.sort_key)
    if len(literals) == 1:
        return str(literals[0])
    return "(" + " ".join(["and", *(str(lit) for lit in literals)]) + ")"


def format_dnf(dnf: DNF) -> str:
    """A DNF as PDDL; the empty disjunction is ``(or)`` (false)."""
    clauses = sorted(format_clause(c) for c in dnf)
    if len(clauses) == 1:
        return clauses[0]
    return "(" + " ".join(["or", *clauses]) + ")"
