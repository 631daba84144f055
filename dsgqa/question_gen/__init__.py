"""Generated question sets for any spark_dsg scene graph, with gold answers computed twice.

A lab with its own Hydra maps gets a validated question set without writing questions by hand:

- `templates/` holds one small module per question category; each picks parameters from the
  graph, phrases a question and names the definitions it relies on (`definitions.py`: the
  set's preamble states them once), writes the reference Cypher (Neo4j dialect, Heracles'
  layout) and computes the answer in plain Python (`view.py`);
- `gold.py` runs the reference Cypher on the embedded engine, the way a model's query runs, and
  keeps a question only when both answers agree and no other answer lies within tolerance;
- `difficulty.py` turns what a template declares its question's gold computation needs (hops,
  aggregation, distances, ordering, composed steps) into a tier, 1 to 3;
- `generate.py` picks a seeded selection, each category's tiers taking turns (`balance.py`),
  and writes the YAML with its header (`set_header.py`); `baseline_scores.py` scores the trivial
  baselines on it, overall and per tier; `report.py` says what was generated and what was
  dropped, and why, and how the baselines and the oracle score.
"""
