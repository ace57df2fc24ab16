"""Evaluation of loops (issue 34): datasets of cases per workflow (``cases``, ``datasets``), scorers of a finished
run (``scorers``), experiments that run a workflow version over a dataset as ordinary runs, their results,
comparisons and gates (``experiments``), and the API over them (``api``). The topmost room: it starts runs
through ``runtime.runs`` like the run dialog does."""
