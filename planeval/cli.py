"""`planeval` command line: validate one plan, evaluate logs, build overviews, analyse data.

    planeval validate DOMAIN PROBLEM PLAN [--gold GOLD] [--json]   exit 0 valid, 1 invalid, 2 bad
    planeval evaluate LOGS_DIR --gold DATA_DIR --out FILE         per-instance evaluation table
    planeval overview EVAL_DIR --out FILE                          overview (AutoPlanBench + EAI)
    planeval analyze-instances DATA_DIR --out FILE [--per-instance FILE]

Tables are CSV, Markdown or JSON by the extension of FILE. Bad input prints one line on stderr
(`planeval: error: ...`) and exits 2; there are no tracebacks for anything planeval expects.
Run as `nlp-dsg-benchmark plan ...`, the help and errors name that command instead (`prog`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from benchcore.terminal_text import printable
from planeval.describe import describe_failure
from planeval.diagnosis import validate_plan
from planeval.errors import PlanevalError
from planeval.evaluation import evaluate_logs
from planeval.instances import analyze_instances, summarize_instances
from planeval.overview import load_evaluations, overview
from planeval.parser import parse_domain, parse_problem
from planeval.tables import write_table

EXIT_VALID, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors exit with our bad-input status and a single line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser(prog: str = "planeval") -> argparse.ArgumentParser:
    parser = _Parser(prog=prog, description="PDDL plan validation and LLM planning metrics")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    validate = commands.add_parser("validate", help="validate one plan (exit 0 valid, 1 invalid)")
    validate.add_argument("domain", type=Path)
    validate.add_argument("problem", type=Path)
    validate.add_argument("plan", type=Path, help="plan file ('-' for stdin)")
    validate.add_argument("--gold", type=Path, help="gold plan, to classify a failure against")
    validate.add_argument("--json", action="store_true", help="print the full report as JSON")

    evaluate = commands.add_parser("evaluate", help="evaluate generation logs (JSONL)")
    evaluate.add_argument("logs_dir", type=Path)
    evaluate.add_argument("--gold", type=Path, required=True, help="planning data directory")
    evaluate.add_argument("--out", type=Path, required=True)

    summary = commands.add_parser("overview", help="overview table across evaluations")
    summary.add_argument("eval_dir", type=Path)
    summary.add_argument("--out", type=Path, required=True)

    analyze = commands.add_parser("analyze-instances", help="sizes of the problem instances")
    analyze.add_argument("data_dir", type=Path)
    analyze.add_argument("--out", type=Path, required=True, help="per-domain summary")
    analyze.add_argument("--per-instance", type=Path, help="also write one row per instance")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "planeval") -> int:
    """`prog` is the command the user typed, for help and error lines."""
    args = build_parser(prog).parse_args(argv)
    try:
        return _COMMANDS[args.command](args)
    except PlanevalError as exc:
        print(f"{prog}: error: {printable(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"{prog}: error: {printable(str(exc.filename or ''))}: {exc.strerror}",
              file=sys.stderr)
        return EXIT_BAD_INPUT


def _validate(args: argparse.Namespace) -> int:
    domain = parse_domain(args.domain)
    problem = parse_problem(args.problem, domain)
    plan = sys.stdin.read() if str(args.plan) == "-" else _read(args.plan, "plan")
    gold = _read(args.gold, "gold plan") if args.gold else None
    report = validate_plan(domain, problem, plan, gold_plan=gold)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        verdict = "VALID" if report.valid else "INVALID"
        print(f"{verdict}: {printable(describe_failure(report))}")
        failure = report.failure
        if failure is not None:
            extra = f" ({failure.gold_class})" if failure.gold_class else ""
            print(f"failure: step {failure.step}, kind {failure.kind}{extra}")
        print(f"goal fraction: {report.goal_fraction:.3f}")
    return EXIT_VALID if report.valid else EXIT_INVALID


def _evaluate(args: argparse.Namespace) -> int:
    table = evaluate_logs(args.logs_dir, args.gold)
    write_table(table, args.out)
    solved = int(table["success"].eq(True).sum())
    errors = int(table["error"].notna().sum())
    print(f"evaluated {len(table)} runs ({solved} solved, {errors} errors) -> {args.out}")
    return 0


def _overview(args: argparse.Namespace) -> int:
    table = overview(load_evaluations(args.eval_dir))
    write_table(table, args.out)
    print(f"overview of {len(table)} experiment group(s) -> {args.out}")
    return 0


def _analyze(args: argparse.Namespace) -> int:
    instances = analyze_instances(args.data_dir)
    if instances.empty:
        raise PlanevalError(f"{args.data_dir}: no domains with problem instances found")
    write_table(summarize_instances(instances), args.out)
    if args.per_instance:
        write_table(instances, args.per_instance)
    print(f"analysed {len(instances)} instances -> {args.out}")
    return 0


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise PlanevalError(f"{path}: cannot read {what} file ({exc.strerror})") from None


_COMMANDS = {
    "validate": _validate,
    "evaluate": _evaluate,
    "overview": _overview,
    "analyze-instances": _analyze,
}


if __name__ == "__main__":
    raise SystemExit(main())
