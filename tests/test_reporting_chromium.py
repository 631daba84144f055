"""The HTML report in a real browser: headless Chromium renders it offline, the screenshot shows
the plots, and the inline script sorts a table."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from reporting.report import build_report
from reporting.store import record_run
from tests.reporting_runs import write_inputs, write_run

CHROMIUM = Path("/usr/bin/chromium")
WIDTH, HEIGHT = 1280, 3200  # the QA section holds several tables before the plots
TAB_BLUE, TAB_ORANGE = (31, 119, 180), (255, 127, 14)  # matplotlib's first two colours

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"{CHROMIUM} is missing (Debian package 'chromium'; CI installs it)",
)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("report")
    inputs = write_inputs(root / "inputs")
    record_run(write_run(root / "results", "20260101T020000-aaaaaa", inputs,
                         unsolved={("gripper", "instance-2")}), root / "store")
    record_run(write_run(root / "results", "20260102T020000-bbbbbb", inputs,
                         wrong={("gpt-a", "q03"), ("gpt-b", "q01"), ("gpt-b", "q05")}),
               root / "store")
    return build_report(root / "store", root / "out").html_path


def chromium(tmp_path: Path, *args: str) -> str:
    """Run headless Chromium in its own process group and kill the group afterwards, so no
    renderer or GPU helper outlives the test."""
    command = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", *args,
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, start_new_session=True)
    try:
        out, _ = process.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):  # the group is already gone
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    assert process.returncode == 0, f"chromium exited with {process.returncode}"
    return out


def count_near(pixels: np.ndarray, colour: tuple[int, int, int], tolerance: int = 12) -> int:
    return int((np.abs(pixels - np.array(colour)) <= tolerance).all(axis=-1).sum())


def test_screenshot_shows_the_plots(report, tmp_path):
    shot = tmp_path / "report.png"

    chromium(tmp_path, f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}",
             report.as_uri())

    image = Image.open(shot).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    pixels = np.asarray(image).astype(int)
    # the QA bar chart: both models' bars are drawn (an image that failed to load has none)
    assert count_near(pixels, TAB_BLUE) > 5000
    assert count_near(pixels, TAB_ORANGE) > 5000
    # plots bring many saturated colours (the heatmap's colour scale); text, tables and the
    # regression banner alone render gray and one red (measured: 1 colour, ~1300 pixels)
    saturated = pixels[(pixels.max(axis=-1) - pixels.min(axis=-1)) >= 60]
    assert len(saturated) > 50_000
    assert len(np.unique(saturated, axis=0)) > 200
    # the regression banner is rendered (its red border)
    assert count_near(pixels, (198, 40, 40), 20) > 100


def test_clicking_a_header_sorts_its_table(report, tmp_path):
    """Click the `accuracy` header of the by-tag table twice (descending), as a user would."""
    page = tmp_path / "sorted.html"
    click = ("<script>const table = [...document.querySelectorAll('table')].find(t => "
             "t.caption.textContent.startsWith('Accuracy and mean F1 by tag'));"
             "const th = [...table.tHead.rows[0].cells].find(h => h.textContent === 'accuracy');"
             "th.click(); th.click();</script>")
    page.write_text(report.read_text().replace("</body>", click + "</body>"))

    dom = chromium(tmp_path, "--dump-dom", page.as_uri())

    table = dom.split("Accuracy and mean F1 by tag per model")[1].split("</table>")[0]
    header = table.split("<tbody>")[0]
    rows = [row.split("</td>") for row in table.split("<tbody>")[1].split("<tr>")[1:]]
    column = [h.split(">")[-1] for h in header.split("</th>")[:-1]].index("accuracy")
    accuracy = [float(row[column].split('data-sort="')[1].split('"')[0]) for row in rows]
    assert 'data-dir="desc">accuracy' in header
    assert accuracy == sorted(accuracy, reverse=True) and accuracy[-1] < accuracy[0]
