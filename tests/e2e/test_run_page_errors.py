"""A run that cannot be opened says so in words; the page never falls into the error boundary.

The run page renders once while it loads, then again with the error: a hook called after its early
return (React error #300, "rendered fewer hooks") would crash that second render.
"""

MISSING_RUN = "/runs/00000000-0000-4000-8000-000000000000"


def test_a_run_that_does_not_exist_shows_a_message_not_a_crash(page):
    page.goto(MISSING_RUN)
    # Whichever comes: the message, or the error boundary a crash falls into.
    page.locator("[data-testid=error-boundary], .page-message:has-text('Could not open this run')").first.wait_for()
    boundary = page.locator("[data-testid=error-boundary]")
    assert boundary.count() == 0, f"the run page crashed: {boundary.inner_text()}"
    message = page.locator(".page-message")
    assert "Could not open this run" in message.inner_text()
    assert page.get_by_role("link", name="All runs").count() == 1

