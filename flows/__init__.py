"""Prefect flows: compose tasks, no logic of their own."""
