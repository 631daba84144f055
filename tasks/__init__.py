"""Prefect tasks: thin wrappers that set caching and retries and call the pure libraries."""
