"""A small classical planner as a baseline: breadth-first or greedy best-first search.

Successors are generated lazily from the state, never by grounding the whole domain: for each
action schema the positive precondition atoms are matched against the facts of the state to
bind variables (a join), the remaining parameters range over objects of their type, and each
candidate goes through `Task.ground` (types, cache) and `applicable`. It is for small instances
only; a plan it returns is checked with the same simulator as any LLM plan.

Search is bounded three ways (`Limits`): expanded states, seconds and an estimate of the memory
its states and ground actions hold. On real IPC instances a node bound alone let one search run
19 s and hold 480 MB; a run over many instances must be able to trust each one to stop. The
search grounds into a private `Task`, so its caches go when it returns (the shared
`Task.of(problem)` would keep them alive as long as the problem).

Every algorithm has the same signature, `(task, budget) -> SearchResult`, and `ALGORITHMS`
maps names to them (pyperplan's pattern).
"""

from __future__ import annotations

import heapq
import sys
import time
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
    limit: str | None = None  # which bound stopped it: "nodes", "time" or "memory"
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds of one search; None means unbounded."""

    nodes: int = 10_000
    seconds: float | None = None
    memory_mb: float | None = None


# Rough bytes per stored state beyond the frozenset itself (its dict slot, parent link, heap
# entry) and per ground action in the task's cache; measured with tracemalloc on IPC domains.
_STATE_OVERHEAD = 240
_GROUND_ACTION_BYTES = 900
_CHECK_EVERY = 256   # candidates between clock and memory checks inside one expansion


class Budget:
    """The running search's use of its `Limits`: `exceeded()` names the first bound passed."""

    def __init__(self, limits: Limits, task: Task) -> None:
        self.limits, self.task = limits, task
        self.started = time.monotonic()
        self.expanded = 0
        self.states = 0
        self._state_bytes = sys.getsizeof(task.init) + _STATE_OVERHEAD
        self._ticks = 0

    def memory_mb(self) -> float:
        held = self.states * self._state_bytes + len(self.task._cache) * _GROUND_ACTION_BYTES
        return held / 2**20

    def exceeded(self) -> str | None:
        if self.expanded >= self.limits.nodes:
            return "nodes"
        return self._time_or_memory()

    def tick(self) -> str | None:
        """Called per candidate action inside an expansion (one state of a big instance can
        have millions): checks the clock and memory every `_CHECK_EVERY` calls."""
        self._ticks += 1
        return self._time_or_memory() if self._ticks % _CHECK_EVERY == 0 else None

    def _time_or_memory(self) -> str | None:
        seconds, memory = self.limits.seconds, self.limits.memory_mb
        if seconds is not None and time.monotonic() - self.started > seconds:
            return "time"
        if memory is not None and self.memory_mb() > memory:
            return "memory"
        return None

    def result(self, plan: list[str] | None, status: str, limit: str | None = None
               ) -> SearchResult:
        return SearchResult(plan, self.expanded, status, limit,
                            round(time.monotonic() - self.started, 3))


class _Stop(Exception):
    """A bound passed in the middle of an expansion."""

    def __init__(self, limit: str) -> None:
        self.limit = limit


def successors(task: Task, state: frozenset[Fact],
               budget: Budget | None = None) -> Iterator[GroundAction]:
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
                if budget is not None and (limit := budget.tick()):
                    raise _Stop(limit)
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


def breadth_first(task: Task, budget: Budget) -> SearchResult:
    """Shortest plan (in steps) if one exists within the limits."""
    return _search(task, budget, _Fifo())


def greedy_best_first(task: Task, budget: Budget) -> SearchResult:
    """Follows the goal-count heuristic; fast on easy instances, plans not shortest."""
    return _search(task, budget, _ByGoalDistance(task))


class _Fifo:
    """Breadth-first: states in the order they were found."""

    def __init__(self) -> None:
        self._queue: deque[frozenset[Fact]] = deque()

    def add(self, state: frozenset[Fact]) -> None:
        self._queue.append(state)

    def take(self) -> frozenset[Fact]:
        return self._queue.popleft()

    def __bool__(self) -> bool:
        return bool(self._queue)


class _ByGoalDistance:
    """Greedy best-first: the state with the fewest unmet goal facts, ties in the order found."""

    def __init__(self, task: Task) -> None:
        self._task, self._tie = task, count()
        self._heap: list[tuple[int, int, frozenset[Fact]]] = []

    def add(self, state: frozenset[Fact]) -> None:
        heapq.heappush(self._heap, (goal_distance(self._task, state), next(self._tie), state))

    def take(self) -> frozenset[Fact]:
        return heapq.heappop(self._heap)[2]

    def __bool__(self) -> bool:
        return bool(self._heap)


def _search(task: Task, budget: Budget, frontier: _Fifo | _ByGoalDistance) -> SearchResult:
    """The search both planners share; only the order of the frontier differs."""
    start = task.init
    parents: dict[frozenset[Fact], tuple[frozenset[Fact], GroundAction] | None] = {start: None}
    frontier.add(start)
    while frontier:
        state = frontier.take()
        if task.goal_holds(state):
            return budget.result(_extract(parents, state), "solved")
        if limit := budget.exceeded():
            return budget.result(None, "limit", limit)
        budget.expanded += 1
        try:
            for action in successors(task, state, budget):
                child = action.apply(state)
                if child not in parents:
                    parents[child] = (state, action)
                    frontier.add(child)
        except _Stop as stop:
            return budget.result(None, "limit", stop.limit)
        budget.states = len(parents)
    return budget.result(None, "unsolvable")


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


ALGORITHMS: dict[str, Callable[[Task, Budget], SearchResult]] = {
    "bfs": breadth_first,
    "greedy": greedy_best_first,
}


def plan_search(
    domain: Domain, problem: Problem, algorithm: str = "greedy", node_limit: int = 10_000,
    seconds: float | None = None, memory_mb: float | None = None,
) -> SearchResult:
    """Search for a plan with the named algorithm (`ALGORITHMS`) within the bounds: at most
    node_limit expanded states, `seconds` of time and about `memory_mb` held by the search."""
    if problem.domain is not domain and problem.domain.name != domain.name:
        raise ValueError(f"problem '{problem.name}' is not a problem of '{domain.name}'")
    try:
        search = ALGORITHMS[algorithm]
    except KeyError:
        raise ValueError(
            f"unknown search algorithm {algorithm!r} (use {sorted(ALGORITHMS)})"
        ) from None
    task = Task(problem)   # private: its ground-action cache goes with the search
    return search(task, Budget(Limits(node_limit, seconds, memory_mb), task))
