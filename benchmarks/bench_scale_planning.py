"""Planning track at scale: N planning instances, the plans written by a loopback fake LLM,
generated and evaluated in one `nlp-dsg-benchmark` run.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_scale_planning.py           # 1,000
    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_scale_planning.py --quick   # 100
    ... [--instances N] [--latency 0.05] [--connections 64]

Set-up: every instance of ../shared/data/planning that has a gold plan (25 domains), cycled to
N instances (each copy its own file with its own first comment line, so every prompt differs);
the fake answers each problem with its gold plan after the latency, except 1 instance in 5, which
first gets the plan with its first two steps swapped and, after the backprompt that names the
failure, the gold plan. No planner baseline: only the model's plans are timed.

Figures: the fresh run's wall time and plans/s (instances per second, end to end), the
generate-plan stage's span and the evaluate-plans task's time (re-simulating every plan, the
tables) with its plans/s, the report's time, the peak RSS of the whole process tree (fake server
excluded, as in bench_scale_qa), and a fully cached rerun.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bench_orchestration import SlowModel
from figure_table import Figure, figure_table
from process_tree import PeakTreeRSS
from stage_clock import StageClock
from task_times import task_seconds

from benchcore import external_data
from benchcore.names import Stage

ROOT = Path(__file__).resolve().parent.parent
SHARED_PLANNING = external_data.path_or_fetched(external_data.PLANNING)
PROBLEM_HEADER = "The PDDL problem:\n"


def build_instances(n: int, source: Path, folder: Path) -> dict[str, tuple[str, bool]]:
    """N instances under `folder` in the data layout; returns problem text -> (gold plan,
    whether the fake first answers it wrongly)."""
    from planeval import PlanningData

    data = PlanningData(source)
    solved = [(d, i, gold) for d in data.domain_names() for i in data.instance_names(d)
              if (gold := data.gold_plan(d, i))]
    replies: dict[str, tuple[str, bool]] = {}
    for k in range(n):
        domain, instance, gold = solved[k % len(solved)]
        copy = k // len(solved)
        target = folder / domain
        (target / "adapted_instances").mkdir(parents=True, exist_ok=True)
        (target / "adapted_gold_plans").mkdir(exist_ok=True)
        if not (target / "domain.pddl").exists():
            (target / "domain.pddl").symlink_to(data.domain_dir(domain) / "domain.pddl")
        name = f"{instance}-copy{copy}"
        text = f"; copy {copy} of {instance}\n" + \
            (data.domain_dir(domain) / "adapted_instances" / f"{instance}.pddl").read_text()
        (target / "adapted_instances" / f"{name}.pddl").write_text(text)
        (target / "adapted_gold_plans" / f"{name}_gold_plan.txt").write_text(gold)
        replies[text] = (gold, k % 5 == 2)
    return replies


class PlanModel(SlowModel):
    """Answers a planning prompt with the gold plan of its problem (see the module doc)."""

    def __init__(self, replies: dict[str, tuple[str, bool]], latency: float) -> None:
        self.replies = replies
        super().__init__({}, latency)

    def reply(self, request: dict) -> str:
        messages = request["messages"]
        problem = next((m["content"][len(PROBLEM_HEADER):] for m in messages
                        if m["role"] == "user" and m["content"].startswith(PROBLEM_HEADER)), "")
        gold, wrong_first = self.replies.get(problem, ("", False))
        steps = [line for line in gold.splitlines() if line.strip()]
        if wrong_first and messages[-1]["content"].startswith(PROBLEM_HEADER) and len(steps) > 1:
            steps[0], steps[1] = steps[1], steps[0]
        return "```pddl\n" + "\n".join(steps) + "\n```"


def run_figures(args: argparse.Namespace, folder: Path) -> list[Figure]:
    from prefect.testing.utilities import prefect_test_harness

    from benchcore.llm.base import ModelConfig
    from benchcore.run_config import BenchmarkConfig, PlanningConfig
    from flows.benchmark import nlp_dsg_benchmark
    from nlp_dsg_benchmark.environment import heartbeats_off_for_temporary_api

    data = folder / "planning"
    replies = build_instances(args.instances, SHARED_PLANNING, data)
    with prefect_test_harness(server_startup_timeout=120), \
            heartbeats_off_for_temporary_api(temporary=True):
        fake = PlanModel(replies, args.latency)
        try:
            model = ModelConfig(name="fake-planner", base_url=fake.base_url,
                                max_connections=args.connections, api_key_env="NONE")
            config = BenchmarkConfig(
                run_id="scale-planning", results_dir=str(folder / "results"),
                cache_dir=str(folder / "cache"), models=[model],
                planning=PlanningConfig(data_dir=str(data), planner_baseline=False))
            with PeakTreeRSS(excluded=[fake.process.pid]) as rss:
                with StageClock() as clock:
                    started = time.perf_counter()
                    state = nlp_dsg_benchmark(config, return_state=True)
                    fresh_s = time.perf_counter() - started
                fresh = state.result()
                tasks = task_seconds(state)
                started = time.perf_counter()
                cached = nlp_dsg_benchmark(config)
                cached_s = time.perf_counter() - started
        finally:
            fake.stop()
    n = args.instances
    overall = fresh.planning.overall_records[0]
    evaluate_s = tasks.get("evaluate-plans", float("nan"))
    return [
        Figure("instances", f"{n:,} ({len({p.parent.parent.name for p in data.glob('*/*/*.pddl')})}"
               " domains), 1 model, no planner baseline"),
        Figure("LLM calls (fresh run)", f"{fresh.llm_calls()['fresh']:,}"),
        Figure("task success rate", f"{overall.get('task_success_rate', float('nan')):.1%}"),
        Figure("fresh run wall time", f"{fresh_s:.2f} s = {n / fresh_s:,.1f} plans/s end to end"),
        Figure("generate-plan span", f"{clock.span(Stage.GENERATE_PLAN):.2f} s (ideal "
               f"{fresh.llm_calls()['fresh'] * args.latency / args.connections:.2f} s)"),
        Figure("evaluate-plans task", f"{evaluate_s:.2f} s = {n / evaluate_s:,.1f} plans/s"),
        Figure("store-results + build-report",
               f"{tasks.get('store-results', 0):.2f} s + {tasks.get('build-report', 0):.2f} s"),
        Figure("peak RSS, process tree", f"{rss.peak_mb:,.0f} MB"),
        Figure("fully cached rerun", f"{cached_s:.2f} s = {cached_s / fresh_s:.1%} of fresh "
               f"({cached.llm_calls()['fresh']} fresh LLM calls)"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 instances instead of 1,000.")
    parser.add_argument("--instances", type=int, default=None)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--connections", type=int, default=64)
    args = parser.parse_args()
    if args.instances is None:
        args.instances = 100 if args.quick else 1_000
    with tempfile.TemporaryDirectory() as tmp:
        rows = run_figures(args, Path(tmp))
    print(f"\nPlanning at scale: {args.instances:,} instances, latency {args.latency} s, "
          f"max_connections {args.connections}")
    print(figure_table(rows))


if __name__ == "__main__":
    sys.exit(main())
