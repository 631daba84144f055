"""Question generation on the example Hydra graph: time, and what was kept and dropped.

Run: python benchmarks/bench_question_gen.py [scene_graph.json] [per_category] [seed].
Prints the generator's report (kept/passed/checked per category, drops by reason) and the time
of a cold run (fresh embedded database) and a warm one (database already built).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchcore import external_data  # noqa: E402
from dsgqa.question_gen.generate import generate  # noqa: E402
from dsgqa.scene_graph import load_scene_graph  # noqa: E402

EXAMPLE = external_data.path_or_fetched(external_data.EXAMPLE_DSG)


def main(path: Path = EXAMPLE, per_category: int = 30, seed: int = 0) -> None:
    started = time.perf_counter()
    graph = load_scene_graph(path)
    loaded = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as db_root:
        cold = generate(graph, seed=seed, per_category=per_category, db_root=Path(db_root))
        warm = generate(graph, seed=seed, per_category=per_category, db_root=Path(db_root))
    print(cold.report.text())
    print(f"scene graph load {loaded:.2f} s; generation cold {cold.report.seconds:.2f} s, "
          f"warm {warm.report.seconds:.2f} s; same set both times: "
          f"{cold.questions == warm.questions}")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(Path(args[0]) if args else EXAMPLE, int(args[1]) if len(args) > 1 else 30,
         int(args[2]) if len(args) > 2 else 0)
