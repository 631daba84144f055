"""What a generation produced and dropped, per category and reason, printed for the lab."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from dsgqa.question_gen.baseline_scores import ModelScore
from dsgqa.question_gen.difficulty import TIERS


def shared_share(texts: Iterable[str], others: Iterable[str]) -> float:
    """The share of `texts` that `others` also asks, word for word: how little a new seed
    changes a set (1.0: the same questions, 0.0: none in common)."""
    mine, theirs = set(texts), set(others)
    return len(mine & theirs) / len(mine) if mine else 1.0


@dataclass
class Report:
    """Counts of one generation; `drops` maps (category, reason) to a count."""

    fingerprint: str
    source: str
    seed: int
    per_category: int
    proposed: Counter = field(default_factory=Counter)    # category -> candidates proposed
    examined: Counter = field(default_factory=Counter)    # category -> candidates checked
    # (every proposed candidate is checked; `kept` is capped at `per_category`)
    kept: Counter = field(default_factory=Counter)        # category -> questions written
    templates: Counter = field(default_factory=Counter)   # template -> questions written
    drops: Counter = field(default_factory=Counter)       # (category, reason) -> count
    examples: dict[str, str] = field(default_factory=dict)  # reason -> one example detail
    degenerate: Counter = field(default_factory=Counter)  # category -> degenerate answers kept
    degenerate_cap: int = 0                               # the most a category may keep
    facts: int = 0                                        # distinct facts the questions ask
    tiers: Counter = field(default_factory=Counter)      # (category, tier) -> questions written
    available: Counter = field(default_factory=Counter)  # (category, tier) -> candidates passed
    scores: list[ModelScore] = field(default_factory=list)  # oracle, then each baseline
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.kept.values())

    def drop_totals(self) -> Counter:
        totals: Counter = Counter()
        for (_, reason), n in self.drops.items():
            totals[reason] += n
        return totals

    def shortfalls(self) -> dict[str, int]:
        """Categories that could not fill `per_category` questions on this graph."""
        return {c: self.per_category - n for c, n in self.kept.items() if n < self.per_category}

    def passed(self, category: str) -> int:
        """Candidates of a category that passed the check (kept or beyond the quota)."""
        dropped = sum(n for (c, _), n in self.drops.items() if c == category)
        return self.examined[category] - dropped

    def tier_counts(self, category: str | None = None) -> dict[int, int]:
        """Questions written per tier, in one category or the whole set."""
        return {t: sum(n for (c, tier), n in self.tiers.items()
                       if tier == t and category in (None, c)) for t in TIERS}

    def tier_lines(self) -> list[str]:
        """Questions per category and tier: written / passed the check."""
        lines = [f"{'tiers':<14} " + " ".join(f"{'tier ' + str(t):>9}" for t in TIERS)
                 + "  (written / passed)"]
        for category in self.kept:
            lines.append(f"{category:<14} " + " ".join(
                f"{f'{self.tiers[(category, t)]}/{self.available[(category, t)]}':>9}"
                for t in TIERS))
        lines.append(f"{'all':<14} " + " ".join(f"{n:>9}" for n in self.tier_counts().values()))
        return lines

    def score_lines(self) -> list[str]:
        """Right answers of the oracle and each trivial baseline, overall and per tier."""
        if not self.scores:
            return []
        lines = [f"{'baselines':<14} {'all':>13} " + " ".join(f"{'tier ' + str(t):>13}"
                                                             for t in TIERS)]
        for score in self.scores:
            cells = [_share(*score.counts(t)) for t in (None, *TIERS)]
            lines.append(f"{score.model:<14} " + " ".join(f"{c:>13}" for c in cells))
        lines.append("baselines: right answers by the benchmark's scorer, each answering every "
                     "question with 0, nothing, the IDs it names, or the most common class")
        return lines

    def text(self) -> str:
        lines = [f"scene graph {self.source} (fingerprint {self.fingerprint[:16]})",
                 f"seed {self.seed}, {self.per_category} per category: {self.total} questions "
                 f"in {self.seconds:.1f} s, {self.facts} distinct facts",
                 f"{'category':<14} {'kept':>5} {'trivial':>7} {'passed':>7} {'checked':>8}"
                 "  dropped"]
        for category in self.kept:
            dropped = ", ".join(f"{r} {n}" for (c, r), n in sorted(self.drops.items())
                                if c == category) or "-"
            lines.append(f"{category:<14} {self.kept[category]:>5} "
                         f"{self.degenerate[category]:>7} {self.passed(category):>7} "
                         f"{self.examined[category]:>8}  {dropped}")
        lines.append(f"trivial: kept answers that are degenerate (0, empty, every other node), "
                     f"at most {self.degenerate_cap} per category")
        totals = self.drop_totals()
        lines.append("dropped: " + (", ".join(f"{r} {n}" for r, n in sorted(totals.items()))
                                    or "none"))
        for reason, detail in sorted(self.examples.items()):
            lines.append(f"  e.g. {reason}: {detail[:160]}")
        for category, missing in self.shortfalls().items():
            lines.append(f"short: {category} has {missing} fewer than asked (graph too small)")
        return "\n".join(lines + self.tier_lines() + self.score_lines())


def _share(right: int, asked: int) -> str:
    return f"{right}/{asked} {right / asked:.1%}" if asked else "-"
