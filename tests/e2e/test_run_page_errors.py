"""A run that cannot be opened says so in words; the page never falls into the error boundary."""


def test_a_run_that_does_not_exist_shows_a_message_not_a_crash(page):
    page.goto("/runs/00000000-0000-4000-8000-000000000000")
    page.get_by_text("Could not open this run").wait_for()
    assert page.locator("[data-testid=error-boundary]").count() == 0
    assert page.get_by_role("link", name="All runs").count() == 1
