"""The baseline planner: lazily generated successors, breadth-first and greedy best-first."""

from __future__ import annotations

import pytest

from planeval.diagnosis import validate_plan
from planeval.grounding import Task
from planeval.parser import parse_domain, parse_problem
from planeval.search import ALGORITHMS, plan_search, successors
from tests import external

DATA = external.path(external.PLANNING)

BLOCKS = """(define (domain blocks) (:requirements :strips)
  (:predicates (on ?x ?y) (ontable ?x) (clear ?x) (handempty) (holding ?x))
  (:action pick-up :parameters (?x)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
  (:action put-down :parameters (?x) :precondition (holding ?x)
    :effect (and (not (holding ?x)) (clear ?x) (handempty) (ontable ?x)))
  (:action stack :parameters (?x ?y)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y)))
  (:action unstack :parameters (?x ?y)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y) (not (clear ?x)) (not (handempty)) (not (on ?x ?y)))))"""
# c is on a; the goal tower is a on b on c: 6 steps at least
TOWER = """(define (problem tower) (:domain blocks) (:objects a b c)
  (:init (on c a) (ontable a) (ontable b) (clear c) (clear b) (handempty))
  (:goal (and (on a b) (on b c))))"""


@pytest.fixture
def tower():  # type: ignore[no-untyped-def]
    domain = parse_domain(BLOCKS)
    return domain, parse_problem(TOWER, domain)


def test_successors_are_exactly_the_applicable_actions(tower) -> None:  # type: ignore[no-untyped-def]
    _domain, problem = tower
    names = sorted(a.pddl for a in successors(Task.of(problem), problem.init))
    assert names == ["(pick-up b)", "(unstack c a)"]


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_found_plans_are_valid(tower, algorithm: str) -> None:  # type: ignore[no-untyped-def]
    domain, problem = tower
    result = plan_search(domain, problem, algorithm)
    assert result.status == "solved" and result.plan is not None
    assert validate_plan(domain, problem, "\n".join(result.plan)).valid
    if algorithm == "bfs":
        assert len(result.plan) == 6


def test_node_limit_and_unsolvable(tower) -> None:  # type: ignore[no-untyped-def]
    domain, problem = tower
    assert plan_search(domain, problem, "bfs", node_limit=3).status == "limit"
    impossible = parse_problem(
        "(define (problem no) (:domain blocks) (:objects a) (:init (ontable a) (clear a))"
        " (:goal (holding a)))",
        domain,
    )
    result = plan_search(domain, impossible, "bfs")
    assert (result.status, result.plan) == ("unsolvable", None)
    with pytest.raises(ValueError, match="unknown search algorithm"):
        plan_search(domain, problem, "astar")


@external.needs(external.PLANNING)
def test_a_small_real_instance_with_constants_and_types() -> None:
    domain = parse_domain(DATA / "woodworking08" / "domain.pddl")
    problem = parse_problem(
        DATA / "woodworking08" / "adapted_instances" / "instance-0.pddl", domain
    )
    result = plan_search(domain, problem, "greedy", node_limit=2000)
    assert result.status == "solved"
    assert validate_plan(domain, problem, "\n".join(result.plan or [])).valid


def _grid(size: int) -> str:
    """A visit-all-style problem whose state space grows fast with `size` (no plan is needed:
    the goal is unreachable, so the search runs until a bound stops it)."""
    cells = " ".join(f"c{i}" for i in range(size))
    links = " ".join(f"(next c{i} c{j})" for i in range(size) for j in range(size) if i != j)
    return f"""(define (problem grid) (:domain walk) (:objects {cells} sink)
      (:init (at c0) {links}) (:goal (at sink)))"""


WALK = """(define (domain walk) (:requirements :strips)
  (:predicates (at ?x) (next ?x ?y) (seen ?x))
  (:action move :parameters (?x ?y) :precondition (and (at ?x) (next ?x ?y))
    :effect (and (not (at ?x)) (at ?y) (seen ?y))))"""


@pytest.mark.parametrize(("bound", "kwargs"), [
    ("nodes", {"node_limit": 50}),
    ("time", {"node_limit": 10**9, "seconds": 0.2}),
    ("memory", {"node_limit": 10**9, "memory_mb": 1}),
])
def test_each_bound_stops_the_search_and_says_which(bound: str, kwargs: dict) -> None:
    domain = parse_domain(WALK)
    problem = parse_problem(_grid(14), domain)
    result = plan_search(domain, problem, "greedy", **kwargs)
    assert (result.status, result.limit, result.plan) == ("limit", bound, None)
    assert result.seconds < 5


def test_the_search_leaves_no_cache_on_the_problem(tower) -> None:  # type: ignore[no-untyped-def]
    """The shared Task of a problem (kept on the problem object for as long as the run holds
    the problem) must not carry the search's ground actions."""
    domain, problem = tower
    plan_search(domain, problem, "greedy")
    assert "_planeval_task" not in vars(problem)
