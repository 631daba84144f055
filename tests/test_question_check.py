"""`questions check SET --scene-graph G` on a hand-written set: every problem of the file with
its line, then every reference query run on the real embedded database and its rows compared
with the solution."""

from __future__ import annotations

from pathlib import Path

from nlp_dsg_benchmark.cli import main
from tests.conftest import PROJECT_ROOT

DEMO = PROJECT_ROOT / "questions/demo"
GRAPH = str(DEMO / "apartment_dsg.json")

HAND_WRITTEN = """\
questions:
  - uid: chairs
    question: How many chairs are there?
    solution: "9"
    correctness_comparator: {comparison_type: SLDP}
    cypher: "MATCH (o:Object {class: 'chair'}) RETURN count(o)"
  - uid: rooms
    question: How many rooms are there?
    soluton: "7"
    correctness_comparator: {comparison_type: SLDP}
    cypher: MATCH (r:Room) RETURN count(r)
  - uid: broken
    question: How many objects?
    solution: "1"
    correctness_comparator: {comparison_type: sldp}
    cypher: MATCH (o:Object RETURN count(o)
  - uid: good
    question: How many chairs?
    solution: "8"
    correctness_comparator: {comparison_type: SLDP, relation: equals}
    cypher: "MATCH (o:Object {class: 'chair'}) RETURN count(o)"
  - uid: right
    question: How many chairs?
    solution: "8"
    correctness_comparator: {comparison_type: SLDP}
    cypher: "MATCH (o:Object {class: 'chair'}) RETURN count(o)"
"""


def test_the_demo_set_passes(capsys, tmp_path: Path) -> None:
    path = str(DEMO / "apartment_questions.yaml")
    assert main(["questions", "check", path, "--scene-graph", GRAPH, "--backend", "kuzu",
                 "--db-root", str(tmp_path)]) == 0
    assert capsys.readouterr().out == (f"{path}: ok; 28 valid question(s), 28 reference "
                                       "queries run, 28 match their solution\n")


def test_every_problem_with_its_line(capsys, tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(HAND_WRITTEN)
    assert main(["questions", "check", str(path), "--scene-graph", GRAPH,
                 "--backend", "kuzu"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"{path}:6: question chairs: field cypher: its 1 row(s) give '8', the "
                      "solution is '9' (number 8 != 9 (relative error 11.11%))")
    assert out[1] == f"{path}:7: question rooms: field solution: field required"
    assert out[2] == (f"{path}:9: question rooms: field soluton: unknown key 'soluton' (did you "
                      "mean 'solution'?)")
    assert out[3].startswith(f"{path}:16: question broken: field cypher: the reference query "
                             "fails (syntax): ")
    assert out[4] == (f"{path}:20: question good: field correctness_comparator.relation: "
                      "unknown value 'equals' (accepted: 'equal', any case)")
    assert out[5] == (f"{path}: 5 problem(s); 3 valid question(s), 3 reference queries run, "
                      "1 match their solution")
    assert len(out) == 6


def test_unusable_inputs_are_one_line(capsys, tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("questions: [\n")
    assert main(["questions", "check", str(path), "--scene-graph", GRAPH,
                 "--backend", "kuzu"]) == 1
    assert capsys.readouterr().out.splitlines()[0].startswith(f"{path}:2: malformed YAML")
    path.write_text(HAND_WRITTEN)
    assert main(["questions", "check", str(path), "--scene-graph", str(tmp_path / "no.json"),
                 "--backend", "kuzu"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no.json" in err


def test_run_names_every_problem_of_the_set_before_starting(capsys, tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(HAND_WRITTEN)
    assert main(["run", "--questions", str(path), "--scene-graph", GRAPH, "--model", "oracle",
                 "--provider", "oracle", "--backend", "kuzu",
                 "--cache-dir", str(tmp_path / "cache")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"nlp-dsg-benchmark: {path}:7: question rooms: field solution: field required",
        f"nlp-dsg-benchmark: {path}:9: question rooms: field soluton: unknown key 'soluton' "
        "(did you mean 'solution'?)",
        f"nlp-dsg-benchmark: {path}:20: question good: field correctness_comparator.relation: "
        "unknown value 'equals' (accepted: 'equal', any case)",
    ]


def test_printed_problems_hold_no_terminal_control(capsys, tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(HAND_WRITTEN.replace("uid: rooms", 'uid: "rooms\\e]0;pwned\\a"'))
    assert main(["questions", "check", str(path), "--scene-graph", GRAPH,
                 "--backend", "kuzu"]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "question rooms" in out
