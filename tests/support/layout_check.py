"""Whether a page's layout holds (tests/e2e/test_layout_holds.py): every control and tab inside the window and
inside the box that holds it, no text clipped without a tooltip, no text spilling out of its box, and every
canvas's nodes inside the canvas (fitted on open). One pass in the page returns what is wrong, worded."""
from __future__ import annotations

import os
import time
from pathlib import Path

# Left alone: the code editors (they scroll their own lines), text kept for screen readers, the minimap, and
# what a test marks as an intended horizontal scroller ([data-scroll-x]: a long iteration strip, a wide table).
LAYOUT_CHECK = r"""() => {
  const W = window.innerWidth, H = window.innerHeight, SLACK = 0.5;
  const SKIP = '.cm-editor, .visually-hidden, .sr-only, .react-flow__minimap, .react-flow__attribution';
  // The boxes a control must stay inside: panels, bars, dialogs, strips, cards.
  const BOXES = '.modal, .toolbar, [role=tablist], .inspector, .run-side, .pane-head, .problems-head, .palette, ' +
                '.banner, .page-head, .menu, .approval, .react-flow__node, .modal-foot, .include-crumbs';
  const CONTROLS = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=tab], [role=menuitem]';
  const out = [];
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) return false;  // nothing, or text kept for screen readers (1x1 px)
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const label = (el) => {
    const id = el.getAttribute('data-testid');
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).slice(0, 2).join('.') : '';
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `<${el.tagName.toLowerCase()}${id ? ` data-testid=${id}` : cls}> "${text}"`;
  };
  const px = (n) => Math.round(n);
  const inCanvas = (el) => el.closest('.react-flow__viewport');

  for (const el of document.querySelectorAll(CONTROLS)) {
    if (el.closest(SKIP) || inCanvas(el) || !shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.left < -SLACK || r.right > W + SLACK) {
      out.push(`${label(el)} lies outside the window: x ${px(r.left)}..${px(r.right)} of ${W}`);
      continue;
    }
    let scrolledY = false, bad = null;
    for (let p = el.parentElement; p && p !== document.body && !bad; p = p.parentElement) {
      const s = getComputedStyle(p);
      const pr = p.getBoundingClientRect();
      if (s.overflowX !== 'visible' && !p.hasAttribute('data-scroll-x') && (r.left < pr.left - SLACK || r.right > pr.right + SLACK)) {
        bad = `${label(el)} is cut off by ${label(p)}: x ${px(r.left)}..${px(r.right)}, its box ${px(pr.left)}..${px(pr.right)}`;
      } else if (s.overflowY !== 'visible' && (r.top < pr.top - SLACK || r.bottom > pr.bottom + SLACK)) {
        if (s.overflowY === 'auto' || s.overflowY === 'scroll') scrolledY = true;  // scrolled into view when needed
        else bad = `${label(el)} is cut off below or above by ${label(p)}`;
      }
    }
    if (!bad && !scrolledY && (r.top < -SLACK || r.bottom > H + SLACK)) {
      bad = `${label(el)} lies outside the window: y ${px(r.top)}..${px(r.bottom)} of ${H}`;
    }
    const box = el.parentElement && el.parentElement.closest(BOXES);
    if (!bad && box) {
      const br = box.getBoundingClientRect();
      if (r.left < br.left - SLACK || r.right > br.right + SLACK) {
        bad = `${label(el)} sticks out of ${label(box)}: x ${px(r.left)}..${px(r.right)}, its box ${px(br.left)}..${px(br.right)}`;
      }
    }
    if (bad) out.push(bad);
  }

  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  for (const el of document.body.querySelectorAll('*')) {
    // The canvas's own frame clips what is panned out of view: the nodes' text is checked, not the frame.
    if (el.closest('.react-flow') && !el.closest('.react-flow__node')) continue;
    if (el.closest(SKIP) || el.closest('svg') || /^(INPUT|TEXTAREA|SELECT|OPTION|CANVAS|IMG)$/.test(el.tagName)) continue;
    if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth === 0) continue;
    const s = getComputedStyle(el);
    if (s.display === 'inline' || s.display === 'contents' || !shown(el)) continue;
    if (s.overflowX === 'auto' || s.overflowX === 'scroll') continue;  // a scroller: its content is reachable
    if (s.overflowX === 'visible') {
      // Text wider than its own box spills over what is beside it ("Add as…" written across a button's edge).
      if (ownText(el) || /^(BUTTON|A)$/.test(el.tagName)) out.push(`${label(el)}: its text overflows its box (${el.scrollWidth} > ${el.clientWidth} px)`);
      continue;
    }
    // A step's name and a run's number are how the user finds their way: never cut, tooltip or not ("r…").
    if (el.matches('.node-title, .run-number')) {
      out.push(`${label(el)}: a name cut short (${el.scrollWidth} > ${el.clientWidth} px)`);
      continue;
    }
    // Clipped: the full text must be one hover away.
    let titled = false;
    for (let p = el, i = 0; p && i < 4 && !titled; p = p.parentElement, i++) titled = !!p.getAttribute('title');
    if (!titled && (el.textContent || '').trim()) out.push(`${label(el)}: clipped text (${el.scrollWidth} > ${el.clientWidth} px) without a title tooltip`);
  }

  // A canvas opens fitted: no node cut off at any edge. One too big to fit at a readable zoom (0.92,
  // canvas/fitReadable.ts) is shown from its start: its first nodes whole at the left, the rest may run past
  // the other edges.
  for (const flow of document.querySelectorAll('.react-flow')) {
    if (!shown(flow)) continue;
    const fr = flow.getBoundingClientRect();
    const vp = flow.querySelector('.react-flow__viewport');
    const zoom = vp ? new DOMMatrixReadOnly(getComputedStyle(vp).transform).a : 1;
    const atReadable = zoom <= 0.921;
    for (const node of flow.querySelectorAll('.react-flow__node')) {
      if (!shown(node)) continue;
      const r = node.getBoundingClientRect();
      if (r.left < fr.left - 1 || (!atReadable && (r.top < fr.top - 1 || r.right > fr.right + 1 || r.bottom > fr.bottom + 1))) {
        const where = `x ${px(r.left)}..${px(r.right)} y ${px(r.top)}..${px(r.bottom)}`;
        const canvas = `x ${px(fr.left)}..${px(fr.right)} y ${px(fr.top)}..${px(fr.bottom)}`;
        out.push(`${label(node).slice(0, 60)} is not fitted in its canvas: ${where}, canvas ${canvas}`);
      }
    }
  }
  return [...new Set(out)];
}"""


def layout_problems(page) -> list[str]:
    return page.evaluate(LAYOUT_CHECK)


def assert_layout_holds(page, where: str) -> None:
    shots = os.environ.get("LAYOUT_SHOTS")  # a folder: a screenshot of each page checked, to look at
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / f"{where}-{page.viewport_size['width']}.png"))
    # A canvas refits on the frame after its box changes (a panel or the coordinator's lane appearing as the run
    # loads): on a loaded machine that can come after the page looked settled, so what is wrong must stay wrong.
    deadline = time.monotonic() + 10
    found = layout_problems(page)
    while found and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        found = layout_problems(page)
    assert not found, f"the layout of {where} does not hold ({page.url}):\n  " + "\n  ".join(found)
