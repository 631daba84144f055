"""Run configuration files as a heracles_agents user writes them: every problem at once with
its line, unknown keys named with their near miss, `$VAR`/`${VAR}`/`~` expanded, input paths
resolved against the file, and sampling flags on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchcore.run_config import ConfigError, load_config
from nlp_dsg_benchmark.cli import _parser, _run_config, main
from tests.conftest import PROJECT_ROOT

DEMO = PROJECT_ROOT / "questions/demo"


def _write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "experiment.yaml"
    path.write_text(text)
    return path


def test_every_problem_at_once_each_with_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, """\
models:
  - name: gpt-4.1
    timeout: 20
    temperature: 0.2
    sed: 123
qa:
  questions: q.yaml
  scene_graph: g.json
  backend: neo5j
  pipelines: [agentic]
planning:
  data_dir: data
  limit: 2
max_error_fraction: 2
""")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.problems == [
        f"{path}:3: field models.0.timeout: unknown key 'timeout' (did you mean 'timeout_s'?)",
        f"{path}:5: field models.0.sed: unknown key 'sed' (did you mean 'seed'?)",
        f"{path}:9: field qa.backend: unknown value 'neo5j' (accepted: 'kuzu', 'ladybug' or "
        "'neo4j')",
        f"{path}:13: field planning.limit: unknown key 'limit'",
        f"{path}:14: field max_error_fraction: input should be less than or equal to 1",
    ]


def test_variables_and_home_are_expanded_and_inputs_resolve_against_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HERACLES_AGENTS_PATH", str(DEMO.parent))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(PROJECT_ROOT.parent)   # anywhere but the file's folder
    path = _write(tmp_path / "configs", """\
models: [{name: reference, provider: oracle}]
qa:
  questions: $HERACLES_AGENTS_PATH/demo/apartment_questions.yaml
  scene_graph: ${HERACLES_AGENTS_PATH}/demo/apartment_dsg.json
planning:
  data_dir: ../planning
  models: [{name: s, provider: scripted, script: ~/replies.yaml}]
results_dir: out
""")
    config = load_config(path)
    assert config.qa.questions == str(DEMO / "apartment_questions.yaml")
    assert config.qa.scene_graph == str(DEMO / "apartment_dsg.json")
    assert config.planning.data_dir == str(tmp_path / "planning")
    assert config.planning.models[0].script == str(tmp_path / "home/replies.yaml")
    assert config.results_dir == "out"   # outputs stay where the run starts


def test_an_unset_variable_is_named_at_its_line(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOT_SET_ANYWHERE", raising=False)
    path = _write(tmp_path, "models: [{name: m, provider: oracle}]\n"
                            "qa:\n  questions: $NOT_SET_ANYWHERE/q.yaml\n  scene_graph: g.json\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.problems == [
        f"{path}:3: field qa.questions: environment variable $NOT_SET_ANYWHERE is not set"]


def test_the_cli_prints_every_problem_one_line_each(tmp_path: Path, capsys) -> None:
    path = _write(tmp_path, "models: [{name: m, timeout: 5}]\nqa: {questionz: q.yaml}\n")
    assert main(["run", "--config", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"nlp-dsg-benchmark: {path}:1: field models.0.timeout: unknown key 'timeout' "
        "(did you mean 'timeout_s'?)",
        f"nlp-dsg-benchmark: {path}:2: field qa.questions: required key missing",
        f"nlp-dsg-benchmark: {path}:2: field qa.scene_graph: required key missing",
        f"nlp-dsg-benchmark: {path}:2: field qa.questionz: unknown key 'questionz' "
        "(did you mean 'questions'?)",
    ]


def test_sampling_and_planning_flags(tmp_path: Path) -> None:
    args = _parser().parse_args([
        "run", "--planning-data", "d", "--model", "m", "--temperature", "0.7", "--seed", "7",
        "--max-tokens", "512", "--domain", "gripper", "--limit", "2", "--no-planner-baseline",
        "--planner-time-limit", "3"])
    config = _run_config(args)
    model = config.models[0]
    assert (model.temperature, model.seed, model.max_tokens) == (0.7, 7, 512)
    planning = config.planning
    assert (planning.domains, planning.max_instances_per_domain, planning.planner_baseline,
            planning.planner_time_limit_s) == (["gripper"], 2, False, 3.0)
    path = _write(tmp_path, "models: [{name: a, temperature: 0.1}]\n"
                            "planning: {data_dir: d, models: [{name: b}]}\n")
    config = _run_config(_parser().parse_args(["run", "--config", str(path), "--seed", "9",
                                                "--limit", "1"]))
    assert [m.seed for m in config.models + config.planning_models()] == [9, 9]
    assert config.models[0].temperature == 0.1 and config.planning.max_instances_per_domain == 1


@pytest.mark.parametrize(("flags", "says"), [
    (["--temperature", "-1"], "run: --temperature: Input should be greater than or equal to 0"),
    (["--limit", "0"], "run: --limit: Input should be greater than or equal to 1"),
])
def test_a_bad_flag_value_is_one_line_naming_the_flag(capsys, flags: list[str],
                                                       says: str) -> None:
    assert main(["run", "--planning-data", "d", "--model", "m", *flags]) == 2
    assert capsys.readouterr().err == f"nlp-dsg-benchmark: {says}\n"


def test_heracles_agents_keys_point_to_ours(tmp_path: Path) -> None:
    path = _write(tmp_path, "metadata: {}\nmodels:\n  - model: gpt-4.1\n    client_type: openai\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.problems == [
        f"{path}:1: field metadata: unknown key 'metadata' (a heracles_agents experiment key; a "
        "run configuration has `models:`, `qa:` and `planning:` at the top, see "
        "configs/nightly.yaml)",
        f"{path}:3: field models.0.name: required key missing",
        f"{path}:3: field models.0.model: unknown key 'model' (did you mean 'name'?)",
        f"{path}:4: field models.0.client_type: unknown key 'client_type' (did you mean "
        "'provider'?)",
    ]


def test_the_planning_track_leaves_out_models_that_answer_qa_only(tmp_path: Path) -> None:
    """The oracle and the trivial baselines reply nothing to a planning prompt: scored, that
    was a planning 'oracle' at 0% success. They stay in QA, planning leaves them out (the CLI
    says so), and naming one in planning.models is an error."""
    from pydantic import ValidationError

    from benchcore.llm.base import ModelConfig
    from benchcore.run_config import BenchmarkConfig, PlanningConfig

    oracle = ModelConfig(name="reference-cypher", provider="oracle")
    zero = ModelConfig(name="zero", provider="baseline")
    real = ModelConfig(name="gpt-x")
    config = BenchmarkConfig(models=[oracle, zero, real],
                             planning=PlanningConfig(data_dir=str(tmp_path)))
    assert config.planning_models() == [real]
    assert config.qa_only_models() == [oracle, zero]
    alone = BenchmarkConfig(models=[oracle], planning=PlanningConfig(data_dir=str(tmp_path)))
    assert alone.planning_models() == []   # the planner baseline alone
    with pytest.raises(ValidationError, match="planning has nothing to run"):
        BenchmarkConfig(models=[oracle], planning=PlanningConfig(
            data_dir=str(tmp_path), planner_baseline=False))
    with pytest.raises(ValidationError, match=r"planning\.models: oracle:reference-cypher "
                                              r"answers QA questions only"):
        BenchmarkConfig(models=[real], planning=PlanningConfig(data_dir=str(tmp_path),
                                                               models=[oracle]))
