"""A run that survives its worker: resuming, handing back or failing from its last boundary, and the run's workspace files and snapshots."""
