"""PDDL goal formulas: parsing, DNF, the Blake canonical form, equivalence and partial credit.

A goal denotes a set of states; atoms it does not mention are "don't care". Two goals can
differ in text and still denote the same states (``A`` and ``(or (and A B) (and A (not B)))``),
so comparing raw DNF clauses would punish harmless rewrites. Every Boolean function has one
**Blake canonical form** (BCF): the disjunction of *all* its prime implicants. It is unique, so

* ``goals_equivalent(a, b)`` is exact: equal truth tables over the shared atoms (bit-parallel,
  up to ``MAX_TRUTH_TABLE_ATOMS`` atoms), otherwise equal Blake forms;
* ``clause_scores(answer, solution)`` gives precision/recall/F1 between the clause sets of the
  two Blake forms: precision = shared clauses / answer clauses, recall = shared clauses /
  solution clauses (an empty side scores 1 on its own ratio). ``(or (holding o19) (holding
  o30))`` against ``(holding o19)`` scores P=0.5, R=1; equivalent goals score 1.

Syntax: ``and``, ``or``, ``not``, ``imply``, ``=``, atoms ``(pred obj ...)``, optionally
wrapped in ``(:goal ...)``; ``;`` comments; names are case-insensitive (kept lower-case); a
bare name ``A`` is shorthand for the 0-ary atom ``(a)``.
``(and)`` is true and ``(or)`` false. ``(= a b)`` between two objects follows PDDL's unique
names: true for the same name, false otherwise; with a ``?variable`` it stays an atom.
Quantifiers (``forall``, ``exists``) and numeric comparisons are not supported.

Limits (each raises :class:`PDDLGoalError` instead of running away): at most ``MAX_ATOMS``
distinct atoms in a comparison, ``MAX_CLAUSES`` clauses in any DNF or Blake form (conversion
to DNF and prime-implicant sets can grow exponentially), nesting up to ``MAX_DEPTH``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

from lark import Lark, LarkError, Token, Transformer, UnexpectedInput

from dsgqa.nesting import deeper_than
from dsgqa.sldp import Score, describe_parse_error

#: Distinct atoms allowed in one goal or comparison.
MAX_ATOMS = 64
#: Clauses allowed in a DNF or Blake canonical form (and 16x this in one product step).
MAX_CLAUSES = 256
#: Up to this many atoms, equivalence is decided on full truth tables (2**20 bits each).
MAX_TRUTH_TABLE_ATOMS = 20
#: Deepest nesting of connectives accepted.
MAX_DEPTH = 64
_MEMO_SIZE = 1024


class PDDLGoalError(ValueError):
    """A malformed goal (with line and column), an unsupported construct, or a goal too big."""


# ----------------------------------------------------------------------------- formulas


@dataclass(frozen=True, slots=True, order=True)
class Atom:
    """A ground fact such as ``(holding o19)``."""

    predicate: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "(" + " ".join((self.predicate, *self.args)) + ")"


@dataclass(frozen=True, slots=True)
class Const:
    """``(and)`` (true) or ``(or)`` (false), and ground equalities once decided."""

    value: bool


@dataclass(frozen=True, slots=True)
class Not:
    arg: Formula


@dataclass(frozen=True, slots=True)
class And:
    args: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class Or:
    args: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class Imply:
    antecedent: Formula
    consequent: Formula


Formula: TypeAlias = Atom | Const | Not | And | Or | Imply
_FORMULA_TYPES = (Atom, Const, Not, And, Or, Imply)


@dataclass(frozen=True, slots=True, order=True)
class Literal:
    """An atom or its negation: the building block of DNF clauses."""

    atom: Atom
    positive: bool = True

    def __str__(self) -> str:
        return str(self.atom) if self.positive else f"(not {self.atom})"


Clause: TypeAlias = frozenset[Literal]
DNF: TypeAlias = frozenset[Clause]


# ----------------------------------------------------------------------------- parsing

_GRAMMAR = Path(__file__).with_name("pddl_goal.lark")
_UNSUPPORTED = re.compile(r"\(\s*(forall|exists|when|preference)\b", re.I)
_FRIENDLY = {"NAME": "a name", "$END": "end of input"}


class _Builder(Transformer):
    """Runs inside the LALR parser and yields the immutable formula objects."""

    def start(self, children: list[Formula]) -> Formula:
        return children[-1]

    def conjunction(self, children: list[Formula]) -> Formula:
        return And(tuple(children))

    def disjunction(self, children: list[Formula]) -> Formula:
        return Or(tuple(children))

    def negation(self, children: list[Formula]) -> Formula:
        return Not(children[0])

    def implication(self, children: list[Formula]) -> Formula:
        return Imply(children[0], children[1])

    def equality(self, children: list[Token]) -> Formula:
        left, right = sorted(str(c).lower() for c in children)
        if left.startswith("?") or right.startswith("?"):
            return Atom("=", (left, right))
        return Const(left == right)

    def atom(self, children: list[Token]) -> Formula:
        names = [str(c).lower() for c in children]
        return Atom(names[0], tuple(names[1:]))

    def bare_atom(self, children: list[Token]) -> Formula:
        return Atom(str(children[0]).lower())


@functools.cache
def _parser() -> Lark:
    """Built once per process."""
    return Lark(
        _GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="basic", transformer=_Builder()
    )


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _parse_text(text: str) -> Formula:
    if not text.strip():
        raise PDDLGoalError("empty goal: expected a formula such as (and (on a b))")
    if unsupported := _UNSUPPORTED.search(text):
        raise PDDLGoalError(f"unsupported construct '{unsupported.group(1).lower()}' in goal")
    parser = _parser()
    try:
        goal = parser.parse(text)
    except UnexpectedInput as exc:
        raise PDDLGoalError(describe_parse_error(exc, _FRIENDLY, parser)) from None
    except LarkError as exc:
        raise PDDLGoalError(f"malformed goal: {exc}") from None
    _check_depth(goal)
    return goal


def parse_goal(text: str) -> Formula:
    """Parse a goal formula; raises :class:`PDDLGoalError` with the position on bad input."""
    if not isinstance(text, str):
        raise TypeError(f"parse_goal expects text, got {type(text).__name__}")
    return _parse_text(text)


def _children(formula: Formula) -> tuple[Formula, ...]:
    if isinstance(formula, And | Or):
        return formula.args
    if isinstance(formula, Not):
        return (formula.arg,)
    if isinstance(formula, Imply):
        return (formula.antecedent, formula.consequent)
    return ()


def _check_depth(formula: Formula) -> None:
    if deeper_than(formula, _children, MAX_DEPTH):
        raise PDDLGoalError(f"goal nested deeper than {MAX_DEPTH} levels")


def _as_goal(goal: Any) -> Formula:
    if isinstance(goal, str):
        return parse_goal(goal)
    if isinstance(goal, _FORMULA_TYPES):
        _check_depth(goal)
        return goal
    raise TypeError(f"expected goal text or a parsed formula, got {type(goal).__name__}")


def _atoms(formula: Formula) -> set[Atom]:
    found: set[Atom] = set()
    stack = [formula]
    while stack:
        node = stack.pop()
        if isinstance(node, Atom):
            found.add(node)
        stack.extend(_children(node))
    return found


def _bits(*goals: Formula) -> dict[Atom, int]:
    """One bit per distinct atom, in sorted order so results do not depend on hashing."""
    atoms = sorted(set().union(*(_atoms(g) for g in goals)))
    if len(atoms) > MAX_ATOMS:
        raise PDDLGoalError(f"goal too large: {len(atoms)} distinct atoms (limit {MAX_ATOMS})")
    return {atom: 1 << i for i, atom in enumerate(atoms)}


# ----------------------------------------------------------------------------- printing


def format_goal(formula: Formula) -> str:
    """PDDL text for a formula (parses back to the same formula, up to ground equalities)."""
    if isinstance(formula, Atom):
        return str(formula)
    if isinstance(formula, Const):
        return "(and)" if formula.value else "(or)"
    if isinstance(formula, Not):
        return f"(not {format_goal(formula.arg)})"
    if isinstance(formula, Imply):
        return f"(imply {format_goal(formula.antecedent)} {format_goal(formula.consequent)})"
    word = "and" if isinstance(formula, And) else "or"
    return "(" + " ".join([word, *(format_goal(arg) for arg in formula.args)]) + ")"


def format_clause(clause: Clause) -> str:
    """A conjunction of literals as PDDL; the empty clause is ``(and)`` (true)."""
    literals = sorted(clause)
    if len(literals) == 1:
        return str(literals[0])
    return "(" + " ".join(["and", *(str(lit) for lit in literals)]) + ")"


def format_dnf(dnf: DNF) -> str:
    """A DNF as PDDL; the empty disjunction is ``(or)`` (false)."""
    clauses = sorted(format_clause(c) for c in dnf)
    if len(clauses) == 1:
        return clauses[0]
    return "(" + " ".join(["or", *clauses]) + ")"


# ----------------------------------------------------------------------------- DNF
# Inside, a clause is a pair of bit masks (positive atoms, negated atoms) and a DNF a set of
# such pairs: subsumption and consensus become a few integer operations.

Masks: TypeAlias = tuple[int, int]


def _check_size(clauses: set[Masks], what: str) -> set[Masks]:
    if len(clauses) > MAX_CLAUSES:
        raise PDDLGoalError(f"goal too large: its {what} exceeds {MAX_CLAUSES} clauses")
    return clauses


def _absorb(clauses: set[Masks]) -> set[Masks]:
    """Drop every clause that contains another (it adds no states)."""
    kept: list[Masks] = []
    for pos, neg in sorted(clauses, key=lambda c: (c[0] | c[1]).bit_count()):
        if not any(kp & ~pos == 0 and kn & ~neg == 0 for kp, kn in kept):
            kept.append((pos, neg))
    return set(kept)


def _conjoin(dnfs: list[set[Masks]]) -> set[Masks]:
    result: set[Masks] = {(0, 0)}
    for dnf in dnfs:
        if len(result) * len(dnf) > 16 * MAX_CLAUSES:
            raise PDDLGoalError(
                f"goal too large: its DNF needs {len(result) * len(dnf)} clause combinations "
                f"in one step (limit {16 * MAX_CLAUSES})"
            )
        product = {
            (p1 | p2, n1 | n2)
            for p1, n1 in result
            for p2, n2 in dnf
            if not (p1 | p2) & (n1 | n2)  # a clause with x and (not x) holds in no state
        }
        result = _check_size(_absorb(product), "DNF")
    return result


def _dnf(formula: Formula, bits: dict[Atom, int], positive: bool = True) -> set[Masks]:
    """DNF of ``formula`` (or of its negation), pushing negations inward on the way."""
    if isinstance(formula, Atom):
        bit = bits[formula]
        return {(bit, 0)} if positive else {(0, bit)}
    if isinstance(formula, Const):
        return {(0, 0)} if formula.value == positive else set()
    if isinstance(formula, Not):
        return _dnf(formula.arg, bits, not positive)
    if isinstance(formula, Imply):  # a -> b  ==  (not a) or b
        parts, conjunctive = (Not(formula.antecedent), formula.consequent), not positive
    else:
        parts, conjunctive = formula.args, isinstance(formula, And) == positive
    dnfs = [_dnf(part, bits, positive) for part in parts]
    if conjunctive:
        return _conjoin(dnfs)
    return _check_size(_absorb(set().union(*dnfs)), "DNF")


def _consensus(c1: Masks, c2: Masks) -> Masks | None:
    """The consensus of two clauses clashing on exactly one atom (x.A, not-x.B -> A.B)."""
    clash = (c1[0] & c2[1]) | (c1[1] & c2[0])
    if not clash or clash & (clash - 1):
        return None
    return ((c1[0] | c2[0]) & ~clash, (c1[1] | c2[1]) & ~clash)


def _subsumes(c1: Masks, c2: Masks) -> bool:
    return c1[0] & ~c2[0] == 0 and c1[1] & ~c2[1] == 0


def _blake(clauses: set[Masks]) -> set[Masks]:
    """All prime implicants, by iterated consensus with absorption (Blake, Quine).

    Each clause is paired with everything present when it is taken off the queue, so the
    final set is closed under consensus modulo absorption, which is the Blake form."""
    current = _absorb(clauses)
    queue = list(current)
    while queue:
        clause = queue.pop()
        if clause not in current:
            continue
        for other in list(current):
            new = _consensus(clause, other)
            if new is None or any(_subsumes(c, new) for c in current):
                continue
            current = {c for c in current if not _subsumes(new, c)}
            current.add(new)
            queue.append(new)
            _check_size(current, "Blake canonical form")
    return current


def _to_literals(clauses: set[Masks], bits: dict[Atom, int]) -> DNF:
    def clause(pos: int, neg: int) -> Clause:
        return frozenset(
            Literal(atom, bool(pos & bit)) for atom, bit in bits.items() if (pos | neg) & bit
        )

    return frozenset(clause(pos, neg) for pos, neg in clauses)


def to_dnf(goal: Any) -> DNF:
    """A disjunctive normal form: clauses (sets of literals) without contradictions or
    clauses that contain another. Not unique: see :func:`blake_canonical_form`."""
    formula = _as_goal(goal)
    bits = _bits(formula)
    return _to_literals(_dnf(formula, bits), bits)


def blake_canonical_form(goal: Any) -> DNF:
    """The disjunction of all prime implicants: the same for any two equivalent goals."""
    formula = _as_goal(goal)
    bits = _bits(formula)
    return _to_literals(_blake(_dnf(formula, bits)), bits)


# ----------------------------------------------------------------------------- comparison


def _truth_table(formula: Formula, columns: dict[Atom, int], full: int) -> int:
    """All 2**n rows at once: bit k is the value under assignment k (Python big ints)."""
    if isinstance(formula, Atom):
        return columns[formula]
    if isinstance(formula, Const):
        return full if formula.value else 0
    if isinstance(formula, Not):
        return full ^ _truth_table(formula.arg, columns, full)
    if isinstance(formula, Imply):
        antecedent = _truth_table(formula.antecedent, columns, full)
        return (full ^ antecedent) | _truth_table(formula.consequent, columns, full)
    tables = (_truth_table(arg, columns, full) for arg in formula.args)
    if isinstance(formula, And):
        return functools.reduce(int.__and__, tables, full)
    return functools.reduce(int.__or__, tables, 0)


def _columns(atoms: list[Atom]) -> tuple[dict[Atom, int], int]:
    """Truth-table column of each atom: atom i is true in rows whose bit i is set."""
    rows = 1 << len(atoms)
    columns = {}
    for i, atom in enumerate(atoms):
        block = 1 << i
        pattern, width = ((1 << block) - 1) << block, 2 * block  # block zeros, block ones
        while width < rows:  # doubling: log(rows) big-int steps
            pattern |= pattern << width
            width *= 2
        columns[atom] = pattern
    return columns, (1 << rows) - 1


def goals_equivalent(a: Any, b: Any) -> bool:
    """Whether two goals hold in exactly the same states (exact, never a heuristic)."""
    goal_a, goal_b = _as_goal(a), _as_goal(b)
    bits = _bits(goal_a, goal_b)
    if len(bits) <= MAX_TRUTH_TABLE_ATOMS:
        columns, full = _columns(list(bits))
        return _truth_table(goal_a, columns, full) == _truth_table(goal_b, columns, full)
    return _blake(_dnf(goal_a, bits)) == _blake(_dnf(goal_b, bits))


def clause_scores(answer: Any, solution: Any) -> Score:
    """Precision/recall/F1 between the Blake-form clauses of ``answer`` and ``solution``."""
    goal_a, goal_b = _as_goal(answer), _as_goal(solution)
    bits = _bits(goal_a, goal_b)
    clauses_a, clauses_b = _blake(_dnf(goal_a, bits)), _blake(_dnf(goal_b, bits))
    shared = len(clauses_a & clauses_b)
    precision = shared / len(clauses_a) if clauses_a else 1.0
    recall = shared / len(clauses_b) if clauses_b else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    if clauses_a == clauses_b:
        return Score(True, 1.0, 1.0, 1.0, "equal")
    return Score(False, precision, recall, f1, _mismatch(clauses_a, clauses_b, bits))


def _mismatch(clauses_a: set[Masks], clauses_b: set[Masks], bits: dict[Atom, int]) -> str:
    missing = sorted(format_clause(c) for c in _to_literals(clauses_b - clauses_a, bits))
    extra = sorted(format_clause(c) for c in _to_literals(clauses_a - clauses_b, bits))
    parts = []
    if missing:
        parts.append(f"{len(missing)} solution clause(s) missing, e.g. {missing[0]}")
    if extra:
        parts.append(f"{len(extra)} clause(s) not in the solution, e.g. {extra[0]}")
    return "; ".join(parts)
