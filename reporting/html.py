"""The report as ONE self-contained HTML file: plots inlined as base64 PNGs, the style and a few
lines of table-sorting script inline, no fonts, scripts or images fetched from anywhere, so the
file can be mailed, attached to a CI run or opened offline and looks the same.
"""

from __future__ import annotations

import base64
from html import escape

from reporting.document import Document, DrillDown, Figure, Section, Table, rows

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 1200px;
       color: #1d2430; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { border-bottom: 2px solid #dde3ea; padding-bottom: .2rem; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: .2rem 1rem; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; font-family: monospace; }
.alert { background: #fdecea; border-left: 5px solid #c62828; padding: .5rem .8rem;
         margin: .4rem 0; font-weight: 600; }
nav.toc ol { columns: 2; margin: .3rem 0 1rem; } nav.toc h2 { font-size: 1.1rem; }
details.table > summary { cursor: pointer; color: #55606e; font-size: .9rem; }
figure { margin: 1rem 0; } figure img { max-width: 100%; border: 1px solid #e3e7ec; }
figcaption, caption { color: #55606e; font-size: .9rem; text-align: left; padding: .3rem 0; }
.scroll { overflow-x: auto; margin: .8rem 0 1.4rem; }
table { border-collapse: collapse; font-size: .85rem; }
th, td { border: 1px solid #dde3ea; padding: .25rem .5rem; text-align: left; }
th { background: #f2f5f8; cursor: pointer; user-select: none; white-space: nowrap; }
th[data-dir=asc]::after { content: " \\25B2"; } th[data-dir=desc]::after { content: " \\25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #fafbfc; }
details.item { border: 1px solid #dde3ea; margin: .2rem 0; padding: .2rem .5rem; }
details.item.wrong > summary { color: #b71c1c; }
details.item dl { display: grid; grid-template-columns: max-content auto; gap: .2rem 1rem; }
details.item dd { margin: 0; } details.item pre { white-space: pre-wrap; margin: 0; }
.drilldown.only-wrong details.item:not(.wrong) { display: none; }
"""

# Click a header to sort its table by that column (numbers by value, text alphabetically).
SORT_SCRIPT = """
document.querySelectorAll("table.sortable th").forEach(th => th.addEventListener("click", () => {
  const body = th.closest("table").tBodies[0], col = th.cellIndex;
  const asc = th.dataset.dir !== "asc";
  th.closest("tr").querySelectorAll("th").forEach(h => delete h.dataset.dir);
  th.dataset.dir = asc ? "asc" : "desc";
  const key = row => { const c = row.cells[col];
    return c.dataset.sort !== undefined ? Number(c.dataset.sort) : c.textContent.toLowerCase(); };
  [...body.rows].sort((a, b) => { const x = key(a), y = key(b);
    return (x > y ? 1 : x < y ? -1 : 0) * (asc ? 1 : -1); }).forEach(r => body.appendChild(r));
}));
"""


# The drill-down's "only wrong" switch hides the items that went right.
FILTER_SCRIPT = """
document.querySelectorAll(".drilldown input.only-wrong").forEach(box => box.addEventListener(
  "change", () => box.closest(".drilldown").classList.toggle("only-wrong", box.checked)));
"""


def render_html(document: Document) -> str:
    facts = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in document.facts)
    anchors = document.anchors()
    body = "\n".join(_section(s, a) for s, a in zip(document.sections, anchors, strict=True))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{escape(document.title)}</title><style>{STYLE}</style></head>\n<body>\n"
        f"<h1>{escape(document.title)}</h1>\n<dl class=\"facts\">{facts}</dl>\n"
        f"{_contents(document, anchors)}\n{body}\n"
        f"<script>{SORT_SCRIPT}{FILTER_SCRIPT}</script>\n</body></html>\n"
    )


def _contents(document: Document, anchors: list[str]) -> str:
    """The table of contents: a long report (a generated question set has a section per tag
    kind) is read by jumping to the part one needs."""
    links = "".join(f"<li><a href=\"#{a}\">{escape(s.title)}</a></li>"
                    for s, a in zip(document.sections, anchors, strict=True))
    return f"<nav class=\"toc\"><h2>Contents</h2><ol>{links}</ol></nav>"


def _section(section: Section, anchor: str) -> str:
    parts = [f"<section id=\"{anchor}\"><h2>{escape(section.title)}</h2>"]
    parts += [f"<p>{escape(p)}</p>" for p in section.paragraphs]
    parts += [f"<div class=\"alert\">{escape(a)}</div>" for a in section.alerts]
    parts += [_figure(f) for f in section.figures]
    parts += [_table(t) for t in section.tables]
    parts += [_drilldown(d) for d in section.drilldowns]
    parts.append("</section>")
    return "\n".join(parts)


def _drilldown(drill: DrillDown) -> str:
    items = "\n".join(
        f"<details class=\"item{' wrong' if item.wrong else ''}\">"
        f"<summary>{escape(item.title)}</summary><dl>"
        + "".join(f"<dt>{escape(label)}</dt><dd><pre>{escape(text)}</pre></dd>"
                  for label, text in item.fields)
        + "</dl></details>"
        for item in drill.items
    )
    note = f"<p>{escape(drill.note)}</p>" if drill.note else ""
    # The switch only when there is something to hide (unsolved plans are all wrong ones).
    switch = ("<label><input type=\"checkbox\" class=\"only-wrong\"> show only the wrong "
              "ones</label>" if not all(item.wrong for item in drill.items) else "")
    return (f"<div class=\"drilldown\"><h3>{escape(drill.caption)}</h3>{note}{switch}\n"
            f"{items}</div>")


def _figure(figure: Figure) -> str:
    data = base64.b64encode(figure.png).decode("ascii")
    return (f"<figure><img alt=\"{escape(figure.caption)}\" src=\"data:image/png;base64,{data}\">"
            f"<figcaption>{escape(figure.caption)}</figcaption></figure>")


def _table(table: Table) -> str:
    if table.frame.empty:
        return f"<p><em>{escape(table.caption)}: none.</em></p>"
    head = "".join(f"<th>{escape(str(c))}</th>" for c in table.frame.columns)
    body = "\n".join(
        "<tr>" + "".join(
            f"<td class=\"num\" data-sort=\"{key}\">{escape(text)}</td>" if key is not None
            else f"<td>{escape(text)}</td>"
            for text, key in row
        ) + "</tr>"
        for row in rows(table)
    )
    html = (f"<div class=\"scroll\"><table class=\"sortable\">"
            f"<caption>{escape(table.caption)}</caption><thead><tr>{head}</tr></thead>\n"
            f"<tbody>\n{body}\n</tbody></table></div>")
    if not table.collapsed:
        return html
    return (f"<details class=\"table\"><summary>{escape(table.caption)} "
            f"({len(table.frame):,} rows, click to open)</summary>{html}</details>")
