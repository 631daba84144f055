"""`nlp-dsg-benchmark report`: build the HTML and Markdown report from the results store.

Exit codes: 0 report written; 1 report written but a metric regressed (only with
`--fail-on-regression`, for a CI gate); 2 bad input (no store, unknown run or model, bad flag),
always as one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

from benchcore.terminal_text import printable
from reporting.errors import ReportError
from reporting.report import ReportResult, build_report

DEFAULT_STORE = "results/store"


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting, so errors stay one line."""

    def error(self, message: str) -> NoReturn:
        raise ReportError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="nlp-dsg-benchmark report", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", nargs="+", metavar="RUN_ID",
                        help="Runs to report on; the last (in run order) is compared with the one "
                        "before. Default: the latest run against the previous run of its kind.")
    parser.add_argument("--models", nargs="+", metavar="MODEL",
                        help="Only these models (labels as in the results, e.g. gpt-4o-mini).")
    parser.add_argument("--store", default=DEFAULT_STORE,
                        help=f"Results store directory (default: {DEFAULT_STORE}).")
    parser.add_argument("--out", required=True, help="Directory for report.html, report.md, PNGs.")
    parser.add_argument("--threshold", type=float, default=0.05,
                        help="Flag a regression when a metric drops by more than this fraction "
                        "(default 0.05 = five points).")
    parser.add_argument("--fail-on-regression", action="store_true",
                        help="Exit with 1 when a regression is flagged.")
    return parser


def report_command(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        result = build_report(Path(args.store), Path(args.out), runs=args.runs,
                              models=args.models, regression_threshold=args.threshold)
    except SystemExit as done:  # --help
        return int(done.code or 0)
    except ReportError as error:
        print(f"nlp-dsg-benchmark report: error: {printable(str(error))}", file=sys.stderr)
        return 2
    print(printable(summary(result), keep_newlines=True))
    return 1 if result.regressions and args.fail_on_regression else 0


def summary(result: ReportResult) -> str:
    """What the terminal shows: where the report is, the comparison and its regressions."""
    against = f" against run {result.baseline_run}" if result.baseline_run else ""
    lines = [f"report for run {result.run_id}{against}: {result.html_path}",
             f"markdown: {result.markdown_path}"]
    if result.baseline_run:
        lines.append(f"{result.flipped} items flipped; {len(result.regressions)} regressions")
    lines += [f"REGRESSION: {r.describe()}" for r in result.regressions]
    return "\n".join(lines)
