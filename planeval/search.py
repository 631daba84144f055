"""A small classical planner as a baseline: breadth-first or greedy best-first search.

Successors are generated lazily from the state, never by grounding the whole domain: for each
action schema the positive precondition atoms are matched against the facts of the state to
bind variables (a join), the remaining parameters range over objects of their type, and each
candidate goes through `Task.ground` (types, cache) and `applicable`. Search stops after
`node_limit` expanded states, so it is for small instances only; a plan it returns is checked
with the same simulator as any LLM plan.

Every algorithm has the same signature, `(task, node_limit) -> SearchResult`, and `ALGORITHMS`
maps names to them (pyperplan's pattern).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count, product

from planeval.goals import goal_clauses
from planeval.grounding import GroundAction, Task
from planeval.pddl import Action, And, Atom, Domain, Fact, Formula, Problem


@dataclass(frozen=True, slots=True)
class SearchResult:
    """`plan` is a list of `(name args)` strings, or None when no plan was found in the limit."""

    plan: list[str] | None
    expanded: int
    status: str  # "solved", "unsolvable" (space exhausted) or "limit"


def successors(task: Task, state: frozenset[Fact]) -> Iterator[GroundAction]:
    """Every ground action applicable in `state`, each once, in the order of their PDDL text.

    The order is explicit because the search's tie-breaking follows it: generated from the
    state, a frozenset of strings, it would follow string hashing, which differs per process
    (`PYTHONHASHSEED`), and the same instance would get a different plan in another run."""
    by_predicate: dict[str, list[Fact]] = {}
    for fact in state:
        by_predicate.setdefault(fact[0], []).append(fact)
    found: dict[str, GroundAction] = {}
    for schema in task.domain.actions.values():
        for binding in _bindings(schema, _positive_atoms(schema.precondition), by_predicate, {}):
            rest = [p for p in schema.parameters if p.name not in binding]
            choices = [task.objects_of_type(p.types) for p in rest]
            for values in product(*choices):
                full = {**binding, **{p.name: v for p, v in zip(rest, values, strict=True)}}
                args = tuple(full[p.name] for p in schema.parameters)
                ground = task.ground(schema.name, args)
                if isinstance(ground, GroundAction) and ground.applicable(state):
                    found.setdefault(ground.pddl, ground)
    for text in sorted(found):
        yield found[text]


def _positive_atoms(formula: Formula) -> list[Atom]:
    if isinstance(formula, Atom):
        return [formula]
    if isinstance(formula, And):
        return [a for part in formula.parts for a in _positive_atoms(part)]
    return []


def _bindings(
    schema: Action, atoms: list[Atom], facts: dict[str, list[Fact]], binding: dict[str, str]
) -> Iterator[dict[str, str]]:
    """Assignments of parameters that make all `atoms` true in the state (a nested-loop join)."""
    if not atoms:
        yield binding
        return
    atom, rest = atoms[0], atoms[1:]
    for fact in facts.get(atom.predicate, ()):
        extended = dict(binding)
        for term, value in zip(atom.terms, fact[1:], strict=True):
            if term.startswith("?"):
                if extended.setdefault(term, value) != value:
                    break
            elif term != value:
                break
        else:
            yield from _bindings(schema, rest, facts, extended)


def goal_distance(task: Task, state: frozenset[Fact]) -> int:
    """Goal-count heuristic: fewest false literals over the goal's DNF clauses."""
    clauses = goal_clauses(task)
    if clauses is None:
        return 0 if task.goal_holds(state) else 1
    return min(
        (sum((fact in state) != positive for fact, positive in clause) for clause in clauses),
        default=0,
    )


def breadth_first(task: Task, node_limit: int) -> SearchResult:
    """Shortest plan (in steps) if one exists within the limit."""
    start = task.init
    parents: dict[frozenset[Fact], tuple[frozenset[Fact], GroundAction] | None] = {start: None}
    queue = deque([start])
    expanded = 0
    while queue:
        state = queue.popleft()
        if task.goal_holds(state):
            return SearchResult(_extract(parents, state), expanded, "solved")
        if expanded >= node_limit:
            return SearchResult(None, expanded, "limit")
        expanded += 1
        for action in successors(task, state):
            child = action.apply(state)
            if child not in parents:
                parents[child] = (state, action)
                queue.append(child)
    return SearchResult(None, expanded, "unsolvable")


def greedy_best_first(task: Task, node_limit: int) -> SearchResult:
    """Follows the goal-count heuristic; fast on easy instances, plans not shortest."""
    start = task.init
    parents: dict[frozenset[Fact], tuple[frozenset[Fact], GroundAction] | None] = {start: None}
    tie = count()
    frontier = [(goal_distance(task, start), next(tie), start)]
    expanded = 0
    while frontier:
        _h, _t, state = heapq.heappop(frontier)
        if task.goal_holds(state):
            return SearchResult(_extract(parents, state), expanded, "solved")
        if expanded >= node_limit:
            return SearchResult(None, expanded, "limit")
        expanded += 1
        for action in successors(task, state):
            child = action.apply(state)
            if child not in parents:
                parents[child] = (state, action)
                heapq.heappush(frontier, (goal_distance(task, child), next(tie), child))
    return SearchResult(None, expanded, "unsolvable")


def _extract(
    parents: dict[frozenset[Fact], tuple[frozenset[Fact], GroundAction] | None],
    state: frozenset[Fact],
) -> list[str]:
    plan: list[str] = []
    link = parents[state]
    while link is not None:
        state, action = link
        plan.append(action.pddl)
        link = parents[state]
    return plan[::-1]


ALGORITHMS: dict[str, Callable[[Task, int], SearchResult]] = {
    "bfs": breadth_first,
    "greedy": greedy_best_first,
}


def plan_search(
    domain: Domain, problem: Problem, algorithm: str = "greedy", node_limit: int = 10_000
) -> SearchResult:
    """Search for a plan with the named algorithm (`ALGORITHMS`), expanding at most node_limit."""
    if problem.domain is not domain and problem.domain.name != domain.name:
        raise ValueError(f"problem '{problem.name}' is not a problem of '{domain.name}'")
    try:
        search = ALGORITHMS[algorithm]
    except KeyError:
        raise ValueError(
            f"unknown search algorithm {algorithm!r} (use {sorted(ALGORITHMS)})"
        ) from None
    return search(Task.of(problem), node_limit)
