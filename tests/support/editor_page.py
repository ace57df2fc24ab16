"""The editor in the browser tests (tests/e2e): workflows to type, the YAML panel, the canvas, the run dialog's
script, the template gallery's writer-critic opened in it."""
from __future__ import annotations

import re

COMMENTED_CHAIN = """\
# A two-step chain; this comment must survive edits made on the canvas.
name: chain
agents:
  writer:
    description: Writes.  # the only agent
steps:
  - id: draft
    agent: writer
    instructions: Write a draft.
  - id: polish
    agent: writer
    dependsOn: [draft]
    instructions: Polish the draft.
"""


def show_yaml(page) -> None:
    """Opens the YAML panel (closed by default below 1440 px wide)."""
    if page.locator("[data-testid=yaml-editor]").count() == 0:
        page.get_by_test_id("toggle-yaml").click()
    page.locator("[data-testid=yaml-editor]").wait_for()


def type_yaml(page, text: str) -> None:
    show_yaml(page)
    page.locator("[data-testid=yaml-editor]").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def yaml_has(page, *parts: str) -> None:
    show_yaml(page)
    js = " && ".join(f"t.includes({p!r})" for p in parts)
    page.wait_for_function(f"() => {{ const t = document.querySelector('[data-testid=yaml-editor]').innerText; return {js}; }}")


def blank_canvas(page):
    page.locator("[data-testid=canvas] .react-flow__pane").click(position={"x": 5, "y": 5})


CONDITIONED_CHAIN = """\
name: chain
steps:
  - id: first
    instructions: One.
  - id: second
    dependsOn: [first]
    instructions: Two.
    condition: "steps.first.status == 'completed'"
  - id: third
    dependsOn: [second]
    instructions: Three.
"""


def focused_node(page) -> str | None:
    return page.evaluate("() => document.activeElement?.closest('.react-flow__node')?.getAttribute('data-id') ?? null")


def open_writer_critic(page) -> int:
    page.goto("/")
    card = page.get_by_role("region", name="Start from a template").get_by_test_id("template-writer-critic")
    card.get_by_role("button", name=re.compile(r"^Open(?! and run)")).click()
    page.wait_for_url(re.compile(r"/workflows/\d+$"))
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    return int(re.search(r"/workflows/(\d+)$", page.url).group(1))


def type_script(page, text: str, testid: str = "run-script") -> None:
    """Replaces the text of a dialog's script editor (the run dialog's; the fork dialog's is `fork-script`)."""
    box = page.locator(f"[data-testid={testid}]")
    box.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)
