"""Plan generation for the planning track: instances, prompts, approaches, the planner baseline.

A pure library (no Prefect): it asks a model (any `benchcore.llm` client) for plans and talks to the
`planeval` simulator for feedback. Its output is the generation log that `planeval`'s evaluation
re-simulates; nothing here decides a verdict.
"""
