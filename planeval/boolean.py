"""Ground goals as Boolean functions: smallest DNF, Blake canonical form, exact equivalence.

A goal denotes a set of states; atoms it does not mention are "don't care". Two goals can
differ in text and still denote the same states (``a`` and ``(or (and a b) (and a (not b)))``),
so the goal comparison needs forms that only depend on the states. Every Boolean function has
one **Blake canonical form** (BCF): the disjunction of *all* its prime implicants. Equivalence
is decided on full truth tables while they are small (bit-parallel, up to
``MAX_TRUTH_TABLE_ATOMS`` atoms), otherwise by comparing Blake forms; both are exact.

Formulas are planeval's, without quantifiers. ``(= a b)`` between two objects follows PDDL's
unique names (true for the same name); with a ``?variable`` it is an ordinary proposition.
Inside, a clause is a pair of bit masks (positive atoms, negated atoms) and a DNF a set of such
pairs, so subsumption and consensus are a few integer operations.

Limits (each raises :class:`FormulaError` instead of running away): ``MAX_ATOMS`` distinct
propositions in one computation, ``MAX_CLAUSES`` clauses in any DNF or Blake form.
"""

from __future__ import annotations

import functools
from typing import TypeAlias

from planeval.errors import FormulaError
from planeval.formula import (
    DNF,
    MAX_CLAUSES,
    Clause,
    Literal,
    Proposition,
    children,
    ground_equality,
    negation_normal_form,
    proposition_key,
)
from planeval.pddl import And, Atom, Equals, Exists, ForAll, Formula, Not

#: Distinct propositions allowed in one goal or comparison.
MAX_ATOMS = 64
#: Up to this many atoms, equivalence is decided on full truth tables (2**20 bits each).
MAX_TRUTH_TABLE_ATOMS = 20

Masks: TypeAlias = tuple[int, int]
Bits: TypeAlias = dict[Proposition, int]


def propositions(formula: Formula) -> set[Proposition]:
    """The atoms, and equalities that stay open, a formula mentions."""
    found: set[Proposition] = set()
    stack = [formula]
    while stack:
        node = stack.pop()
        if isinstance(node, Atom) or (isinstance(node, Equals) and ground_equality(node) is None):
            found.add(node)
        elif isinstance(node, Exists | ForAll):
            kind = "forall" if isinstance(node, ForAll) else "exists"
            raise FormulaError(f"unsupported construct '{kind}' in goal")
        stack.extend(children(node))
    return found


def assign_bits(*formulas: Formula) -> Bits:
    """One bit per distinct proposition, in sorted order so results do not depend on hashing."""
    found = sorted(set().union(*(propositions(f) for f in formulas)), key=proposition_key)
    if len(found) > MAX_ATOMS:
        raise FormulaError(f"goal too large: {len(found)} distinct atoms (limit {MAX_ATOMS})")
    return {proposition: 1 << i for i, proposition in enumerate(found)}


# ----------------------------------------------------------------------------- DNF


def _check_size(clauses: set[Masks], what: str) -> set[Masks]:
    if len(clauses) > MAX_CLAUSES:
        raise FormulaError(f"goal too large: its {what} exceeds {MAX_CLAUSES} clauses")
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
            raise FormulaError(
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


def _literal(proposition: Proposition, bits: Bits, positive: bool) -> set[Masks]:
    if isinstance(proposition, Equals) and (value := ground_equality(proposition)) is not None:
        return {(0, 0)} if value == positive else set()
    bit = bits[proposition]
    return {(bit, 0)} if positive else {(0, bit)}


def _dnf(nnf: Formula, bits: Bits) -> set[Masks]:
    """The smallest DNF of a formula in negation normal form: no contradictory clause and no
    clause that contains another."""
    match nnf:
        case Atom() | Equals():
            return _literal(nnf, bits, True)
        case Not(formula=inner):
            return _literal(inner, bits, False)
        case And(parts=parts):
            return _conjoin([_dnf(part, bits) for part in parts])
    return _check_size(_absorb(set().union(*(_dnf(part, bits) for part in children(nnf)))), "DNF")


def dnf_masks(formula: Formula, bits: Bits) -> set[Masks]:
    """The smallest DNF of ``formula`` as bit masks (see :func:`assign_bits`)."""
    return _dnf(negation_normal_form(formula), bits)


def _consensus(c1: Masks, c2: Masks) -> Masks | None:
    """The consensus of two clauses clashing on exactly one atom (x.A, not-x.B -> A.B)."""
    clash = (c1[0] & c2[1]) | (c1[1] & c2[0])
    if not clash or clash & (clash - 1):
        return None
    return ((c1[0] | c2[0]) & ~clash, (c1[1] | c2[1]) & ~clash)


def _subsumes(c1: Masks, c2: Masks) -> bool:
    return c1[0] & ~c2[0] == 0 and c1[1] & ~c2[1] == 0


def prime_implicants(clauses: set[Masks]) -> set[Masks]:
    """All prime implicants (the Blake form), by iterated consensus with absorption.

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


def to_literals(clauses: set[Masks], bits: Bits) -> DNF:
    """Bit-mask clauses back as clauses of :class:`Literal`."""

    def clause(pos: int, neg: int) -> Clause:
        return frozenset(
            Literal(atom, bool(pos & bit)) for atom, bit in bits.items() if (pos | neg) & bit
        )

    return frozenset(clause(pos, neg) for pos, neg in clauses)


# ----------------------------------------------------------------------------- truth tables


def _truth_table(nnf: Formula, columns: Bits, full: int) -> int:
    """All 2**n rows at once: bit k is the value under assignment k (Python big ints)."""
    match nnf:
        case Atom() | Equals():
            value = ground_equality(nnf) if isinstance(nnf, Equals) else None
            return columns[nnf] if value is None else full * value
        case Not(formula=inner):
            return full ^ _truth_table(inner, columns, full)
    tables = (_truth_table(part, columns, full) for part in children(nnf))
    if isinstance(nnf, And):
        return functools.reduce(int.__and__, tables, full)
    return functools.reduce(int.__or__, tables, 0)


def _columns(atoms: list[Proposition]) -> tuple[Bits, int]:
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


def equivalent(a: Formula, b: Formula) -> bool:
    """Whether two goals hold in exactly the same states (exact, never a heuristic)."""
    bits = assign_bits(a, b)
    nnf_a, nnf_b = negation_normal_form(a), negation_normal_form(b)
    if len(bits) <= MAX_TRUTH_TABLE_ATOMS:
        columns, full = _columns(list(bits))
        return _truth_table(nnf_a, columns, full) == _truth_table(nnf_b, columns, full)
    return prime_implicants(_dnf(nnf_a, bits)) == prime_implicants(_dnf(nnf_b, bits))
