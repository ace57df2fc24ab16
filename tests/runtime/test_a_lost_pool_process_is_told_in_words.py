"""How a Celery pool process ended, in the words a run's reason gives (runtime.execution.tasks): the out-of-memory
killer's SIGKILL named as such, another signal or exit code as it was."""
from runtime.execution.tasks import _death, process_label


def test_each_way_a_pool_process_ends_is_told_in_words():
    assert _death("Worker exited prematurely: signal 9 (SIGKILL) Job: 0.").startswith(
        "its process was killed (SIGKILL), as the out-of-memory killer does")
    assert _death("Worker exited prematurely: signal 11 (SIGSEGV) Job: 3.") == "its process was killed by signal 11 (SIGSEGV)"
    assert _death("Worker exited prematurely: exitcode 70 Job: 1.") == "its process exited with code 70"
    assert _death("something else") == "its process ended unexpectedly"


def test_a_pool_process_label_names_its_host_and_pid():
    assert process_label(1234).startswith("celery@") and process_label(1234).endswith(":1234")
