"""Where planning data lives on disk, and a cache so each file is parsed once.

The layout is AutoPlanBench's (and that of ../shared/data/planning):

    <root>/<domain>/domain.pddl
    <root>/<domain>/adapted_instances/<instance>.pddl
    <root>/<domain>/adapted_gold_plans/<instance>_gold_plan.txt     (optional per instance)

`root` may also be a single domain folder (one holding domain.pddl); its name is the domain.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from planeval.errors import PlanevalError
from planeval.parser import parse_domain, parse_problem
from planeval.pddl import Domain, Problem

INSTANCES = "adapted_instances"
GOLD_PLANS = "adapted_gold_plans"
GOLD_SUFFIX = "_gold_plan.txt"


class PlanningData:
    """Domains, problems and gold plans under one root, parsed lazily and cached."""

    def __init__(
        self, root: str | Path, fallback_gold: Mapping[tuple[str, str], str] | None = None
    ) -> None:
        """`fallback_gold` supplies gold plans, by (domain, instance), for instances the data
        has none for (e.g. found by a classical planner during the run)."""
        self.root = Path(root)
        self.fallback_gold = dict(fallback_gold or {})
        if not self.root.is_dir():
            raise PlanevalError(f"{self.root}: not a directory")
        self._domains: dict[str, Domain] = {}
        self._problems: dict[tuple[str, str], Problem] = {}

    def domain_dir(self, domain: str) -> Path:
        if (self.root / "domain.pddl").is_file() and domain == self.root.name:
            return self.root
        return self.root / domain

    def domain_names(self) -> list[str]:
        if (self.root / "domain.pddl").is_file():
            return [self.root.name]
        return sorted(p.name for p in self.root.iterdir() if (p / "domain.pddl").is_file())

    def instance_names(self, domain: str) -> list[str]:
        folder = self.domain_dir(domain) / INSTANCES
        return sorted((p.stem for p in folder.glob("*.pddl")), key=_natural)

    def domain(self, name: str) -> Domain:
        found = self._domains.get(name)
        if found is None:
            path = self.domain_dir(name) / "domain.pddl"
            if not path.is_file():
                raise PlanevalError(f"{path}: no such domain file (domain '{name}')")
            found = self._domains[name] = parse_domain(path)
        return found

    def problem(self, domain: str, instance: str) -> Problem:
        key = (domain, instance)
        found = self._problems.get(key)
        if found is None:
            path = self.domain_dir(domain) / INSTANCES / f"{instance}.pddl"
            if not path.is_file():
                raise PlanevalError(f"{path}: no such problem file (instance '{instance}')")
            found = self._problems[key] = parse_problem(path, self.domain(domain))
        return found

    def gold_plan(self, domain: str, instance: str) -> str | None:
        path = self.domain_dir(domain) / GOLD_PLANS / f"{instance}{GOLD_SUFFIX}"
        if path.is_file():
            return path.read_text(encoding="utf-8")
        return self.fallback_gold.get((domain, instance))


def _natural(name: str) -> tuple[str, int]:
    """instance-2 before instance-10."""
    stem, _, number = name.rpartition("-")
    return (stem, int(number)) if number.isdigit() else (name, -1)
