"""The command palette (Ctrl/Cmd+K): add a node kind, go to a step, run an action, disabled commands say why;
the shortcut help (`?`) lists every shortcut. Both are modal dialogs that close on Escape."""
from __future__ import annotations

from tests.support.browser import open_new_editor, wait_checked
from tests.support.editor_page import CONDITIONED_CHAIN, blank_canvas, focused_node, type_yaml, yaml_has

WITH_AGENT = CONDITIONED_CHAIN + "agents:\n  worker:\n    description: Does the work.\n"


def active_option(page) -> str | None:
    """The data-command-id of the option the combobox points at (aria-activedescendant)."""
    return page.evaluate(
        """() => {
            const input = document.querySelector('[data-testid=command-input]');
            const id = input?.getAttribute('aria-activedescendant');
            const opt = id ? document.getElementById(id) : null;
            return opt && opt.getAttribute('aria-selected') === 'true' ? opt.getAttribute('data-command-id') : null;
        }"""
    )


def open_palette(page) -> None:
    page.keyboard.press("Control+k")
    page.get_by_test_id("command-palette").wait_for()


def test_ctrl_k_adds_a_foreach_loop(page):
    open_new_editor(page)
    nodes = page.locator(".react-flow__node")
    before = nodes.count()
    assert page.locator(".react-flow__node .loop-forEach").count() == 0
    blank_canvas(page)
    open_palette(page)
    dialog = page.get_by_role("dialog", name="Command palette")
    assert dialog.is_visible()
    combo = page.get_by_test_id("command-input")
    assert page.evaluate("() => document.activeElement.getAttribute('data-testid')") == "command-input"
    assert combo.get_attribute("aria-controls") == page.get_by_role("listbox").get_attribute("id")
    page.keyboard.type("forEach")
    assert active_option(page) == "add:forEach"
    page.keyboard.press("Enter")
    page.get_by_test_id("command-palette").wait_for(state="detached")
    page.locator(".react-flow__node .loop-forEach").first.wait_for()
    assert nodes.count() > before
    yaml_has(page, "forEach")


def test_ctrl_k_goes_to_a_step_by_id_and_arrows_move(page):
    open_new_editor(page)
    type_yaml(page, WITH_AGENT)
    page.locator("[data-testid='node-third']").wait_for()
    wait_checked(page)
    page.get_by_test_id("toggle-yaml").click()
    blank_canvas(page)

    open_palette(page)
    page.keyboard.type("second")
    assert active_option(page) == "step:second"
    page.keyboard.press("Enter")
    page.get_by_test_id("command-palette").wait_for(state="detached")
    page.locator("#f-id").wait_for()
    assert page.locator("#f-id").input_value() == "second"
    assert "selected" in (page.get_by_test_id("node-second").get_attribute("class") or "")

    # Arrow keys move through the results; Enter runs the one moved to. Ctrl+K works in a text field too.
    page.locator("#f-id").click()
    open_palette(page)
    page.keyboard.type("go to step")
    assert active_option(page) == "step:first"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert active_option(page) == "step:third"
    page.keyboard.press("ArrowUp")
    assert active_option(page) == "step:second"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.get_by_test_id("command-palette").wait_for(state="detached")
    page.wait_for_function("() => document.querySelector('#f-id')?.value === 'third'")

    # "Open agent" shows the agent in the inspector's agents tab.
    assert page.locator("[data-testid=inspector] .agent-chip.active").count() == 0
    open_palette(page)
    page.keyboard.type("open agent worker")
    assert active_option(page) == "agent:worker"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=inspector] .agent-chip.active")
    assert page.locator("[data-testid=inspector] .agent-chip.active").inner_text().strip() == "worker"

    # A click on an option runs it.
    open_palette(page)
    page.keyboard.type("toggle yaml")
    page.locator("[data-testid=command-option][data-command-id='toggle-yaml']").click()
    page.get_by_test_id("command-palette").wait_for(state="detached")
    page.locator("[data-testid=yaml-editor]").wait_for()


def test_escape_closes_the_palette_and_gives_focus_back(page):
    open_new_editor(page)
    page.locator(".react-flow__node[data-id='start']").focus()
    assert focused_node(page) == "start"
    open_palette(page)
    assert focused_node(page) is None
    page.keyboard.press("Escape")
    page.get_by_test_id("command-palette").wait_for(state="detached")
    assert focused_node(page) == "start"


def test_run_is_shown_disabled_with_the_reason_while_the_workflow_has_errors(page):
    open_new_editor(page)
    type_yaml(page, "name: broken\nsteps:\n  - id: a\n    dependsOn: [nowhere]\n    instructions: A.\n")
    wait_checked(page)
    page.wait_for_selector("[data-testid=validity].pill-bad")
    page.get_by_test_id("toggle-yaml").click()
    blank_canvas(page)
    open_palette(page)
    page.keyboard.type("run")
    run = page.locator("[data-testid=command-option][data-command-id='run']")
    assert run.get_attribute("aria-disabled") == "true"
    assert "Fix" in run.inner_text()
    assert active_option(page) != "run"
    run.click(force=True)  # does nothing: the palette stays, no run dialog opens
    page.wait_for_timeout(200)
    assert page.get_by_test_id("command-palette").is_visible()
    assert page.get_by_role("dialog", name="Command palette").count() == 1
    assert page.get_by_role("dialog").count() == 1
    page.keyboard.press("Escape")
    page.get_by_test_id("command-palette").wait_for(state="detached")

    # "Is it valid?" is found by the word a person types: "valid" leads to the problems, which take the focus.
    open_palette(page)
    page.keyboard.type("valid")
    assert active_option(page) == "problems"
    shown = page.locator("[data-testid=command-option][data-command-id='problems']")
    assert "Show problems" in shown.inner_text()
    page.keyboard.press("Enter")
    page.get_by_test_id("command-palette").wait_for(state="detached")
    page.wait_for_function("() => document.activeElement?.matches('[data-testid=problems] [data-testid=problem]')")
    assert "nowhere" in page.evaluate("() => document.activeElement.innerText")


def test_question_mark_shows_every_shortcut_but_not_while_typing(page):
    open_new_editor(page)
    page.locator(".react-flow__node[data-id='start']").focus()
    page.keyboard.press("?")
    help_ = page.get_by_test_id("shortcut-help")
    help_.wait_for()
    assert page.get_by_role("dialog", name="Keyboard shortcuts").is_visible()
    text = help_.inner_text()
    for keys in ("Ctrl+K", "Ctrl+S", "Ctrl+Z", "Ctrl+Shift+Z", "Delete"):
        assert keys in text, keys
    page.keyboard.press("Escape")
    help_.wait_for(state="detached")
    assert focused_node(page) == "start"

    # A "?" typed in the YAML view is text, not the help.
    yaml_has(page, "name:")
    page.locator("[data-testid=yaml-editor]").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\n# why?")
    yaml_has(page, "# why?")
    assert page.get_by_test_id("shortcut-help").count() == 0
