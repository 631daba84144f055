"""`python -m tests.independent_check QUESTIONS.yaml SCENE_GRAPH.json`: the per-category tally,
then every disagreement, unparsed and ambiguous question. Exit status 1 when any question
disagrees or is unparsed."""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from tests.independent_check.check import VERDICTS, Verdict, check_set, tally


def _table(verdicts: list[Verdict]) -> list[str]:
    counts = tally(verdicts)
    rows = [*counts.items(), ("all", Counter(v.verdict for v in verdicts))]
    width = max(len(name) for name, _ in [("category", None), *rows])
    lines = [f"{'category':<{width}}  " + "  ".join(f"{v:>9}" for v in VERDICTS)]
    for category, row in rows:
        lines.append(f"{category:<{width}}  " + "  ".join(f"{row.get(v, 0):>9}" for v in VERDICTS))
    return lines


def _listing(verdicts: list[Verdict], which: str) -> list[str]:
    lines = []
    for v in verdicts:
        if v.verdict == which:
            lines += [f"{v.uid}: {v.question}", f"    gold:        {v.gold}",
                      f"    independent: {v.answer if v.answer is not None else '-'}"]
            if v.note:
                lines.append(f"    note:        {v.note}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.independent_check",
        description="Answer each question from its text and the scene-graph JSON alone, and "
                    "compare with the gold solution.")
    parser.add_argument("questions", help="question set (YAML)")
    parser.add_argument("scene_graph", help="spark_dsg scene graph (JSON)")
    args = parser.parse_args(argv)
    verdicts = check_set(args.questions, args.scene_graph)
    out = _table(verdicts)
    for which in ("disagree", "unparsed", "ambiguous"):
        listed = _listing(verdicts, which)
        if listed:
            out += ["", f"{which}:", *listed]
    print("\n".join(out))
    return 1 if any(v.verdict in ("disagree", "unparsed") for v in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
