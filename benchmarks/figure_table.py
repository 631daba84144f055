"""A benchmark's figures as one plain table: what was measured, its target, PASS or MISS.

Figures without a target (context such as a stage's time) print "-" in both columns.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    name: str
    value: str
    target: str = "-"
    passed: bool | None = None

    @property
    def verdict(self) -> str:
        return "-" if self.passed is None else "PASS" if self.passed else "MISS"


def figure_table(figures: list[Figure]) -> str:
    header = ("figure", "value", "target", "")
    rows = [header, *((f.name, f.value, f.target, f.verdict) for f in figures)]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = []
    for row in rows:
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False))
                     + "  " + row[3])
        if row is header:
            lines.append("  ".join("-" * w for w in widths) + "  ----")
    return "\n".join(line.rstrip() for line in lines)
