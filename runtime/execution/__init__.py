"""Executing a run: the worker that claims and drives it, where it executes (inline or Celery),
decisions handed to gated tool calls, and the reaper of lost runs."""
