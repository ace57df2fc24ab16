"""Every page, in the light and the dark theme, passes axe-core with no serious or critical
violation: the sign-in pages, the lists, the editor with a loop chosen and its dialogs, the run
page on each tab, the account and workspace pages. The theme follows the system's
`prefers-color-scheme` unless the top bar's Theme choice says otherwise, and the choice
holds on the server-rendered pages too."""
from __future__ import annotations

import re

import pytest

from tests.support.accessibility import assert_no_blocking_violations, seed, settle
from tests.support.browser import VIEWPORT

SCHEMES = ("light", "dark")
RUN_TABS = ("live", "details", "tools", "workspace", "metrics", "rounds", "events")


@pytest.fixture
def audited(browser, server, auth_state):
    """Opens pages for the audit: signed in or not, in a colour scheme. The Content-Security-Policy is
    bypassed so axe-core can be injected as a script tag (test_content_security_policy checks the policy)."""
    contexts = []
    errors: list[str] = []

    def open_page(scheme: str, signed_in: bool = True):
        ctx = browser.new_context(viewport=VIEWPORT, base_url=server, color_scheme=scheme, bypass_csp=True,
                                  storage_state=auth_state if signed_in else None)
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield open_page
    for ctx in contexts:
        ctx.close()
    assert not errors, f"uncaught errors in the page: {errors}"


@pytest.fixture(scope="module")
def seeded(browser, server, auth_state) -> dict:
    ctx = browser.new_context(viewport=VIEWPORT, storage_state=auth_state, base_url=server)
    try:
        return seed(ctx.new_page())
    finally:
        ctx.close()


def open_editor(page, seeded) -> None:
    page.goto(f"/workflows/{seeded['workflow']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.wait_for_selector("[data-testid=problems][data-state=idle]")


def show_workflows(page, seeded) -> None:
    page.goto("/")
    # Other tests on the shared server seed the same workflow: any of its rows will do.
    row = page.locator("tr", has=page.get_by_role("link", name="audited-polish", exact=True)).first
    row.get_by_role("button", name="History").click()
    page.get_by_test_id("versions").locator("li").nth(1).wait_for()


def show_editor_loop(page, seeded) -> None:
    open_editor(page, seeded)
    page.locator("[data-testid='node-polish'] .node-title").first.click()
    page.get_by_test_id("inspector").get_by_text("Max iterations").first.wait_for()


def show_editor_import(page, seeded) -> None:
    open_editor(page, seeded)
    page.get_by_role("button", name="Import").click()
    page.get_by_test_id("import-dialog").wait_for()


def show_editor_run_dialog(page, seeded) -> None:
    open_editor(page, seeded)
    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()


def show_other_system_import(page, seeded) -> None:
    page.goto("/")
    page.get_by_role("button", name=re.compile(r"Runsight or Coqui")).click()
    page.get_by_role("dialog", name="Import from Runsight or Coqui").wait_for()


def show_runs(page, seeded) -> None:
    page.goto("/runs")
    page.locator("tr", has_text="audited-polish").first.wait_for()
    page.locator("tr", has_text="cancelled").first.wait_for()


def show_account(page, seeded) -> None:
    page.goto("/account/")
    page.get_by_role("heading", name="Personal API tokens").wait_for()


def show_workspace_settings(page, seeded) -> None:
    page.goto("/workspaces")
    page.locator(".ws-settings").wait_for()
    page.get_by_test_id("ws-tracing-form").wait_for()  # loaded on its own: audited with the rest


def run_tab(tab: str):
    def show(page, seeded) -> None:
        page.goto(f"/runs/{seeded['run']}")
        page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
        if tab == "details":  # a step chosen, so Details has something to show
            page.locator("[data-testid='node-publish'] .node-title").click()
        page.get_by_test_id(f"run-tab-{tab}").click()
        page.wait_for_selector(f"[data-testid=run-tab-{tab}][aria-selected=true]")

    return show


def show_folder_import(page, seeded) -> None:
    page.goto("/")
    page.get_by_test_id("import-folder").click()
    page.get_by_test_id("bundle-import").wait_for()


def show_editor_files(page, seeded) -> None:
    open_editor(page, seeded)
    page.locator("[data-testid=canvas] .react-flow__pane").click(position={"x": 5, "y": 5})
    page.get_by_role("tab", name="Files").click()
    page.get_by_test_id("folder-panel").wait_for()


def show_versions_compare(page, seeded) -> None:
    page.goto(f"/workflows/{seeded['workflow']}/compare")
    page.get_by_test_id("change-item").first.wait_for()
    page.get_by_test_id("yaml-diff").wait_for()
    page.get_by_test_id("compare-canvas").locator(".react-flow__node").first.wait_for()


def show_runs_compare(page, seeded) -> None:
    page.goto(f"/runs/{seeded['run']}/compare/{seeded['run']}")
    page.get_by_test_id("run-compare").wait_for()


def show_fork_dialog(page, seeded) -> None:
    page.goto(f"/runs/{seeded['run']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    page.locator("[data-testid='node-polish'] .node-title").click()
    page.get_by_test_id("run-tab-details").click()
    page.get_by_test_id("fork-verdict-polish.0").click()
    page.get_by_test_id("fork-dialog").wait_for()


SIGNED_IN = {
    "workflows-list": show_workflows,
    "editor-loop-selected": show_editor_loop,
    "editor-import-dialog": show_editor_import,
    "editor-run-dialog": show_editor_run_dialog,
    "other-system-import-dialog": show_other_system_import,
    "folder-import-dialog": show_folder_import,
    "editor-files-tab": show_editor_files,
    "versions-compare": show_versions_compare,
    "runs-compare": show_runs_compare,
    "fork-dialog": show_fork_dialog,
    **{f"run-page-{t}": run_tab(t) for t in RUN_TABS},
    "runs-list": show_runs,
    "account": show_account,
    "workspace-settings": show_workspace_settings,
}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", list(SIGNED_IN))
def test_a_signed_in_page_has_no_serious_violations(audited, seeded, name, scheme):
    page = audited(scheme)
    SIGNED_IN[name](page, seeded)
    settle(page)
    assert_no_blocking_violations(page, f"{name} ({scheme})")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("path", ["/login/", "/signup/"])
def test_a_signed_out_page_has_no_serious_violations(audited, path, scheme):
    page = audited(scheme, signed_in=False)
    page.goto(path)
    page.get_by_role("heading", level=1).wait_for()
    assert_no_blocking_violations(page, f"{path} ({scheme})")


def background(page) -> str:
    return page.evaluate("() => getComputedStyle(document.body).backgroundColor")


def is_dark(rgb: str) -> bool:
    r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return (r + g + b) / 3 < 80


def test_the_theme_follows_the_system_until_the_toggle_chooses(audited, seeded):
    page = audited("light")
    page.goto("/")
    theme = page.get_by_label("Theme")
    theme.wait_for()
    assert theme.input_value() == "system"
    assert not is_dark(background(page))
    page.emulate_media(color_scheme="dark")
    page.wait_for_function("() => getComputedStyle(document.body).backgroundColor !== 'rgb(246, 247, 249)'")
    assert is_dark(background(page)), "the system's dark scheme did not darken the page"

    # Light chosen under a dark system, then dark chosen under a light one.
    theme.select_option("light")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "light"
    assert not is_dark(background(page))
    show_workflows(page, seeded)
    settle(page)
    assert_no_blocking_violations(page, "workflows list (light chosen, dark system)")

    page.emulate_media(color_scheme="light")
    page.get_by_label("Theme").select_option("dark")
    assert is_dark(background(page))
    page.reload()
    page.get_by_label("Theme").wait_for()
    assert page.get_by_label("Theme").input_value() == "dark", "the choice did not survive a reload"
    assert is_dark(background(page))
    show_editor_loop(page, seeded)
    settle(page)
    assert_no_blocking_violations(page, "editor (dark chosen, light system)")

    # The server-rendered pages read the same choice.
    page.goto("/account/")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    assert is_dark(background(page)), "the account page ignored the chosen dark theme"
    assert_no_blocking_violations(page, "account (dark chosen, light system)")

    page.goto("/")
    page.get_by_label("Theme").select_option("system")
    assert not is_dark(background(page))
    assert page.evaluate("() => localStorage.getItem('ld:theme')") is None

    # With no choice the account pages follow the system too, from the one dark palette under data-theme.
    page.emulate_media(color_scheme="dark")
    page.goto("/account/")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    assert is_dark(background(page)), "the account page ignored the system's dark scheme"


def test_keyboard_focus_is_visible_on_links_and_buttons(audited, seeded):
    for scheme in SCHEMES:
        page = audited(scheme)
        page.goto("/")
        page.get_by_role("link", name="audited-polish", exact=True).first.wait_for()
        page.keyboard.press("Tab")
        for _ in range(8):
            page.keyboard.press("Tab")
            style = page.evaluate(
                "() => { const s = getComputedStyle(document.activeElement);"
                " return {tag: document.activeElement.tagName, outline: s.outlineStyle, width: s.outlineWidth}; }"
            )
            assert style["outline"] != "none" and style["width"] != "0px", f"no focus ring on {style['tag']} ({scheme})"
