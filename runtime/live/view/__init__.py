"""The live view of a run, kept by the server: a compact state folded from the run's events
(:mod:`runtime.live.view.state`), shared by every socket that watches the run in this process and sent to
them as a snapshot then coalesced patches at a bounded rate (:mod:`runtime.live.view.hub`)."""
