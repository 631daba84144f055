"""The report's plots, as PNG bytes: accuracy by tag per model, planning success by domain and
model, and the trend of the headline metrics over runs.

Figures are built with matplotlib's object API on the Agg canvas, never through `pyplot`: no
global figure state, no display needed, safe inside a flow's worker thread. Static PNGs (rather
than an interactive plotting library) keep the HTML report self-contained and small, and the same
images serve the Markdown report. Each function returns None when there is nothing to plot.

Kept figures (`figures_kept_in`): a figure is a function of what it is drawn from, so one drawn
before from the same data, by the same code (this module's source) and the same matplotlib,
Pillow and zlib with the same settings (`rcParams`), is read back instead of drawn again, byte
for byte the PNG drawing it would make. The flow keeps the accuracy-by-tag and planning charts
in its cache folder (the `KEEP` most recently used): a rerun of a run whose answers did not
change draws only the trend, which gains a run every time and is never kept (the two others
were 0.4 s of the demo's cached rerun).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import inspect
import io
import math
import sys
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import matplotlib
import pandas as pd
import PIL
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from benchcore import atomic_files
from benchcore.item_cache import source_version

DPI = 110
METRIC_LABELS = {
    "accuracy": "QA accuracy",
    "mean_f1": "QA mean F1",
    "task_success_rate": "task success",
    "execution_success_rate": "plan executable",
}


_KEPT_IN: contextvars.ContextVar[Path | None] = contextvars.ContextVar("figures_kept_in",
                                                                       default=None)
_PNG_START, _PNG_END = b"\x89PNG\r\n\x1a\n", b"IEND\xaeB`\x82"
KEEP = 200   # kept figures (30-100 KB each); the least recently used beyond are removed


@contextlib.contextmanager
def figures_kept_in(folder: Path | None) -> Iterator[None]:
    """Within the block, figures are read from and kept in `folder` (None: always drawn)."""
    token = _KEPT_IN.set(None if folder is None else Path(folder))
    try:
        yield
    finally:
        _KEPT_IN.reset(token)


def _drawing_version() -> str:
    """Everything besides its data that shapes a figure's bytes. The settings are read as
    stored (`dict.items`): reading `rcParams["backend"]` would pick a backend and import
    pyplot; every figure here is drawn on the Agg canvas whatever the backend."""
    settings = sorted((k, repr(v)) for k, v in dict.items(matplotlib.rcParams)
                      if k not in ("backend", "backend_fallback"))
    parts = (_code_version(), matplotlib.__version__, PIL.__version__,
             zlib.ZLIB_RUNTIME_VERSION, settings)
    return hashlib.sha256(repr(parts).encode()).hexdigest()


@functools.cache
def _code_version() -> str:
    return source_version(sys.modules[__name__])


def _argument_digest(value: object) -> str:
    if isinstance(value, pd.DataFrame):
        cells = pd.util.hash_pandas_object(value, index=True).to_numpy().tobytes()
        return repr((list(value.columns), [str(t) for t in value.dtypes],
                     list(value.index.names), hashlib.sha256(cells).hexdigest()))
    if isinstance(value, str | int | float | bool | type(None)):
        return repr(value)
    raise TypeError(f"no figure key for a {type(value).__name__}")


def _kept(draw: Callable[..., bytes | None]) -> Callable[..., bytes | None]:
    """`draw`, served from the folder of `figures_kept_in` when the figure was drawn before."""

    signature = inspect.signature(draw)

    @functools.wraps(draw)
    def figure(*args: Any, **kwargs: Any) -> bytes | None:
        folder = _KEPT_IN.get()
        if folder is None:
            return draw(*args, **kwargs)
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        try:
            key = hashlib.sha256(repr((_drawing_version(), draw.__name__, [
                (name, _argument_digest(value)) for name, value in bound.arguments.items()
            ])).encode())
        except (TypeError, ValueError):   # data it cannot name: drawn
            return draw(*args, **kwargs)
        path = folder / f"{draw.__name__}-{key.hexdigest()[:32]}.png"
        with contextlib.suppress(OSError):
            kept = path.read_bytes()
            if kept.startswith(_PNG_START) and kept.endswith(_PNG_END):
                path.touch()   # recently used
                return kept
        png = draw(*args, **kwargs)
        if png is not None:
            with contextlib.suppress(OSError):   # a folder that cannot take it: drawn again
                atomic_files.write_bytes(path, png)
                _prune(folder)
        return png

    return figure


def _prune(folder: Path) -> None:
    """The `KEEP` most recently used figures stay; the others go."""
    figures = []
    for path in folder.glob("*.png"):
        with contextlib.suppress(OSError):
            figures.append((path.stat().st_mtime, path))
    for _, path in sorted(figures, reverse=True)[KEEP:]:
        with contextlib.suppress(OSError):
            path.unlink()


# The chart's width in inches whatever the number of tags or models (at DPI 110: about 1,000
# pixels, narrower than the report's page): tags run down the page, one row each, and a set
# with many tags is cut to its largest ones by the caller, never squeezed sideways.
TAG_CHART_WIDTH = 9.0


@_kept
def tag_bars(by_tag: pd.DataFrame, title: str = "QA accuracy by tag") -> bytes | None:
    """Horizontal bars: accuracy per tag (one row per tag, in the order the rows come), one bar
    per model; black ticks mark the mean F1."""
    if by_tag.empty:
        return None
    tags = list(dict.fromkeys(by_tag["tag"]))
    models = sorted(by_tag["model"].unique())
    height = 0.8 / len(models)
    figure = Figure(figsize=(TAG_CHART_WIDTH,
                             1.6 + len(tags) * (0.16 + 0.14 * len(models))))
    axes = figure.add_subplot()
    for index, model in enumerate(models):
        part = by_tag[by_tag["model"] == model].set_index("tag").reindex(tags)
        positions = [t + (index - (len(models) - 1) / 2) * height for t in range(len(tags))]
        axes.barh(positions, part["accuracy"].fillna(0), height=height * 0.95, label=model)
        axes.scatter(part["mean_f1"], positions, marker="|", s=120, color="black", zorder=3,
                     label="mean F1" if index == 0 else None)
    axes.set_yticks(range(len(tags)), tags, fontsize="small")
    axes.invert_yaxis()  # the first tag on top
    axes.set_xlim(0, 1.05)
    axes.set_xlabel("accuracy")
    columns = min(3, len(models) + 1)  # legend above the bars (beside them costs width)
    axes.legend(fontsize="small", loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=columns,
                frameon=False)
    axes.set_title(title, pad=8 + 15 * math.ceil((len(models) + 1) / columns))
    axes.grid(axis="x", alpha=0.3)
    return _png(figure)


@_kept
def success_heatmap(by_domain: pd.DataFrame) -> bytes | None:
    """Domain x model grid of plan success rates, each cell labelled with its value; a model
    with no scored plan in a domain (every item errored) keeps its cells, labelled NA."""
    if by_domain.empty:
        return None
    grid = by_domain.pivot_table(index="domain", columns="model", values="task_success_rate",
                                 dropna=False)
    if grid.isna().all().all():
        return None
    rows, columns = grid.shape
    figure = Figure(figsize=(max(5.0, 1.6 * columns + 3), max(2.5, 0.5 * rows + 1.8)))
    axes = figure.add_subplot()
    image = axes.imshow(grid.to_numpy(dtype=float), cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    axes.set_xticks(range(grid.shape[1]), grid.columns, rotation=20, ha="right")
    axes.set_yticks(range(grid.shape[0]), grid.index)
    for row, values in enumerate(grid.to_numpy(dtype=float)):
        for column, value in enumerate(values):
            label = "NA" if pd.isna(value) else f"{value:.0%}"
            axes.text(column, row, label, ha="center", va="center", fontsize="small")
    axes.set_title("Planning success by domain")
    figure.colorbar(image, ax=axes, label="success rate")
    return _png(figure)


def trend_lines(trend: pd.DataFrame) -> bytes | None:
    """One line per model and metric over the runs (in run order); QA above planning."""
    if trend.empty:
        return None
    runs = list(dict.fromkeys(trend["run_id"]))
    models = sorted(trend["model"].unique())
    groups = [m for m in (("accuracy", "mean_f1"), ("task_success_rate", "execution_success_rate"))
              if trend["metric"].isin(m).any()]
    figure = Figure(figsize=(8.0, 3.4 * len(groups)))
    for number, metrics in enumerate(groups, 1):
        axes = figure.add_subplot(len(groups), 1, number)
        part = trend[trend["metric"].isin(metrics)]
        for (model, metric), line in part.groupby(["model", "metric"], sort=True):
            solid = metric == metrics[0]  # colour says the model, the line style the metric
            axes.plot([runs.index(r) for r in line["run_id"]], line["value"],
                      "-" if solid else "--", marker="o" if solid else "s",
                      color=f"C{models.index(model) % 10}",
                      label=f"{model}: {METRIC_LABELS[metric]}")
        axes.set_xticks(range(len(runs)), runs, rotation=30, ha="right", fontsize="small")
        axes.set_ylim(-0.02, 1.05)
        axes.set_title("QA over runs" if metrics[0] == "accuracy" else "Planning over runs")
        axes.grid(alpha=0.3)
        axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _png(figure)


def _png(figure: Figure) -> bytes:
    FigureCanvasAgg(figure)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")  # keeps outside legends
    return buffer.getvalue()
