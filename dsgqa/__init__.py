"""Scene-graph question answering: loading, graph access, prompts, SLDP and PDDL goals."""
