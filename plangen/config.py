"""The planning track's configuration: which instances, which approach, how many tries."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from dsgqa.llm.base import ModelConfig


class GenerationSettings(BaseModel):
    """What changes a model's plans (and so is part of the generate-plan cache key)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    approach: Literal["non-incremental", "incremental"] = "non-incremental"
    domain_format: Literal["pddl", "nl"] = "pddl"
    few_shot: bool = False
    max_attempts: int = Field(default=3, ge=1)
    max_steps: int = Field(default=40, ge=1)


class PlanningConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    data_dir: str = Field(description="Dir laid out as <domain>/domain.pddl, adapted_instances/.")
    domains: list[str] | None = Field(default=None, description="Default: every domain.")
    max_instances_per_domain: int | None = None
    approach: Literal["non-incremental", "incremental"] = "non-incremental"
    domain_format: Literal["pddl", "nl"] = Field(
        default="pddl", description="Show the domain as PDDL or as generated natural language."
    )
    few_shot: bool = Field(default=False, description="Show a solved instance of the same domain.")
    max_attempts: int = Field(default=3, ge=1, description="Backprompting: tries per instance.")
    max_steps: int = Field(default=40, ge=1, description="Incremental: model turns per instance.")
    planner_baseline: bool = Field(default=True, description="Add the classical planner row.")
    planner_node_limit: int = 20_000
    models: list[ModelConfig] | None = Field(
        default=None, description="Models for this track; default: the run's models."
    )

    def generation_settings(self) -> GenerationSettings:
        return GenerationSettings(
            approach=self.approach, domain_format=self.domain_format, few_shot=self.few_shot,
            max_attempts=self.max_attempts, max_steps=self.max_steps,
        )

    def experiment_name(self, model_label: str) -> str:
        """Experiments are (model, approach, prompt format) combinations."""
        parts = [model_label, self.approach, self.domain_format]
        if self.few_shot:
            parts.append("fewshot")
        return "_".join(p.replace("/", "-").replace(":", "-") for p in parts)
