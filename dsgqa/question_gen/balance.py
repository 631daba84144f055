"""Pick a category's questions from those that passed the check, balanced across tiers.

The tiers take turns (1, 2, 3, 1, ...), each giving its next candidate in the order the
candidates passed (which already alternates templates), until the category is full; a tier with
nothing left drops out of the turns. So a category holds as many questions of each tier as its
candidates allow, and the set as a whole is as balanced as its categories are.

The rules of `generate.py` hold on the way: a candidate whose fact an earlier question asks is a
duplicate, and a degenerate answer beyond the category's cap is dropped.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from dsgqa.question_gen.candidate import Candidate
from dsgqa.question_gen.difficulty import TIERS


@dataclass(frozen=True)
class Passed:
    """A candidate that passed the check; `trivial` says why its answer is degenerate ('')."""

    candidate: Candidate
    trivial: str = ""


@dataclass
class Selection:
    """The chosen candidates (in the order they passed) and the ones dropped while choosing."""

    chosen: list[Passed] = field(default_factory=list)
    duplicates: list[Passed] = field(default_factory=list)
    degenerate: list[Passed] = field(default_factory=list)


def balanced(passed: list[Passed], quota: int, cap: int, asked: set[tuple[str, ...]]) -> Selection:
    """Up to `quota` of `passed`, tiers taking turns; `asked` (the fact keys of the set so far)
    gains the chosen ones' facts. Candidates left over whose fact a chosen one asks are counted
    as duplicates; the rest passed but were not needed."""
    queues = {tier: deque(p for p in passed if p.candidate.tier == tier) for tier in TIERS}
    unknown = [p.candidate.name for p in passed if p.candidate.tier not in TIERS]
    if unknown:
        raise ValueError(f"tiers outside {TIERS}: {', '.join(unknown)}")
    selection = Selection()
    trivial = 0
    while len(selection.chosen) < quota and any(queues.values()):
        for tier in TIERS:
            queue = queues[tier]
            while queue and len(selection.chosen) < quota:
                candidate = queue.popleft()
                if candidate.candidate.fact_key() in asked:
                    selection.duplicates.append(candidate)
                elif candidate.trivial and trivial >= cap:
                    selection.degenerate.append(candidate)
                else:
                    selection.chosen.append(candidate)
                    asked.add(candidate.candidate.fact_key())
                    trivial += bool(candidate.trivial)
                    break
    selection.duplicates += [p for queue in queues.values() for p in queue
                             if p.candidate.fact_key() in asked]
    order = {id(p): i for i, p in enumerate(passed)}
    selection.chosen.sort(key=lambda p: order[id(p)])
    return selection
