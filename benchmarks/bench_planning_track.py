"""Planning track figures: the demo planning track's wall time fresh vs cached, and evaluation
throughput (re-simulating logged plans).

    .venv/bin/python benchmarks/bench_planning_track.py

- planning track: the `nlp-dsg-benchmark` flow with only the planning track of the demo
  (scripted model with known mistakes + planner baseline, 9 instances), fresh then cached,
  inside one Prefect test API (its start-up is not counted).
- evaluation: every gold plan of ../shared/data/planning logged as a model reply (plus one
  mutated copy per plan), then `planeval.evaluate_logs` over the whole log folder.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchcore import external_data  # noqa: E402

SHARED_PLANNING = external_data.path_or_fetched(external_data.PLANNING)


def planning_track_times(folder: Path) -> tuple[float, float]:
    from prefect.testing.utilities import prefect_test_harness

    from benchcore.llm.base import ModelConfig
    from benchcore.run_config import BenchmarkConfig, PlanningConfig
    from flows.benchmark import nlp_dsg_benchmark

    demo = ROOT / "questions/planning"
    scripted = ModelConfig(name="replies", provider="scripted",
                           script=str(demo / "scripted_replies.yaml"))
    config = BenchmarkConfig(results_dir=str(folder / "results"), cache_dir=str(folder / "cache"),
                             models=[scripted], planning=PlanningConfig(data_dir=str(demo)))
    from nlp_dsg_benchmark.environment import heartbeats_off_for_temporary_api

    # As the CLI runs against a temporary API (heartbeats cost up to 1 s per flow run there).
    with prefect_test_harness(server_startup_timeout=120), \
            heartbeats_off_for_temporary_api(temporary=True):
        started = time.perf_counter()
        nlp_dsg_benchmark(config)
        fresh = time.perf_counter() - started
        started = time.perf_counter()
        summary = nlp_dsg_benchmark(config)
        cached = time.perf_counter() - started
    assert summary.llm_calls()["fresh"] == 0
    return fresh, cached


def evaluation_throughput(folder: Path) -> tuple[int, float]:
    from planeval import PlanningData, evaluate_logs
    from plangen.logs import write_generation_logs

    data = PlanningData(SHARED_PLANNING)
    records = []
    for domain in data.domain_names():
        for instance in data.instance_names(domain):
            gold = data.gold_plan(domain, instance)
            if not gold:
                continue
            lines = [line for line in gold.splitlines() if line.strip()]
            for experiment, plan in (("gold", lines), ("swapped", lines[1:2] + lines[:1]
                                                       + lines[2:])):
                records.append({"experiment": experiment, "domain": domain,
                                "instance": instance, "model": "bench",
                                "approach": "non-incremental",
                                "attempts": [{"raw_reply": "\n".join(plan)}]})
    write_generation_logs(records, folder / "plans")
    started = time.perf_counter()
    evaluation = evaluate_logs(folder / "plans", SHARED_PLANNING)
    seconds = time.perf_counter() - started
    assert len(evaluation) == len(records)
    return len(records), seconds


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        fresh, cached = planning_track_times(Path(tmp))
        n, seconds = evaluation_throughput(Path(tmp))
    print("demo planning track (9 instances x scripted model + planner baseline):")
    print(f"  fresh  {fresh:6.2f} s   cached {cached:6.2f} s  ({cached / fresh:.0%} of fresh)")
    print(f"evaluation of {n} logged plans (25 domains, incl. files and JSONL parsing): "
          f"{seconds:.2f} s = {n / seconds:,.0f} plans/s")


if __name__ == "__main__":
    main()
