"""PDDL parsing: every domain and problem of the real data, the PDDL features, and the errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from planeval.errors import PlanevalError
from planeval.parser import parse_domain, parse_problem
from planeval.pddl import OBJECT, And, Atom, Equals, Exists, ForAll, Imply, Not, Or
from tests import external

DATA = external.path(external.PLANNING)
DOMAINS = external.planning_domains()
needs_data = external.needs(external.PLANNING)

BLOCKS = """
(define (domain Blocks)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block) (ontable ?x - block) (clear ?x - block)
               (handempty) (holding ?x - block))
  (:action pick-up
    :parameters (?x - block)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
  (:action STACK
    :parameters (?x - block ?y - block)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y))))
"""


@needs_data
@pytest.mark.parametrize("domain_name", DOMAINS)
def test_every_domain_and_problem_of_the_data_parses(domain_name: str) -> None:
    domain = parse_domain(DATA / domain_name / "domain.pddl")
    assert domain.actions, "a domain without actions"
    problems = sorted((DATA / domain_name / "adapted_instances").glob("*.pddl"))
    assert problems
    for path in problems:
        problem = parse_problem(path, domain)
        assert problem.init and problem.objects
        assert problem.domain is domain


def test_names_are_case_insensitive() -> None:
    domain = parse_domain(BLOCKS)
    assert domain.name == "blocks"
    assert set(domain.actions) == {"pick-up", "stack"}
    problem = parse_problem(
        "(define (problem P) (:domain BLOCKS) (:objects A B - Block)"
        " (:init (ONTABLE a) (ontable b) (clear A) (clear b) (HandEmpty)) (:goal (On a b)))",
        domain,
    )
    assert ("ontable", "a") in problem.init and ("handempty",) in problem.init
    assert problem.goal == Atom("on", ("a", "b"))


def test_types_constants_and_a_declared_object_type() -> None:
    domain = parse_domain(
        """(define (domain t) (:requirements :typing)
        (:types object room - object box ball - thing thing)
        (:constants kitchen - room)
        (:predicates (in ?x - thing ?r - room))
        (:action move :parameters (?x - (either box ball) ?r - room)
          :precondition (not (in ?x ?r)) :effect (in ?x ?r)))"""
    )
    assert domain.types["box"] == ("thing",)
    assert domain.ancestors("box") == {"box", "thing", OBJECT}
    assert domain.constants == {"kitchen": ("room",)}
    assert domain.actions["move"].parameters[0].types == ("box", "ball")
    assert OBJECT not in domain.types  # declaring `object` itself is allowed and a no-op


def test_adl_formulas_are_kept_as_trees() -> None:
    domain = parse_domain(
        """(define (domain adl) (:requirements :adl)
        (:predicates (p ?x) (q ?x) (r))
        (:action a :parameters (?x ?y)
          :precondition (and (or (p ?x) (q ?x)) (imply (r) (p ?y))
                             (exists (?z) (q ?z)) (forall (?z) (not (= ?z ?x)))
                             (not (= ?x ?y)))
          :effect (and (when (p ?x) (q ?y)) (forall (?z) (not (p ?z)))
                       (increase (total-cost) 1))))"""
    )
    action = domain.actions["a"]
    parts = action.precondition.parts
    assert isinstance(action.precondition, And)
    assert [type(p) for p in parts] == [Or, Imply, Exists, ForAll, Not]
    assert parts[4] == Not(Equals("?x", "?y"))
    conditional, universal = action.effects  # the cost effect is dropped
    assert conditional.condition == Atom("p", ("?x",)) and conditional.positive
    assert universal.variables[0].name == "?z" and not universal.positive


def test_action_costs_functions_and_metric_are_ignored() -> None:
    domain = parse_domain(
        """(define (domain c) (:requirements :strips :action-costs)
        (:predicates (done)) (:functions (total-cost) - number)
        (:action finish :parameters () :precondition ()
          :effect (and (done) (increase (total-cost) 2))))"""
    )
    problem = parse_problem(
        "(define (problem c1) (:domain c) (:init (= (total-cost) 0)) (:goal (done))"
        " (:metric minimize (total-cost)))",
        domain,
    )
    assert problem.init == frozenset()
    assert domain.actions["finish"].precondition == And(())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "(define (domain d) (:requirements :strips :durative-actions :fluents))",
            "unsupported requirements :durative-actions :fluents",
        ),
        (
            "(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) :effect (q ?x)))",
            "<domain>: line 1, column 78: undeclared predicate 'q'",
        ),
        (
            "(define (domain d) (:predicates (p ?x))"
            " (:action a :parameters (?x) :effect (p ?x ?x)))",
            "predicate 'p' takes 1 argument(s), got 2",
        ),
        (
            "(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) :effect (p ?y)))",
            "action 'a' uses undeclared variable '?y'",
        ),
        ("(define (domain d) (:predicates (p ?x - thing)))", "unknown type 'thing'"),
        (
            "(define (domain d)\n (:predicates (p ?x))\n"
            " (:action a :parameters (?x) :effect (p ?x))",
            "<domain>: line 3, column 44: unexpected end of file",
        ),
        (
            "(define (domain d)\n  (:predicates (p ?x)\n  (:action",
            "<domain>: line 3, column 4: unexpected ':action'",
        ),
    ],
)
def test_bad_domains_give_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(PlanevalError) as error:
        parse_domain(text)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "(define (problem p) (:domain other) (:objects a - block) (:init) (:goal (clear a)))",
            "problem is for domain 'other' but the domain is 'blocks'",
        ),
        (
            "(define (problem p) (:domain blocks) (:objects a - block) (:init (clear z))"
            " (:goal (clear a)))",
            "names unknown object 'z'",
        ),
        (
            "(define (problem p) (:domain blocks) (:objects a - crate) (:init) (:goal (clear a)))",
            "unknown type 'crate'",
        ),
        (
            "(define (problem p) (:domain blocks) (:objects a - block) (:init) (:goal (clear q)))",
            "goal names unknown object 'q'",
        ),
        (
            "(define (problem p) (:domain blocks) (:objects a - block) (:init))",
            "problem has no :goal",
        ),
    ],
)
def test_bad_problems_give_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(PlanevalError, match=r"^<problem>") as error:
        parse_problem(text, parse_domain(BLOCKS))
    assert message in str(error.value)


def test_paths_and_missing_files(tmp_path: Path) -> None:
    path = tmp_path / "blocks.pddl"
    path.write_text(BLOCKS)
    assert parse_domain(path).source == str(path)
    assert parse_domain(str(path)).name == "blocks"
    with pytest.raises(PlanevalError, match=r"nowhere\.pddl: cannot read domain file"):
        parse_domain(tmp_path / "nowhere.pddl")
    with pytest.raises(PlanevalError, match="expected \\(define \\(domain"):
        parse_domain("(define (problem p) (:domain blocks) (:goal (and)))")
