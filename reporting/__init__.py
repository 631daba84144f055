"""Results people look at: the results store across runs, run-vs-run comparisons, plots and
the HTML/Markdown report. A pure library (no Prefect): the flow records each finished run with
`record_run` and builds the report with `build_report`; the CLI's `report` command is
`report_command`."""

from reporting.cli import report_command
from reporting.compare import Comparison, Regression, compare_runs, previous_run
from reporting.errors import ReportError
from reporting.report import ReportResult, build_report
from reporting.store import list_runs, load_store, record_run

__all__ = [
    "Comparison", "Regression", "ReportError", "ReportResult", "build_report", "compare_runs",
    "list_runs", "load_store", "previous_run", "record_run", "report_command",
]
