"""`nlp-dsg-benchmark`: run the benchmark or the demo, compare runs or answers, check the engine.

Every user error ends as one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from benchcore.llm.base import PROVIDERS
from benchcore.names import (
    BACKENDS,
    CACHED_STAGES,
    DEFAULT_EMBEDDED_BACKEND,
    EMBEDDED_BACKENDS,
    PLANNING_STAGES,
    QA_STAGES,
)
from benchcore.terminal_text import printable
from benchcore.text_safety import safe_text

# The commands that run the benchmark flow.
RUN_COMMANDS = ("run", "demo", "rerun")

# Prefect's setting for asking the API server its version (`_start_and_run`).
VERSION_CHECK = "PREFECT_CLIENT_SERVER_VERSION_CHECK_ENABLED"

# `rerun --track` choices.
TRACKS = ("qa", "planning")

# `--pipeline` choices: the pipeline kinds, and the full in-context variant by its label.
PIPELINE_CHOICES = ("feedforward", "agentic", "in_context", "in_context_full", "codegen")

if TYPE_CHECKING:
    from pydantic import ValidationError

    from benchcore.llm.base import ModelConfig
    from benchcore.run_config import BenchmarkConfig, ConfigError
    from nlp_dsg_benchmark.startup_gc import StartUp

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEMO_CONFIG = PROJECT_ROOT / "configs/smoke.yaml"
RUN_EPILOG = """\
models and providers:
  --model NAME                    a model behind an OpenAI-compatible endpoint (the default
                                  provider, openai): the key comes from $OPENAI_API_KEY (or the
                                  variable --api-key-env names); --base-url for a local server
  --provider oracle --model NAME  no model: answers with each question's reference Cypher
                                  (every QA answer right); needs no key or server
  --provider scripted --script F  replays replies from a YAML file (uid -> stage -> reply)
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nlp-dsg-benchmark", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="Run the benchmark on a question set and scene graph.",
                         epilog=RUN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("--config", help="Run configuration YAML (instead of the flags below).")
    run.add_argument("--questions", help="Question set YAML.")
    run.add_argument("--scene-graph", help="spark_dsg JSON scene graph.")
    run.add_argument("--model", action="append", help="Model name (repeatable).")
    run.add_argument("--provider", default="openai", choices=list(PROVIDERS))
    run.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1")
    run.add_argument("--api-key-env", default="OPENAI_API_KEY",
                     help="Environment variable holding the API key (never the key itself).")
    run.add_argument("--script", help="Reply file for --provider scripted.")
    run.add_argument("--backend", default=DEFAULT_EMBEDDED_BACKEND, choices=BACKENDS,
                     help=f"Graph database (default {DEFAULT_EMBEDDED_BACKEND}; kuzu: archived, "
                     "answers some queries wrongly without an error, see docs/graph_layout.md).")
    run.add_argument("--pipeline", action="append", dest="pipelines", choices=PIPELINE_CHOICES,
                     help="How questions are answered (repeatable, side by side; default "
                     "feedforward); see docs/pipelines.md.")
    run.add_argument("--tool-protocol", default="tools", choices=["tools", "text"],
                     help="Agentic: the API's tool calling, or fenced cypher blocks for servers "
                     "without it.")
    run.add_argument("--temperature", type=float, help="Sampling temperature of every model "
                     "(default 0; overrides a --config file's).")
    run.add_argument("--seed", type=int, help="Sampling seed sent to every model (default 0; "
                     "overrides a --config file's).")
    run.add_argument("--max-tokens", type=int, help="Reply length cap of every model (default: "
                     "the server's; overrides a --config file's).")
    run.add_argument("--planning-data", help="Planning data dir (<domain>/domain.pddl, ...); "
                     "adds the planning track.")
    run.add_argument("--approach", default="non-incremental",
                     choices=["non-incremental", "incremental"])
    run.add_argument("--domain", action="append", dest="domains", metavar="NAME",
                     help="Planning: only this domain (repeatable; default: every domain).")
    run.add_argument("--limit", type=int, metavar="N",
                     help="Planning: the first N instances of each domain.")
    run.add_argument("--planner-baseline", action=argparse.BooleanOptionalAction, default=None,
                     help="Planning: add the classical planner's row (default: on).")
    run.add_argument("--planner-time-limit", type=float, metavar="S",
                     help="Planning: seconds per instance for the planner (default 10); "
                     "nodes and memory: planner_node_limit, planner_memory_limit_mb in a config.")
    _add_refresh(run)
    _add_run_options(run)

    demo = sub.add_parser("demo", help="Run the demo: own scene graph, oracle model, no key.")
    _add_run_options(demo)

    rerun = sub.add_parser(
        "rerun", help="Rerun a recorded run: finished items come from the caches (0 fresh LLM "
        "calls for them); failed or missing items are redone; tables are rewritten in place. "
        "A run that finished with no errored item, and whose inputs, code, caches and files "
        "are unchanged since, is reused as it is.")
    rerun.add_argument("run_id", metavar="RUN_ID")
    rerun.add_argument("--track", choices=TRACKS,
                       help="Rerun only this track (keep the other's tables).")
    rerun.add_argument("--stage", choices=[*QA_STAGES, *PLANNING_STAGES],
                       help="The same as --track with the track this stage belongs to: the "
                       "whole track reruns (finished items from the caches); --refresh STAGE "
                       "recomputes one stage.")
    rerun.add_argument("--only-errored", "--only-failed", dest="only_errored",
                       action="store_true",
                       help="Do nothing unless the recorded run has errored items (items with "
                       "no answer: a call or stage failed; a wrong answer is not an error).")
    _add_refresh(rerun)
    rerun.add_argument("--results-dir", default="results")
    _add_output_options(rerun)

    check = sub.add_parser("check-engine", help="Run the Cypher engine conformance check.")
    check.add_argument("--backend", default=DEFAULT_EMBEDDED_BACKEND, choices=EMBEDDED_BACKENDS)
    check.add_argument("--scene-graph", type=Path, default=None,
                       help="The example Hydra graph for the fidelity set (default: found "
                            "via NLP_DSG_EXAMPLE_DSG or scripts/fetch-data.sh).")

    compare_help = ("Compare two recorded runs: headline metrics per model and pipeline side by "
                    "side with the difference, and the items that flipped (right -> wrong, "
                    "wrong -> right). Two answers: `answers compare`.")
    compare = sub.add_parser("compare", help=compare_help, description=compare_help)
    compare.add_argument("run_a", metavar="RUN_A", help="The earlier run (the baseline).")
    compare.add_argument("run_b", metavar="RUN_B", help="The later run.")
    compare.add_argument("--results-dir", default="results",
                         help="Where the runs are (their store: RESULTS_DIR/store).")
    compare.add_argument("--threshold", type=float, default=0.05,
                         help="Flag a drop of more than this fraction (default 0.05 = five "
                         "points).")
    compare.add_argument("--verbose", action="store_true", help="List every flipped item.")
    # The answer comparison's flags, once on this verb: named to say where it went.
    for flag in ("--pddl", "--tol"):
        compare.add_argument(flag, dest=f"answer_{flag[2:]}", nargs="?", const=True,
                             help=argparse.SUPPRESS)

    answers = sub.add_parser("answers", help="Answer tools (compare).")
    answers_sub = answers.add_subparsers(dest="answers_command", required=True)
    answer_compare = answers_sub.add_parser(
        "compare", help="Compare answer A with solution B (SLDP, or PDDL goals): equal or not, "
        "precision, recall, F1 and the reason. Exit 0 equal, 1 not equal, 2 malformed.")
    answer_compare.add_argument("a", metavar="A", help="The answer.")
    answer_compare.add_argument("b", metavar="B", help="The solution.")
    answer_compare.add_argument("--pddl", action="store_true",
                                help="Compare as PDDL goal formulas.")
    answer_compare.add_argument("--tol", type=float, default=0.01,
                                help="Numeric tolerance (SLDP).")

    questions = sub.add_parser("questions", help="Question-set tools (generate, check).")
    questions_sub = questions.add_subparsers(dest="questions_command", required=True)
    gen = questions_sub.add_parser(
        "generate", help="Write a question set for any spark_dsg scene graph; every solution "
        "is computed in Python and by its reference Cypher, and kept only when both agree.")
    gen.add_argument("--scene-graph", required=True, help="spark_dsg JSON scene graph.")
    gen.add_argument("--out", required=True, help="Question set YAML to write.")
    gen.add_argument("--seed", type=int, default=0, help="Same seed, same graph: same set.")
    gen.add_argument("--per-category", type=int, default=30,
                     help="Questions per category (fewer when the graph is too small).")
    gen.add_argument("--category", action="append", dest="categories", metavar="CATEGORY",
                     help="Only this category (repeatable); default: all.")
    gen.add_argument("--db-root", help="Where the embedded database is built (default: a "
                     "temporary directory).")
    gen.add_argument("--compare-seed", type=int, metavar="SEED",
                     help="Also generate with SEED and print the share of question texts both "
                     "sets share (how much a new seed changes the set).")
    qcheck = questions_sub.add_parser(
        "check", help="Check a hand-written question set: every problem of the file with "
        "file:line (unknown keys named), then every reference `cypher` run on the scene graph "
        "and its rows compared with the `solution`. Exit 1 when anything is wrong.")
    qcheck.add_argument("set", metavar="SET", help="Question set YAML.")
    qcheck.add_argument("--scene-graph", required=True, help="spark_dsg JSON scene graph.")
    qcheck.add_argument("--backend", default=DEFAULT_EMBEDDED_BACKEND, choices=EMBEDDED_BACKENDS)
    qcheck.add_argument("--db-root", help="Where the embedded database is built (default: a "
                        "temporary directory).")

    data = sub.add_parser("data", help="External data sets (fetch).")
    data_sub = data.add_subparsers(dest="data_command", required=True)
    fetch = data_sub.add_parser(
        "fetch", help="Download the external data sets (the Hydra example graph, "
        "AutoPlanBench's domains) at pinned commits into data/external/, sha256-checked.")
    fetch.add_argument("--set", action="append", dest="sets", metavar="NAME",
                       help="Only this data set (repeatable): dsg, planning.")
    fetch.add_argument("--dest", type=Path, default=None,
                       help="Folder to store them in (default: data/external in the project).")
    fetch.add_argument("--mirror", help="Server laid out like raw.githubusercontent.com "
                       "(default: $NLP_DSG_DATA_MIRROR, else GitHub).")

    crashed = sub.add_parser(
        "mark-crashed", help="Mark a flow run whose machine died Crashed (it stays Running on "
        "the server otherwise, and `prefect flow-run retry` refuses it).")
    crashed.add_argument("flow_run_id", help="The flow run's id (`prefect flow-run ls`).")
    crashed.add_argument("--message", default="its machine or process died (marked by hand)")

    sub.add_parser("report", help="HTML/Markdown report from the results store "
                   "(nlp-dsg-benchmark report --help).", add_help=False)
    plan = sub.add_parser("plan", help="planeval commands (validate, evaluate, overview, ...).",
                          add_help=False)
    plan.add_argument("args", nargs=argparse.REMAINDER)
    return parser


def _add_refresh(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--refresh", action="append", default=[], metavar="STAGE|all",
        choices=[*CACHED_STAGES, "all"],
        help="Recompute this stage's items even where they are cached (repeatable; `all`: "
        "every stage). Their LLM replies still come from the response cache: to resample a "
        "model (e.g. the server's model changed behind its name), delete .cache/llm too.")


def refresh_stages(values: list[str]) -> list[str]:
    """`--refresh` values as stage names, `all` standing for every cached stage."""
    return list(CACHED_STAGES) if "all" in values else list(dict.fromkeys(values))


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--run-id", help="Name of the run's results folder (default: timestamp).")
    parser.add_argument("--results-dir", default="results")
    parser.add_argument("--cache-dir", default=".cache")
    _add_output_options(parser)


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    """How much a run prints: by default its tables fitted to the terminal, at most 50
    per-question rows (wrong or errored first) and every summary."""
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--verbose", action="store_true",
                        help="Show Prefect's per-task logs and print every question's row.")
    output.add_argument("--quiet", action="store_true",
                        help="Print one line: run id, results folder, headline accuracy per "
                        "model and pipeline, error count.")


def _run_config(args: argparse.Namespace) -> BenchmarkConfig:
    from pydantic import ValidationError

    from benchcore.run_config import ConfigError, load_config
    from benchcore.run_names import run_id_problem

    # Checked before the id is used: it names a folder (model_copy below does not validate).
    problem = run_id_problem(args.run_id) if args.run_id is not None else None
    if problem:
        flag = "RUN_ID" if args.command == "rerun" else "--run-id"
        raise ConfigError(f"{args.command}: {flag}: run id {problem}")
    if args.command == "rerun":
        return _rerun_config(args)
    if args.command == "demo":
        # The smoke deployment's configuration: the oracle answers with the reference Cypher
        # (every answer right); a scripted planning model makes known mistakes.
        demo = load_config(DEMO_CONFIG)   # its input paths are relative to the file
        return demo.model_copy(update={
            "run_id": args.run_id, "results_dir": args.results_dir, "cache_dir": args.cache_dir,
            "qa": demo.qa.model_copy(update={"db_root": str(Path(args.cache_dir) / "graphs"),
                                             "pipelines": _demo_pipelines(demo)}),
        })
    if args.config:
        config = load_config(args.config)
        overrides: dict[str, object] = {"run_id": args.run_id} if args.run_id else {}
        if args.refresh:
            overrides["refresh"] = refresh_stages(args.refresh)
        if config.planning is not None and planning_overrides(args):
            try:
                overrides["planning"] = config.planning.model_validate(
                    {**config.planning.model_dump(), **planning_overrides(args)})
            except ValidationError as error:
                raise _flag_error(error) from None
        try:
            return with_sampling(config.model_copy(update=overrides), args)
        except ValidationError as error:
            raise _flag_error(error) from None
    missing = [f for f in ("model",) if not getattr(args, f)]
    if not args.planning_data:
        missing += [f for f in ("questions", "scene_graph") if not getattr(args, f)]
    if missing:
        flags = ", ".join("--" + m.replace("_", "-") for m in missing)
        raise ConfigError(f"run: missing {flags} (or give --config FILE)")
    try:
        return _config_from_flags(args)
    except ValidationError as error:
        raise _flag_error(error) from None


def _flag_error(error: ValidationError) -> ConfigError:
    """A flag's value the config refuses, naming the flag."""
    from benchcore.run_config import ConfigError

    first = error.errors()[0]
    field = next((str(p) for p in reversed(first["loc"]) if isinstance(p, str)), None)
    if field is None:   # a check across fields (a model listed twice)
        return ConfigError(f"run: {first['msg']}")
    flag = {"name": "model", **{v: k for k, v in PLANNING_FLAGS.items()}}.get(field, field)
    return ConfigError(f"run: --{flag.replace('_', '-')}: {first['msg']}")


SAMPLING_FLAGS = ("temperature", "seed", "max_tokens")
# Planning flag -> PlanningConfig field.
PLANNING_FLAGS = {"domains": "domains", "limit": "max_instances_per_domain",
                  "planner_baseline": "planner_baseline",
                  "planner_time_limit": "planner_time_limit_s"}


def planning_overrides(args: argparse.Namespace) -> dict[str, object]:
    """The planning flags given on the command line, as PlanningConfig fields."""
    return {field: getattr(args, flag) for flag, field in PLANNING_FLAGS.items()
            if getattr(args, flag, None) is not None}


def sampling_overrides(args: argparse.Namespace) -> dict[str, object]:
    """The sampling flags given on the command line, as model config fields."""
    return {f: getattr(args, f) for f in SAMPLING_FLAGS if getattr(args, f, None) is not None}


def with_sampling(config: BenchmarkConfig, args: argparse.Namespace) -> BenchmarkConfig:
    """Every model of the run (both tracks) with the sampling flags applied, validated as if
    written in the file (`--temperature -1` is refused naming the flag)."""
    from benchcore.llm.base import ModelConfig

    changes = sampling_overrides(args)
    if not changes:
        return config

    def model(m: ModelConfig) -> ModelConfig:
        return ModelConfig.model_validate({**m.model_dump(), **changes})

    updates: dict[str, object] = {"models": [model(m) for m in config.models]}
    if config.planning is not None and config.planning.models:
        updates["planning"] = config.planning.model_copy(
            update={"models": [model(m) for m in config.planning.models]})
    return config.model_copy(update=updates)


def _config_from_flags(args: argparse.Namespace) -> BenchmarkConfig:
    from benchcore.llm.base import ModelConfig
    from benchcore.run_config import BenchmarkConfig, PipelineConfig, PlanningConfig, QAConfig

    models = [
        ModelConfig(name=name, provider=args.provider, base_url=args.base_url,
                    api_key_env=args.api_key_env, script=args.script,
                    tool_protocol=args.tool_protocol, **sampling_overrides(args))
        for name in args.model
    ]
    pipelines = [PipelineConfig(kind="in_context", variant="full") if p == "in_context_full"
                 else PipelineConfig(kind=p) for p in args.pipelines or ["feedforward"]]
    return BenchmarkConfig(
        run_id=args.run_id, results_dir=args.results_dir, cache_dir=args.cache_dir, models=models,
        refresh=refresh_stages(args.refresh),
        qa=QAConfig(questions=args.questions, scene_graph=args.scene_graph, backend=args.backend,
                    db_root=str(Path(args.cache_dir) / "graphs"), pipelines=pipelines)
        if args.questions else None,
        planning=PlanningConfig(data_dir=args.planning_data, approach=args.approach,
                                **planning_overrides(args))
        if args.planning_data else None,
    )


def _rerun_config(args: argparse.Namespace) -> BenchmarkConfig:
    from benchcore.run_config import load_run_config

    run_dir = Path(args.results_dir) / args.run_id
    config = load_run_config(run_dir)
    updates: dict[str, object] = {"run_id": args.run_id,
                                  "refresh": refresh_stages(args.refresh)}
    track = args.track or stage_track(args.stage)
    if track:
        updates["tracks"] = [track]
    return config.model_copy(update=updates)


def stage_track(stage: str | None) -> str | None:
    """The track a stage belongs to (`rerun --stage` reruns that whole track)."""
    if stage in QA_STAGES:
        return "qa"
    if stage in PLANNING_STAGES:
        return "planning"
    return None


def _check_run_folder(config: BenchmarkConfig) -> None:
    """Before Prefect starts (20 s): the run id must not name a run of another configuration,
    nor a run going on now (the flow checks both again, holding the folder's lock)."""
    from benchcore.run_config import check_run_folder
    from benchcore.run_lock import check_not_busy

    if config.run_id:
        run_dir = Path(config.results_dir) / config.run_id
        check_not_busy(run_dir)
        check_run_folder(config, run_dir)


def _validate_inputs(config: BenchmarkConfig) -> None:
    """Fail before starting Prefect (20 s) when an input file is unusable or a model could
    only be sent to api.openai.com without a key."""
    from benchcore.llm.openai_chat import check_credentials
    from benchcore.llm.plain_http import warn_plain_http_key
    from dsgqa.code_sandbox import refuse_unsandboxed
    from dsgqa.questions import load_question_set
    from dsgqa.scene_graph import load_scene_graph

    if config.qa is not None:
        load_question_set(config.qa.questions)
        load_scene_graph(config.qa.scene_graph)
        if config.runs_track("qa"):
            refuse_unsandboxed(config.qa)
    if config.planning is not None:
        from plangen.batches import shared_planning_tasks

        shared_planning_tasks(config.planning)   # parsed once: the flow's tasks reuse them
    models = [*(config.models if config.runs_track("qa") else []),
              *(config.planning_models() if config.runs_track("planning") else [])]
    _refuse_unknown_baselines(models)
    left_out = config.qa_only_models() if config.runs_track("planning") else []
    if left_out:
        names = ", ".join(m.label for m in left_out)
        print(f"nlp-dsg-benchmark: planning: {printable(names)} answers QA questions only "
              "and is left out of the planning track", file=sys.stderr)
    for model in models:
        check_credentials(model)
    for model in models:
        warning = warn_plain_http_key(model)
        if warning:
            print(f"nlp-dsg-benchmark: {printable(warning)}", file=sys.stderr)


def _refuse_unknown_baselines(models: list[ModelConfig]) -> None:
    """A baseline model names one of the trivial answers: any other name would fail every item
    of the run (each with the same error) instead of this one line before it starts."""
    from benchcore.run_config import ConfigError
    from dsgqa.baseline_answers import BASELINES

    for model in models:
        if model.provider == "baseline" and model.name not in BASELINES:
            raise ConfigError(f"run: unknown baseline {model.name!r}: provider baseline takes "
                              f"the model names {', '.join(BASELINES)}")


def _run(args: argparse.Namespace, program: bool = False) -> int:
    """A run, demo or rerun. Its start-up (imports, inputs, the temporary API) runs with the
    cyclic garbage collector paused, and the program freezes what it made (`startup_gc`)."""
    from nlp_dsg_benchmark.startup_gc import collector_paused

    with collector_paused(freeze=program) as start_up:
        return _start_and_run(args, start_up)


def _start_and_run(args: argparse.Namespace, start_up: StartUp) -> int:
    from nlp_dsg_benchmark.environment import (
        flush_prefect_telemetry,
        heartbeats_off_for_temporary_api,
        install_log_filters,
        prepare_prefect_environment,
    )
    from nlp_dsg_benchmark.temporary_api import CLI_LINGER_S, linger_seconds, starting_api

    config = _run_config(args)
    _check_run_folder(config)
    if args.command == "rerun" and args.stage:
        print(f"rerun --stage {args.stage}: reruns the whole {stage_track(args.stage)} track "
              f"(finished items of every stage come from the caches); --refresh {args.stage} "
              "recomputes that stage's items")
    if args.command == "rerun" and args.only_errored:
        from nlp_dsg_benchmark.rerun_todo import items_to_rerun, to_redo_line

        todo = items_to_rerun(Path(args.results_dir) / args.run_id, config)
        print(to_redo_line(args.run_id, todo))
        if not todo.total:
            return 0
    reused = _reused_as_it_is(config)
    if reused is not None:
        _print_summary(reused, args, note=f"nlp-dsg-benchmark: run {reused.run_id} finished "
                       "and nothing changed since; reused as it is (no stage ran)")
        return 0
    api = prepare_prefect_environment(config.cache_dir, quiet=not args.verbose)
    if config.task_runner == "dask":   # (the scheduler is checked when the flow is built)
        from benchcore.dask_scheduler import check_cluster_can_report

        check_cluster_can_report(config.dask_address, temporary_api=not api)
    with contextlib.ExitStack() as stack:
        server = None
        if not api:
            server = stack.enter_context(starting_api(
                config.cache_dir, linger_s=linger_seconds(CLI_LINGER_S)))
            os.environ["PREFECT_API_URL"] = server.url
            # The server runs this interpreter's Prefect: its version needs no check (each of
            # the run's Prefect clients asked for it, 7 requests with a TLS context each).
            if VERSION_CHECK not in os.environ:
                os.environ[VERSION_CHECK] = "false"
                stack.callback(os.environ.pop, VERSION_CHECK, None)
            stack.callback(flush_prefect_telemetry)   # runs before the API stops
        # While the temporary API starts (4-10 s): the inputs are read and Prefect imported.
        # (Bad input is still one line: said before anything about the API.)
        from nlp_dsg_benchmark.console import console
        from nlp_dsg_benchmark.progress_bars import stage_progress

        bars = not (args.verbose or args.quiet)
        with stage_progress(console, enabled=bars):
            _validate_inputs(config)
        if api and not args.quiet:
            print(f"nlp-dsg-benchmark: reporting to {printable(api)}", file=sys.stderr)
        elif server is not None and server.adopted and not args.quiet:
            print("nlp-dsg-benchmark: no Prefect server running; reusing the temporary one an "
                  "earlier command left running", file=sys.stderr)
        elif not api and not args.quiet:
            kept = linger_seconds(CLI_LINGER_S)
            kept_for = (f" (kept {kept:g} s after the run for the next command; "
                        "NLP_DSG_TEMPORARY_API_LINGER_S=0 stops it with the run)" if kept else "")
            print("nlp-dsg-benchmark: no Prefect server running; starting a temporary one"
                  + kept_for, file=sys.stderr)
        flow = _with_task_runner(config)   # imports Prefect: after PREFECT_API_URL is final
        if server is not None:
            server.wait()
        install_log_filters()
        from nlp_dsg_benchmark.interrupts import run_stoppable

        start_up.done()
        with stage_progress(console, enabled=bars), \
                heartbeats_off_for_temporary_api(temporary=not api):
            summary = run_stoppable(lambda: flow(config))   # SIGINT/SIGTERM: exit 130/143
    _print_summary(summary, args)
    return 0


def _print_summary(summary, args: argparse.Namespace, note: str = "") -> None:
    """The run's tables (`--verbose`: every row), or its one line (`--quiet`)."""
    if note and not args.quiet:
        print(note, file=sys.stderr)
    try:
        if args.quiet:
            from nlp_dsg_benchmark.run_line import run_line

            print(run_line(summary))
        else:
            from nlp_dsg_benchmark.console import print_run

            print_run(summary, verbose=args.verbose)
    except Exception as error:   # the run and its tables are done; printing is a courtesy
        print(f"nlp-dsg-benchmark: run {summary.run_id} finished (tables in {summary.run_dir}); "
              f"printing them failed: {_one_line(error)}", file=sys.stderr)


def _demo_pipelines(demo: BenchmarkConfig) -> list:
    """The smoke configuration's pipelines, and codegen beside them where its sandbox can run
    (bubblewrap); elsewhere the demo says in one line why it is left out. The smoke deployment
    itself stays without it: a deployment must not depend on the machine it lands on."""
    from benchcore.run_config import PipelineConfig
    from dsgqa.code_sandbox import sandbox_problem

    assert demo.qa is not None
    pipelines = list(demo.qa.pipelines)
    problem = sandbox_problem()
    if problem is None:
        return [*pipelines, PipelineConfig(kind="codegen")]
    print(f"nlp-dsg-benchmark demo: the codegen pipeline is left out: {problem}",
          file=sys.stderr)
    return pipelines


def _reused_as_it_is(config: BenchmarkConfig):
    """The summary of a run with a fixed id that finished cleanly with nothing changed since
    (`benchcore.finished_runs`): the flow would only hand it back, so Prefect (5-10 s to
    start) is not started for it."""
    if config.run_id is None or config.refresh:
        return None
    from benchcore import finished_runs

    return finished_runs.reusable(config, config.run_id, Path(config.results_dir) / config.run_id)


def _compare_runs(args: argparse.Namespace) -> int:
    from benchcore.run_folder import STORE_DIR
    from nlp_dsg_benchmark.run_compare import ANSWERS_HINT, compare_command

    if args.answer_pddl is not None or args.answer_tol is not None:
        print(f"nlp-dsg-benchmark compare: compares two recorded runs; {ANSWERS_HINT}",
              file=sys.stderr)
        return 2
    return compare_command(args.run_a, args.run_b, Path(args.results_dir) / STORE_DIR,
                           threshold=args.threshold, verbose=args.verbose)


def _with_task_runner(config: BenchmarkConfig):
    """The flow, on threads (default) or on a Dask cluster (`task_runner: dask`)."""
    from flows.benchmark import nlp_dsg_benchmark

    if config.task_runner != "dask":
        return nlp_dsg_benchmark
    from flows.cluster import dask_task_runner

    return nlp_dsg_benchmark.with_options(task_runner=dask_task_runner(config))


def _dispatch(args: argparse.Namespace, program: bool = False) -> int:
    if args.command in RUN_COMMANDS:
        return _run(args, program)
    if args.command == "check-engine":
        from dsgqa.conformance import check_engine_command

        return check_engine_command(args.backend, args.scene_graph)
    if args.command == "compare":
        return _compare_runs(args)
    if args.command == "answers":
        from dsgqa.compare_cli import compare_command

        return compare_command(args.a, args.b, pddl=args.pddl, tol=args.tol)
    if args.command == "mark-crashed":
        from nlp_dsg_benchmark.crashed_runs import mark_crashed_command

        return mark_crashed_command(args.flow_run_id, args.message)
    if args.command == "data":
        from benchcore.external_data import FETCHED
        from nlp_dsg_benchmark.data_fetch import fetch_command

        return fetch_command(args.sets, args.dest or FETCHED, args.mirror)
    if args.command == "questions" and args.questions_command == "check":
        from dsgqa.question_check import check_command

        return check_command(args.set, args.scene_graph, args.backend, args.db_root)
    if args.command == "questions":
        from dsgqa.question_gen.command import generate_command

        return generate_command(args.scene_graph, args.out, seed=args.seed,
                                per_category=args.per_category, categories=args.categories,
                                db_root=args.db_root, compare_seed=args.compare_seed)
    from planeval.cli import main as planeval_main

    return planeval_main(args.args, prog="nlp-dsg-benchmark plan")


def main(argv: list[str] | None = None) -> int:
    """The command line. Without `argv` it is the program itself (the console script, `python -m`):
    a run, demo or rerun freezes what its start-up made before the flow runs (`startup_gc`) and,
    when it succeeded, ends the process without the interpreter's teardown (`process_exit`,
    0.5-1 s after a run)."""
    words = sys.argv[1:] if argv is None else argv
    code = _main(words, program=argv is None)
    if argv is None and code == 0 and words[:1] and words[0] in RUN_COMMANDS:
        from nlp_dsg_benchmark.process_exit import end_without_teardown

        end_without_teardown(code)
    return code


def _main(argv: list[str], program: bool) -> int:
    if argv[:1] == ["report"]:
        from reporting.cli import report_command

        return report_command(argv[1:])
    if argv[:1] == ["plan"]:
        # Everything after `plan` belongs to planeval's own parser (its --help included).
        from planeval.cli import main as planeval_main

        return planeval_main(argv[1:], prog="nlp-dsg-benchmark plan")
    args = _parser().parse_args(argv)
    try:
        return _dispatch(args, program)
    except KeyboardInterrupt:   # before the stages run (e.g. the temporary API starting)
        print("nlp-dsg-benchmark: SIGINT: stopped before any item ran", file=sys.stderr)
        return 130
    except (ValueError, RuntimeError, OSError) as error:
        # Bad input files, unreachable services, exhausted error budgets: one line, no traceback
        # (an exhausted budget adds its most common causes, one indented line each).
        from benchcore.run_summary import ErrorBudgetExceeded

        problems = getattr(error, "problems", None)
        if isinstance(problems, list) and problems:
            # A hand-written file: every problem at once, one line each (file:line: field).
            for problem in problems:
                print(f"nlp-dsg-benchmark: {printable(safe_text(str(problem)))}",
                      file=sys.stderr)
            return 2
        lines = _one_line(error) if not isinstance(error, ErrorBudgetExceeded) \
            else printable(safe_text(str(error)), keep_newlines=True)
        print(f"nlp-dsg-benchmark: {lines}", file=sys.stderr)
        return 2


def _one_line(error: BaseException) -> str:
    """The error's first line, storable, free of secrets and of terminal controls."""
    text = safe_text(str(error)).strip()
    return printable(text.splitlines()[0]) if text else type(error).__name__


if __name__ == "__main__":
    sys.exit(main())
