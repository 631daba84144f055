"""Outside text is made storable (lone surrogates) and free of secrets before the harness keeps
or prints it; a failed item's error is reduced to a cause that can be counted."""

from __future__ import annotations

import pandas as pd
import pytest

from benchcore.failure_causes import cause_of, describe_causes, top_causes
from benchcore.redact import redact, register_secret_env
from benchcore.text_safety import (
    REPLACEMENT,
    already_safe,
    safe_frame,
    safe_record,
    safe_value,
    storable,
)


def test_lone_surrogates_become_replacement_characters() -> None:
    assert storable("a\udcffb") == f"a{REPLACEMENT}b"
    assert storable("plain ü €") == "plain ü €"
    cleaned = safe_value({"rows": [["\ud800", 3]], "error": "x\udfff"})
    assert cleaned == {"rows": [[REPLACEMENT, 3]], "error": f"x{REPLACEMENT}"}


def test_configured_key_and_key_shapes_are_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAB_LLM_CREDENTIAL", "gw-LAB-0123456789abcdef")
    register_secret_env("LAB_LLM_CREDENTIAL")
    monkeypatch.setenv("OTHER_API_KEY", "plainvalue-42")   # a name that says it is a secret
    text = ("401: key gw-LAB-0123456789abcdef rejected; headers: Authorization: Bearer "
            "tok.abc-DEF_123 sk-proj-AbCdEf123456 plainvalue-42")
    masked = redact(text)
    for secret in ("gw-LAB-0123456789abcdef", "tok.abc-DEF_123", "sk-proj-AbCdEf123456",
                   "plainvalue-42"):
        assert secret not in masked
    assert "Bearer ***" in masked and "401: key *** rejected" in masked
    assert redact("a skeleton key, an sk- prefix") == "a skeleton key, an sk- prefix"
    frame = safe_frame(pd.DataFrame({"error": [text], "n": [1]}))
    assert "gw-LAB" not in frame.loc[0, "error"] and frame.loc[0, "n"] == 1



def test_a_secret_set_or_changed_later_is_masked_from_then_on(monkeypatch) -> None:
    """The secret values are kept between calls; a changed environment or a newly registered
    name must still be seen at once."""
    monkeypatch.delenv("LATE_SERVICE_TOKEN", raising=False)
    assert redact("token value-0123456789") == "token value-0123456789"
    monkeypatch.setenv("LATE_SERVICE_TOKEN", "value-0123456789")
    assert redact("token value-0123456789") == "token ***"
    monkeypatch.setenv("LATE_SERVICE_TOKEN", "other-9876543210")
    assert redact("value-0123456789 other-9876543210") == "value-0123456789 ***"
    monkeypatch.setenv("LATE_PLAIN", "registered-later-42")
    assert redact("registered-later-42") == "registered-later-42"
    register_secret_env("LATE_PLAIN")
    assert redact("registered-later-42") == "***"

@pytest.mark.parametrize("record", [
    {"uid": "q1", "answer": "4", "correct": True, "score": 0.5, "note": None},
    {"uid": "q2", "answer": "a\udcffb", "error": ""},                       # a surrogate
    {"uid": "q3", "query_error": "401 Bearer abc.def-123456 rejected"},       # a bearer token
    {"uid": "q4", "reply": "key sk-proj-AbCdEf123456"},                       # an sk- key
    {"uid": "q5", "reply": "sk-abc", "next": "defghi"},        # a key shape split over cells
    {"uid": "q6", "a": "text\0with NUL", "b": "", "c": "plainvalue-42 here"},
    {"uid": "q\udcff7"},                                                     # in a key too
])
def test_a_record_checked_in_one_pass_is_what_safe_value_makes_it(
    record: dict, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OTHER_API_KEY", "plainvalue-42")
    assert safe_record(record) == safe_value(record)
    assert safe_record(record) is not record


def test_joined_texts_are_safe_only_when_every_text_is() -> None:
    secrets = ("plainvalue-42",)
    assert already_safe(["a", "b", ""], secrets)
    assert already_safe([], secrets)
    assert not already_safe(["a", "x plainvalue-42"], secrets)
    assert not already_safe(["\ud800"], secrets)
    assert already_safe(["plainval", "ue-42"], secrets)   # no secret spans two texts
    assert already_safe(["Bearer", "abcdefgh"], ())        # nor a bearer token


def test_a_clean_frame_comes_back_equal_and_a_dirty_one_cleaned() -> None:
    clean = pd.DataFrame({"a": ["x", "y", None], "n": [1, 2, 3]})
    assert safe_frame(clean).equals(clean)
    dirty = pd.DataFrame({"a": ["x", "sk-proj-AbCdEf123456"], "b": ["\udcff", "ok"]}, dtype=object)
    cleaned = safe_frame(dirty)
    assert list(cleaned["a"]) == ["x", "sk-***"]
    assert list(cleaned["b"]) == [REPLACEMENT, "ok"]


@pytest.mark.parametrize(
    ("error", "cause"),
    [
        ("generate-cypher: LLMError: model gpt: HTTP 401: bad or missing API key "
         "(set $OPENAI_API_KEY): Incorrect API key", "HTTP 401: bad or missing API key"),
        ("refine: LLMError: model m: cannot reach http://127.0.0.1:9/v1 (Connection error.)",
         "cannot reach http://127.0.0.1:9/v1"),
        ("generate-cypher: EndpointUnavailable: model m: cannot reach http://127.0.0.1:9/v1 "
         "(not called: 5 consecutive connection failures)", "cannot reach http://127.0.0.1:9/v1"),
        ("generate-cypher: LLMError: model m: timed out after 2 s (http://x)",
         "timed out after 2 s"),
        ("generate-cypher: LLMError: model m: HTTP 400: request failed: context too long",
         "HTTP 400: request failed: context too long"),
        ("load-graph: RuntimeError: database unreachable: bolt://127.0.0.1:9 (refused)",
         "database unreachable: bolt://127.0.0.1:9"),
    ],
)
def test_cause_of_an_error_drops_where_and_detail(error: str, cause: str) -> None:
    assert cause_of(error) == cause


def test_top_causes_are_counted_most_common_first() -> None:
    errors = ["a: LLMError: model m: HTTP 401: bad or missing API key (set $K): x"] * 3 + [
        "", "refine: skipped", "b: LLMError: model m: timed out after 5 s (u)",
        "b: LLMError: model m: timed out after 5 s (v)"]
    causes = top_causes(errors)
    assert describe_causes(causes) == [
        "3 × HTTP 401: bad or missing API key", "2 × timed out after 5 s", "1 × skipped"]


KEY = "gw-Lab/Key+0123456789=abc"


@pytest.mark.parametrize("form", [
    KEY,
    KEY.replace("/", "\\/"),                                   # JSON with escaped slashes
    '{"detail": "bad key \\"gw-Lab\\/Key+0123456789=abc\\""}',  # inside a JSON body
    "gw-Lab%2FKey%2B0123456789%3Dabc",                          # URL-encoded
    "gw-Lab%2fKey%2b0123456789%3dabc",                          # lower-case hex
    "key=gw-Lab%2FKey%2B0123456789%3Dabc&x=1",                  # a form body
    __import__("base64").b64encode(KEY.encode()).decode(),       # base64 of the key
    __import__("base64").b64encode(f"user:{KEY}".encode()).decode(),    # a Basic credential
    __import__("base64").b64encode(f"us:{KEY}".encode()).decode(),      # other alignments
    __import__("base64").b64encode(f"u:{KEY}".encode()).decode(),
    __import__("base64").urlsafe_b64encode(f"u:{KEY}".encode()).decode(),
])
def test_a_key_is_masked_in_every_form_a_server_may_echo_it(
    form: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LAB_GATEWAY_TOKEN", KEY)
    text = f"HTTP 401: {form} rejected"
    masked = redact(text)
    assert masked != text and "***" in masked
    # whatever form it takes, no stretch of 8+ characters of the key or its encodings is left
    import base64
    for core in ("0123456789", base64.b64encode(KEY.encode()).decode()[4:20]):
        assert core not in masked
    frame = safe_frame(pd.DataFrame({"error": [text]}))
    assert frame.loc[0, "error"] == masked
    assert safe_record({"error": text}) == {"error": masked}


@pytest.mark.parametrize(("text", "expected"), [
    ("cannot reach http://alice:s3cr3t-pass@llm.lab:8000/v1 (refused)",
     "cannot reach http://***@llm.lab:8000/v1 (refused)"),
    ("proxy https://token@proxy.example/ failed", "proxy https://***@proxy.example/ failed"),
    ("Authorization: Basic YWxpY2U6czNjcjN0 sent", "Authorization: Basic *** sent"),
    ("mail alice@example.org, see http://host/a@b", "mail alice@example.org, see http://host/a@b"),
])
def test_credentials_in_urls_and_basic_tokens_are_masked(text: str, expected: str) -> None:
    assert redact(text) == expected
    assert already_safe([text], ()) == (text == expected)
