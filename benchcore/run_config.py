"""Run configuration: what to evaluate, with which models, against which database, and how
each track runs (`QAConfig`, `PlanningConfig`).

A `BenchmarkConfig` is the flow's one parameter, so a deployment, the CLI and a YAML file all
describe a run the same way. In a config file, `$VAR`/`${VAR}` and `~` are expanded and input
paths (question set, scene graph, planning data, reply scripts) are relative to the file, so
a file works from any working directory; results and caches are relative to where the run
starts. Every problem of a file is reported at once, each on its own line with file:line
(`load_config`, `benchcore/yaml_problems.py`).
"""

from __future__ import annotations

import datetime as dt
import os
import uuid
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from benchcore import atomic_files
from benchcore.env_vars import expand_variables
from benchcore.llm.base import QA_ONLY_PROVIDERS, ModelConfig
from benchcore.names import CACHED_STAGES, DEFAULT_EMBEDDED_BACKEND, Backend
from benchcore.run_folder import CONFIG_FILE
from benchcore.run_names import run_id_problem
from benchcore.url_credentials import refuse_credentials
from benchcore.yaml_load import load_yaml
from benchcore.yaml_problems import Problem, compose, line_of, validation_problems


class ConfigError(ValueError):
    """A run configuration that cannot be used: one line per problem, each naming the file,
    line and field (`problems`; the message is the first, saying how many more there are)."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        self.problems = problems or [message]
        more = len(self.problems) - 1
        suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        super().__init__(self.problems[0] + suffix)


PipelineKind = Literal["feedforward", "agentic", "in_context", "codegen"]


class PipelineConfig(BaseModel):
    """One way of answering the QA questions (heracles_agents' pipelines):

    - `feedforward`: the model writes one Cypher query, it runs, the model turns the rows into
      the answer (two calls);
    - `agentic`: the model calls a `run_cypher` tool in a loop, sees rows or errors, and answers
      (at most `max_iterations` calls);
    - `in_context`: the scene graph itself, as text (`variant`), is in the prompt; no database;
    - `codegen`: the model writes Python against spark_dsg (`solve_task(scene_graph)`), which
      runs in a bubblewrap sandbox (`dsgqa.code_sandbox`, at most `code_timeout_s`), and
      turns what it returned into the answer (heracles_agents' `feedforward_codegen`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: PipelineKind
    name: str | None = Field(default=None, description="Label in the results; default: the "
                             "kind, and `in_context_full` for the full in-context variant.")
    models: list[str] | None = Field(default=None, description="Names of the models that run "
                                     "this pipeline; default: every model.")
    max_iterations: int = Field(default=5, ge=1, description="Agentic: model calls per question.")
    max_tool_calls: int = Field(default=10, ge=1, description="Agentic: tool calls per question "
                                "and per reply; a turn asking for more ends the loop "
                                "(`tool_call_limit`).")
    variant: Literal["compact", "full"] = Field(
        default="compact", description="In-context: objects and rooms, or every layer.")
    code_timeout_s: float = Field(default=60.0, gt=0, description="Codegen: wall-clock "
                                  "seconds per run of the model's code.")

    @property
    def label(self) -> str:
        if self.name:
            return self.name
        if self.kind == "in_context" and self.variant == "full":
            return "in_context_full"
        return self.kind

    def runs(self, model: ModelConfig) -> bool:
        return self.models is None or model.name in self.models or model.label in self.models


def _pipeline_entries(value: object) -> object:
    """`pipelines: [feedforward, agentic]` is short for `[{kind: feedforward}, {kind: agentic}]`."""
    if isinstance(value, list):
        return [{"kind": v} if isinstance(v, str) else v for v in value]
    return value


class QAConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    questions: str = Field(description="Question set YAML file.")
    scene_graph: str = Field(description="spark_dsg JSON scene graph the questions ask about.")
    backend: Backend = DEFAULT_EMBEDDED_BACKEND
    db_root: str = ".cache/graphs"
    query_timeout_s: float = 10.0
    max_rows: int = 200
    memory_limit_mb: int = 2048
    chunk_size: int | None = Field(
        default=None, ge=1, description="Questions per stage task (default: all in one). On a "
        "Dask cluster, chunks of a large set run on every worker at once.")
    neo4j_uri: str | None = None
    neo4j_user: str | None = None
    neo4j_password_env: str = "NEO4J_PASSWORD"
    # `PipelineKind` in the type only so a deployment's parameter schema accepts the short form
    # (`[feedforward, agentic]`); the validator turns every entry into a `PipelineConfig`.
    pipelines: Annotated[list[PipelineConfig | PipelineKind],
                         BeforeValidator(_pipeline_entries)] = Field(
        default_factory=lambda: [PipelineConfig(kind="feedforward")], min_length=1,
        description="The answering pipelines to run (several in one run are compared side by "
        "side): feedforward, agentic, in_context, codegen.")

    @field_validator("neo4j_uri")
    @classmethod
    def _no_credentials(cls, value: str | None) -> str | None:
        if value is not None:
            refuse_credentials(urlsplit(value).netloc,
                               "neo4j_user and the variable neo4j_password_env names")
        return value

    @field_validator("pipelines")
    @classmethod
    def _distinct_labels(
        cls, pipelines: list[PipelineConfig | PipelineKind]
    ) -> list[PipelineConfig | PipelineKind]:
        labels = [p.label for p in pipelines if isinstance(p, PipelineConfig)]
        repeated = sorted({label for label in labels if labels.count(label) > 1})
        if repeated:
            raise ValueError(f"pipeline {repeated[0]!r} is listed twice; give one a `name`")
        return pipelines

    def pipelines_for(self, model: ModelConfig) -> list[PipelineConfig]:
        return [p for p in self.pipelines if isinstance(p, PipelineConfig) and p.runs(model)]


class GenerationSettings(BaseModel):
    """What changes a model's plans (and so is part of the generate-plan cache key)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    approach: Literal["non-incremental", "incremental"] = "non-incremental"
    domain_format: Literal["pddl", "nl"] = Field(
        default="pddl", description="Show the domain as PDDL or as generated natural language."
    )
    few_shot: bool = Field(default=False, description="Show a solved instance of the same domain.")
    max_attempts: int = Field(default=3, ge=1, description="Backprompting: tries per instance.")
    max_steps: int = Field(default=40, ge=1, description="Incremental: model turns per instance.")


class PlanningConfig(GenerationSettings):
    """The planning track: which instances, plus how plans are generated (`GenerationSettings`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    data_dir: str = Field(description="Dir laid out as <domain>/domain.pddl, adapted_instances/.")
    domains: list[str] | None = Field(default=None, description="Default: every domain.")
    max_instances_per_domain: int | None = Field(
        default=None, ge=1, description="The first N instances of each domain (CLI --limit).")
    planner_baseline: bool = Field(default=True, description="Add the classical planner row.")
    # The planner's bounds per instance; one that stops it is reported as failure kind `limit`.
    # Defaults: a 25-domain IPC set with 2 instances each runs in minutes under 2 GB.
    planner_node_limit: int = Field(default=20_000, ge=1, description="Planner: expanded states.")
    planner_time_limit_s: float = Field(default=10.0, gt=0, description="Planner: seconds.")
    planner_memory_limit_mb: float = Field(
        default=256.0, gt=0, description="Planner: memory its states and ground actions hold "
        "(an estimate; two instances are searched at once).")
    models: list[ModelConfig] | None = Field(
        default=None, description="Models for this track; default: the run's models."
    )
    chunk_size: int | None = Field(
        default=None, ge=1, description="Instances per generate-plan / planner-plan task "
        "(default: all in one). On a Dask cluster, chunks run on every worker at once.")

    def generation_settings(self) -> GenerationSettings:
        """Only the fields that change a model's plans (the generate-plan cache key)."""
        return GenerationSettings(
            **self.model_dump(include=set(GenerationSettings.model_fields))
        )

    def experiment_name(self, model_label: str) -> str:
        """Experiments are (model, approach, prompt format) combinations. The model's label is
        kept exactly (`a/b` and `a:b` are two experiments); the plan logs' folder is made from
        it by `benchcore.file_names`."""
        parts = [model_label, self.approach, self.domain_format]
        if self.few_shot:
            parts.append("fewshot")
        return "_".join(parts)


class RunOptions(BaseModel):
    """What every stage task needs to know about the run besides its own inputs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    cache_dir: str = ".cache"
    refresh: tuple[str, ...] = ()
    # The models' API-key variables that were set where the run was submitted: a Dask worker
    # without one of them must fail the run, not send requests without the key.
    keys_at_submission: tuple[str, ...] = ()

    @property
    def llm_cache_dir(self) -> Path:
        return Path(self.cache_dir) / "llm"

    @property
    def stage_cache_dir(self) -> Path:
        return Path(self.cache_dir) / "stages"

    def refreshes(self, stage: str) -> bool:
        return stage in self.refresh


class BenchmarkConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    run_id: str | None = Field(default=None, description="Defaults to a timestamp + random tag.")
    results_dir: str = "results"
    cache_dir: str = ".cache"
    models: list[ModelConfig]
    qa: QAConfig | None = None
    planning: PlanningConfig | None = None
    refresh: list[Literal[tuple(CACHED_STAGES)]] = Field(  # type: ignore[valid-type]
        default_factory=list,
        description="Stages to recompute even when their per-item results are cached.",
    )
    tracks: list[Literal["qa", "planning"]] | None = Field(
        default=None, description="Run only these of the configured tracks (default: all).",
    )
    report: bool = Field(
        default=True, description="Record the run in results/store and build its HTML report.",
    )
    task_runner: Literal["threads", "dask"] = "threads"
    dask_address: str | None = Field(
        default=None, description="Scheduler of an existing Dask cluster (task_runner: dask); "
        "default: a local cluster.",
    )
    max_error_fraction: float = Field(
        default=0.5, ge=0.0, le=1.0,
        description="The run fails when more than this share of items errored (not mis-answered).",
    )

    @field_validator("run_id")
    @classmethod
    def _a_folder_name(cls, value: str | None) -> str | None:
        problem = None if value is None else run_id_problem(value)
        if problem:
            raise ValueError(f"run id {problem}")
        return value

    @model_validator(mode="after")
    def _each_model_once(self) -> BenchmarkConfig:
        """A model listed twice would double its items (and its bill) under one name."""
        for models, where in ((self.models, "models"),
                              (self.planning.models if self.planning else None,
                               "planning.models")):
            labels = [m.label for m in models or []]
            repeated = next((label for label in labels if labels.count(label) > 1), None)
            if repeated is not None:
                raise ValueError(f"model {repeated!r} is listed twice in {where}")
        return self

    @model_validator(mode="after")
    def _planning_models_can_plan(self) -> BenchmarkConfig:
        for model in (self.planning.models or []) if self.planning else []:
            if model.provider in QA_ONLY_PROVIDERS:
                raise ValueError(f"planning.models: {model.label} answers QA questions only "
                                 "(a planning prompt would get an empty reply); use the planner "
                                 "baseline (planner_baseline) or a real model")
        if self.planning is not None and not self.planning_models() \
                and not self.planning.planner_baseline:
            raise ValueError("planning has nothing to run: its models answer QA questions only "
                             "and planner_baseline is off")
        return self

    @model_validator(mode="after")
    def _pipelines_name_known_models(self) -> BenchmarkConfig:
        if self.qa is None:
            return self
        known = {m.name for m in self.models} | {m.label for m in self.models}
        for pipeline in self.qa.pipelines:
            unknown = [name for name in pipeline.models or [] if name not in known]
            if unknown:
                raise ValueError(f"pipeline {pipeline.label!r} names model {unknown[0]!r}, "
                                 f"which is not in models ({', '.join(sorted(known))})")
        return self

    def resolved_run_id(
        self, started: dt.datetime | None = None, flow_run_id: str | None = None
    ) -> str:
        """The configured id, else one derived from the orchestrator's run (start time + flow
        run id): a retried flow run (`prefect flow-run retry`) keeps writing the same folder."""
        if self.run_id:
            return self.run_id
        stamp = (started or dt.datetime.now(dt.UTC)).strftime("%Y%m%dT%H%M%S")
        return f"{stamp}-{(flow_run_id or uuid.uuid4().hex)[:6]}"

    def runs_track(self, track: str) -> bool:
        configured = self.qa if track == "qa" else self.planning
        return configured is not None and (self.tracks is None or track in self.tracks)

    def planning_models(self) -> list[ModelConfig]:
        """`planning.models`, else the run's models that can plan (not the QA-only oracle
        and baselines, `qa_only_models`)."""
        if self.planning and self.planning.models:
            return self.planning.models
        return [m for m in self.models if m.provider not in QA_ONLY_PROVIDERS]

    def qa_only_models(self) -> list[ModelConfig]:
        """The run's models the planning track leaves out (it then says so)."""
        if self.planning is None or self.planning.models:
            return []
        return [m for m in self.models if m.provider in QA_ONLY_PROVIDERS]

    def run_options(self) -> RunOptions:
        """What the stage tasks need to know about the run, read where the run is submitted."""
        models = [*self.models, *self.planning_models()]
        keys = sorted({m.api_key_env for m in models
                       if m.provider == "openai" and os.environ.get(m.api_key_env)})
        return RunOptions(cache_dir=self.cache_dir, refresh=tuple(self.refresh),
                          keys_at_submission=tuple(keys))


def _rebased(path: str, root: Path) -> str:
    path = os.path.expanduser(path)
    return path if Path(path).is_absolute() else os.path.normpath(root / path)


def with_inputs_under(config: BenchmarkConfig, root: Path) -> BenchmarkConfig:
    """The config with its relative input paths (question set, scene graph, planning data,
    model scripts) resolved against `root`, so a config file written for the repo root works
    from any working directory; results and caches stay relative to where the run starts."""
    def model(m: ModelConfig) -> ModelConfig:
        return m.model_copy(update={"script": _rebased(m.script, root)}) if m.script else m

    updates: dict[str, object] = {"models": [model(m) for m in config.models]}
    if config.qa is not None:
        updates["qa"] = config.qa.model_copy(update={
            "questions": _rebased(config.qa.questions, root),
            "scene_graph": _rebased(config.qa.scene_graph, root),
        })
    if config.planning is not None:
        updates["planning"] = config.planning.model_copy(update={
            "data_dir": _rebased(config.planning.data_dir, root),
            "models": None if config.planning.models is None
            else [model(m) for m in config.planning.models],
        })
    return config.model_copy(update=updates)


def with_absolute_paths(config: BenchmarkConfig, root: Path) -> BenchmarkConfig:
    """Every path of the config (inputs, results, caches, graph databases) made absolute
    against `root`, the directory the run is submitted from.

    Why: on a Dask cluster each worker resolves a relative path against its own working
    directory: a relative question set is missing there (every item errors), and relative
    caches give each worker caches of its own (the next run pays for every call again)."""
    config = with_inputs_under(config, root)
    updates: dict[str, object] = {"results_dir": _rebased(config.results_dir, root),
                                  "cache_dir": _rebased(config.cache_dir, root)}
    if config.qa is not None:
        updates["qa"] = config.qa.model_copy(update={"db_root": _rebased(config.qa.db_root, root)})
    return config.model_copy(update=updates)


def resolve_config(config: BenchmarkConfig | None, config_file: str | None) -> BenchmarkConfig:
    """A deployment names its run configuration file (`configs/<name>.yaml`, one source for the
    CLI and the deployment) or passes the configuration itself, which wins."""
    if config is not None:
        return config
    if config_file is None:
        raise ConfigError("no run configuration: pass config or config_file")
    return load_config(config_file)


# heracles_agents' experiment keys, for the person who writes a run config from one of those.
_LAYOUT = ("a heracles_agents experiment key; a run configuration has `models:`, `qa:` and "
           "`planning:` at the top, see configs/nightly.yaml")
HERACLES_HINTS = {
    "model": "name", "client_type": "provider", "timeout": "timeout_s",
    "pipeline": "pipelines", "configurations": _LAYOUT, "metadata": _LAYOUT, "phases": _LAYOUT,
    "model_info": _LAYOUT, "client": _LAYOUT, "dsg_interface": _LAYOUT,
}


def _invalid(path: Path, error: ValidationError, text: str = "") -> ConfigError:
    """Every validation error, one line each, naming the file, line and field."""
    return _all_problems(path, _problems(error), text)


def _problems(error: ValidationError) -> list[Problem]:
    return validation_problems(error, BenchmarkConfig, hints=HERACLES_HINTS)


def _all_problems(path: Path, problems: list[Problem], text: str) -> ConfigError:
    """One line per problem, in the file's order."""
    root = compose(text) if text else None
    located = sorted((line_of(root, p.loc), i, p) for i, p in enumerate(problems))
    lines = list(dict.fromkeys(p.line(path, root) for _, _, p in located))
    return ConfigError(lines[0], lines)


def load_config(path: str | Path) -> BenchmarkConfig:
    """A run configuration file: environment variables expanded, input paths resolved against
    the file's folder, and every problem reported at once (`ConfigError.problems`)."""
    path = Path(path)
    try:
        text = path.read_text()
        data = load_yaml(text)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        number = mark.line + 1 if mark else getattr(error, "line", None)
        line = f":{number}" if number else ""
        problem = getattr(error, "problem", None) or "malformed YAML"
        raise ConfigError(f"{path}{line}: malformed YAML: {problem}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}:1: expected a mapping of run settings (models:, qa:, ...)")
    data, problems = expand_variables(data)
    config = None
    try:
        config = BenchmarkConfig.model_validate(data)
    except ValidationError as error:
        problems += _problems(error)
    if problems:
        raise _all_problems(path, problems, text)
    assert config is not None
    return with_inputs_under(config, path.resolve().parent)


# Settings that change how a run goes, not what its tables hold: a run id may be run again
# with any of them changed (a rerun of one track, a longer timeout, another cache folder).
_OPERATIONAL = frozenset({"run_id", "refresh", "tracks", "results_dir", "cache_dir",
                          "task_runner", "dask_address", "max_error_fraction"})
_OPERATIONAL_QA = frozenset({"db_root", "chunk_size"})
_OPERATIONAL_PLANNING = frozenset({"chunk_size"})
_OPERATIONAL_MODEL = frozenset({"api_key_env", "timeout_s", "max_retries", "max_connections",
                                "max_consecutive_connection_failures"})


def run_identity(config: BenchmarkConfig) -> dict[str, object]:
    """What a run's tables are made of: its configuration without the operational settings."""
    identity = config.model_dump(mode="json", exclude=set(_OPERATIONAL))
    for model in [*identity["models"], *((identity.get("planning") or {}).get("models") or [])]:
        for field in _OPERATIONAL_MODEL:
            model.pop(field, None)
    for field in _OPERATIONAL_QA:
        (identity.get("qa") or {}).pop(field, None)
    for field in _OPERATIONAL_PLANNING:
        (identity.get("planning") or {}).pop(field, None)
    return identity


def check_run_folder(config: BenchmarkConfig, run_dir: Path) -> None:
    """Refuse to write a run folder that holds a run of another configuration.

    Why: a run writes only its own tracks' files, so a run of other models or tracks under a
    used run id kept the earlier run's other files beside its own (the earlier planning
    tables beside new QA ones), and its store record and report then listed both runs'
    models as one run's. The same configuration again (a rerun, a retried deployment run)
    is the same run and may rewrite its folder."""
    path = Path(run_dir) / CONFIG_FILE
    if not path.is_file():
        return
    try:
        recorded = BenchmarkConfig.model_validate_json(path.read_text())
    except (OSError, ValueError):
        raise ConfigError(f"{path}: unreadable run configuration; delete {run_dir} to start "
                          "the run anew, or choose another --run-id") from None
    difference = _first_difference(run_identity(recorded), run_identity(config))
    if difference:
        raise ConfigError(
            f"{run_dir}: run id {Path(run_dir).name!r} already names a run of another "
            f"configuration ({difference}); choose another --run-id, or delete {run_dir} to "
            "start it anew")


def _first_difference(recorded: object, wanted: object, where: str = "") -> str:
    """`field: recorded -> wanted` for the first field that differs, or ""."""
    if isinstance(recorded, dict) and isinstance(wanted, dict):
        for key in sorted({*recorded, *wanted}, key=str):
            found = _first_difference(recorded.get(key), wanted.get(key),
                                      f"{where}.{key}" if where else str(key))
            if found:
                return found
        return ""
    if isinstance(recorded, list) and isinstance(wanted, list) and len(recorded) == len(wanted):
        for index, (a, b) in enumerate(zip(recorded, wanted, strict=True)):
            found = _first_difference(a, b, f"{where}.{index}")
            if found:
                return found
        return ""
    if recorded == wanted:
        return ""
    return f"{where}: {_short(recorded)} recorded, {_short(wanted)} now"


def _short(value: object, limit: int = 60) -> str:
    """A field's value as the refusal shows it: short, a section only as being there."""
    if value is None:
        text = "none"
    elif isinstance(value, dict):
        text = "configured"
    elif isinstance(value, list):
        text = "[" + ", ".join(str(v.get("name", "…")) if isinstance(v, dict) else repr(v)
                               for v in value) + "]"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def save_run_config(config: BenchmarkConfig, run_id: str, run_dir: Path) -> Path:
    """The run's configuration beside its tables, so `rerun RUN_ID` can repeat it exactly;
    `ConfigError` when the folder holds a run of another configuration (`check_run_folder`)."""
    check_run_folder(config, run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / CONFIG_FILE
    # A rerun of one track or stage must not narrow what `rerun RUN_ID` later repeats.
    pinned = config.model_copy(update={"run_id": run_id, "refresh": [], "tracks": None})
    text = pinned.model_dump_json(indent=2)
    # Unchanged on a rerun: the file's time is the run's start when its id carries none.
    if not path.is_file() or path.read_text() != text:
        atomic_files.write_text(path, text)
    return path


def load_run_config(run_dir: Path) -> BenchmarkConfig:
    path = run_dir / CONFIG_FILE
    if not path.is_file():
        raise ConfigError(f"{path}: no recorded run configuration (is {run_dir.name} a run id?)")
    try:
        text = path.read_text()
        return BenchmarkConfig.model_validate_json(text)
    except ValidationError as error:
        raise _invalid(path, error, text) from None
