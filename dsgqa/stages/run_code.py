"""The codegen pipeline's second stage: the model's code runs in the sandbox
(`dsgqa.code_sandbox`), never in this process. Every failure is data with its kind, as a
failed query is: the item is scored, the run goes on."""

from __future__ import annotations

from pathlib import Path

from benchcore.text_safety import safe_text
from dsgqa.code_sandbox import SandboxLimits, run_code
from dsgqa.records import CodeAttempt, CodeOutcome


def run_code_stage(attempt: CodeAttempt, graph_path: str | Path,
                   limits: SandboxLimits) -> CodeOutcome:
    if not attempt.code.strip():
        return CodeOutcome(uid=attempt.uid, code="", valid=False, kind="no_code",
                           error="the reply has no ```python block")
    done = run_code(attempt.code, graph_path, limits)
    return CodeOutcome(uid=attempt.uid, code=attempt.code, valid=done.ok, kind=done.kind,
                       error=safe_text(done.error) if done.error else None,
                       result=safe_text(done.result), output=safe_text(done.output),
                       seconds=round(done.seconds, 4))
