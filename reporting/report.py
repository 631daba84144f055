"""Build the report for one run from the results store: pick the runs, compute the tables and the
comparison, write `report.html` (self-contained), `report.md` and the plots as PNG files.

This is the one entry point the flow and the CLI call; everything it needs is in the store, so a
report can be rebuilt at any time, for any recorded run, without the run folders.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path

import pandas as pd

from benchcore import atomic_files
from benchcore.item_cache import source_version
from reporting import (
    compare,
    document,
    html,
    markdown,
    metrics,
    plan_drilldown,
    plots,
    sections,
    tag_groups,
    tag_sections,
)
from reporting.compare import Comparison, Regression, compare_runs
from reporting.errors import ReportError
from reporting.html import render_html
from reporting.markdown import render_markdown
from reporting.sections import ReportInputs, build_document
from reporting.selection import select_runs
from reporting.store import list_runs, load_store, load_usage

_CODE = source_version(compare, document, html, markdown, metrics, plan_drilldown, plots,
                       sections, tag_groups, tag_sections)
HTML_NAME = "report.html"
MARKDOWN_NAME = "report.md"


@dataclass(frozen=True)
class ReportResult:
    """Where the report is and its headline: what a flow artifact or a CI check needs."""

    html_path: Path
    markdown_path: Path
    run_id: str
    baseline_run: str | None
    headline: dict[str, dict[str, float]]
    regressions: list[Regression]
    flipped: int


def build_report(
    store_root: Path, out_dir: Path, runs: list[str] | None = None,
    models: list[str] | None = None, regression_threshold: float = 0.05,
    figure_cache: Path | None = None,
) -> ReportResult:
    """Report on the latest run (or the chosen runs, see `selection`) against its baseline.
    `figure_cache`: a folder where figures are kept by what they are drawn from, so one drawn
    before is not drawn again (`plots.figures_kept_in`)."""
    if not 0.0 <= regression_threshold < 1.0:
        raise ReportError(f"regression threshold {regression_threshold} is not a fraction in "
                          "[0, 1) (0.05 = five points)")
    catalog = list_runs(Path(store_root))
    if catalog.empty:
        raise ReportError(f"{store_root}: the results store has no recorded runs")
    selection = select_runs(catalog, runs)
    qa, planning = _chosen_models(*load_store(Path(store_root), runs=selection.loaded), models)
    current_qa, current_planning = _of_run(qa, selection.current), _of_run(planning,
                                                                           selection.current)
    # Headline, comparison, usage and trend are per system: a model through a non-default
    # pipeline is its own row ("model · agentic"), never averaged with the model's other ones.
    systems = metrics.qa_by_system(qa)
    current_systems = _of_run(systems, selection.current)
    comparison = compare_runs(systems, planning, selection.baseline, selection.current,
                              regression_threshold) if selection.baseline else None
    usage_rows = _of_run(load_usage(Path(store_root), [selection.current]), selection.current)
    if models and not usage_rows.empty:
        usage_rows = usage_rows[usage_rows["model"].isin(models)]
    inputs = ReportInputs(
        run=catalog.set_index("run_id").loc[selection.current].to_dict()
        | {"run_id": selection.current},
        qa=current_qa, planning=current_planning,
        usage=metrics.usage(current_systems, current_planning, usage_rows),
        headline=metrics.headline(current_systems, current_planning),
        comparison=comparison,
        trend=metrics.trend(_of_runs(systems, selection.trend),
                            _of_runs(planning, selection.trend)),
        threshold=regression_threshold, note=selection.note,
    )
    return _write(inputs, Path(out_dir), comparison, figure_cache)


def _digest(inputs: ReportInputs) -> str:
    """What the report shows, hashed (tables by content), plus the reporting code's version:
    a rerun whose results did not change keeps its report instead of re-plotting it."""
    digest = hashlib.sha256(_CODE.encode())
    for field in fields(inputs):
        value = getattr(inputs, field.name)
        if field.name == "run":  # when the run was (re-)recorded is not what the report shows
            value = {k: v for k, v in value.items() if k != "recorded_at"}
        if isinstance(value, pd.DataFrame):
            digest.update(",".join(map(str, value.columns)).encode())
            digest.update(pd.util.hash_pandas_object(value.astype(str), index=True).values)
        else:
            digest.update(repr(value).encode())
    return digest.hexdigest()


def _write(inputs: ReportInputs, out_dir: Path, comparison: Comparison | None,
           figure_cache: Path | None = None) -> ReportResult:
    html_path, markdown_path = out_dir / HTML_NAME, out_dir / MARKDOWN_NAME
    stamp, digest = out_dir / ".inputs.sha256", _digest(inputs)
    unchanged = (html_path.is_file() and markdown_path.is_file() and stamp.is_file()
                 and stamp.read_text() == digest)
    if not unchanged:
        with plots.figures_kept_in(figure_cache):
            document = build_document(inputs)
        out_dir.mkdir(parents=True, exist_ok=True)
        for figure in document.figures():
            atomic_files.write_bytes(out_dir / figure.filename, figure.png)
        atomic_files.write_text(html_path, render_html(document))
        atomic_files.write_text(markdown_path, render_markdown(document))
        atomic_files.write_text(stamp, digest)
    return ReportResult(
        html_path=html_path, markdown_path=markdown_path, run_id=str(inputs.run["run_id"]),
        baseline_run=comparison.baseline_run if comparison else None,
        headline=inputs.headline,
        regressions=list(comparison.regressions) if comparison else [],
        flipped=comparison.flipped if comparison else 0,
    )


def _chosen_models(qa: pd.DataFrame, planning: pd.DataFrame, models: Sequence[str] | None
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows of the chosen models; a model no loaded run has is a typo, not an empty report."""
    if not models:
        return qa, planning
    known = sorted({*qa.get("model", []), *planning.get("model", [])})
    unknown = [m for m in models if m not in known]
    if unknown:
        raise ReportError(f"unknown model {unknown[0]!r} (models in these runs: "
                          f"{', '.join(known) or 'none'})")
    return (t[t["model"].isin(models)].reset_index(drop=True) for t in (qa, planning))


def _of_run(rows: pd.DataFrame, run_id: str) -> pd.DataFrame:
    return _of_runs(rows, [run_id])


def _of_runs(rows: pd.DataFrame, run_ids: list[str]) -> pd.DataFrame:
    if rows.empty or "run_id" not in rows.columns:
        return rows.iloc[0:0]
    return rows[rows["run_id"].isin(run_ids)].reset_index(drop=True)


def headline_records(result: ReportResult) -> list[dict[str, object]]:
    """One row per model with its headline metrics (for a Prefect table artifact)."""
    return [{"model": model, **{k: round(v, 4) for k, v in metrics.items()}}
            for model, metrics in sorted(result.headline.items())]


def headline_markdown(result: ReportResult) -> str:
    """The end-of-run summary: headline numbers, regressions, flips, where the report is."""
    lines = [f"# Run {result.run_id}", ""]
    for row in headline_records(result):
        numbers = ", ".join(f"{k} {v:.3f}" for k, v in row.items() if k != "model")
        lines.append(f"- **{row['model']}**: {numbers}")
    baseline = result.baseline_run or "none (first run of its kind)"
    lines += ["", f"Compared with: {baseline}; flipped items: {result.flipped}."]
    for regression in result.regressions:
        lines.append(f"- REGRESSION {regression.model} {regression.metric}: "
                     f"{regression.before:.3f} -> {regression.after:.3f}")
    lines += ["", f"Report: `{result.html_path}` (Markdown: `{result.markdown_path}`)"]
    return "\n".join(lines) + "\n"
