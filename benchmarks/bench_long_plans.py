"""Time to score a long hostile reply (a failing step followed by N steps that each provide the
missing fact but belong nowhere in the gold plan: the worst case of the gold classification's
"achieved later" rule), with the step cap as shipped and with it lifted, so the scoring itself
is seen to be linear.

Usage: python benchmarks/bench_long_plans.py [N ...]   (default: 16000 200000)
Measured here (2 cores): before the fix 16,000 steps 50 s; after it 0.2 s uncapped (200,000:
2.9 s), 0.1 s / 0.3 s with the 10,000-step cap.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import planeval.plan_text as plan_text
from planeval.dataset import PlanningData
from planeval.evaluation import GenerationRecord, evaluate_record

DATA = Path(__file__).resolve().parents[1] / "questions" / "planning"


def score_seconds(data: PlanningData, steps: int) -> tuple[float, str]:
    reply = ("(move kitchen office)\n(drop ball1 office left)\n"
             + "(pick ball1 office left)\n" * steps)
    record = GenerationRecord.model_validate({
        "domain": "gripper", "instance": "instance-1", "model": "m",
        "approach": "non-incremental", "attempts": [{"raw_reply": reply}]})
    started = time.perf_counter()
    row = evaluate_record(record, data)
    return time.perf_counter() - started, f"{row['failure_kind']}/{row['gold_class']}"


def main(sizes: list[int]) -> None:
    data = PlanningData(DATA)
    capped = plan_text.MAX_PLAN_STEPS
    for steps in sizes:
        seconds, verdict = score_seconds(data, steps)
        plan_text.MAX_PLAN_STEPS = 10**9
        try:
            uncapped, _ = score_seconds(data, steps)
        finally:
            plan_text.MAX_PLAN_STEPS = capped
        print(f"{steps:>8,} steps: {seconds:6.2f} s with the {capped:,}-step cap, "
              f"{uncapped:6.2f} s without ({verdict})")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [16_000, 200_000])
