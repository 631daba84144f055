"""Generated question sets for any spark_dsg scene graph, with gold answers computed twice.

A lab with its own Hydra maps gets a validated question set without writing questions by hand:

- `templates/` holds one small module per question category; each picks parameters from the
  graph, phrases a question that states the definitions it relies on, writes the reference
  Cypher (Neo4j dialect, Heracles' layout) and computes the answer in plain Python (`view.py`);
- `gold.py` runs the reference Cypher on the embedded engine, the way a model's query runs, and
  keeps a question only when both answers agree and no other answer lies within tolerance;
- `generate.py` picks a balanced, seeded selection and writes the YAML; `report.py` says what
  was generated and what was dropped, and why.
"""
