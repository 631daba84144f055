"""PDDL goals: parsing, DNF, Blake canonical form, exact equivalence and clause scores."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsgqa.pddl_goal import (
    FALSE,
    MAX_ATOMS,
    MAX_CLAUSES,
    TRUE,
    And,
    Atom,
    Equals,
    Imply,
    Literal,
    Not,
    Or,
    PDDLGoalError,
    blake_canonical_form,
    clause_scores,
    format_dnf,
    format_goal,
    goals_equivalent,
    parse_goal,
    to_dnf,
)
from dsgqa.sldp import Score
from planeval.errors import FormulaError
from planeval.pddl import ForAll, TypedName

PROPERTY = settings(max_examples=150, deadline=None)


def lit(text: str) -> Literal:
    """``"a"`` -> the atom (a); ``"-a"`` -> its negation."""
    return Literal(Atom(text.lstrip("-"), ()), not text.startswith("-"))


def dnf(*clauses: str) -> frozenset[frozenset[Literal]]:
    """``dnf("a b", "-a c")`` is (or (and a b) (and (not a) c))."""
    return frozenset(frozenset(lit(word) for word in clause.split()) for clause in clauses)


# ----------------------------------------------------------------------------- parsing


def test_parses_connectives_atoms_and_lowercases_names() -> None:
    goal = parse_goal("(AND (Holding O19) (not (on a b)) (or) (imply (p) (q)))")
    assert goal == And(
        (
            Atom("holding", ("o19",)),
            Not(Atom("on", ("a", "b"))),
            Or(()),
            Imply(Atom("p", ()), Atom("q", ())),
        )
    )


def test_goal_wrapper_comments_and_bare_names() -> None:
    assert parse_goal("(:goal ; what we want\n (and A (b)))") == And((Atom("a", ()), Atom("b", ())))


def test_ground_equality_follows_unique_names() -> None:
    assert parse_goal("(= a A)") == Equals("a", "a")
    assert goals_equivalent("(= a A)", TRUE)
    assert goals_equivalent("(= a b)", FALSE)
    assert parse_goal("(= ?y ?x)") == Equals("?x", "?y")
    assert to_dnf("(= ?y ?x)") == frozenset({frozenset({Literal(Equals("?x", "?y"))})})


def test_format_goal_parses_back() -> None:
    goal = parse_goal("(and (on a b) (or (not (clear c)) (imply (p) (q))))")
    assert parse_goal(format_goal(goal)) == goal


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty goal"),
        ("(and (on a b)", "column 13: unexpected end of input"),
        ("(and (on a b)))", "column 15: unexpected ')'"),
        ("(not (a) (b))", "column 10"),
        ("(imply (a))", "column 11"),
        ("(on a (b))", "column 7"),
        ("(forall (?x) (p ?x))", "unsupported construct 'forall'"),
        ("(and (>= (fuel) 3))", "unexpected character '>'"),
    ],
)
def test_malformed_goals_get_a_one_line_error(text: str, message: str) -> None:
    with pytest.raises(PDDLGoalError, match=re.escape(message)) as caught:
        parse_goal(text)
    assert "\n" not in str(caught.value)


def test_parsed_quantifiers_are_refused_like_quantified_text() -> None:
    goal = ForAll((TypedName("?x"),), Atom("p", ("?x",)))
    with pytest.raises(PDDLGoalError, match="unsupported construct 'forall'"):
        clause_scores(goal, "(p a)")


def test_goal_errors_are_planeval_formula_errors() -> None:
    assert PDDLGoalError is FormulaError and issubclass(PDDLGoalError, ValueError)


def test_pathological_nesting_is_an_error() -> None:
    with pytest.raises(PDDLGoalError, match="nested deeper"):
        parse_goal("(not " * 200 + "(a)" + ")" * 200)


# ----------------------------------------------------------------------------- normal forms


def test_dnf_distributes_and_drops_contradictions_and_absorbed_clauses() -> None:
    assert to_dnf("(and (or a b) c)") == dnf("a c", "b c")
    assert to_dnf("(and a (not a))") == frozenset()  # false
    assert to_dnf("(or a (and a b))") == dnf("a")
    assert to_dnf("(imply a (and b c))") == dnf("-a", "b c")
    assert to_dnf("(not (or a (not b)))") == dnf("-a b")
    assert to_dnf("(and)") == dnf("")  # true: one empty clause


def test_blake_form_removes_redundant_splits() -> None:
    # A and (A and B) or (A and not B) are the same function, though their DNFs differ.
    assert blake_canonical_form("(or (and A B) (and A (not B)))") == dnf("a")


def test_blake_form_adds_the_consensus_clause() -> None:
    assert blake_canonical_form("(or (and x y) (and (not x) z))") == dnf("x y", "-x z", "y z")


def test_blake_form_is_the_same_for_rewritten_goals() -> None:
    forms = [
        "(imply a b)",
        "(or (not a) b)",
        "(not (and a (not b)))",
        "(or (not a) (and a b))",
    ]
    assert {blake_canonical_form(form) for form in forms} == {dnf("-a", "b")}


def test_format_dnf_reads_as_pddl() -> None:
    assert format_dnf(dnf("a", "-b c")) == "(or (a) (and (not (b)) (c)))"  # literals by atom
    assert format_dnf(frozenset()) == "(or)"
    assert format_dnf(dnf("")) == "(and)"


# ----------------------------------------------------------------------------- comparison


@pytest.mark.parametrize(
    ("a", "b", "equivalent"),
    [
        ("(holding o19)", "(HOLDING O19)", True),
        ("(and (on a b) (on b c))", "(and (on b c) (on a b))", True),
        ("A", "(or (and A B) (and A (not B)))", True),
        ("(imply a b)", "(or (not a) b)", True),
        ("(and (on a b) (= a a))", "(on a b)", True),
        ("(or a (not a))", "(and)", True),
        ("(and a (not a))", "(or)", True),
        ("(or a b)", "a", False),
        ("(on a b)", "(on b a)", False),
    ],
)
def test_goals_equivalent_is_exact(a: str, b: str, equivalent: bool) -> None:
    assert goals_equivalent(a, b) is equivalent
    assert goals_equivalent(b, a) is equivalent


def test_equivalence_beyond_truth_table_size_uses_blake_forms() -> None:
    atoms = [f"(p{i})" for i in range(30)]
    assert goals_equivalent(f"(and {' '.join(atoms)})", f"(and {' '.join(reversed(atoms))})")
    assert not goals_equivalent(f"(and {' '.join(atoms)})", f"(and {' '.join(atoms[1:])})")


def test_clause_scores_give_partial_credit() -> None:
    score = clause_scores("(or (holding O19) (holding O30))", "(holding O19)")
    assert (score.equal, score.precision, score.recall) == (False, 0.5, 1.0)
    assert score.f1 == pytest.approx(2 / 3)
    assert "(holding o30)" in score.reason
    missing = clause_scores("(holding o19)", "(or (holding o19) (holding o30))")
    assert (missing.precision, missing.recall) == (1.0, 0.5)


def test_clause_scores_are_full_for_equivalent_goals() -> None:
    score = clause_scores("A", "(or (and A B) (and A (not B)))")
    assert score == Score(True, 1.0, 1.0, 1.0, "equal")


def test_inputs_may_be_parsed_formulas() -> None:
    goal = parse_goal("(or (a) (b))")
    assert goals_equivalent(goal, "(or b a)")
    assert clause_scores(goal, Or((Atom("b", ()), Atom("a", ())))).equal


# ----------------------------------------------------------------------------- limits


def test_exponential_dnf_raises_instead_of_hanging() -> None:
    goal = "(and " + " ".join(f"(or (p{i}) (q{i}))" for i in range(12)) + ")"  # 4096 clauses
    started = time.perf_counter()
    with pytest.raises(PDDLGoalError, match=f"exceeds {MAX_CLAUSES} clauses"):
        blake_canonical_form(goal)
    with pytest.raises(PDDLGoalError, match="too large"):
        clause_scores(goal, "(p0)")
    assert time.perf_counter() - started < 5


def test_small_truth_tables_decide_what_blake_forms_cannot() -> None:
    goal = "(and " + " ".join(f"(or (p{i}) (q{i}))" for i in range(10)) + ")"  # 20 atoms
    assert goals_equivalent(goal, goal)


def test_too_many_atoms_raise() -> None:
    goal = "(and " + " ".join(f"(p{i})" for i in range(MAX_ATOMS + 1)) + ")"
    with pytest.raises(PDDLGoalError, match="distinct atoms"):
        goals_equivalent(goal, goal)


# ----------------------------------------------------------------------------- properties

_atoms = st.sampled_from([Atom(name, ()) for name in "abcd"])
_formulas = st.recursive(
    _atoms | st.sampled_from([TRUE, FALSE, Equals("a", "b"), Equals("?x", "?y")]),
    lambda inner: (
        st.builds(Not, inner)
        | st.lists(inner, max_size=3).map(lambda xs: And(tuple(xs)))
        | st.lists(inner, max_size=3).map(lambda xs: Or(tuple(xs)))
        | st.builds(Imply, inner, inner)
    ),
    max_leaves=8,
)


def _clause_formula(clause: frozenset[Literal]) -> And:
    return And(tuple(lit.atom if lit.positive else Not(lit.atom) for lit in clause))


@PROPERTY
@given(_formulas)
def test_dnf_and_blake_form_keep_the_meaning(goal: object) -> None:
    assert goals_equivalent(format_dnf(to_dnf(goal)), goal)
    assert goals_equivalent(format_dnf(blake_canonical_form(goal)), goal)


@PROPERTY
@given(_formulas)
def test_blake_clauses_are_prime_implicants(goal: object) -> None:
    for clause in blake_canonical_form(goal):
        assert goals_equivalent(Imply(_clause_formula(clause), goal), TRUE)
        for dropped in clause:  # no literal can go: the clause is prime
            shorter = _clause_formula(clause - {dropped})
            assert not goals_equivalent(Imply(shorter, goal), TRUE)


@PROPERTY
@given(_formulas, _formulas)
def test_blake_forms_are_equal_exactly_for_equivalent_goals(a: object, b: object) -> None:
    same_form = blake_canonical_form(a) == blake_canonical_form(b)
    assert same_form == goals_equivalent(a, b) == clause_scores(a, b).equal
