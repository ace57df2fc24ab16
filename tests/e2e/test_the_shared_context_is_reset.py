"""The browser tests share one signed-in context (tests/e2e/conftest.py): what one test's page leaves in it is gone
for the next. The first test leaves everything it can; the second, run after it (pytest keeps a file's order),
finds none of it and is still signed in."""
from __future__ import annotations

from tests.support.browser import api

CLIPBOARD = "() => navigator.permissions.query({name: 'clipboard-read'}).then(p => p.state)"
LEFT_KEYS = "() => Object.keys(localStorage).filter(k => k === 'ld:left-behind' || k === 'ld:theme')"


def test_a_test_leaves_storage_cookies_permissions_and_pages_behind(page, server):
    page.goto("/runs")
    page.evaluate("() => { localStorage.setItem('ld:left-behind', '1'); localStorage.setItem('ld:theme', 'dark'); }")
    page.context.add_cookies([{"name": "left_behind", "value": "1", "url": server}])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    assert page.evaluate(CLIPBOARD) == "granted"
    other = page.context.new_page()
    other.goto("/runs")
    assert other.evaluate("() => localStorage.getItem('ld:left-behind')") == "1"
    assert len(page.context.pages) == 2


def test_the_next_test_finds_none_of_it_and_is_still_signed_in(page):
    assert page.context.pages == [page]
    assert not [c for c in page.context.cookies() if c["name"] == "left_behind"]
    page.goto("/runs")
    # Only the keys the first test wrote: the app itself remembers the current workspace once its list is in, which
    # may land before this line or after it.
    assert page.evaluate(LEFT_KEYS) == []
    assert page.evaluate(CLIPBOARD) != "granted"
    assert api(page, "GET", "/me")["username"] == "e2e"
