"""The model behind a name changes: what the server said answered is recorded per item, and
resampling takes deleting the response cache *and* refreshing the item cache (`--refresh`)."""

from __future__ import annotations

from pathlib import Path

from benchcore.item_cache import ItemCache
from benchcore.llm import CachedClient, ModelConfig, ResponseCache
from benchcore.llm.openai_chat import OpenAIChatClient
from benchcore.names import CACHED_STAGES, Stage
from dsgqa.questions import load_question_set
from dsgqa.stage_batches import generate_cypher_batch
from tests.fake_model import DEMO_QUESTIONS
from tests.fake_openai import FakeOpenAIServer, chat_reply


class SwappableServer:
    """Answers as `model` with `fingerprint`; the test swaps them as a server's operator would."""

    def __init__(self) -> None:
        self.model, self.fingerprint, self.query = "model-a", "fp_a", "MATCH (n) RETURN 1"

    def __call__(self, request: dict, n: int):
        status, body, headers = chat_reply(f"```cypher\n{self.query}\n```")
        body.update(model=self.model, system_fingerprint=self.fingerprint)
        return status, body, headers


def _attempts(server: FakeOpenAIServer, cache: Path, refresh: bool, llm: str = "llm"):
    """`llm`: the response cache's folder (a new name stands for a deleted cache: the store
    of a folder is shared within the process)."""
    questions = load_question_set(DEMO_QUESTIONS).questions[:2]
    client = CachedClient(OpenAIChatClient(ModelConfig(
        name="same-name", base_url=server.base_url, api_key_env="NO_KEY_NEEDED", max_retries=0,
        timeout_s=10)), ResponseCache(cache / llm))
    done = generate_cypher_batch(questions, client, "schema",
                                 ItemCache(cache / "stages", Stage.GENERATE_CYPHER), refresh)
    return [o.value for o in done]


def test_a_changed_model_is_seen_and_resampled_only_with_refresh(tmp_path: Path) -> None:
    swappable = SwappableServer()
    with FakeOpenAIServer(swappable) as server:
        first = _attempts(server, tmp_path, refresh=False)
        assert {(a.usage.served_model, a.usage.system_fingerprint) for a in first} == {
            ("model-a", "fp_a")}
        swappable.model, swappable.fingerprint = "model-b", "fp_b"
        swappable.query = "MATCH (n) RETURN 2"
        # Deleting the response cache alone...
        kept = _attempts(server, tmp_path, refresh=False, llm="llm-deleted")
        assert [a.cypher for a in kept] == ["MATCH (n) RETURN 1"] * 2   # ...serves old items
        assert len(server.requests) == 2
        resampled = _attempts(server, tmp_path, refresh=True, llm="llm-deleted")
        assert len(server.requests) == 4
        # Replayed from the response cache, the reply still says who answered.
        replayed = _attempts(server, tmp_path, refresh=True, llm="llm-deleted")
        assert len(server.requests) == 4
    assert [a.cypher for a in resampled] == ["MATCH (n) RETURN 2"] * 2
    assert {(a.usage.served_model, a.usage.system_fingerprint) for a in resampled} == {
        ("model-b", "fp_b")}
    assert replayed[0].usage.served_model == "model-b" and replayed[0].usage.cached


def test_run_refresh_all_means_every_cached_stage() -> None:
    from nlp_dsg_benchmark.cli import _parser, _run_config

    args = _parser().parse_args(["run", "--questions", str(DEMO_QUESTIONS), "--scene-graph",
                                 "g.json", "--model", "m", "--refresh", "all"])
    assert _run_config(args).refresh == list(CACHED_STAGES)
    args = _parser().parse_args(["run", "--questions", str(DEMO_QUESTIONS), "--scene-graph",
                                 "g.json", "--model", "m", "--refresh", "refine",
                                 "--refresh", "refine"])
    assert _run_config(args).refresh == ["refine"]


def test_the_report_says_when_the_model_behind_a_name_changed() -> None:
    import pandas as pd

    from reporting.compare import served_changes

    def rows(served: str, fingerprint: str) -> pd.DataFrame:
        return pd.DataFrame({"model": ["same-name", "same-name", "other"],
                             "served_model": [served, served, ""],
                             "system_fingerprint": [fingerprint, fingerprint, ""]})

    assert served_changes(rows("model-a", "fp_a"), rows("model-a", "fp_a"), "n1", "n2") == []
    assert served_changes(rows("model-a", "fp_a"), rows("model-b", "fp_b"), "n1", "n2") == [
        "same-name: answered by model-a (fp_a) in run n1, by model-b (fp_b) in run n2"]
    assert served_changes(rows("", ""), rows("model-b", "fp_b"), "n1", "n2") == []  # older run
